package git_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/compress"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// uncut is FuzzCut's inputs: the corpus cases no filter cut whose command
// takes one (not git status 2>&1 1>&2, whose pipe would read nothing).
func uncut(t testing.TB) []ruletest.Case {
	var cases []ruletest.Case
	for _, c := range ruletest.Corpus(t, "testdata") {
		if len(c.Run.Cut.By) == 0 && len(c.Run.Stdout) > 0 && classifyCut(c.Run.Rule, c.Run.Command+" | tail -1").Rule != "" {
			cases = append(cases, c)
		}
	}
	return cases
}

// classifyCut classifies a corpus case's command with a filter, as the
// corpus loader does: the rule is the case's.
func classifyCut(rule, cmd string) classify.Result {
	return classify.String(cmd, func([]string) classify.Verdict { return classify.Verdict{Rule: rule} })
}

// Cut forms FuzzCut applies, by the fuzzer's mode byte.
const (
	cutTail = iota
	cutHead
	cutGrep
	cutGrepV
	cutTailHead
	cutModes
)

// FuzzCut cuts real corpus outputs at random, as tail -N, head -N,
// grep -F of a word of one of the lines, grep -v -F of one, or a tail then
// a head, with Run.Cut as classify sets it for the piped command, and
// holds the block to the reference reader (statementProblems): no count
// the cut text contradicts, no file, entry or commit it shows left out,
// no failure line unaccounted for, a valid header, and never bigger than
// the cut output when it would be printed.
func FuzzCut(f *testing.F) {
	cases := uncut(f)
	for i := range cases {
		f.Add(uint(i), uint8(i%cutModes), uint16(7*i), uint16(3*i+1))
	}
	f.Fuzz(func(t *testing.T, i uint, mode uint8, n, m uint16) {
		c := cases[i%uint(len(cases))]
		r := *c.Run
		filter, stdout, ok := cut(r.Stdout, mode%cutModes, int(n), int(m))
		if !ok {
			return
		}
		r.Command = c.Run.Command + " | " + filter
		cls := classifyCut(r.Rule, r.Command)
		if cls.Rule == "" {
			t.Fatalf("%s: the cut command %q is not recognized: %s", c.Name, r.Command, cls.Reason)
		}
		r.Cut = summarize.Cut(cls.Cuts())
		r.Stdout = stdout
		r.StdoutBytes = int64(len(stdout))
		block, ok := rules.Block(&r)
		if !ok {
			t.Fatalf("%s | %s: no block", c.Name, filter)
		}
		problems := statementProblems(&r, block)
		p, err := ruletest.Parse(block)
		if err == nil && (p.Header["rule"] != r.Rule || p.Header["command"] != r.Command) {
			problems = append(problems, fmt.Sprintf("header rule %q command %q", p.Header["rule"], p.Header["command"]))
		}
		if missing := ruletest.Unaccounted(&r, block, rules.Finders()); missing > 0 {
			problems = append(problems, fmt.Sprintf("%d failure lines neither shown nor counted", missing))
		}
		raw := append(append([]byte{}, r.Stdout...), r.Stderr...)
		if compress.Worth(len(block), int64(len(raw)), summarize.EstimateTokens(block), int64(summarize.EstimateTokens(raw))) && len(block) > len(raw) {
			problems = append(problems, fmt.Sprintf("a %d-byte block for %d raw bytes", len(block), len(raw)))
		}
		if len(problems) > 0 {
			t.Fatalf("%s | %s:\n  %s\n%s", c.Name, filter, strings.Join(problems, "\n  "), block)
		}
	})
}

// cut applies the filter mode picks to out, with n and m as its line
// counts or the choice of a word, and returns the filter as written and
// what it prints; ok is false when the output has no word to grep for.
func cut(out []byte, mode uint8, n, m int) (filter string, cut []byte, ok bool) {
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	n %= len(lines) + 2
	switch mode {
	case cutTail:
		return fmt.Sprintf("tail -%d", n), ruletest.Tail(out, n), true
	case cutHead:
		return fmt.Sprintf("head -%d", n), ruletest.Head(out, n), true
	case cutTailHead:
		t := ruletest.Tail(out, n)
		m %= n + 2
		return fmt.Sprintf("tail -%d | head -%d", n, m), ruletest.Head(t, m), true
	}
	word := wordOf(lines[n%len(lines)], m)
	if word == "" {
		return "", nil, false
	}
	match := func(l string) bool { return strings.Contains(l, word) }
	if mode == cutGrepV {
		return "grep -v -F -e '" + word + "'", ruletest.Grep(out, func(l string) bool { return !match(l) }), true
	}
	return "grep -F -e '" + word + "'", ruletest.Grep(out, match), true
}

// wordOf picks the m-th (modulo their number) word of l made only of
// characters that need no quoting inside single quotes and that grep -F
// and strings.Contains agree on, or "".
func wordOf(l string, m int) string {
	words := strings.FieldsFunc(l, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:+-@#=", r))
	})
	if len(words) == 0 {
		return ""
	}
	return words[m%len(words)]
}
