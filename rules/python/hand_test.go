package python

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The python and git remote rules' parsers written by hand for speed, held
// by FuzzHandParsers to the plain code they replaced, kept here as the
// reference.

// pyHandSeeds are lines that reach the deep branches of those parsers.
var pyHandSeeds = []string{
	"many.py:5: error: Argument 1 has incompatible type  [arg-type]",
	"a.py:1:2: note: x", "a.py: error: Duplicate module", "x:1: warning: w", ": error: x",
	"a b.py:1: error: x", "a\tb.py:1: error: x", "a.py:1:\terror: x", "mypy: error: x", "a:12:: error: x",
	"a.py:1: error: x  [a b]", "a.py:1: error: x  []", "x  [code]",
	"Counting objects:  50% (1/2)\rCounting objects: 100% (2/2), done.   \r\n",
	"remote: Total 3 (delta 0)\r\n\x1b[K\x1b]0;t\x07a\r\nb\x1b[31\nm c\x1b(B\n\x1b",
	"Rebasing (1/1)\r\r\x1b[KSuccessfully rebased", "\x1b\n\x1b[\n\n\x1b]8;;x\x1b\\y\n",
	" 3 files changed, 4 insertions(+), 1 deletion(-)", " 1 file changed, 2 deletions(-)",
	" 2 files changed", " 2 files changed, ", " 0x files changed", " src/a.rs | 2 +-",
	"a|b|c|ddddddddddddddddddddddddddd|e\nf",
	"tag v1|Tagger: T|| msg||commit 1111111|Author: A||    subject|    |    body||Notes:|    n||diff --git a/x b/x|+a|commit 2222222 (from 3)|| s| \t|x",
	"commit abcdef0\tHEAD|Notes (x):|commit abcdefg|commit 1234567 |tag |tag x",
	"= 12 failed, 6 passed, 1 warning, 2 errors in 0.11s =", "3 passed in 61.20s (0:01:01)", "no tests ran in 0.00s",
	"2 subtests passed in 1s", "1 passed in 1.s", "1 passed  in 1s", "1 passed in 1s ()", "1 passed, in 1s",
	"1 in in 2s", "1 passed in 1s (1:2", "=1 passed in 1s)=", "n passed in 1s",
	"tests/t.py::x[a - b] FAILED   [ 50%]  ", "tests/t.py::x ERROR [1/2]", "t.py::x FAILED [5%", "a b.py::x FAILED",
	"___ test_x ___", "_ _ _ _ _", "____ _ ____", "=== FAILURES ===", "==  ==", "------ Captured stdout call ------",
	"x.py:: FAILED", "t.py::x[a - [b]] - c - d", "t.py::x - y", "t.py::x] - [y - z",
	"tests/x.py:12: AssertionError", "/abs/x.py:10", "x.py:1x", "x.py:1:2", "a b:1", ":1",
}

func checkPyHandParsers(t *testing.T, s string) {
	k1, p1, ok1 := mypyDiag(s)
	k2, p2, ok2 := refMypyDiag(s)
	if k1 != k2 || p1 != p2 || ok1 != ok2 {
		t.Fatalf("mypyDiag(%q) = %q, %q, %v; the plain code says %q, %q, %v", s, k1, p1, ok1, k2, p2, ok2)
	}
	if got, want := isMypyError(s), refIsMypyError(s); got != want {
		t.Fatalf("isMypyError(%q) = %v, the plain code says %v", s, got, want)
	}
	if got, want := mypyCode(s), refMypyCode(s); got != want {
		t.Fatalf("mypyCode(%q) = %q, the plain code says %q", s, got, want)
	}

	summary, ok := pySummaryLine(s)
	if want := refPySummaryLineOK(s); ok != want || ok && summary != strings.Trim(s, "= ") || !ok && summary != "" {
		t.Fatalf("pySummaryLine(%q) = %q, %v; the regexp says %v", s, summary, ok, want)
	}
	if got, want := isPySummary(s), refPySummary.MatchString(s); got != want {
		t.Fatalf("isPySummary(%q) = %v, the regexp says %v", s, got, want)
	}
	if got, want := isPyLocation(s), refIsPyLocation(s); got != want {
		t.Fatalf("isPyLocation(%q) = %v, the plain code says %v", s, got, want)
	}
	id, kind, ok := pyVerboseResult(s)
	wid, wkind, wok := refPyVerboseResult(s)
	if id != wid || kind != wkind || ok != wok {
		t.Fatalf("pyVerboseResult(%q) = %q, %q, %v; the plain code says %q, %q, %v", s, id, kind, ok, wid, wkind, wok)
	}
	for _, c := range []byte("=_-!") {
		got, ok := pyFramed(s, c)
		want, wok := refPyFramed(s, c)
		if got != want || ok != wok {
			t.Fatalf("pyFramed(%q, %q) = %q, %v; the plain code says %q, %v", s, c, got, ok, want, wok)
		}
	}
	head, ok := pySectionHead(s)
	if want, wok := refPySectionHead(s); head != want || ok != wok {
		t.Fatalf("pySectionHead(%q) = %q, %v; the plain code says %q, %v", s, head, ok, want, wok)
	}
	if got, want := pyNodeID(s), nodeIDFrom(s, 0); got != want {
		t.Fatalf("pyNodeID(%q) = %q, the plain code says %q", s, got, want)
	}

	ls := summarize.Lines([]byte(s))
	for _, tail := range []int{0, 1, 3} {
		for _, maxKeep := range []int{0, 1, 2} {
			kept, lost := pyExcerpt(ls, isPyMustKeep, maxKeep, tail)
			wkept, wlost := pyExcerptAll(ls, isPyMustKeep, maxKeep, tail)
			if !slices.Equal(kept, wkept) || lost != wlost {
				t.Fatalf("pyExcerpt(%q, %d, %d) = %q, %d; the plain code says %q, %d", s, maxKeep, tail, kept, lost, wkept, wlost)
			}
		}
	}

}

func refMypyDiag(l string) (kind, path string, ok bool) {
	for _, k := range []string{"error", "note", "warning"} {
		i := strings.Index(l, ": "+k+": ")
		if i <= 0 {
			continue
		}
		loc := l[:i]
		if strings.ContainsAny(loc, " \t") {
			continue
		}
		path = loc
		numbered := false
		for {
			j := strings.LastIndexByte(path, ':')
			if j < 0 || path[j+1:] == "" || strings.Trim(path[j+1:], "0123456789") != "" {
				break
			}
			path, numbered = path[:j], true
		}
		if path != "" && (numbered || strings.ContainsAny(path, "./")) {
			return k, path, true
		}
	}
	return "", "", false
}

func refIsMypyError(l string) bool {
	if !strings.Contains(l, ": error: ") {
		return false
	}
	kind, path, ok := refMypyDiag(l)
	return ok && kind == "error" && (strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi"))
}

func refMypyCode(l string) string {
	if !strings.HasSuffix(l, "]") {
		return ""
	}
	i := strings.LastIndex(l, "  [")
	if i < 0 {
		return ""
	}
	code := l[i+3 : len(l)-1]
	if code == "" || strings.ContainsAny(code, " []") {
		return ""
	}
	return code
}

var refPySummary = regexp.MustCompile(`^(?:no tests ran|\d+ [a-z]+(?: [a-z]+)*(?:, \d+ [a-z]+(?: [a-z]+)*)*) in \d+(?:\.\d+)?s(?: \([\d:]+\))?$`)

func refPySummaryLineOK(l string) bool {
	if l == "" || (l[0] != '=' && (l[0] < '0' || l[0] > '9') && l[0] != 'n') {
		return false
	}
	t := strings.Trim(l, "= ")
	return strings.Contains(l, " in ") && strings.Contains(t, " in ") && refPySummary.MatchString(t)
}

func refIsPyLocation(l string) bool {
	if l == "" || l[0] == ' ' || l[0] == '\t' {
		return false
	}
	path, rest, ok := strings.Cut(l, ":")
	if !ok || path == "" || strings.ContainsAny(path, " \t") {
		return false
	}
	digits := rest
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		digits = rest[:i]
		if i+1 < len(rest) && rest[i+1] != ' ' {
			return false
		}
	}
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

func refPyVerboseResult(l string) (id, kind string, ok bool) {
	if !strings.Contains(l, "::") || l[0] == ' ' {
		return "", "", false
	}
	t := strings.TrimRight(l, " ")
	if strings.HasSuffix(t, "]") {
		i := strings.LastIndexByte(t, '[')
		if i < 0 || strings.Trim(t[i+1:len(t)-1], " 0123456789/%") != "" {
			return "", "", false
		}
		t = strings.TrimRight(t[:i], " ")
	}
	for _, k := range []string{"FAILED", "ERROR"} {
		if id, found := strings.CutSuffix(t, " "+k); found && refIsPyTestID(id) {
			return id, k, true
		}
	}
	return "", "", false
}

func refIsPyTestID(id string) bool {
	path, name, ok := strings.Cut(id, "::")
	return ok && name != "" && strings.Contains(path, ".") && !strings.ContainsAny(path, " \t")
}

func refPyFramed(l string, c byte) (string, bool) {
	if len(l) < 5 || l[0] != c || l[len(l)-1] != c {
		return "", false
	}
	t := strings.TrimRight(strings.TrimLeft(l, string(c)), string(c))
	if len(t) < 3 || t[0] != ' ' || t[len(t)-1] != ' ' {
		return "", false
	}
	return t[1 : len(t)-1], true
}

func refPySectionHead(l string) (string, bool) {
	t, ok := refPyFramed(l, '_')
	if !ok || strings.Trim(t, "_ ") == "" {
		return "", false
	}
	return t, true
}

// FuzzHandParsers checks the python parsers written by hand for speed
// against the plain code they replaced (checkPyHandParsers), and the
// python finder's quick test (pyScan.candidate) against the finder.
func FuzzHandParsers(f *testing.F) {
	for _, s := range pyHandSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{"error[E0425]: x", "error: could not compile", "fatal: bad", "error:  x", "errors: x",
		"  ╰─> [3 lines of output]", "\u00a0╰─> [3 lines of output]", "a.py:1: error: x", "a b.py:1: error: x",
		"tests/t.py::x FAILED [ 50%]", "\ttests/t.py::x ERROR", "== 1 failed in 0.1s ==", "___ test_x ___", "E   assert 1",
		"1 passed in 0.1s", "no tests ran in 0.00s", "= 3 passed in 61.20s (0:01:01) =", "mypy: can't read file",
		"----- Captured stdout call -----"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := string(b)
		checkPyHandParsers(t, s)
		for _, mode := range []int{pyModeUnknown, pyModeFailures, pyModeWarnings, pyModeOther} {
			for _, inSection := range []bool{false, true} {
				for _, tb := range []pyTraceback{{}, {open: true, indent: 2}} {
					for _, failed := range []bool{false, true} {
						sc := pyScan{mode: mode, inSection: inSection, tb: tb, tracebacks: true}
						if sc.candidate(s) {
							continue
						}
						if req, ok := sc.required(s, failed); ok || sc != (pyScan{mode: mode, inSection: inSection, tb: tb, tracebacks: true}) {
							t.Fatalf("candidate(%q) is false, but in mode %d (section %v, traceback %+v, failed %v) the python finder requires %q and moves to %+v",
								s, mode, inSection, tb, failed, req, sc)
						}
					}
				}
			}
		}
	})
}
