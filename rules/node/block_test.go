package node_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/node"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The tests that need a whole block, or every family's finder, as
// rules.Block and rules.Finders() give them.

func TestGolden(t *testing.T) {
	ruletest.Golden(t, "testdata", rules.Block)
}

func TestCorpusProperties(t *testing.T) {
	ruletest.Properties(t, "testdata", rules.Block, rules.Finders())
}

// TestNodeListingAcrossStreamsAll: a listed test reported on the other
// stream is not required twice, with every family's finder either.
func TestNodeListingAcrossStreamsAll(t *testing.T) {
	out, errs := node.ListingAcrossStreams()
	r := &summarize.Run{Stdout: []byte(out), Stderr: []byte(errs), Exited: true, ExitCode: 1}
	ruletest.EqualRequired(t, ruletest.Required(r, rules.Finders()...), []string{"src/a.test.js > d > adds", "subs"})
}
