package shape

import (
	"fmt"
	"strings"
	"testing"
)

func TestIsWarning(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"2026-01-01 00:00:01 WARNING shop: slow request", true},
		{"[WARN] disk 91% full", true},
		{"src/a.c:3:5: warning: unused variable", true},
		{"main.py:3: DeprecationWarning: old", true},
		{"warnings: 0", false},
		{"forewarned", false},
		{"2026-01-01 INFO served", false},
	} {
		if got := isWarning([]byte(tc.line)); got != tc.want {
			t.Errorf("isWarning(%q) = %v", tc.line, got)
		}
	}
}

// TestLog: a long log keeps its errors with the line after each, and its
// warnings, and omits the rest.
func TestLog(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "2026-01-01 00:%02d:%02d INFO %s served\n", i/60%60, i%60, []string{"/cart", "/orders", "/health"}[i%3])
		switch i {
		case 1000:
			b.WriteString("2026-01-01 00:16:40 WARNING slow query on orders\n")
		case 3000:
			b.WriteString("2026-01-01 00:50:00 ERROR db: connection refused\n    retry in 5 s\n")
		}
	}
	got := cutText([]string{"./server"}, 10000, 8192, b.String())
	for _, w := range []string{"\n2026-01-01 00:16:40 WARNING slow query on orders\n", "\n2026-01-01 00:50:00 ERROR db: connection refused\n    retry in 5 s\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q in\n%s", w, got)
		}
	}
	if len(got) > 8192 {
		t.Errorf("%d bytes", len(got))
	}
}
