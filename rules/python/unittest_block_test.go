package python_test

import (
	"bytes"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// TestNoFallback: every python case, whether its command or its output
// chose the rule, gets its rule's own block at the default budget and a
// tight one, never the boundary check's fallback: the rules keep what the
// finders require.
func TestNoFallback(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		for _, budget := range []int{summarize.DefaultBudget, 4096} {
			r := *c.Run
			r.Budget = budget
			if b := ruletest.MustBlock(t, rules.Block, &r); bytes.Contains(b, []byte("\nfallback: true\n")) {
				t.Errorf("%s@%d: the fallback:\n%s", c.Name, budget, b)
			}
		}
	}
}
