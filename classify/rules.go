package classify

import (
	"fmt"
	"strings"
)

// verdict is the outcome of matching a first stage's argv: a rule, or the
// reason it passes through and the index of the word at fault.
type verdict struct {
	rule   string
	reason string
	at     int
}

func refused(at int, format string, args ...any) verdict {
	return verdict{reason: fmt.Sprintf(format, args...), at: at}
}

// families maps a command name to the matcher of its family. Each family
// lives in a file of its own with its rule ids.
var families = map[string]func(argv []string) verdict{
	"git":   matchGit,
	"cargo": matchCargo,

	"go": matchGo,

	"pytest": matchPython, "python": matchPython, "python3": matchPython,
	"mypy": matchPython, "pip": matchPython, "pip3": matchPython,

	"npm": matchNode, "pnpm": matchNode, "yarn": matchNode, "npx": matchNode,
	"vitest": matchNode, "jest": matchNode, "tsc": matchNode, "eslint": matchNode,
}

// match picks the rule for argv, a first stage without its assignments.
func match(argv []string) verdict {
	if m, ok := families[argv[0]]; ok {
		return m(argv)
	}
	return refused(0, "not a recognized command")
}

// gitStatusArgs are the only arguments git_status accepts (contract §3):
// each keeps the short or long format the summarizer reads.
var gitStatusArgs = map[string]bool{
	"--short": true, "--porcelain": true, "--porcelain=v1": true, "-sb": true,
	"--branch": true, "-s": true, "-b": true, "--long": true,
}

// gitDiffFormats are the git diff options that replace or remove the patch
// and --stat output the summarizer reads. They match as prefixes, so
// --word-diff-regex, --dirstat-by-file, --output-indicator-new and
// --color-words are covered. docs/classify.md gives the reason for each.
var gitDiffFormats = []string{
	"--name-only", "--name-status", "--raw", "--patch-with-raw", "--numstat",
	"--shortstat", "--summary", "--compact-summary", "--dirstat", "--word-diff",
	"--color", "--no-patch", "--quiet", "--check", "--output", "--ext-diff",
	"--line-prefix", "--no-prefix", "--src-prefix", "--dst-prefix",
	"--irreversible-delete", "--binary",
}

// gitDiffShort are the short options among gitDiffFormats (-s, -z for NUL
// separators, -X for --dirstat, -D), found even inside a cluster like -Rz.
const gitDiffShort = "szXD"

// cargoFormats are the cargo and libtest options that replace the
// human-readable output (JSON, terse or listing formats, colors, a log file).
var cargoFormats = []string{
	"--message-format", "--format", "--list", "--color", "--logfile",
	"--unit-graph", "--build-plan",
}

func matchGit(argv []string) verdict {
	i := 1
	if i < len(argv) && argv[i] == "--no-pager" {
		i++
	}
	switch {
	case i == len(argv):
		return refused(0, "not a recognized command")
	case strings.HasPrefix(argv[i], "-"):
		return refused(i, "git global option %q", argv[i])
	}
	sub := i
	switch argv[sub] {
	case "status", "diff", "log":
	default:
		return refused(sub, "not a recognized command")
	}
	if v, ok := helpFlag(argv, sub+1); ok {
		return v
	}
	switch argv[sub] {
	case "status":
		for j := sub + 1; j < len(argv); j++ {
			if !gitStatusArgs[argv[j]] {
				return refused(j, "unsupported git status argument %q", argv[j])
			}
		}
		return verdict{rule: GitStatus}
	case "diff":
		if j := formatFlag(argv, sub+1, gitDiffFormats, gitDiffShort); j >= 0 {
			return refused(j, "option %q changes the output format", argv[j])
		}
		return verdict{rule: GitDiff}
	}
	return matchGitLog(argv, sub)
}

// gitLogFlags are the git log options accepted next to --oneline: none of
// them changes the one-line-per-commit output, and none takes the next word
// as its value (--decorate, --abbrev and --branches take one only as
// --name=value, which is accepted too).
var gitLogFlags = map[string]bool{
	"--all": true, "--branches": true, "--tags": true, "--remotes": true,
	"--no-merges": true, "--merges": true, "--first-parent": true, "--reverse": true,
	"--decorate": true, "--no-decorate": true, "--abbrev": true, "--abbrev-commit": true,
	"--no-abbrev-commit": true, "--topo-order": true, "--date-order": true,
	"--author-date-order": true, "--follow": true, "--no-color": true,
	"-i": true, "--regexp-ignore-case": true, "-E": true, "--extended-regexp": true,
	"-F": true, "--fixed-strings": true, "--all-match": true, "--invert-grep": true,
}

// gitLogValues are the git log options accepted next to --oneline that take
// a value, either as --name=value or as the next word.
var gitLogValues = map[string]bool{
	"-n": true, "--max-count": true, "--skip": true, "--since": true, "--after": true,
	"--until": true, "--before": true, "--author": true, "--committer": true, "--grep": true,
	"--date": true,
}

// matchGitLog accepts git log with --oneline and an allowlist of options.
// The walk knows which options take the next word as their value, because
// git log --grep --oneline searches for "--oneline" and prints full commits,
// and git log -- --oneline names a path.
func matchGitLog(argv []string, sub int) verdict {
	oneline := false
	for j := sub + 1; j < len(argv); j++ {
		a := argv[j]
		name, _, _ := strings.Cut(a, "=")
		switch {
		case a == "--":
			j = len(argv) // the rest are paths
		case !strings.HasPrefix(a, "-") || isCount(a):
		case a == "--oneline":
			oneline = true
		case gitLogValues[a]:
			j++
		case gitLogFlags[name] || gitLogValues[name]:
		default:
			return refused(j, "unsupported git log option %q", a)
		}
	}
	if !oneline {
		return refused(sub, "git log without --oneline")
	}
	return verdict{rule: GitLog}
}

// isCount reports whether a is a commit limit written -5 or -n5.
func isCount(a string) bool {
	digits := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "n")
	return len(digits) > 0 && strings.Trim(digits, "0123456789") == ""
}

func matchCargo(argv []string) verdict {
	i := 1
	if i < len(argv) && len(argv[i]) > 1 && argv[i][0] == '+' {
		i++ // a rustup toolchain, +nightly
	}
	switch {
	case i == len(argv):
		return refused(0, "not a recognized command")
	case strings.HasPrefix(argv[i], "-"):
		return refused(i, "cargo option %q before the subcommand", argv[i])
	}
	var rule string
	switch argv[i] {
	case "check":
		rule = CargoCheck
	case "test":
		rule = CargoTest
	default:
		return refused(i, "not a recognized command")
	}
	if v, ok := helpFlag(argv, i+1); ok {
		return v
	}
	// -h and -V can hide in a short-option cluster such as -qh.
	if j := formatFlag(argv, i+1, cargoFormats, "hV"); j >= 0 {
		return refused(j, "option %q changes the output format", argv[j])
	}
	return verdict{rule: rule}
}

// helpFlag finds a help or version request from argv[from] on: the output
// is then a manual, not what the rule summarizes.
func helpFlag(argv []string, from int) (verdict, bool) {
	for j := from; j < len(argv); j++ {
		switch argv[j] {
		case "--help", "-h", "--version", "-V":
			return refused(j, "help or version requested (%s)", argv[j]), true
		}
	}
	return verdict{}, false
}

// formatFlag returns the index of the first word from argv[from] on that
// starts with one of the long options, or is a short-option cluster (-abc)
// containing one of the short letters; -1 when there is none. Every word is
// checked, values and paths included: a false match only passes through.
func formatFlag(argv []string, from int, long []string, short string) int {
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short) {
			return j
		}
		for _, l := range long {
			if strings.HasPrefix(a, l) {
				return j
			}
		}
	}
	return -1
}
