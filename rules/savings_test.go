package rules_test

import (
	"slices"
	"testing"

	"github.com/shrinkrun/shrinkrun/history/tokens"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// TestSavings logs what each rule saves on its corpus, in o200k tokens: the
// raw output against what the agent gets, the block or, when the block is
// not worth it, the raw output itself. The cases whose rule their output
// chose (rules.Claim) are summed once more on a line of their own.
//
//	go test ./rules -run Savings -v
func TestSavings(t *testing.T) {
	type sum struct{ cases, raw, got int }
	per, byOutput := map[string]*sum{}, &sum{}
	for _, c := range ruletest.Corpus(t, "*/testdata") {
		raw := tokens.Count(append(append([]byte(nil), c.Run.Stdout...), c.Run.Stderr...))
		got := raw
		if block, ok := rules.Block(c.Run); ok {
			got = min(got, tokens.Count(block))
		}
		s := per[c.Run.Rule]
		if s == nil {
			s = &sum{}
			per[c.Run.Rule] = s
		}
		s.cases++
		s.raw += raw
		s.got += got
		if _, by := rules.Route(c.Run); by {
			byOutput.cases++
			byOutput.raw += raw
			byOutput.got += got
		}
	}
	ids := make([]string, 0, len(per))
	for id := range per {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		s := per[id]
		t.Logf("%-20s %3d cases: %7d tokens raw, %6d shown (%.0f%% saved)", id, s.cases, s.raw, s.got, 100*(1-float64(s.got)/float64(max(s.raw, 1))))
	}
	t.Logf("%-20s %3d cases: %7d tokens raw, %6d shown (%.0f%% saved)", "by output", byOutput.cases, byOutput.raw, byOutput.got, 100*(1-float64(byOutput.got)/float64(max(byOutput.raw, 1))))
}
