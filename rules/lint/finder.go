package lint

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Finder finds what must survive of a linter's output: every error-level
// finding, code that cannot run or cannot be checked, as the line the tool
// printed, its location, code and own message (issue 21: a block showed one
// message a rule, and of sixteen undefined names fifteen were lost).
// flake8's syntax errors and undefined names (codes E9, F63, F7, F82, the
// selection its documentation gives to stop a build) and pylint's errors
// and fatal errors (message ids E and F). Other findings are style and
// quality notes: the block counts each and shows the locations that fit,
// counting the rest (locations_omitted), but the check does not require
// them. golangci-lint's findings are go's "file.go:LINE:COL: " lines, which
// the go family's finder already requires in a failed run.
//
// The lines are parsed here apart from the rules' parsers, from the
// message id backwards, since the check reads every line of every output.
var Finder = summarize.StreamFinder(func(_ *summarize.Run, s summarize.Stream) {
	if !summarize.ContainsAny(s.Raw, lintMarkers) {
		return
	}
	for i, l := range s.Lines {
		if lintError(l) {
			s.Require(l, l, i)
		}
	}
})

// lintMarkers are the texts every line the finder takes holds: the ": "
// before an error's code or message id.
var lintMarkers = [][]byte{[]byte(": E"), []byte(": F")}

// lintError reports whether a line reports an error-level finding in
// flake8's default format ("a.py:1:8: E999 SyntaxError: invalid syntax") or
// pylint's text format ("a.py:7:11: E0602: Undefined variable 'x'
// (undefined-variable)"): the line's start up to the first ": " that an
// error-level code follows is "PATH:LINE:COL", with a path of at least a
// byte.
func lintError(l string) bool {
	for from := 0; ; {
		i := strings.Index(l[from:], ": ")
		if i < 0 {
			return false
		}
		at := from + i
		from = at + 2
		if at+2 == len(l) || (l[at+2] != 'E' && l[at+2] != 'F') {
			continue
		}
		if !isErrorCode(l[at+2:]) {
			continue
		}
		loc := l[:at]
		col := strings.LastIndexByte(loc, ':')
		if col < 0 || !allDigits(loc[col+1:]) {
			return false
		}
		row := strings.LastIndexByte(loc[:col], ':')
		return row >= 1 && allDigits(loc[row+1:col])
	}
}

// isErrorCode reports whether s starts with an error-level code and what
// follows it: pylint's "E1234: " or "F1234: ", or one of flake8's codes
// (letters, then digits) beginning E9, F63, F7 or F82, then a blank.
func isErrorCode(s string) bool {
	if len(s) >= 7 && allDigits(s[1:5]) && s[5] == ':' && s[6] == ' ' {
		return true
	}
	if !strings.HasPrefix(s, "E9") && !strings.HasPrefix(s, "F63") && !strings.HasPrefix(s, "F7") && !strings.HasPrefix(s, "F82") {
		return false
	}
	j := 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j < len(s) && s[j] == ' '
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
