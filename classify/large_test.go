package classify_test

import (
	"strings"
	"testing"
)

// A 1 MB command string is classified whole: a recognized command stays
// recognized with every word, and a substitution at its very end is still
// found, with its position.
func TestLargeCommandString(t *testing.T) {
	words := strings.Repeat("file.go ", 128<<10) // 1 MiB of pathspecs
	r := String("git diff -- " + words)
	if r.Rule != GitDiff || len(r.Stages[0]) != 3+128<<10 {
		t.Fatalf("rule %q, %d words", r.Rule, len(r.Stages[0]))
	}
	r = String("git diff -- " + words + "$(rm -rf x)")
	if r.Rule != "" || r.Reason != "command substitution" || !strings.HasPrefix(r.Pos, "1:") {
		t.Fatalf("got %+v", r.Explain())
	}
	r = String(strings.Repeat("git status\n", 100<<10))
	if r.Rule != "" {
		t.Fatal("100k statements recognized")
	}
}
