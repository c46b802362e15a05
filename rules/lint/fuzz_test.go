package lint_test

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/shrinkrun/shrinkrun/compress"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

var (
	corpusOnce sync.Once
	corpus     []ruletest.Case
)

// lintCorpus returns the lint cases of the corpus.
func lintCorpus(t testing.TB) []ruletest.Case {
	corpusOnce.Do(func() {
		for _, c := range ruletest.Corpus(t, "testdata") {
			if isLintRule(c.Run.Rule) {
				corpus = append(corpus, c)
			}
		}
	})
	return corpus
}

// FuzzCut cuts the real outputs of the corpus as a filter after them
// would (head -N, tail -N, grep WORD, grep -v WORD), with Run.Cut as
// classify sets it for that command, and holds the block to the reference
// reading of the cut output (checkBlock), to the boundary check's oracle,
// and to the raw size: a block bigger than the cut output is only allowed
// where compress.Worth prints the raw output instead.
func FuzzCut(f *testing.F) {
	for i := range lintCorpus(f) {
		f.Add(uint16(i), uint8(0), uint16(5), "")
		f.Add(uint16(i), uint8(1), uint16(7), "")
		f.Add(uint16(i), uint8(2), uint16(0), "F821")
		f.Add(uint16(i), uint8(3), uint16(0), "E501")
		f.Add(uint16(i), uint8(2), uint16(0), "errcheck")
		f.Add(uint16(i), uint8(3), uint16(0), "unused")
	}
	f.Fuzz(func(t *testing.T, idx uint16, op uint8, n uint16, word string) {
		cases := lintCorpus(t)
		c := cases[int(idx)%len(cases)]
		out := c.Run.Stdout
		var filter string
		switch op % 4 {
		case 0:
			filter = "head -" + strconv.Itoa(int(n))
			out = ruletest.Head(out, int(n))
		case 1:
			filter = "tail -" + strconv.Itoa(int(n))
			out = ruletest.Tail(out, int(n))
		default:
			word = strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
					return r
				}
				return -1
			}, word)
			if word == "" {
				t.Skip()
			}
			invert := op%4 == 3
			filter = "grep " + word
			if invert {
				filter = "grep -v " + word
			}
			out = ruletest.Grep(out, func(l string) bool { return strings.Contains(l, word) != invert })
		}
		cmd := c.Run.Command + " | " + filter
		cls := rules.String(cmd)
		if cls.Rule != c.Run.Rule {
			t.Fatalf("%q: %s", cmd, cls.Explain())
		}
		r := *c.Run
		r.Command, r.Argv, r.Cut = cmd, cls.Stages[0], summarize.Cut(cls.Cuts())
		r.Stdout, r.StdoutBytes = out, int64(len(out))
		b, ok := rules.Block(&r)
		if !ok {
			t.Fatalf("%s | %s: no block", c.Name, filter)
		}
		for _, e := range checkBlock(c.Run.Rule, &r, b) {
			t.Errorf("%s | %s: %s", c.Name, filter, e)
		}
		if missing := ruletest.Unaccounted(&r, b, rules.Finders()); missing > 0 {
			t.Errorf("%s | %s: %d failures neither shown nor counted", c.Name, filter, missing)
		}
		raw := r.StdoutBytes + r.StderrBytes
		rawTokens := summarize.EstimateTokens(r.Stdout) + summarize.EstimateTokens(r.Stderr)
		if int64(len(b)) > raw && compress.Worth(len(b), raw, summarize.EstimateTokens(b), int64(rawTokens)) {
			t.Errorf("%s | %s: a block of %d bytes for %d raw", c.Name, filter, len(b), raw)
		}
	})
}
