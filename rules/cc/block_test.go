package cc_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// The tests that need a whole block, or every family's finder, as
// rules.Block and rules.Finders() give them.

func TestGolden(t *testing.T) {
	ruletest.Golden(t, "testdata", rules.Block)
}

func TestCorpusProperties(t *testing.T) {
	ruletest.Properties(t, "testdata", rules.Block, rules.Finders())
}
