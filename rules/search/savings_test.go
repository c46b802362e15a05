package search_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/history/tokens"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// TestSavings logs what the search rules save on their corpus, in o200k
// tokens: the raw output against what the agent gets, the block or, when
// the block is not worth it, the raw output itself.
//
//	go test ./rules/search -run Savings -v
func TestSavings(t *testing.T) {
	type sum struct{ cases, raw, got int }
	per := map[string]*sum{}
	for _, c := range ruletest.Corpus(t, "testdata") {
		raw := tokens.Count(append(append([]byte(nil), c.Run.Stdout...), c.Run.Stderr...))
		got := raw
		if block, ok := rules.Block(c.Run); ok {
			if n := tokens.Count(block); n < raw {
				got = n
			}
		}
		s := per[c.Run.Rule]
		if s == nil {
			s = &sum{}
			per[c.Run.Rule] = s
		}
		s.cases++
		s.raw += raw
		s.got += got
	}
	for rule, s := range per {
		t.Logf("%-14s %2d cases: %7d tokens raw, %6d shown (%.0f%% saved)", rule, s.cases, s.raw, s.got, 100*(1-float64(s.got)/float64(s.raw)))
	}
}

// BenchmarkLargeSearch is Block on the corpus' searches with thousands of
// matches in hundreds of files (3569 matching lines in 309 files).
//
//	go test ./rules/search -run '^$' -bench LargeSearch
func BenchmarkLargeSearch(b *testing.B) {
	for _, c := range ruletest.Corpus(b, "testdata") {
		switch c.Name {
		case "rg/proj_n", "grep/proj_rn", "git_grep/n":
		default:
			continue
		}
		b.Run(c.Name, func(b *testing.B) {
			b.SetBytes(int64(len(c.Run.Stdout) + len(c.Run.Stderr)))
			for b.Loop() {
				rules.Block(c.Run)
			}
		})
	}
}
