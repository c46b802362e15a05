package summarize

import "strings"

// gitFinder is the git family's Finder: git's "fatal: ..." and
// "error: ..." lines, each of which reports a failure (a rejected push, a
// bad revision, local changes a pull would overwrite).
var gitFinder = StreamFinder(func(_ *Run, s Stream) {
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
	return ok && rest != "" && strings.IndexByte(RESpace, rest[0]) < 0
}
