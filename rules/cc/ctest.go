package cc

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchCTest recognizes ctest running tests. Help and version, a listing
// (-N, --show-only, --print-labels) and the verbose modes, which print
// every test's output prefixed by its number, pass through.
func MatchCTest(argv []string) classify.Answer {
	for j := 1; j < len(argv); j++ {
		a := argv[j]
		name, _, _ := strings.Cut(a, "=")
		switch {
		case a == "--help" || a == "--version" || a == "-h" || strings.HasPrefix(a, "--help-"):
			return classify.Refuse(j, help, a)
		case a == "-N" || a == "-V" || a == "-VV" || slicesHas(ctestFormats, name):
			return classify.Refuse(j, format, a)
		}
	}
	return classify.Accept()
}

// ctestFormats are ctest's long options that print something else than
// the progress lines and the summary.
var ctestFormats = []string{"--show-only", "--print-labels", "--verbose", "--extra-verbose", "--debug",
	"--progress", "--dashboard", "-D", "-T", "-M", "-S", "-SP", "--build-and-test"}

func slicesHas(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// Caps of bash.ctest's lists.
const (
	maxFailedTests = 50
	maxTestOutput  = 8
)

// CTest summarizes bash.ctest: the exit code; ctest's summary line ("62%
// tests passed, 5 tests failed out of 13") and the counts it states; the
// result lines seen, counted; each failing test's result line, with the
// first lines of its output under --output-on-failure; the entries of
// "The following tests FAILED:" that no result line showed; and ctest's
// own errors ("No tests were found!!!", "Errors while running CTest").
func CTest(r *summarize.Run) *summarize.Body {
	var c ctestLog
	summarize.ReadStreams(&c, r.Stdout, r.Stderr)
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	if c.summary != "" {
		b.Field("summary", c.summary)
		failed := summarize.NumberBefore(c.summary, " tests failed out of ")
		_, total, _ := strings.Cut(c.summary, " failed out of ")
		b.Count("tests", atoiAll(total))
		b.Count("failed", failed)
	}
	b.Tally("passed_results", c.passed)
	b.Tally("failed_results", len(c.failed))
	items := make([]string, len(c.failed))
	for i, f := range c.failed {
		items[i] = strings.Join(f, "\n")
	}
	b.List("failed_tests", items, maxFailedTests)
	var listed []string
	for _, e := range c.listed {
		if !c.named[e.name] {
			listed = append(listed, e.line)
		}
	}
	b.List("also_failed", listed, maxFailedTests)
	b.List("ctest_errors", c.errors, maxToolErrors)
	return b
}

// atoiAll reads a whole run of digits, or 0.
func atoiAll(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 9; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// ctestLog reads ctest's lines.
type ctestLog struct {
	summary string
	passed  int
	failed  [][]string // each failing result line, then its output
	named   map[string]bool
	listed  []listedFailure
	errors  []string
	output  bool // after a failing result line, before the next Start
}

type listedFailure struct{ name, line string }

func (c *ctestLog) Feed(l string) {
	if c.named == nil {
		c.named = map[string]bool{}
	}
	t := strings.TrimSpace(l)
	if name, ok := listedLine(l); ok {
		// An entry of "The following tests FAILED:", read also when a
		// cut left its heading out.
		c.listed = append(c.listed, listedFailure{name: name, line: t})
		c.output = false
		return
	}
	if name, passed, ok := resultLine(t); ok {
		c.output = false
		if passed {
			c.passed++
			return
		}
		c.named[name] = true
		c.failed = append(c.failed, []string{t})
		c.output = true
		return
	}
	switch {
	case strings.HasPrefix(t, "Start ") && strings.Contains(t, ": "):
		c.output = false
	case strings.Contains(t, "% tests passed, ") && strings.Contains(t, " failed out of "):
		c.summary, c.output = t, false
	case t == "The following tests FAILED:":
		c.output = false
	case t == "No tests were found!!!" || t == "Errors while running CTest" || strings.HasPrefix(t, "Unable to find executable: "):
		c.errors = append(c.errors, t)
		c.output = false
	case c.output && t != "":
		f := &c.failed[len(c.failed)-1]
		if len(*f) <= maxTestOutput {
			*f = append(*f, t)
		}
	}
}

func (c *ctestLog) EndStream() { c.output = false }

// listedLine reads an entry of "The following tests FAILED:", a tab, the
// test's number, its name and its status: "\t  9 - fail_17 (Failed)".
func listedLine(l string) (name string, ok bool) {
	if !strings.HasPrefix(l, "\t") || !strings.HasSuffix(l, ")") {
		return "", false
	}
	t := strings.TrimLeft(l, "\t ")
	num, rest, ok := strings.Cut(t, " - ")
	if !ok || !summarize.IsDigits(num) {
		return "", false
	}
	name, _, ok = strings.Cut(rest, " (")
	return name, ok && name != "" && !hasBlank(name)
}

// resultLine reads " 9/13 Test  #9: fail_17 .....***Failed    0.07 sec":
// the test's name, and whether it passed.
func resultLine(t string) (name string, passed, ok bool) {
	i := strings.Index(t, " Test ")
	if i <= 0 || strings.IndexByte(t[:i], '/') < 0 || !strings.HasSuffix(t, " sec") {
		return "", false, false
	}
	rest := strings.TrimLeft(t[i+len(" Test "):], " ")
	if !strings.HasPrefix(rest, "#") {
		return "", false, false
	}
	_, rest, ok = strings.Cut(rest, ": ")
	if !ok {
		return "", false, false
	}
	name, status, ok := strings.Cut(rest, " ")
	if !ok {
		return "", false, false
	}
	status = strings.TrimLeft(status, ".")
	return name, strings.HasPrefix(strings.TrimSpace(status), "Passed "), true
}
