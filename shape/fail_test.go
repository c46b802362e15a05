package shape

import (
	"regexp"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The failure forms of docs/shape.md stated as regular expressions: the
// oracle isFailure is held to, and what the cut's tests count failures by.
var (
	failLineREs = []*regexp.Regexp{
		regexp.MustCompile(`^E[ \t]{2}`),
		regexp.MustCompile(`^[ \t]*(Traceback \(most recent call last\)|panic: |fatal error: |--- FAIL|Caused by: |Exception in thread |npm ERR!|Segmentation fault|✗ |✘ |✕ |× |not ok )`),
		regexp.MustCompile(`^[ \t]*(Killed|not ok)$`),
		regexp.MustCompile(`^[ \t]*make(\[\d+\])?: \*\*\*`),
		regexp.MustCompile(`^[ \t]*(Uncaught )?([A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)?(Error|Exception|Failure|Interrupt|Exit)( \[[^\]]*\])?(:|$)`),
		regexp.MustCompile(`^[ \t]+[^\s:]+_test\.go:\d+: `),
		regexp.MustCompile(`\bpanicked\b`),
		regexp.MustCompile(`\b(error|Error|fatal|Fatal|failure|Failure|panic|Panic)(\[[^\]]*\])?[:!]`),
		regexp.MustCompile(`\b(error|Error)(  | TS\d)`),
		regexp.MustCompile(`(^|[ \t(,\[])\d*[1-9]\d* (errors?|failures?|failing)\b`),
		regexp.MustCompile(`exit (status|code) [1-9]`),
	}
	failLineRE   = joinREs(failLineREs)
	bulletRE     = regexp.MustCompile(`^[ \t]*● `)
	diagnosticRE = regexp.MustCompile(`^[ \t]*\S+:\d+:\d+: +(\w*)`)
	failWordRE   = regexp.MustCompile(`\b(ERROR|ERRORS|FATAL|FAIL|FAILED|FAILURE|FAILURES|PANIC|CRITICAL|failed|Failed)\b`)
	zeroRE       = regexp.MustCompile(`(^|[ \t(,\[])(0+|(?i:no)) $`)
)

// joinREs is one expression that matches what any of res matches.
func joinREs(res []*regexp.Regexp) *regexp.Regexp {
	parts := make([]string, len(res))
	for i, re := range res {
		parts[i] = "(?:" + re.String() + ")"
	}
	return regexp.MustCompile(strings.Join(parts, "|"))
}

// failLine is the oracle's reading of a line.
func failLine(line string) bool {
	l := strings.TrimRight(line, "\r\n")
	if strings.IndexByte(l, 0x1b) >= 0 {
		l = string(summarize.StripTerminal([]byte(l)))
	}
	if failLineRE.MatchString(l) {
		return true
	}
	if bulletRE.MatchString(l) && !strings.HasPrefix(strings.TrimLeft(l, " \t"), "● Console") {
		return true
	}
	if m := diagnosticRE.FindStringSubmatch(l); m != nil {
		switch m[1] {
		case "warning", "note", "info", "hint":
		default:
			return true
		}
	}
	for _, m := range failWordRE.FindAllStringIndex(l, -1) {
		if !zeroRE.MatchString(l[:m[0]]) {
			return true
		}
	}
	return false
}

var failureCases = []struct {
	line string
	want bool
}{
	{"AssertionError: 1 != 2", true},
	{"AssertionError", true},
	{"AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:", true},
	{"thread 'main' panicked at src/main.rs:2:5:", true},
	{"--- FAIL: TestAdd (0.00s)", true},
	{"FAIL", true},
	{"FAIL\tgithub.com/x/y\t0.003s", true},
	{"E       assert 1 == 2", true},
	{"E   AssertionError", true},
	{"    calc_test.go:12: Add(1, 2) = 4, want 3", true},
	{"=== 3 failed, 10 passed in 0.12s ===", true},
	{"=== 0 failed, 10 passed in 0.12s ===", false},
	{"10 passed, 0 failed", false},
	{"no errors found", false},
	{"No FAILURES", false},
	{"Traceback (most recent call last):", true},
	{"ValueError: invalid literal for int() with base 10: 'x'", true},
	{"java.lang.IllegalStateException: boom", true},
	{"Caused by: java.io.IOException: disk", true},
	{"Exception in thread \"main\" java.lang.RuntimeException: x", true},
	{"panic: runtime error: index out of range [3] with length 3", true},
	{"error[E0425]: cannot find value `x` in this scope", true},
	{"src/main.c:3:5: error: expected ';' before '}' token", true},
	{"src/main.c:3:5: warning: unused variable 'x'", false},
	{"./main.go:5:2: undefined: y", true},
	{"src/app.ts(3,5): error TS2322: Type 'string' is not assignable", true},
	{"  3:5  error  'x' is not defined  no-undef", true},
	{"make: *** [Makefile:3: test] Error 1", true},
	{"npm ERR! Test failed.", true},
	{"Segmentation fault (core dumped)", true},
	{"exit status 1", true},
	{"exit status 0", false},
	{"\x1b[31mERROR\x1b[0m: disk full", true},
	{"2024-01-01 12:00:00 ERROR db: connection refused", true},
	{"2024-01-01 12:00:00 INFO  request served", false},
	{"stderr output", false},
	{"error_count=0", false},
	{"  ✕ adds numbers (3 ms)", true},
	{"  × adds numbers", true},
	{"  ● adds numbers", true},
	{"  ● Console", false},
	{"Build failed", true},
	{"Ran 12 tests in 0.003s", false},
	{"FAILED (failures=1, errors=2)", true},
	{"test tests::it_works ... FAILED", true},
	{"KeyboardInterrupt", true},
	{"OK", false},
	{"Killed", true},
	{"not ok 1387 - total of order 1386", true},
	{"ok 1388 - total of order 1387", false},
	{"main.py:12: DeprecationWarning: x", false},
	{"except ValueError:", false},
	{"Exception: boom", true},
	{"Error", true},
}

func TestFailure(t *testing.T) {
	for _, c := range failureCases {
		if got := isFailure([]byte(c.line + "\n")); got != c.want {
			t.Errorf("isFailure(%q) = %v, want %v", c.line, got, c.want)
		}
		if got := failLine(c.line); got != c.want {
			t.Errorf("oracle failLine(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// FuzzFailure holds the hand-written predicate to the regular expressions.
func FuzzFailure(f *testing.F) {
	for _, c := range failureCases {
		f.Add(c.line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return
		}
		if got, want := isFailure([]byte(line)), failLine(line); got != want {
			t.Fatalf("isFailure(%q) = %v, the oracle says %v", line, got, want)
		}
	})
}
