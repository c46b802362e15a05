package git

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The git rules' matchers share the way to git's subcommand (docs/classify.md,
// git rules): only --no-pager may come before it, and any other global
// option (-C, -c, --git-dir) passes through.

// matchSub reads git [--no-pager] NAME ...: m reads the words after the
// subcommand, at argv[sub]. Another subcommand is another rule's.
func matchSub(argv []string, name string, m func(argv []string, sub int) classify.Answer) classify.Answer {
	i := 1
	if i < len(argv) && argv[i] == "--no-pager" {
		i++
	}
	switch {
	case i == len(argv):
		return classify.Other(0, "not a recognized command")
	case strings.HasPrefix(argv[i], "-"):
		return classify.Refuse(i, "git global option %q", argv[i])
	case argv[i] != name:
		return classify.Other(i, "not a recognized command")
	}
	if a, ok := classify.HelpFlag(argv, i+1); ok {
		return a
	}
	return m(argv, i)
}

// diffFormats are the git diff options that replace or remove the patch
// and --stat output the summarizer reads. They match as prefixes, so
// --word-diff-regex, --dirstat-by-file, --output-indicator-new and
// --color-words are covered. docs/classify.md gives the reason for each.
var diffFormats = []string{
	"--name-only", "--name-status", "--raw", "--patch-with-raw", "--numstat",
	"--shortstat", "--summary", "--compact-summary", "--dirstat", "--word-diff",
	"--color", "--no-patch", "--quiet", "--check", "--output", "--ext-diff",
	"--line-prefix", "--no-prefix", "--src-prefix", "--dst-prefix",
	"--irreversible-delete", "--binary",
}

// diffShort are the short options among diffFormats (-s, -z for NUL
// separators, -X for --dirstat, -D), found even inside a cluster like -Rz.
const diffShort = "szXD"
