package git

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchLog recognizes git log with --oneline and an allowlist of options.
// The walk knows which options take the next word as their value, because
// git log --grep --oneline searches for "--oneline" and prints full commits,
// and git log -- --oneline names a path.
func MatchLog(argv []string) classify.Answer {
	return matchSub(argv, "log", func(argv []string, sub int) classify.Answer {
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
			case logValues[a]:
				j++
			case logFlags[name] || logValues[name]:
			default:
				return classify.Refuse(j, "unsupported git log option %q", a)
			}
		}
		if !oneline {
			return classify.Refuse(sub, "git log without --oneline")
		}
		return classify.Accept()
	})
}

// logFlags are the git log options accepted next to --oneline: none of
// them changes the one-line-per-commit output, and none takes the next word
// as its value (--decorate, --abbrev and --branches take one only as
// --name=value, which is accepted too).
var logFlags = map[string]bool{
	"--all": true, "--branches": true, "--tags": true, "--remotes": true,
	"--no-merges": true, "--merges": true, "--first-parent": true, "--reverse": true,
	"--decorate": true, "--no-decorate": true, "--abbrev": true, "--abbrev-commit": true,
	"--no-abbrev-commit": true, "--topo-order": true, "--date-order": true,
	"--author-date-order": true, "--follow": true, "--no-color": true,
	"-i": true, "--regexp-ignore-case": true, "-E": true, "--extended-regexp": true,
	"-F": true, "--fixed-strings": true, "--all-match": true, "--invert-grep": true,
}

// logValues are the git log options accepted next to --oneline that take
// a value, either as --name=value or as the next word.
var logValues = map[string]bool{
	"-n": true, "--max-count": true, "--skip": true, "--since": true, "--after": true,
	"--until": true, "--before": true, "--author": true, "--committer": true, "--grep": true,
	"--date": true,
}

// isCount reports whether a is a commit limit written -5 or -n5.
func isCount(a string) bool {
	digits := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "n")
	return len(digits) > 0 && strings.Trim(digits, "0123456789") == ""
}

// logSubjectsCap is how many commit lines the body copies (docs/format.md,
// bash.git_log: the first 15 subjects).
const logSubjectsCap = 15

// Log summarizes bash.git_log for --oneline output: the number of commit
// lines, the first ones as printed, and past that cap the lines an agent
// must not lose: merges and lines carrying refs (tags, branch heads). A
// capped log that silently hid merge commits is a known failure of peer
// tools. --oneline does not mark merges; a subject starting with "Merge "
// (the message git writes for a merge) is the only sign in the output, so
// merges are reported under that name, as subjects, not as a count of
// commits with two parents.
func Log(r *summarize.Run) *summarize.Body {
	commits, laterMerges := summarize.NewCapped(logSubjectsCap), summarize.NewCapped(logSubjectsCap)
	laterDecorated, other := summarize.NewCapped(logSubjectsCap), summarize.NewCapped(otherCap)
	merges := 0
	for l := range summarize.EachLine(r.Stdout) {
		subject, ok := logCommitLine(l)
		if !ok {
			if !isGraphOnly(l) {
				other.Add(l)
			}
			continue
		}
		later := commits.Total >= logSubjectsCap
		if isMergeSubject(subject) {
			merges++
			if later {
				laterMerges.Add(l)
			}
		}
		if later && isDecorated(subject) {
			laterDecorated.Add(l)
		}
		commits.Add(l)
	}
	b := &summarize.Body{}
	if showCounts(r, commits.Total > 0) {
		b.Tally("commits", commits.Total)
		b.Tally("merge_subjects", merges)
	}
	b.ListCapped("subjects", commits)
	b.ListCapped("later_merge_subjects", laterMerges)
	b.ListCapped("later_decorated_subjects", laterDecorated)
	b.ListCapped("other_lines", other)
	addStderr(b, r.Stderr)
	return b
}

// graphChars are the characters --graph draws with; '*' marks a commit.
const graphChars = "*|/\\_.- "

// logCommitLine reports whether l is a commit line, "HASH SUBJECT" after
// an optional --graph prefix holding a '*', and returns what follows the
// hash (the decorations, if any, and the subject).
func logCommitLine(l string) (string, bool) {
	i := 0
	for i < len(l) && strings.IndexByte(graphChars, l[i]) >= 0 {
		i++
	}
	if i > 0 && !strings.Contains(l[:i], "*") {
		return "", false
	}
	hash, rest, _ := strings.Cut(l[i:], " ")
	if len(hash) < 4 || len(hash) > 64 || strings.Trim(hash, "0123456789abcdef") != "" {
		return "", false
	}
	return rest, true
}

// isGraphOnly reports whether l is a --graph line without a commit
// ("|\", "|/", "| |"), which carries nothing to summarize.
func isGraphOnly(l string) bool {
	return strings.Trim(l, graphChars) == "" && !strings.Contains(l, "*")
}

// isMergeSubject reports whether a commit line's text after the hash starts
// with "Merge ", past the "(HEAD -> main, tag: v1)" decorations if any.
func isMergeSubject(s string) bool {
	if isDecorated(s) {
		_, s, _ = strings.Cut(s, ") ")
	}
	return strings.HasPrefix(s, "Merge ")
}

// isDecorated reports whether a commit line's text after the hash starts
// with --decorate's "(refs) ". A subject that itself starts with "(" looks
// the same; the line is then listed needlessly, never lost.
func isDecorated(s string) bool {
	return strings.HasPrefix(s, "(") && strings.Contains(s, ") ")
}
