package python

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Finder finds the python family's failures for the boundary check:
//
//   - pytest: every node id of a "FAILED id" or "ERROR id" line of the short
//     test summary and of a -v "id FAILED" or "id ERROR" result line; in
//     each failure or error section every "E   " line (the exception or
//     failed assertion and its explanation: issue 21, the verdict of a long
//     one came last) and every location where a traceback ends with its
//     exception ("json/decoder.py:353: JSONDecodeError"; the locations
//     between are not required, because one test function parametrized
//     many times shares them);
//   - in a pytest run (its rule's, or an output with pytest's banner or
//     final line on stdout: isPytestRun), the tracebacks Python printed
//     itself (pyTraceback): their headers and the exception lines that end
//     them, and site.py's "Error processing line", outside a test's
//     captured output and the other sections of the report, and in a
//     stdout only when it is whole (issue 21: a .pth error printed before
//     the session was dropped under "36 passed");
//   - mypy: every "file.py:LINE: error: ..." line, whole;
//   - unittest: the test a section's head names ("FAIL: NAME", "ERROR:
//     NAME", "UNEXPECTED SUCCESS: NAME"; after the line of "=" above it,
//     or alone when NAME reads as a test's) and the first line of the
//     section's last exception, and the test of a -v "NAME ... FAIL" or
//     "... ERROR" or "... unexpected success" line (utScan);
//   - in a failed run, every other "ERROR: " line (pip, pytest usage errors),
//     every "mypy: " line (mypy's fatal errors), and the compiler and
//     Python errors inside the output of a pip build subprocess.
//
// "0 failed" and "passed" lines are never failures.
var Finder = summarize.StreamFinder(func(r *summarize.Run, s summarize.Stream) {
	// Python's own tracebacks are required of a pytest run's output:
	// unittest prints its failures as tracebacks, and its finder (utScan)
	// says which of their lines count.
	sc := pyScan{tracebacks: !(s.Index == 0 && r.MayLackStart()) && isPytestRun(r)}
	var ut utScan
	failed := r.Failed()
	for i, l := range s.Lines {
		if ut.line(s, i) {
			continue
		}
		if req, ok := sc.required(l, failed); ok {
			s.Require(req, l, i)
		}
	}
	ut.end(s)
})

// utScan is the finder's reading of unittest's sections in one stream,
// the rule's own (unittestLog) written again by hand: a section starts at
// its head, goes through the dashes under it into its traceback, and ends
// at the next line of "=" or "-", head or "Ran" line, or the stream's end.
type utScan struct {
	afterSep  bool
	section   bool
	frames    bool // past the dashes under the head
	traceback bool // a "Traceback" line read, its exception to come
	stopped   bool // a "Stdout:" or "Stderr:" label: the test's own output
	final     string
	finalAt   int
}

// line reads line i of s, and reports whether it was a head or a -v
// result line, which the rest of the finder need not read.
func (u *utScan) line(s summarize.Stream, i int) bool {
	l := s.Lines[i]
	afterSep := u.afterSep
	u.afterSep = false
	if l == "" {
		return false
	}
	switch l[0] {
	case '=':
		if isUtRule(l, '=') {
			u.end(s)
			u.afterSep = true
		}
		return false
	case 'F', 'E', 'U':
		if _, name, ok := utHead(l); ok && (afterSep || isUtTestName(name)) {
			u.end(s)
			s.Require(name, l, i)
			u.section = true
			return true
		}
	case 'R':
		if _, ok := utRan(l); ok {
			u.end(s)
			return false
		}
	}
	if (l[0] == 'F' || l[0] == 'O' || l[0] == 'N') && l != "OK" && isUtStatus(l) {
		u.end(s) // a status whose "Ran" line a grep left out
		return false
	}
	if !u.section {
		if !strings.HasSuffix(l, " ... FAIL") && !strings.HasSuffix(l, " ... ERROR") && !strings.HasSuffix(l, " ... unexpected success") {
			return false
		}
		desc := ""
		if i > 0 && isUtTestName(s.Lines[i-1]) {
			desc = s.Lines[i-1]
		}
		if name, _, ok := utResult(l, desc); ok {
			if desc != "" {
				// The name is on the line above, a docstring's first
				// line on this one: the fallback keeps both.
				s.Take(desc, i-1)
			}
			s.Require(name, l, i)
			return true
		}
		return false
	}
	switch {
	case l[0] == '-' && isUtRule(l, '-'):
		if u.frames {
			u.end(s) // the line above "Ran"
		} else {
			u.frames = true
		}
	case !u.frames || u.stopped || l[0] == ' ' || strings.TrimSpace(l) == "":
	case l == "Stdout:" || l == "Stderr:":
		u.stopped = true
	case l == "Traceback (most recent call last):":
		u.traceback = true
	case u.traceback:
		u.final, u.finalAt, u.traceback = l, i, false
	}
	return false
}

// end closes the section being read: its last exception's first line is
// required.
func (u *utScan) end(s summarize.Stream) {
	if u.section && u.final != "" {
		s.Require(u.final, s.Lines[u.finalAt], u.finalAt)
	}
	*u = utScan{}
}

// pytestBanner is in the first line of a pytest run's output.
var pytestBanner = []byte(" test session starts ")

// isPytestRun reports whether r is a pytest run: its rule's, or an output
// with pytest's banner or, as -q prints no banner, its final line
// ("36 passed in 0.04s").
func isPytestRun(r *summarize.Run) bool {
	if r.Rule == "bash.pytest" || bytes.Contains(r.Stdout, pytestBanner) {
		return true
	}
	for l := range summarize.EachLine(r.Stdout) {
		if _, ok := pySummaryLine(l); ok {
			return true
		}
	}
	return false
}

// pyScan is the state of pythonFinder over one stream. It follows the
// same lines as the rules do, so that what it requires is what they keep.
type pyScan struct {
	mode      int
	inSection bool // in a pytest failure section, before its captured output
	inSub     bool // in the output of a pip subprocess
	// tracebacks tells that Python's own tracebacks are required: in a
	// pytest run's stream that lacks none of its start.
	tracebacks bool
	tb         pyTraceback
}

func (s *pyScan) required(l string, failed bool) (string, bool) {
	if !s.candidate(l) {
		return "", false
	}
	if _, id, ok := pyShortEntry(l); ok {
		return id, true
	}
	if id, _, ok := pyVerboseResult(l); ok {
		return id, true
	}
	if isMypyError(l) {
		return strings.TrimSpace(l), true
	}
	if s.inSub {
		s.inSub = !isPipSubprocessEnd(l)
		if s.inSub && failed && isPipInnerError(l) {
			return strings.TrimSpace(l), true
		}
		return "", false
	}
	if isPipSubprocessStart(l) {
		s.inSub = true
		return "", false
	}
	if failed && isPyMustKeep(l) {
		return strings.TrimSpace(l), true
	}
	if _, ok := pySummaryLine(l); ok {
		s.mode, s.inSection = pyModeOther, false
		return "", false
	}
	if t, ok := pyBanner(l); ok {
		s.mode, s.inSection = pyModeOther, false
		if t == "FAILURES" || t == "ERRORS" {
			s.mode = pyModeFailures
		}
		return "", false
	}
	if s.mode != pyModeUnknown && s.mode != pyModeFailures {
		return "", false
	}
	if _, ok := pySectionHead(l); ok {
		s.inSection, s.tb = true, pyTraceback{}
		return "", false
	}
	switch {
	case s.inSection && isPyCaptured(l):
		s.inSection = false
	case s.inSection && isPyELine(l):
		return strings.TrimSpace(l), true
	case s.inSection && isPyLocation(l) && isPyTerminal(strings.TrimRight(l, " ")):
		return strings.TrimSpace(l), true
	case (s.inSection || s.mode == pyModeUnknown) && s.tracebacks && s.tb.report(l):
		return strings.TrimSpace(l), true
	}
	return "", false
}

// candidate reports whether l could be a line pyScan acts on in its state:
// pyCandidate's, a location in a failure section, or one a traceback reads.
func (s *pyScan) candidate(l string) bool {
	return s.inSub || pyCandidate(l) || s.inSection && isPyLocation(l) || s.tracebacks && s.tb.candidate(l)
}

// pyCandidate reports whether l could be any line pyScan acts on, from
// checks that cost a few bytes each: the check runs the python finder on
// every output of every rule, and most lines are none of these. Each test
// is a condition the full parser needs; FuzzHandParsers holds them to it.
func pyCandidate(l string) bool {
	if l == "" {
		return false
	}
	switch c := l[0]; {
	case c == 'F' || c == 'E': // FAILED/ERROR entries, ERROR: lines, E lines
		return true
	case c == 'e' || c == 'f':
		if summarize.IsErrorLine(l) {
			return true
		}
	case c == 'm':
		if strings.HasPrefix(l, "mypy: ") {
			return true
		}
	case c == '=' || c == '_' || c == '-': // banners and section heads
		if l[len(l)-1] == c || c == '=' && pySummaryCandidate(l) {
			return true
		}
	case c == 'n' || '0' <= c && c <= '9':
		if pySummaryCandidate(l) {
			return true
		}
	}
	return pyVerboseCandidate(l) || mypyCandidate(l) || pipStartCandidate(l)
}

// pySummaryCandidate: the final line ends in its duration, "in 0.12s" or
// "in 61.20s (0:01:01)", before any "=" padding.
func pySummaryCandidate(l string) bool {
	i := len(l)
	for i > 0 && (l[i-1] == '=' || l[i-1] == ' ') {
		i--
	}
	return i > 0 && (l[i-1] == 's' || l[i-1] == ')')
}

// pyVerboseCandidate: a -v result line ends in its outcome or its
// percentage.
func pyVerboseCandidate(l string) bool {
	t := strings.TrimRight(l, " ")
	return t != "" && (t[len(t)-1] == ']' || strings.HasSuffix(t, " FAILED") || strings.HasSuffix(t, " ERROR"))
}

// mypyCandidate: a mypy error's location holds no blank, so the line's
// first space is the one in ": error: ".
func mypyCandidate(l string) bool {
	i := strings.IndexByte(l, ' ')
	return i > 0 && strings.HasPrefix(l[i-1:], ": error: ")
}

// pipStartCandidate: pip's "╰─> [N lines of output]", indented.
func pipStartCandidate(l string) bool {
	i := 0
	for i < len(l) && (l[i] == ' ' || '\t' <= l[i] && l[i] <= '\r') {
		i++
	}
	if i == len(l) || l[i] < utf8.RuneSelf {
		return false
	}
	// Past ASCII, white space is unicode's, as for isPipSubprocessStart's
	// TrimSpace.
	t := strings.TrimLeftFunc(l[i:], unicode.IsSpace)
	return t != "" && t[0] == "╰"[0]
}
