package cc_test

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/shrinkrun/shrinkrun/history/tokens"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// TestSavings prints, per rule of the corpus, the o200k tokens of the raw
// outputs and of their blocks, and of what an agent is shown when a block
// not smaller than the output is not printed (go test -run TestSavings -v
// ./rules/cc). It states figures and never fails.
func TestSavings(t *testing.T) {
	type sums struct{ cases, raw, block, shown int }
	per := map[string]*sums{}
	for _, c := range ruletest.Corpus(t, "testdata") {
		raw := tokens.Count(append(append([]byte(nil), c.Run.Stdout...), c.Run.Stderr...))
		b := tokens.Count(ruletest.MustBlock(t, rules.Block, c.Run))
		for _, k := range []string{filepath.Base(c.Dir), "all"} {
			s := per[k]
			if s == nil {
				s = &sums{}
				per[k] = s
			}
			s.cases++
			s.raw += raw
			s.block += b
			s.shown += min(raw, b)
		}
	}
	keys := make([]string, 0, len(per))
	for k := range per {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := per[k]
		t.Logf("%-12s %3d cases: raw %7d tokens, blocks %6d (%.1f%%), shown %6d (saved %.1f%%)", k, s.cases, s.raw, s.block,
			100*float64(s.block)/float64(s.raw), s.shown, 100-100*float64(s.shown)/float64(s.raw))
	}
}
