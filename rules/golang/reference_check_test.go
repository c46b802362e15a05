package golang_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// readRun reads a run's streams with the reference reader.
func readRun(r *summarize.Run) goFacts {
	return readGoTest(summarize.Lines(r.Stdout), summarize.Lines(r.Stderr), goVerbose(r.Argv), r.MayLackStart())
}

// TestGoReference holds the reference reader to test2json: on every go
// test run of the corpus that has its twin (CASE.test2json, the same
// packages run with -json), and on every -json run's own events, the
// reader of the text finds the package results, failing tests, reason
// locations, build errors and, with -v, the passing and skipped tests that
// the events state.
func TestGoReference(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		if c.Run.Rule != GoTest || c.Run.Partial() {
			continue
		}
		var events []string
		switch twin, err := os.ReadFile(filepath.Join(c.Dir, c.Base+".test2json")); {
		case err == nil:
			events = summarize.Lines(twin)
		case slices.Contains(c.Run.Argv, "-json"):
			events = summarize.Lines(c.Run.Stdout)
		default:
			continue
		}
		n++
		verbose := goVerbose(c.Run.Argv)
		got, want := readRun(c.Run), jsonFacts(events)
		compareFacts(t, c.Name, got, want, verbose)
	}
	if n < 20 {
		t.Errorf("only %d runs with events", n)
	}
}

// compareFacts reports where the reader's facts differ from the events'.
func compareFacts(t *testing.T, name string, got, want goFacts, verbose bool) {
	t.Helper()
	if !maps.Equal(got.pkgs, want.pkgs) {
		t.Errorf("%s: packages %v, events say %v", name, kinds(got.pkgs), kinds(want.pkgs))
	}
	if g, w := compactSorted(got.failed), compactSorted(want.failed); !slices.Equal(g, w) || len(got.failed) != len(want.failed) {
		t.Errorf("%s: failing tests %q, events say %q", name, got.failed, want.failed)
	}
	for test, w := range want.reasons {
		if g := got.reasons[test]; !slices.Equal(g, w) {
			t.Errorf("%s: %s's reasons %q, events say %q", name, test, g, w)
		}
	}
	for test, g := range got.reasons {
		if _, ok := want.reasons[test]; !ok && len(g) > 0 {
			t.Errorf("%s: %s's reasons %q, events say none", name, test, g)
		}
	}
	if verbose && (got.passed != want.passed || got.skipped != want.skipped) {
		t.Errorf("%s: %d passed and %d skipped, events say %d and %d", name, got.passed, got.skipped, want.passed, want.skipped)
	}
	if g, w := compactSorted(got.buildErrors), compactSorted(want.buildErrors); !slices.Equal(g, w) {
		t.Errorf("%s: build errors %q, events say %q", name, g, w)
	}
}

// kinds renders package results for a message.
func kinds(pkgs map[string]byte) string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(pkgs)) {
		out = append(out, string(pkgs[p])+" "+p)
	}
	return strings.Join(out, ", ")
}
