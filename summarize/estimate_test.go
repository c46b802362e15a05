package summarize

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/history/tokens"
)

// TestEstimateTokens holds the estimate to the real o200k count over the
// corpus: for raw outputs and for the blocks made from them, in total and
// for each case of a reasonable size.
func TestEstimateTokens(t *testing.T) {
	var est, real int
	for _, c := range loadCorpus(t) {
		block, _ := BlockOf(c.run)
		for _, b := range [][]byte{append(append([]byte(nil), c.run.Stdout...), c.run.Stderr...), block} {
			e, r := EstimateTokens(b), tokens.Count(b)
			est += e
			real += r
			if r > 500 && (e < r*6/10 || e > r*14/10) {
				t.Errorf("%s: estimate %d for %d tokens", c.name, e, r)
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
	for _, c := range loadCorpus(b) {
		data = append(data, c.run.Stdout...)
		data = append(data, c.run.Stderr...)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		EstimateTokens(data)
	}
}
