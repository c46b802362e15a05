package summarize

import (
	"strings"
	"testing"
)

func TestShortCommand(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"git status", 100, "git status"},
		{"git diff -- aaaa", 11, "git diff -- [... 5 more bytes]"},
		{"git log --grep é", 15, "git log --grep  [... 2 more bytes]"},
	}
	for _, tt := range tests {
		if got := shortCommand(tt.in, tt.max); got != tt.want {
			t.Errorf("shortCommand(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
	long := &Run{Rule: "bash.git_diff", Command: "git diff -- " + strings.Repeat("x ", 60000), Exited: true}
	if h := header(long); len(h) > DefaultBudget/4 {
		t.Errorf("header of %d bytes for a long command", len(h))
	}
}
