package python

import (
	"bytes"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchPipInstall recognizes pip install, pip3 install and python -m pip
// install (matchPipInstall); python -m pip3 names no module.
func MatchPipInstall(argv []string) classify.Answer {
	t, at, a, ok := tool(argv)
	switch {
	case !ok:
		return a
	case t != "pip" && (t != "pip3" || at == 3):
		return classify.Other(at-1, "not a recognized command")
	case at == len(argv) || argv[at] != "install":
		if at < len(argv) && strings.HasPrefix(argv[at], "-") {
			return classify.Refuse(at, "pip option %q before the subcommand", argv[at])
		}
		return classify.Refuse(min(at, len(argv)-1), "not a recognized command")
	}
	return matchPipInstall(argv, at+1)
}

// pipFormats are the pip install options whose output the summarizer
// cannot read: help, and pip's version in place of an install. pip accepts
// abbreviated long options, matched here too.
var pipFormats = []string{"--help", "--version"}

// matchPipInstall accepts pip install with any options except help,
// --version and a report written to stdout (--report -).
func matchPipInstall(argv []string, from int) classify.Answer {
	if j := longOrAbbrev(argv, from, pipFormats, "h"); j >= 0 {
		return classify.Refuse(j, "option %q changes the output format", argv[j])
	}
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if a == "--" {
			break
		}
		name, v, eq := strings.Cut(a, "=")
		if len(name) < 5 || !strings.HasPrefix("--report", name) {
			continue
		}
		if !eq && j+1 < len(argv) {
			v = argv[j+1]
		}
		if v == "-" {
			return classify.Refuse(j, "option %q writes a JSON report to stdout", a)
		}
	}
	return classify.Accept()
}

// Caps of bash.pip_install.
const (
	pipMaxPackages = 50
	pipMaxErrors   = 20
	// pipMaxErrorLines bounds the lines that continue one ERROR line (the
	// dependency conflicts pip lists under it).
	pipMaxErrorLines = 10
	// pipMaxInnerLines bounds the error lines copied from the output of
	// one failed build subprocess.
	pipMaxInnerLines = 20
	pipMaxConflicts  = 20
	// pipMaxWarnings is small: pip repeats a warning per retry.
	pipMaxWarnings = 2
)

// pipError is one pip error: an "ERROR: " or "error: " line with the lines
// that belong to it. lost counts the lines that were left out: the rest of
// a failed subprocess's output, the lines past pipMaxErrorLines under an
// ERROR line.
type pipError struct {
	lines []string
	lost  int
}

// pipLog reads pip install's output one line at a time.
type pipLog struct {
	installed, wouldInstall []string
	installedLine           bool // a Successfully installed line was read
	satisfied, uninstalled  int
	failedToBuild           string
	conflicts               []string
	errors                  []*pipError
	warnings                []string

	err      *pipError // the error whose continuation lines are being read
	block    bool      // err is an "error:" block (× │ ╰─> lines follow)
	inner    []string  // the output of a failed subprocess being read
	inInner  bool
	conflict bool // under "The conflict is caused by:"
}

// PipInstall summarizes bash.pip_install: exact counts of the packages
// installed, already satisfied and uninstalled, and of error and warning
// lines; the installed packages; every error with what belongs to it (the
// requirement that was not found, the dependency conflicts, the failing
// build subprocess with the compiler or Python errors of its output); and
// the first warnings. pip writes progress to stdout and errors to stderr;
// both are read, so 2>&1 gives the same lists.
func PipInstall(r *summarize.Run) *summarize.Body {
	var p pipLog
	stdout, stderr := r.Lines(r.Stdout), r.Lines(r.Stderr)
	summarize.ReadLines(&p, stdout, stderr)

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	// installed is what the Successfully installed line names: a total
	// when that line is visible, or when the output is whole and pip
	// installed nothing. The other counts are of lines seen.
	if p.installedLine || !r.Partial() {
		b.Count("installed", len(p.installed))
	}
	b.Tally("already_satisfied", p.satisfied)
	b.Tally("uninstalled", p.uninstalled)
	b.Tally("errors", len(p.errors))
	b.Tally("warnings", len(p.warnings))
	if p.failedToBuild != "" {
		b.Field("failed_to_build", p.failedToBuild)
	}
	b.List("installed_packages", p.installed, pipMaxPackages)
	b.List("would_install", p.wouldInstall, pipMaxPackages)
	b.List("conflict_causes", p.conflicts, pipMaxConflicts)

	// Without any error line, a failed run's reason (a usage error, a
	// crash) is at the end of its output.
	var tail []string
	tailLost := 0
	if len(p.errors) == 0 && (!r.Exited || r.ExitCode != 0) {
		ls := stderr
		if len(bytes.TrimSpace(r.Stderr)) == 0 {
			ls = stdout
		}
		tail, tailLost = pyExcerpt(ls, isPyMustKeep, pyMaxMustKeep, pyTailLines)
	}

	room := r.BodyRoom() - len(b.Render()) - pyExcerptSize("output_tail", tail, tailLost)
	items := make([]string, len(p.errors))
	anyLost := false
	for i, e := range p.errors {
		items[i] = strings.Join(e.lines, "\n")
		anyLost = anyLost || e.lost > 0
	}
	if anyLost {
		room -= len("error_detail_lines_omitted: 0000000000\n")
	}
	n, size := summarize.FitList("error_lines", items, pipMaxErrors, room)
	room -= size
	nWarnings, _ := summarize.FitList("warning_lines", p.warnings, pipMaxWarnings, room)

	summarize.AddList(b, "error_lines", items, n)
	lost := 0
	for _, e := range p.errors[:n] {
		lost += e.lost
	}
	if lost > 0 {
		b.Count("error_detail_lines_omitted", lost)
	}
	summarize.AddList(b, "warning_lines", p.warnings, nWarnings)
	addPyExcerpt(b, "output_tail", tail, tailLost)
	return b
}

// Feed reads one line of either stream.
func (p *pipLog) Feed(l string) {
	t := strings.TrimSpace(l)
	if p.inInner {
		if t == "[end of output]" {
			p.endInner()
		} else {
			p.inner = append(p.inner, l)
		}
		return
	}
	if p.conflict {
		if strings.HasPrefix(l, " ") && t != "" {
			p.conflicts = append(p.conflicts, t)
			return
		}
		p.conflict = false
	}
	switch {
	case strings.HasPrefix(t, "ERROR: ") || strings.HasPrefix(t, "error: ") ||
		strings.HasPrefix(l, "fatal: "): // git's, for a VCS requirement
		p.err = &pipError{lines: []string{t}}
		p.block = strings.HasPrefix(t, "error: ")
		p.errors = append(p.errors, p.err)
		return
	case strings.HasPrefix(t, "WARNING: ") || strings.HasPrefix(t, "DEPRECATION: "):
		p.warnings = append(p.warnings, t)
	case strings.HasPrefix(l, "Successfully installed "):
		p.installed = append(p.installed, strings.Fields(l)[2:]...)
		p.installedLine = true
	case strings.HasPrefix(l, "Would install "):
		p.wouldInstall = append(p.wouldInstall, strings.Fields(l)[2:]...)
	case strings.HasPrefix(t, "Requirement already satisfied: "):
		p.satisfied++
	case strings.HasPrefix(t, "Successfully uninstalled "):
		p.uninstalled++
	case strings.HasPrefix(l, "Failed to build "):
		p.failedToBuild = l
	case l == "The conflict is caused by:":
		p.conflict = true
	case p.err != nil:
		p.continueError(l, t)
		return
	}
	p.err = nil
}

// continueError reads a line after an error: the "×", "│" and "╰─>"
// lines of an "error:" block, or the lines an "ERROR:" line goes on with
// (the conflicts it lists), up to a blank line or pip's next message.
func (p *pipLog) continueError(l, t string) {
	e := p.err
	switch {
	case t == "":
		if !p.block {
			p.err = nil
		}
	case isPipSubprocessStart(l):
		e.lines = append(e.lines, t)
		p.inInner, p.inner = true, p.inner[:0]
	case p.block && (strings.HasPrefix(t, "×") || strings.HasPrefix(t, "│")):
		e.lines = append(e.lines, t)
	case p.block && strings.HasPrefix(t, "╰─>"):
		e.lines = append(e.lines, t)
	case p.block:
		// The rest of an error block is pip's advice (note:, hint:, the
		// lines under ╰─>), kept on disk.
	case strings.HasPrefix(t, "note: ") || strings.HasPrefix(t, "hint: ") ||
		strings.HasPrefix(t, "INFO: "):
		p.err = nil
	case len(e.lines) <= pipMaxErrorLines:
		e.lines = append(e.lines, t)
	default:
		e.lost++
	}
}

// endInner ends the output of a failed subprocess. Its error lines go to
// the error it belongs to, with the innermost frame of a Python traceback
// ('File "setup.py", line 3, in <module>') and the last line, which says
// why the subprocess ended when nothing else does.
func (p *pipLog) endInner() {
	p.inInner = false
	e := p.err
	last, frame := -1, -1
	for i, l := range p.inner {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		last = i
		if strings.HasPrefix(t, `File "`) {
			frame = i
		}
	}
	kept := 0
	for i, l := range p.inner {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
		case i == last || i == frame:
			e.lines = append(e.lines, t)
		case isPipInnerError(l) && kept < pipMaxInnerLines:
			e.lines = append(e.lines, t)
			kept++
		default:
			e.lost++
		}
	}
}

// EndStream ends what a stream left open: a subprocess's output cut short
// is kept as it is.
func (p *pipLog) EndStream() {
	if p.inInner {
		p.endInner()
	}
	p.err, p.conflict = nil, false
}

// isPipSubprocessStart matches "╰─> [17 lines of output]", after which
// pip copies a failed subprocess's output, indented, up to "[end of
// output]".
func isPipSubprocessStart(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "╰─> [") && strings.HasSuffix(t, " lines of output]")
}

func isPipSubprocessEnd(l string) bool {
	return strings.TrimSpace(l) == "[end of output]"
}

// isPipInnerError matches the lines of a build subprocess's output that
// say why it failed: a compiler's "file.c:4:28: error: ...", setuptools'
// "error: command ... failed", git's "fatal: ...", and a Python exception line
// ("ModuleNotFoundError: No module named 'x'").
func isPipInnerError(l string) bool {
	t := strings.TrimSpace(l)
	if strings.HasPrefix(t, "error: ") || strings.HasPrefix(t, "fatal: ") ||
		strings.Contains(t, ": error: ") || strings.Contains(t, ": fatal error: ") {
		return true
	}
	word, _, ok := strings.Cut(t, ": ")
	return ok && word != "" && !strings.ContainsAny(word, " \t") &&
		(strings.HasSuffix(word, "Error") || strings.HasSuffix(word, "Exception"))
}
