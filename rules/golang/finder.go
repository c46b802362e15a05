package golang

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Finder finds what must survive from go's output: the name of every
// failing test and subtest, the file:line of each reason line a failing
// test printed, every failing package (FAIL<tab>pkg), and in a failed run
// panics and fatal runtime errors, compiler and vet error locations, and
// the go command's own messages ("go: ..." but its download progress).
// go test -json is read through the text of its events, and a line where
// a test's output without a final newline ran into go's result, marker or
// reason line as two (goTailStart): that cut is the one thing the finder
// shares with the rule, so that both read the same lines.
//
// A reason line belongs to a failing test either by position (without -v
// it follows the "--- FAIL:" line, indented deeper than it and than any
// later result line it is not under) or by name (with -v it follows
// "=== RUN/CONT/NAME name" and precedes "--- FAIL: name").
//
// The line shapes are parsed here by hand, apart from the rules' parsers:
// the check is only worth something if it does not share the rules'
// mistakes, and it runs on every output of every rule, so each line costs
// a few comparisons (patterns from real go 1.26 output, testdata).
var Finder = summarize.StreamFinder(func(r *summarize.Run, s summarize.Stream) {
	var pending goPending  // -v: reason lines by test, since its === line
	cur := ""              // the test the === lines named last
	var results []goIndent // result lines since the last === line, by depth
	failed := r.Failed()
	text := goTextOf(r, s.Raw)
	// Lines are numbered for the fallback in the stream's lines, or after
	// them when the text is not those lines (test2json events, cut lines).
	base := s.View(text)
	for k, l := range text {
		if l == "" {
			continue
		}
		at := base + k
		c := l[0]
		var name, result string
		var indent int
		if c == '-' || c == ' ' {
			name, indent, result = goResultLine(l)
		}
		switch {
		case c == '=' && strings.HasPrefix(l, "=== "):
			action, name, _ := strings.Cut(l[4:], " ")
			cur, results = strings.TrimSpace(name), results[:0]
			if action == "RUN" {
				pending.drop(cur)
			}
		case result != "":
			if result == "FAIL" {
				s.Require(name, l, at)
				for _, r := range pending.lines[name] {
					s.Require(goReason(r.line), r.line, r.at)
				}
			}
			pending.drop(name)
			results = append(popIndents(results, indent), goIndent{indent, result == "FAIL"})
		case c == ' ' || c == '\t':
			loc := goReason(l)
			if loc != "" {
				results = popIndents(results, goIndentOf(l))
			}
			switch {
			case loc == "":
			case len(results) > 0:
				if results[len(results)-1].failed {
					s.Require(loc, l, at)
				}
			case cur != "":
				pending.add(cur, goLine{l, at})
			}
		case c == 'F' && strings.HasPrefix(l, "FAIL\t"):
			pkg, _, _ := strings.Cut(l[5:], "\t")
			pkg, _, _ = strings.Cut(pkg, " ")
			s.Require(pkg, l, at)
			results = results[:0]
		case !failed:
		case strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: "):
			s.Require(strings.TrimSpace(l), l, at)
			results = results[:0]
		case strings.HasPrefix(l, "go: "):
			if !strings.HasPrefix(l, "go: downloading ") && !strings.HasPrefix(l, "go: finding ") &&
				!strings.HasPrefix(l, "go: extracting ") {
				s.Require(strings.TrimSpace(l), l, at)
			}
		default:
			// A compiler or vet error: "./a.go:12:5: undefined: x".
			msg := strings.TrimPrefix(l, "vet: ")
			if n := goLocLen(msg, 2); n > 0 {
				s.Require(msg[:n], l, at)
			}
		}
	}
})

// goPending holds the reason lines of the tests of a -v log that have no
// result line yet, by name. The buffers of the tests that have one are
// reused: a log runs thousands of tests, each printing a few lines.
type goPending struct {
	lines map[string][]goLine
	spare [][]goLine
}

// goLine is a line of go's text and its index, for the fallback.
type goLine struct {
	line string
	at   int
}

func (p *goPending) add(name string, l goLine) {
	ls, ok := p.lines[name]
	if n := len(p.spare); !ok && n > 0 {
		ls, p.spare = p.spare[n-1], p.spare[:n-1]
	}
	if p.lines == nil {
		p.lines = map[string][]goLine{}
	}
	p.lines[name] = append(ls, l)
}

// drop forgets a test's lines and keeps their buffer.
func (p *goPending) drop(name string) {
	if ls, ok := p.lines[name]; ok {
		p.spare = append(p.spare, ls[:0])
		delete(p.lines, name)
	}
}

// goIndent is a test result line's depth and whether it is a failure.
type goIndent struct {
	indent int
	failed bool
}

// popIndents drops the result lines at depth or deeper: a line at depth
// is not under them.
func popIndents(rs []goIndent, depth int) []goIndent {
	for len(rs) > 0 && rs[len(rs)-1].indent >= depth {
		rs = rs[:len(rs)-1]
	}
	return rs
}

// goResultLine parses "--- FAIL: name (0.00s)", indented four spaces per
// subtest level, and its PASS and SKIP forms.
func goResultLine(l string) (name string, indent int, result string) {
	t := strings.TrimLeft(l, " ")
	indent = len(l) - len(t)
	rest, ok := strings.CutPrefix(t, "--- ")
	if !ok || indent%4 != 0 || len(rest) < 6 || rest[4:6] != ": " || !strings.HasSuffix(rest, "s)") {
		return "", 0, ""
	}
	result, rest = rest[:4], rest[6:]
	i := strings.LastIndex(rest, " (")
	if i <= 0 || i+3 > len(rest)-2 || hasGoBlank(rest[:i]) || !isGoDuration(rest[i+2:len(rest)-2]) {
		return "", 0, ""
	}
	switch result {
	case "FAIL", "PASS", "SKIP":
		return rest[:i], indent, result
	}
	return "", 0, ""
}

// isGoDuration reports whether s is made of digits and dots only, as a
// test's "0.00" is. (strings.Trim with a cutset builds the set on every
// call, and this runs on every result line.)
func isGoDuration(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' {
			return false
		}
	}
	return true
}

// goReason returns "file.go:12:" when l is an indented reason line,
// "    file.go:12: message", or "".
func goReason(l string) string {
	t := l[goIndentOf(l):]
	if len(t) == len(l) {
		return ""
	}
	if n := goLocLen(t, 1); n > 0 {
		return t[:n+1]
	}
	return ""
}

// goLocLen returns the length of the "file.go:N" (parts 1) or
// "file.go:N:M" (parts 2) that s starts with when ": " follows it, or 0.
func goLocLen(s string, parts int) int {
	// The file name ends before the first blank: only that far is worth
	// searching, and on most lines it is the first word.
	i := -1
	for w := 0; w < len(s) && s[w] != ' ' && s[w] != '\t'; w++ {
		if s[w] == '.' && strings.HasPrefix(s[w+1:], "go:") {
			i = w
			break
		}
	}
	if i <= 0 {
		return 0
	}
	j := i + len(".go")
	for range parts {
		k := j + 1
		for k < len(s) && '0' <= s[k] && s[k] <= '9' {
			k++
		}
		if k == j+1 || k >= len(s) || s[k] != ':' {
			return 0
		}
		j = k
	}
	if !strings.HasPrefix(s[j:], ": ") {
		return 0
	}
	return j
}
