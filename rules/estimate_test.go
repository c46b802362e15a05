package rules_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/history/tokens"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// TestEstimateTokens holds the estimate to the real o200k count over the
// corpus: for raw outputs and for the blocks made from them, in total and
// for each case of a reasonable size.
func TestEstimateTokens(t *testing.T) {
	var est, real int
	for _, c := range ruletest.Corpus(t, "*/testdata") {
		block, _ := rules.Block(c.Run)
		for _, b := range [][]byte{append(append([]byte(nil), c.Run.Stdout...), c.Run.Stderr...), block} {
			e, r := summarize.EstimateTokens(b), tokens.Count(b)
			est += e
			real += r
			if r > 500 && (e < r*6/10 || e > r*14/10) {
				t.Errorf("%s: estimate %d for %d tokens", c.Name, e, r)
			}
		}
	}
	if est < real*8/10 || est > real*12/10 {
		t.Errorf("corpus: estimate %d for %d tokens", est, real)
	}
	t.Logf("corpus: estimate %d for %d tokens (%.2f)", est, real, float64(est)/float64(real))
}

func BenchmarkEstimateTokens(b *testing.B) {
	var data []byte
	for _, c := range ruletest.Corpus(b, "*/testdata") {
		data = append(data, c.Run.Stdout...)
		data = append(data, c.Run.Stderr...)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		summarize.EstimateTokens(data)
	}
}
