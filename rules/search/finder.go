package search

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Finder finds the search tools' failures for the boundary check: the
// errors they print about what they could not search, whole.
//
//   - grep's messages, "grep: PATH: Permission denied", "grep: PATH: No
//     such file or directory" and the rest: every line starting with
//     "grep: " but its warnings and its notices that a binary file
//     matches, which are not failures;
//   - rg's: "rg: ..." (ripgrep 14), and, on stderr, ripgrep 13's messages
//     about a file, which name no program: "PATH: Permission denied (os
//     error 13)". Their shape is any Rust program's I/O error, which a
//     test prints on stdout too ("test t ... cannot read a.toml: No such
//     file or directory (os error 2)"): on stdout the search rules keep
//     them among their messages, unrequired.
//
// git grep's errors are git's "fatal:" lines, which the git finder
// requires. A line of text a search found that looks like one of these
// (grep -h 'grep: ' notes.txt) is required too: the search rules keep such
// lines among their messages.
var Finder = summarize.StreamFinder(func(_ *summarize.Run, s summarize.Stream) {
	if !summarize.ContainsAny(s.Raw, markers) {
		return
	}
	for i, l := range s.Lines {
		if isFailure(l) || s.Index == 1 && isOSError(l) {
			s.Require(strings.TrimSpace(l), l, i)
		}
	}
})

// markers are in every line the finder requires.
var markers = [][]byte{[]byte("grep: "), []byte("rg: "), []byte(" (os error ")}

// isFailure reports whether l is an error line of grep or rg.
func isFailure(l string) bool {
	switch {
	case strings.HasPrefix(l, "grep: "):
		return !strings.HasPrefix(l, "grep: warning: ") && !binaryNotice(l, "grep")
	}
	return strings.HasPrefix(l, "rg: ")
}
