package cc

import (
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The static checkers of C and C++ code, clang-tidy (14) and cppcheck
// (2.10), print what the compilers print: "PATH:LINE:COL: SEVERITY: MESSAGE
// [NAME]", then the source line and a caret line (testdata/cc.sh). The
// name in brackets is the check's (clang-tidy's
// clang-analyzer-core.NullDereference, cppcheck's nullPointer) where a
// compiler names its warning flag, and cppcheck's severities add style,
// performance, portability and information to error, warning and note. So
// they are read by the build log in checker mode, the warnings grouped by
// check, every error line kept as it is; the lines of the tool's own
// (clang-tidy's "N warnings generated.", "Suppressed N warnings ...",
// "Error while processing ..."; cppcheck's progress) are counted or kept.

// checkerSeverity returns the severity of one of cppcheck's own severities
// at the start of s, and its text with the ": " after it, or "": they are
// findings, read as warnings.
func checkerSeverity(s string) (severity, string) {
	for _, t := range []string{"style: ", "performance: ", "portability: ", "information: "} {
		if strings.HasPrefix(s, t) {
			return sevWarning, t
		}
	}
	return sevNone, ""
}

// checkOf returns the check a checker's finding names at its end, in
// brackets ("nullPointer" of "Null pointer dereference: p [nullPointer]"),
// or "".
func checkOf(msg string) string {
	if !strings.HasSuffix(msg, "]") {
		return ""
	}
	i := strings.LastIndex(msg, " [")
	if i < 0 || i+3 > len(msg) {
		return ""
	}
	check := msg[i+2 : len(msg)-1]
	if hasBlank(check) || strings.ContainsAny(check, "[]") {
		return ""
	}
	return check
}

// checkerLine reports whether l is a line of clang-tidy's or cppcheck's
// own rather than of a finding: a count of what it found or suppressed, a
// hint, a file it could not process, its progress.
func checkerLine(l string) bool {
	for _, p := range []string{"Suppressed ", "Use -header-filter=", "Error while processing ", "Found compiler error(s)."} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return generated(l) || strings.HasSuffix(l, "% done")
}

// generated reports whether l is clang's count of what it printed for one
// file: "6 warnings generated.", "1 warning and 2 errors generated.".
func generated(l string) bool {
	rest, ok := strings.CutSuffix(l, " generated.")
	if !ok {
		return false
	}
	for _, part := range strings.Split(rest, " and ") {
		n, what, ok := strings.Cut(part, " ")
		if !ok || !summarize.IsDigits(n) {
			return false
		}
		switch what {
		case "warning", "warnings", "error", "errors":
		default:
			return false
		}
	}
	return true
}

// checking reports whether l is cppcheck's line for a file it starts on,
// "Checking a.c ...", or on a configuration of it, "Checking a.c: X=1...".
func checking(l string) bool {
	return strings.HasPrefix(l, "Checking ") && strings.HasSuffix(l, "...")
}

// maxCheckerLines caps the tool's own lines a checker's block keeps.
const maxCheckerLines = 20

// summarizeChecker is the body of clang-tidy and cppcheck: the exit code,
// the errors and warnings seen, the warnings by check with their first
// locations, every error line with its source line, the files cppcheck
// says it checked, and the tool's own lines.
func summarizeChecker(r *summarize.Run) *summarize.Body {
	b := newBuildLog()
	b.checker = true
	summarize.ReadStreams(b, r.Stderr, r.Stdout)
	body := &summarize.Body{}
	body.Field("exit_code", r.ExitCodeValue())
	if b.checked > 0 {
		body.Tally("files_checked", b.checked)
	}
	b.addFields(r, body)
	body.List("tool_lines", b.own, maxCheckerLines)
	return body
}

// MatchClangTidy recognizes clang-tidy checking files. Help, version and
// the listings, the configuration dumps, fixes (which edit the files and
// report each) and check profiles pass through, and so does a compiler
// option after `--` that the compiler rule refuses. clang-tidy takes its
// options with one dash or two.
func MatchClangTidy(argv []string) classify.Answer {
	for j := 1; j < len(argv); j++ {
		a := argv[j]
		if a == "--" {
			return checkCompiler(argv, j+1)
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch name {
		case "help", "help-hidden", "help-list", "version", "list-checks", "dump-config", "explain-config", "verify-config":
			return classify.Refuse(j, help, a)
		case "fix", "fix-errors", "fix-notes", "enable-check-profile", "store-check-profile", "export-fixes":
			return classify.Refuse(j, format, a)
		}
	}
	return classify.Accept()
}

// cppcheckFormats are the cppcheck options (a word starting with one) whose
// output is not the findings in the default template: another template,
// XML, a file, listings, timings, configuration checks, add-ons' own
// lines, debug output.
var cppcheckFormats = []string{
	"--template", "--xml", "--output-file", "--plist-output", "--errorlist", "--doc", "--check-config",
	"--showtime", "--addon", "--debug", "--check-library", "--config-exclude",
}

// MatchCppcheck recognizes cppcheck checking files or a project with the
// default template.
func MatchCppcheck(argv []string) classify.Answer {
	for j := 1; j < len(argv); j++ {
		a := argv[j]
		switch {
		case a == "-h" || a == "--help" || a == "--version":
			return classify.Refuse(j, help, a)
		case slices.ContainsFunc(cppcheckFormats, func(o string) bool { return strings.HasPrefix(a, o) }):
			return classify.Refuse(j, format, a)
		}
	}
	return classify.Accept()
}

// ClangTidy summarizes bash.clang_tidy (summarizeChecker).
func ClangTidy(r *summarize.Run) *summarize.Body { return summarizeChecker(r) }

// Cppcheck summarizes bash.cppcheck (summarizeChecker).
func Cppcheck(r *summarize.Run) *summarize.Body { return summarizeChecker(r) }

// checkerFeed is Feed's part for a checker's own lines: it reports whether
// it took l.
func (b *buildLog) checkerFeed(l string) bool {
	switch {
	case checking(l):
		b.checked++
	case checkerLine(l):
		b.own = append(b.own, l)
	default:
		return false
	}
	return true
}
