package summarize

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// requiredBy runs one finder over streams (stdout, then stderr) as Block
// runs them, in a run that failed or passed.
func requiredBy(finder Finder, failed bool, streams ...string) *failures {
	r := &Run{Exited: true}
	if failed {
		r.ExitCode = 1
	}
	if len(streams) > 0 {
		r.Stdout = []byte(streams[0])
	}
	if len(streams) > 1 {
		r.Stderr = []byte(streams[1])
	}
	return findFailures(readable(r), []Finder{finder})
}

// checkRequired compares a finder's required strings, in any order, with
// want.
func checkRequired(t *testing.T, f *failures, want []string) {
	t.Helper()
	got := slices.Sorted(maps.Keys(f.required))
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("required = %q, want %q", got, want)
	}
}

// TestCorpusProperties holds for every real output in the corpus, at the
// default budget and at tight ones: the block is valid UTF-8, within the
// budget unless only counts are left, accounts for every failure, and is
// the same bytes on every render.
func TestCorpusProperties(t *testing.T) {
	for _, c := range loadCorpus(t) {
		for _, budget := range []int{DefaultBudget, 4096, 1024} {
			r := *c.run
			r.Budget = budget
			r.RawOutput = "shrinkrun show 0123456789abcdef"
			block, _ := BlockOf(&r)
			again, _ := BlockOf(&r)
			if !bytes.Equal(block, again) {
				t.Errorf("%s@%d: not deterministic", c.name, budget)
			}
			if !utf8.Valid(block) {
				t.Errorf("%s@%d: invalid UTF-8", c.name, budget)
			}
			if len(block) > budget && strings.Contains(string(block), "\n- ") {
				t.Errorf("%s@%d: %d bytes with list items left", c.name, budget, len(block))
			}
			if missing, ok := accounted(findFailures(readable(&r), familyFinders), block); !ok {
				t.Errorf("%s@%d: %d failures neither shown nor counted", c.name, budget, missing)
			}
		}
	}
}

// TestPanickingRule: a rule that panics gives no block, so the caller
// prints the raw output; the process never dies on a rule's bug.
func TestPanickingRule(t *testing.T) {
	bug := func(*Run) *Body { panic("bug") }
	if block, ok := Block(&Run{Rule: "bash.test_panic", Stdout: []byte("x\n")}, bug, nil); ok || block != nil {
		t.Fatalf("got %q, %v", block, ok)
	}
}
