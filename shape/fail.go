package shape

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// isFailure reports whether a line of output reports a failure: a failed
// test, an error, an exception or panic and its message, a crash. The cut
// keeps every such line, or counts it in the marker that omits it.
//
// It is wider than the peers' patterns where they lose failures
// (AssertionError:, panicked, --- FAIL:, a bare FAIL, pytest's "E   "
// lines, Go's "x_test.go:12:" reasons) and narrower where they cry wolf
// ("0 failed", "no errors"). docs/shape.md lists the forms; FuzzFailure
// holds this hand-written reading to the regular expressions in
// fail_test.go that state them.
func isFailure(b []byte) bool {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	if bytes.IndexByte(b, 0x1b) >= 0 {
		b = summarize.StripTerminal(b)
	}
	if len(b) == 0 || !mayFail(b) {
		return false
	}
	return failure(unsafe.String(unsafe.SliceData(b), len(b)))
}

// mayFail is false only for lines isFailure would refuse: those that
// start with none of its forms and hold none of the strings its words
// need ("rr" of error, "ail" of fail, "atal", "anic", "xc" of exception,
// "xit", "Traceback", "Caused by", "***", "ERR!", "Segmentation",
// "Killed", "not ok", "nterrupt", "CRITICAL"). It reads the line once,
// looking further only at the few bytes those strings turn on.
func mayFail(b []byte) bool {
	if b[0] == 'E' {
		return true
	}
	t := trimBlank(b)
	if len(t) == 0 {
		return false
	}
	if t[0] >= 0xc0 {
		return true // a mark: ✗ ✘ ✕ × ●
	}
	if w := firstWord(t); bytes.IndexByte(w, ':') >= 0 {
		return true // perhaps a location
	}
	at := func(i int, s string) bool { return i >= 0 && i+len(s) <= len(b) && string(b[i:i+len(s)]) == s }
	lower := func(i int, c byte) bool { return i >= 0 && i < len(b) && b[i]|0x20 == c }
	for i, c := range b {
		switch c {
		case 'r', 'R':
			if lower(i+1, 'r') {
				return true
			}
		case 'i', 'I':
			if lower(i-1, 'a') && lower(i+1, 'l') {
				return true
			}
		case 't', 'T':
			if lower(i-1, 'a') && lower(i+1, 'a') && lower(i+2, 'l') || at(i, "Traceback") || at(i-2, "not ok") {
				return true
			}
		case 'n', 'N':
			if lower(i-1, 'a') && lower(i+1, 'i') && lower(i+2, 'c') || at(i, "nterrupt") {
				return true
			}
		case 'x':
			if lower(i+1, 'c') || at(i, "xit") {
				return true
			}
		case '*':
			if at(i, "***") {
				return true
			}
		case '!':
			if at(i-3, "ERR!") {
				return true
			}
		case 'C':
			if at(i, "Caused by") || at(i, "CRITICAL") {
				return true
			}
		case 'S':
			if at(i, "Segmentation") {
				return true
			}
		case 'K':
			if at(i, "Killed") {
				return true
			}
		}
	}
	return false
}

func firstWord(t []byte) []byte {
	for i, c := range t {
		if c == ' ' || c == '\t' {
			return t[:i]
		}
	}
	return t
}

// failPrefixes start a failure line, after its indentation.
var failPrefixes = []string{
	"Traceback (most recent call last)", "panic: ", "fatal error: ", "--- FAIL", "Caused by: ",
	"Exception in thread ", "npm ERR!", "Segmentation fault", "✗ ", "✘ ", "✕ ", "× ", "not ok ",
}

// failure is isFailure's reading of one line, escapes removed.
func failure(l string) bool {
	if len(l) >= 3 && l[0] == 'E' && isBlank(l[1]) && isBlank(l[2]) {
		return true // pytest's "E   assert 1 == 2"
	}
	i := 0
	for i < len(l) && isBlank(l[i]) {
		i++
	}
	t := l[i:]
	for _, p := range failPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	switch {
	case t == "Killed", t == "not ok",
		strings.HasPrefix(t, "● ") && !strings.HasPrefix(t, "● Console"),
		isMakeError(t),
		isExceptionLine(t),
		isDiagnostic(t, t != l):
		return true
	}
	return failureWord(l)
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// trimBlank removes a line's indentation.
func trimBlank(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	return b
}

// isMakeError: "make: *** [all] Error 1", "make[2]: *** ...".
func isMakeError(t string) bool {
	rest, ok := strings.CutPrefix(t, "make")
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, "[") {
		d, after, ok := strings.Cut(rest[1:], "]")
		if !ok || !summarize.IsDigits(d) {
			return false
		}
		rest = after
	}
	return strings.HasPrefix(rest, ": ***")
}

// isExceptionLine: an exception's name and message as Python, Java and
// JavaScript print them: "AssertionError: 1 != 2", "ValueError",
// "java.lang.IllegalStateException: x", "AssertionError [ERR_ASSERTION]:
// ...", "Uncaught TypeError: x".
func isExceptionLine(t string) bool {
	t = strings.TrimPrefix(t, "Uncaught ")
	i := 0
	for {
		j := i
		for j < len(t) && isIdent(t[j], j == i) {
			j++
		}
		if j == i {
			return false
		}
		i = j
		if i < len(t) && t[i] == '.' {
			i++
			continue
		}
		break
	}
	name := t[:i]
	if !hasSuffixAny(name, "Error", "Exception", "Failure", "Interrupt", "Exit") {
		return false
	}
	rest := t[i:]
	if strings.HasPrefix(rest, " [") {
		_, after, ok := strings.Cut(rest, "]")
		if !ok {
			return false
		}
		rest = after
	}
	return rest == "" || rest[0] == ':'
}

func isIdent(c byte, first bool) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
}

func hasSuffixAny(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// isDiagnostic: a compiler's "file:line:col: message" that is not a
// warning or a note, and, indented, go test's "x_test.go:12: reason".
func isDiagnostic(t string, indented bool) bool {
	// The location ends at white space as docs/shape.md's `\S+` reads
	// it (RE2's \s, which leaves out \v).
	w := t
	if i := strings.IndexAny(t, " \t\r\f"); i >= 0 {
		w = t[:i]
	}
	if len(w) < 2 || w[len(w)-1] != ':' || len(w) == len(t) || t[len(w)] != ' ' {
		return false
	}
	loc := w[:len(w)-1]
	if summarize.LocationPrefix(loc) == len(loc) {
		next := strings.TrimLeft(t[len(w):], " ")
		for _, quiet := range []string{"warning", "note", "info", "hint"} {
			if rest, ok := strings.CutPrefix(next, quiet); ok && (rest == "" || !isWordByte(rest[0])) {
				return false
			}
		}
		return true
	}
	if !indented {
		return false
	}
	file, line, ok := cutLast(loc, ':')
	return ok && strings.HasSuffix(file, "_test.go") && len(file) > len("_test.go") && summarize.IsDigits(line) && !strings.ContainsAny(file, ":")
}

func cutLast(s string, c byte) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, c)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// failureWord looks at each word of l for the words that report a
// failure: ERROR, FAILED and the like in capitals; "failed"; "error:",
// "Error[E0425]:", "fatal:", "panic:", "Failure:" and eslint's "error  ";
// "panicked"; a count above zero of errors, failures or failed tests;
// "exit status 2". "0 failed" and "no errors" are not failures.
func failureWord(l string) bool {
	return anyWord(l, func(i, j int) bool { return wordFails(l, i, j) })
}

// anyWord reports whether f holds for a word of l, l[i:j]: a run of
// letters, digits and underscores.
func anyWord[T string | []byte](l T, f func(i, j int) bool) bool {
	for i := 0; i < len(l); {
		if !isWordByte(l[i]) {
			i++
			continue
		}
		j := i
		for j < len(l) && isWordByte(l[j]) {
			j++
		}
		if f(i, j) {
			return true
		}
		i = j
	}
	return false
}

// wordFails reports whether the word l[i:j] reports a failure there.
func wordFails(l string, i, j int) bool {
	w, rest := l[i:j], l[j:]
	switch w {
	case "ERROR", "ERRORS", "FATAL", "FAIL", "FAILED", "FAILURE", "FAILURES", "PANIC", "CRITICAL",
		"failed", "Failed":
		return !zeroBefore(l[:i])
	case "panicked":
		return true
	case "error", "Error":
		if strings.HasPrefix(rest, "  ") || strings.HasPrefix(rest, " TS") && len(rest) > 3 && isDigit(rest[3]) {
			return true
		}
		fallthrough
	case "fatal", "Fatal", "failure", "Failure", "panic", "Panic":
		if strings.HasPrefix(rest, "[") {
			if k := strings.IndexByte(rest, ']'); k > 0 {
				rest = rest[k+1:]
			}
		}
		if rest != "" && (rest[0] == ':' || rest[0] == '!') {
			return true
		}
	case "status", "code":
		if strings.HasSuffix(l[:i], "exit ") && len(rest) > 1 && rest[0] == ' ' && '1' <= rest[1] && rest[1] <= '9' {
			return true
		}
	}
	switch w {
	case "error", "errors", "failure", "failures", "failing":
		return countBefore(l[:i])
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// zeroBefore reports whether the text before a word ends in "0 " or
// "no " (any case): "0 failed", "no FAILURES".
func zeroBefore(before string) bool {
	n, ok := strings.CutSuffix(before, " ")
	if !ok {
		return false
	}
	k := len(n)
	for k > 0 && isWordByte(n[k-1]) {
		k--
	}
	if k > 0 && !isCountStart(n[k-1]) {
		return false
	}
	return strings.ToLower(n[k:]) == "no" || summarize.IsDigits(n[k:]) && strings.Trim(n[k:], "0") == ""
}

// isCountStart reports whether c may come before a count: "(0 failed",
// ", 3 errors"; not "12:00 ERROR".
func isCountStart(c byte) bool { return c == ' ' || c == '\t' || c == '(' || c == ',' || c == '[' }

// countBefore reports whether the text before a word ends in a number
// above zero and a space: "3 failed", "1 error".
func countBefore(before string) bool {
	n, ok := strings.CutSuffix(before, " ")
	if !ok {
		return false
	}
	k := len(n)
	for k > 0 && isDigit(n[k-1]) {
		k--
	}
	if k == len(n) || k > 0 && !isCountStart(n[k-1]) {
		return false
	}
	return strings.Trim(n[k:], "0") != ""
}
