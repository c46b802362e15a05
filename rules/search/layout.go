package search

import "strings"

// layout is what a search command's options say about its output, as the
// parser needs it: which of the tools' forms each line has.
type layout struct {
	tool string // "rg", "grep" or "git grep": whose messages to expect
	mode mode
	// names says whether result lines start with the file's name;
	// guessNames that it depends on whether root, the one path operand,
	// is a directory (searched recursively, with names) or a file.
	names nameMode
	root  string
	// only1 is the one path operand, when there is one: the file of a
	// search whose lines carry no name.
	only1   string
	numbers bool // a line number after the name: "file:12:text"
	column  bool // a column after the line number (rg --column, --vimgrep)
	context bool // -A/-B/-C: "--" between groups, "-" after context lines' name and number
	heading bool // rg --heading: each file's name on a line of its own over its lines
	only    bool // -o, --vimgrep: a line per match, not per matching line
	// matchCounts: the counts are of matches (rg --count-matches), not of
	// matching lines.
	matchCounts bool
	// revs are git grep's operands before "--" that may name a revision,
	// whose lines then start with "REV:".
	revs []string
}

type mode int

const (
	linesMode   mode = iota // result lines
	countMode               // -c: "file:N"
	filesMode               // -l: a file name per line
	withoutMode             // -L, --files-without-match
)

type nameMode int

const (
	withNames nameMode = iota
	noNames
	guessNames
)

// rootPrefix is what the names of files found under the directory root
// start with, as the tools join them: "src/a.go" under "src" or "src/".
func rootPrefix(root string) string {
	if strings.HasSuffix(root, "/") {
		return root
	}
	return root + "/"
}
