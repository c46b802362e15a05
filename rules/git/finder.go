package git

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Finder is the git family's Finder: git's "fatal: ..." and
// "error: ..." lines, each of which reports a failure (a rejected push, a
// bad revision, local changes a pull would overwrite).
var Finder = summarize.StreamFinder(func(_ *summarize.Run, s summarize.Stream) {
	for i, l := range s.Lines {
		if l != "" && (l[0] == 'f' || l[0] == 'e') && isGitFailureLine(l) {
			s.Require(strings.TrimSpace(l), l, i)
		}
	}
})

// isGitFailureLine reports whether l is one of git's failure lines, as the
// regexp ^(fatal|error): \S matches them.
func isGitFailureLine(l string) bool {
	rest, ok := strings.CutPrefix(l, "fatal: ")
	if !ok {
		rest, ok = strings.CutPrefix(l, "error: ")
	}
	return ok && rest != "" && strings.IndexByte(summarize.RESpace, rest[0]) < 0
}
