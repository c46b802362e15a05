package listing

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Finder finds the listing tools' failures for the boundary check: the
// errors they print about what they could not list, whole.
//
//   - find's messages, "find: './x': Permission denied", "find: 'nosuch':
//     No such file or directory": every line starting with "find: " but
//     its warnings;
//   - fd's "[fd error]: ..." lines;
//   - tree's line of a directory it could not read, "├── locked  [error
//     opening dir]".
//
// git ls-files' errors are git's "fatal:" lines, which the git finder
// requires.
var Finder = summarize.StreamFinder(func(_ *summarize.Run, s summarize.Stream) {
	if !summarize.ContainsAny(s.Raw, markers) {
		return
	}
	for i, l := range s.Lines {
		if isFailure(l) {
			s.Require(strings.TrimSpace(l), l, i)
		}
	}
})

// markers are in every line the finder requires.
var markers = [][]byte{[]byte("find: "), []byte("[fd error]: "), []byte(treeMark)}

func isFailure(l string) bool {
	switch {
	case strings.HasPrefix(l, "find: "):
		return !strings.HasPrefix(l, "find: warning: ")
	}
	return strings.HasPrefix(l, "[fd error]: ") || strings.HasSuffix(l, treeMark)
}
