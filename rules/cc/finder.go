package cc

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Finder is the cc family's Finder: every located error of a compiler
// ("a.c:3:5: error: ..." and "fatal error:"), and GNU ld's "undefined
// reference to" lines, must reach the block or be counted. It parses by
// hand, apart from the rules' readers (log.go, line.go).
var Finder = summarize.StreamFinder(func(r *summarize.Run, s summarize.Stream) {
	for i, l := range s.Lines {
		if l == "" || l[0] == ' ' {
			continue
		}
		if locatedError(l) || strings.Contains(l, ": undefined reference to `") {
			s.Require(l, l, i)
		}
	}
})

// locatedError reports whether l is "PATH:LINE[:COL]: error: ..." or
// "...: fatal error: ...", PATH without blanks.
func locatedError(l string) bool {
	i := strings.Index(l, ": error: ")
	if j := strings.Index(l, ": fatal error: "); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i <= 0 {
		return false
	}
	loc := l[:i]
	if strings.ContainsAny(loc, " \t") {
		return false
	}
	parts := strings.Split(loc, ":")
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" {
		return false
	}
	for _, p := range parts[1:] {
		if !summarize.IsDigits(p) {
			return false
		}
	}
	return true
}
