// Package shipped_test holds the rules shrinkrun ships written in its rule
// format (testdata/NAME.toml, compiled into the table by package rules) to
// their test cases, the real outputs beside each (testdata/NAME/CASE.*,
// made by testdata/NAME.sh): the golden blocks, the properties every block
// has, and what the table says of each file.
package shipped_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestGolden(t *testing.T) { ruletest.Golden(t, "testdata", rules.Block) }

// TestProperties: every case's block, at the default budget and tight
// ones, is the same bytes twice, valid UTF-8, within the budget unless only
// counts are left, and shows or counts every failure that every family's
// finder and the rule's own failure patterns find.
func TestProperties(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		rule, _ := rules.Lookup(c.Run.Rule)
		finders := append(rules.Finders(), rule.Finder)
		for _, budget := range []int{summarize.DefaultBudget, 2048, 1024, 512} {
			r := *c.Run
			r.Budget = budget
			r.RawOutput = "shrinkrun show 0123456789abcdef"
			b, ok := rules.Block(&r)
			again, _ := rules.Block(&r)
			switch {
			case !ok:
				t.Errorf("%s@%d: no block", c.Name, budget)
			case !bytes.Equal(b, again):
				t.Errorf("%s@%d: not deterministic", c.Name, budget)
			case !utf8.Valid(b):
				t.Errorf("%s@%d: invalid UTF-8", c.Name, budget)
			case len(b) > budget && bytes.Contains(b, []byte("\n- ")):
				t.Errorf("%s@%d: %d bytes with list items left", c.Name, budget, len(b))
			}
			if missing := ruletest.Unshown(&r, b, finders); missing > 0 {
				t.Errorf("%s@%d: %d failures not shown:\n%s", c.Name, budget, missing, b)
			}
		}
	}
}

// TestShipped: every rule file in testdata is in the table and loads; the
// commands and forms the table gives it are the file's own; each has test
// cases, whose commands it recognizes.
func TestShipped(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.toml")
	var names []string
	for _, l := range rules.Shipped() {
		names = append(names, filepath.Join("testdata", l.Name()))
		r, err := l.Rule()
		if err != nil {
			t.Errorf("%s: %v", l.Name(), err)
			continue
		}
		entry, ok := rules.Lookup(r.ID)
		if !ok {
			t.Errorf("%s: no rule %s in the table", l.Name(), r.ID)
			continue
		}
		if !slices.Equal(entry.Commands, r.Commands) || !slices.Equal(entry.Usage, r.Usage) {
			t.Errorf("%s: the table routes %q with forms %q, the file says %q and %q", r.ID, entry.Commands, entry.Usage, r.Commands, r.Usage)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, files) {
		t.Errorf("the table ships %q, testdata holds %q", names, files)
	}
	for _, c := range ruletest.Corpus(t, "testdata") {
		if got := rules.String(c.Run.Command); got.Rule != c.Run.Rule {
			t.Errorf("%s: %q classifies as %q (%s)", c.Name, c.Run.Command, got.Rule, got.Explain())
		}
		if _, err := os.Stat(filepath.Join(c.Dir, c.Base+".golden")); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}
