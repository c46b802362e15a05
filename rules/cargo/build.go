package cargo

import (
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchBuild recognizes cargo build. --timings writes an HTML report and
// names it on a status line the build summary does not keep.
func MatchBuild(argv []string) classify.Answer { return matchSub(argv, "build", buildFormats) }

var buildFormats = slices.Concat(formats, []string{"--timings"})

// BuildOutput is rustc's and cargo's signature: a diagnostic's primary
// location arrow on a Rust source ("  --> src/main.rs:12:30"), or cargo's
// "error: could not compile `NAME`". The arrow before a location is
// rustc's layout, and ".rs" its language's; C compilers, Go and Python
// put the location first on the line.
func BuildOutput(r *summarize.Run) bool {
	return r.HasLine("--> ", isRustArrow) || r.HasLine("error: could not compile `", func(l string, _ []byte) bool {
		return strings.HasPrefix(l, "error: could not compile `")
	})
}

// isRustArrow reports whether l is rustc's location arrow on a Rust source.
func isRustArrow(l string, _ []byte) bool {
	loc, ok := arrowLocation(l)
	path, _, _ := strings.Cut(loc, ":")
	return ok && strings.HasSuffix(path, ".rs")
}

// Caps of what cargo build adds to cargo check's fields.
const (
	maxLinkerErrors      = 30
	maxBuildScriptStderr = 40
	maxBuildScriptStdout = 20
)

// Build summarizes bash.cargo_build: cargo check's fields, read by
// the same cargoLog, plus the two failures only a build has. A link error
// is one rustc diagnostic ("error: linking with `cc` failed") whose cause,
// the undefined symbols, sits in its "= note:" lines, which cargoLog does
// not keep; and a build script that fails leaves its own output under
// "Caused by:" in "--- stdout" and "--- stderr" sections, which hold the
// reason it failed.
func Build(r *summarize.Run) *summarize.Body {
	cut := cutOf(r)
	br := buildReader{unplaced: newUnplaced(cut)}
	summarize.ReadStreams(&br, r.Stderr, r.Stdout)
	c, x := &br.cargo, &br.extras

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	c.addBuildFields(b, cut)
	b.List("linker_errors", x.linker, maxLinkerErrors)
	b.List("build_script_stderr", x.scriptStderr, maxBuildScriptStderr)
	b.List("build_script_stdout", x.scriptStdout, maxBuildScriptStdout)
	br.unplaced.add(b)

	room := r.BodyRoom() - len(b.Render())
	items, limit := c.diagnosticItems()
	n, _ := summarize.FitList("diagnostics", items, limit, room)
	summarize.AddList(b, "diagnostics", items, n)
	return b
}

// buildReader reads cargo build's output: the sections of build scripts
// and of the linker apart, every other line into the cargo log.
type buildReader struct {
	cargo    cargoLog
	extras   buildExtras
	unplaced unplacedLines
}

func (b *buildReader) Feed(l string) {
	b.unplaced.see(l, isCargoAnchor(l))
	if !b.extras.take(l) {
		b.cargo.Feed(l)
	}
}

func (b *buildReader) EndStream() {
	b.cargo.EndStream()
	b.extras.section = nil
	b.unplaced.endStream()
}

// buildExtras collects, next to cargoLog, the linker's errors and the
// output of a failed build script.
type buildExtras struct {
	inLinker bool      // inside a "linking with ... failed" diagnostic
	linker   []string  // its error lines, each with its "referenced by" lines
	inScript bool      // under "failed to run custom build command"
	section  *[]string // the build script section being read, or nil

	scriptStdout, scriptStderr []string
}

// take reads l. It reports true for a line of a build script section,
// which it keeps and cargoLog must not see (it would copy their first lines
// into caused_by); every other line goes on to cargoLog too.
func (x *buildExtras) take(l string) bool {
	top := l != "" && l[0] != ' ' && l[0] != '\t' // a line at column 0
	if top {
		x.inLinker = strings.HasPrefix(l, "error: linking with ")
		x.section = nil
		// The sections follow the error, a note about backtraces and
		// "Caused by:"; any other line at column 0 ends what it explains.
		x.inScript = strings.HasPrefix(l, "error: failed to run custom build command for ") ||
			x.inScript && (l == "Caused by:" || strings.HasPrefix(l, "note: "))
		return false
	}
	if x.inLinker {
		x.linkerLine(l)
		return false
	}
	if !x.inScript {
		return false
	}
	switch l {
	case "  --- stdout":
		x.section = &x.scriptStdout
		return true
	case "  --- stderr":
		x.section = &x.scriptStderr
		return true
	}
	if x.section == nil {
		return false
	}
	// The script's lines are indented by two spaces; blank lines are
	// skipped but do not end the section (cargo prints one after
	// "--- stderr" when the script's stdout was empty).
	if t, ok := strings.CutPrefix(l, "  "); ok && strings.TrimSpace(t) != "" {
		*x.section = append(*x.section, t)
	}
	return true
}

// linkerLine reads a line of a link error's notes: an error of the linker
// ("rust-lld: error: undefined symbol: f", "collect2: error: ld returned 1
// exit status"), GNU ld's "undefined reference to" and "multiple definition
// of" lines, and lld's ">>> referenced by FILE:LINE" lines, which are
// joined to the error before them.
func (x *buildExtras) linkerLine(l string) {
	t := strings.TrimSpace(l)
	t = strings.TrimPrefix(t, "= note: ")
	switch {
	case strings.HasPrefix(t, ">>> referenced "):
		if n := len(x.linker); n > 0 {
			x.linker[n-1] += "\n" + t
		}
	case strings.Contains(t, "error:"), strings.Contains(t, "undefined reference to"),
		strings.Contains(t, "multiple definition of"):
		x.linker = append(x.linker, t)
	}
}
