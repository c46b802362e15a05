package classify

import (
	"fmt"
	"slices"
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

// Legacy is the matcher of the families whose rules are not in package
// rules' table yet.
func Legacy(argv []string) Verdict {
	if m, ok := families[argv[0]]; ok {
		v := m(argv)
		return Verdict{Rule: v.rule, Reason: v.reason, At: v.at}
	}
	return Verdict{Reason: "not a recognized command"}
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
	case "status", "diff", "log", "push", "pull", "fetch", "clone", "show":
	default:
		return refused(sub, "not a recognized command")
	}
	if v, ok := helpFlag(argv, sub+1); ok {
		return v
	}
	switch argv[sub] {
	case "push", "pull", "fetch", "clone":
		return matchGitRemote(argv, sub)
	case "show":
		return matchGitShow(argv, sub)
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

// gitRemoteRules are the rules of git's network verbs.
var gitRemoteRules = map[string]string{
	"push": GitPush, "pull": GitPull, "fetch": GitFetch, "clone": GitClone,
}

// gitRemoteFormats are the options of push, pull, fetch and clone that
// replace the human-readable ref lines the summarizer reads: --porcelain
// (push, and fetch from git 2.41) prints tab-separated machine lines, and
// fetch --negotiate-only prints object ids.
var gitRemoteFormats = []string{"--porcelain", "--negotiate-only"}

// matchGitRemote accepts git push, pull, fetch and clone with any arguments
// but the format options above. Their output is progress meters, ref
// lines and messages in any combination, and -q, -v, --progress,
// --dry-run, --rebase or --depth only change which of them appear.
func matchGitRemote(argv []string, sub int) verdict {
	if j := formatFlag(argv, sub+1, gitRemoteFormats, ""); j >= 0 {
		return refused(j, "option %q changes the output format", argv[j])
	}
	return verdict{rule: gitRemoteRules[argv[sub]]}
}

// gitShowFormats are the git show options, besides git diff's, that
// replace the commit header the summarizer reads (--format, --pretty,
// --oneline), draw a graph in front of every line, or add lines it does not
// know (signatures, log sizes). They match as prefixes, as for git diff.
var gitShowFormats = slices.Concat(gitDiffFormats, []string{
	"--format", "--pretty", "--oneline", "--graph", "--show-signature", "--log-size",
})

// matchGitShow accepts git show of commits and tags. Besides the format
// options, a revision word with a colon passes through: HEAD:src/x.go
// names a file, HEAD: a tree, :0:x the index, and git show prints the
// file's content or the tree's listing, which the agent asked to read.
func matchGitShow(argv []string, sub int) verdict {
	if j := formatFlag(argv, sub+1, gitShowFormats, gitDiffShort); j >= 0 {
		return refused(j, "option %q changes the output format", argv[j])
	}
	for j := sub + 1; j < len(argv); j++ {
		if !strings.HasPrefix(argv[j], "-") && strings.Contains(argv[j], ":") {
			return refused(j, "%q names a file or tree, whose content git show prints", argv[j])
		}
	}
	return verdict{rule: GitShow}
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
	formats := cargoFormats
	switch argv[i] {
	case "check":
		rule = CargoCheck
	case "test":
		rule = CargoTest
	case "build":
		rule, formats = CargoBuild, cargoBuildFormats
	case "clippy":
		rule, formats = CargoClippy, cargoClippyFormats
	default:
		return refused(i, "not a recognized command")
	}
	if v, ok := helpFlag(argv, i+1); ok {
		return v
	}
	// -h and -V can hide in a short-option cluster such as -qh.
	if j := formatFlag(argv, i+1, formats, "hV"); j >= 0 {
		return refused(j, "option %q changes the output format", argv[j])
	}
	return verdict{rule: rule}
}

// cargoBuildFormats adds to cargoFormats what cargo build alone prints:
// --timings writes an HTML report and names it on a status line the build
// summary does not keep.
var cargoBuildFormats = slices.Concat(cargoFormats, []string{"--timings"})

// cargoClippyFormats adds --fix to cargoFormats: cargo clippy --fix edits
// the sources and reports each file it fixed on status lines the lint
// summary does not keep; --timings as for cargo build. Lint options after
// "--" (-D warnings, -W clippy::pedantic) keep the format.
var cargoClippyFormats = slices.Concat(cargoFormats, []string{"--fix", "--timings"})

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
