package lint

import (
	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// pycodestyle (2.10) prints its findings in flake8's default format, which
// is pycodestyle's own ("PATH:ROW:COL: CODE TEXT", codes E and W, E9 for
// what it cannot parse), --count's total and --statistics' lines as
// flake8 does: the rule reads it as bash.flake8.

// MatchPycodestyle recognizes pycodestyle and python -m pycodestyle
// (matchPycodestyle).
func MatchPycodestyle(argv []string) classify.Answer {
	return matchPyTool(argv, "pycodestyle", matchPycodestyle)
}

// pycodestyleFormats are the pycodestyle options whose output the rule
// does not read: another format (--format other than default), source
// lines and carets or the PEP 8 text under each finding, file names only
// (-q), a diff read from stdin, timings, its self-tests, help and the
// version. pycodestyle's option parser (optparse) takes any unambiguous
// abbreviation, which matches too.
var pycodestyleFormats = []string{
	"--format", "--show-source", "--show-pep8", "--quiet", "--diff", "--benchmark",
	"--testsuite", "--doctest", "--help", "--version",
}

// matchPycodestyle accepts pycodestyle with any options except
// pycodestyleFormats and a short-option cluster with q or h.
func matchPycodestyle(argv []string, from int) classify.Answer {
	return matchFormats(argv, from, pycodestyleFormats, "")
}

// Pycodestyle summarizes bash.pycodestyle as bash.flake8 (Flake8).
func Pycodestyle(r *summarize.Run) *summarize.Body { return Flake8(r) }
