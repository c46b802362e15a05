package cc

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// This file reads what every cc rule reads: the diagnostics of gcc and
// clang, the linker's errors, and the failure lines of the build tools that
// run them (make's "***" lines, ninja's "FAILED:" lines). Each rule hands
// it both streams and adds its own fields; a compiler run under make, under
// ninja or under cmake --build is read the same way.

// Caps of the lists the cc rules show. Errors are what an agent must fix:
// they get the room, the warnings only their flags and a few locations.
const (
	maxErrors        = 50
	maxWarningFlags  = 30
	maxFlagLocations = 3
	maxLinkerErrors  = 30
	maxToolErrors    = 30
)

// ccError is an error diagnostic: its line as printed and the first line
// of the source excerpt under it, or "".
type ccError struct {
	head, source string
}

// flagCount is the warnings of one flag: how many lines named it, and the
// locations of the first ones.
type flagCount struct {
	flag string
	n    int
	locs []string
}

// buildLog accumulates a build's lines, one at a time.
type buildLog struct {
	errors   []ccError
	warnings int
	flags    []*flagCount
	byFlag   map[string]*flagCount
	linker   []string // the linker's error lines
	tool     []string // make's "***" and ninja's "FAILED:" and "error:" lines
	status   string   // ninja's "build stopped" line

	// pending is the error whose source line is still to come; candidate
	// is a line of clang's excerpt that a caret line must confirm.
	pending   int
	candidate string

	// checker reads clang-tidy's and cppcheck's findings (checker.go):
	// cppcheck's severities, the check a warning names, and the tools' own
	// lines, kept in own; checked counts cppcheck's files.
	checker bool
	own     []string
	checked int
}

// parse reads a diagnostic line, with a checker's severities in checker
// mode.
func (b *buildLog) parse(l string) (diag, bool) {
	d, ok := parseDiag(l)
	if ok || !b.checker {
		return d, ok
	}
	return parseWith(l, checkerSeverity)
}

// noError is pending's value when no error waits for its source line.
const noError = -1

func newBuildLog() *buildLog { return &buildLog{byFlag: map[string]*flagCount{}, pending: noError} }

// Feed reads one line of a build's output.
func (b *buildLog) Feed(l string) {
	if b.pending != noError && b.source(l) {
		return
	}
	b.pending, b.candidate = noError, ""
	if l == "" {
		return
	}
	if d, ok := b.parse(l); ok {
		b.diag(l, d)
		return
	}
	if b.checker && b.checkerFeed(l) {
		return
	}
	switch {
	case isMakeError(l):
		if !strings.HasSuffix(l, "*** Waiting for unfinished jobs....") {
			b.tool = append(b.tool, l)
		}
	case strings.HasPrefix(l, "FAILED: "):
		b.tool = append(b.tool, l)
	case strings.HasPrefix(l, "ninja: build stopped: "):
		b.status = l
	case isLinkerLine(l):
		b.linker = append(b.linker, l)
	}
}

// source reads the line after an error: gcc's numbered source line, or a
// line of clang's excerpt, which the caret line after it confirms. It
// reports whether the line was taken.
func (b *buildLog) source(l string) bool {
	switch {
	case b.candidate != "":
		if isCaret(l) {
			b.errors[b.pending].source = b.candidate
		}
		b.pending, b.candidate = noError, ""
		return isCaret(l)
	case isSnippet(l):
		if strings.Contains(l, " | ") || strings.HasSuffix(l, " |") {
			if t := strings.TrimLeft(l, " "); summarize.DigitsPrefix(t) != "" {
				b.errors[b.pending].source = l
			}
		}
		b.pending = noError
		return true
	case l != "" && !isContext(l) && !isMakeError(l) && !strings.HasPrefix(l, "FAILED: ") && !(b.checker && checkerLine(l)):
		if _, ok := b.parse(l); !ok {
			b.candidate = l
			return true
		}
	}
	return false
}

// diag reads a diagnostic line. A located one ("a.c:3:5: error: ...") is
// the compiler's, and so is one with a compiler program's prefix
// ("cc1plus: warning: ...", "gcc: error: x.c: No such file"); an error
// without a prefix goes with the build tool's lines;
// the linker's go to their own list ("collect2: error: ld returned 1 exit
// status", clang's "linker command failed"), ninja's errors to the build
// tool's, and every other prefix (make's own warnings, a tool this family
// does not read) is skipped.
func (b *buildLog) diag(l string, d diag) {
	located := d.prefix != "" && hasLine(d.prefix) && !isMakefile(d.prefix)
	if d.prefix == "" {
		// clang's "fatal error: too many errors emitted, stopping now", or
		// a tool's: not a diagnostic about the code.
		if d.sev == sevError {
			b.tool = append(b.tool, l)
		}
		return
	}
	if !located {
		name, linker := program(d.prefix)
		switch {
		case linker || name != "" && strings.HasPrefix(d.msg, "linker command failed"):
			if d.sev == sevError {
				b.linker = append(b.linker, l)
			}
			return
		case d.prefix == "ninja":
			if d.sev == sevError {
				b.tool = append(b.tool, l)
			}
			return
		case name == "":
			return
		}
	}
	switch d.sev {
	case sevError:
		b.errors = append(b.errors, ccError{head: l})
		if located {
			b.pending = len(b.errors) - 1
		}
	case sevWarning:
		b.warnings++
		flag := flagOf(d.msg)
		switch {
		case b.checker:
			flag = cmp.Or(checkOf(d.msg), "(no check)")
		case flag == "":
			flag = "(no flag)"
		}
		f := b.byFlag[flag]
		if f == nil {
			f = &flagCount{flag: flag}
			b.byFlag[flag] = f
			b.flags = append(b.flags, f)
		}
		f.n++
		if len(f.locs) < maxFlagLocations && d.prefix != "" {
			f.locs = append(f.locs, d.prefix)
		}
	}
}

// EndStream ends a stream: an excerpt never continues on the other one.
func (b *buildLog) EndStream() { b.pending, b.candidate = noError, "" }

// isMakeError reports whether l is one of GNU make's error lines, "make:
// *** [Makefile:9: a.o] Error 1", "make[2]: *** No rule to make target",
// as make and gmake (cmake's Unix Makefiles) print them.
func isMakeError(l string) bool {
	rest, ok := strings.CutPrefix(l, "make")
	if !ok {
		rest, ok = strings.CutPrefix(l, "gmake")
	}
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, "[") {
		i := strings.IndexByte(rest, ']')
		if i < 0 || !summarize.IsDigits(rest[1:i]) {
			return false
		}
		rest = rest[i+1:]
	}
	return strings.HasPrefix(rest, ": *** ")
}

// isLinkerLine reports whether l is an error of GNU ld's without a
// severity: "/usr/bin/ld: main.c:(.text+0x13): undefined reference to
// `f'", "main.c:(.text+0x13): undefined reference to `f'" (the first one of
// a function), "multiple definition of", "cannot find -lx". The "in
// function `main':" lines only say where the next ones are.
func isLinkerLine(l string) bool {
	if strings.Contains(l, ": undefined reference to `") || strings.Contains(l, ": multiple definition of `") {
		return true
	}
	i := strings.Index(l, ": ")
	if i <= 0 || hasBlank(l[:i]) {
		return false
	}
	if _, linker := program(l[:i]); !linker {
		return false
	}
	return !strings.HasSuffix(l, "':") && !strings.HasPrefix(l[i+2:], "warning: ")
}

// addFields adds the fields every cc rule shows, in their order: the
// counts, the warnings by flag, the linker's errors, the build tool's
// failure lines and its status, then the errors within the room left.
func (b *buildLog) addFields(r *summarize.Run, body *summarize.Body) {
	body.Tally("errors", len(b.errors))
	body.Tally("warnings", b.warnings)
	if len(b.linker) > 0 {
		body.Tally("linker_errors", len(b.linker))
	}
	flags := make([]string, len(b.flags))
	for i, f := range b.flags {
		flags[i] = f.flag + " ×" + strconv.Itoa(f.n)
		if len(f.locs) > 0 {
			flags[i] += ": " + strings.Join(f.locs, ", ")
		}
	}
	if b.checker {
		body.List("warnings_by_check", flags, maxWarningFlags)
	} else {
		body.List("warning_flags", flags, maxWarningFlags)
	}
	body.List("linker_error_lines", b.linker, maxLinkerErrors)
	body.List("build_errors", b.tool, maxToolErrors)
	if b.status != "" {
		body.Field("build_status", b.status)
	}

	items := make([]string, len(b.errors))
	for i, e := range b.errors {
		items[i] = e.head
		if e.source != "" && i < maxErrors {
			items[i] += "\n" + e.source
		}
	}
	room := r.BodyRoom() - len(body.Render())
	n, _ := summarize.FitList("error_diagnostics", items, min(len(items), maxErrors), room)
	summarize.AddList(body, "error_diagnostics", items, n)
}

// summarizeBuild is every cc rule's body: the exit code and the build
// log's fields, both streams read (a build under 2>&1 gives the same
// body).
func summarizeBuild(r *summarize.Run) *summarize.Body {
	b := newBuildLog()
	summarize.ReadStreams(b, r.Stderr, r.Stdout)
	body := &summarize.Body{}
	body.Field("exit_code", r.ExitCodeValue())
	b.addFields(r, body)
	return body
}
