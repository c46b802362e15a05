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

func TestHasMarker(t *testing.T) {
	for in, want := range map[string]bool{
		"":                                   false,
		Marker:                               true,
		Marker + "\n":                        true,
		"ok\n" + Marker + "\r\ntool: bash\n": true,
		"x" + Marker + "\n":                  false,
		"- " + Marker + "\n":                 false,
		Marker + "x\n" + Marker:              true,
		Marker + " \n":                       false,
	} {
		if got := HasMarker([]byte(in)); got != want {
			t.Errorf("HasMarker(%q) = %v, want %v", in, got, want)
		}
	}
}
