package summarize

import "strings"

// logSubjectsCap is how many commit lines the body copies (contract §4: the
// first 15 subjects).
const logSubjectsCap = 15

// gitLog summarizes bash.git_log for --oneline output: the number of commit
// lines, the first ones as printed, and past that cap the lines an agent
// must not lose: merges and lines carrying refs (tags, branch heads). A
// capped log that silently hid merge commits is a known failure of peer
// tools. --oneline does not mark merges; a subject starting with "Merge "
// (the message git writes for a merge) is the only sign in the output, so
// merges are reported under that name, as subjects, not as a count of
// commits with two parents.
func gitLog(r *Run) *Body {
	commits, laterMerges := NewCapped(logSubjectsCap), NewCapped(logSubjectsCap)
	laterDecorated, other := NewCapped(logSubjectsCap), NewCapped(otherCap)
	merges := 0
	for l := range EachLine(r.Stdout) {
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
	b := &Body{}
	if showCounts(r, commits.Total > 0) {
		b.Count("commits", commits.Total)
		b.Count("merge_subjects", merges)
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
