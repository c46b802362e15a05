package shape

import (
	"fmt"
	"strings"
	"testing"
)

func TestRepeats(t *testing.T) {
	lines := func(n int, f string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, f, i, i*7)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, in string
		want     []string
		not      []string
	}{
		{"identical", strings.Repeat("retrying connection\n", 120), []string{"\nretrying connection (×120)\n"}, nil},
		{"blank lines are not folded", "a\n\n\n\nb\n", []string{"\na\n\n\n\nb\n"}, []string{"(×"}},
		{"similar", lines(500, "chunk %d of 500 (%d KB)\n"), []string{"\nchunk 0 of 500 (0 KB)\n[shrinkrun: 498 similar lines, ", "\nchunk 499 of 500 (3493 KB)\n"}, nil},
		{"too few to fold", lines(4, "chunk %d of 4 (%d KB)\n"), []string{"\nchunk 1 of 4 (7 KB)\nchunk 2 of 4 (14 KB)\n"}, []string{"similar"}},
		{"blocks", lines(300, "# Subtest: order %d\nok %d - total\n  ---\n"), []string{"[shrinkrun: 298 blocks of 3 similar lines, "}, nil},
		{"failures are never folded", lines(50, "FAIL test_%d (%d ms)\n"), []string{"\nFAIL test_25 (175 ms)\n"}, []string{"similar"}},
	} {
		got := cutText([]string{"x"}, 3000, 2500, filler(400)+tc.in)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no %q in\n%s", tc.name, w, got)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q in\n%s", tc.name, w, got)
			}
		}
	}
}

// similar is the oracle of simKey: whether two lines differ only in their
// numbers (runs of digits) and their spacing, not in their words.
func similar(a, b []byte) bool {
	i, j := 0, 0
	for {
		for i < len(a) && isBlank(a[i]) {
			i++
		}
		for j < len(b) && isBlank(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		da, db := isDigit(a[i]), isDigit(b[j])
		switch {
		case da && db:
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
		case a[i] != b[j]:
			return false
		default:
			i++
			j++
		}
	}
}

func TestSimilar(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"test_7 PASSED [  3%]", "test_100 PASSED [100%]", true},
		{"GET /cart 200 4 ms", "GET /health 200 4 ms", false},
		{"2026-01-01 00:00:01 ok", "2026-01-02 13:59:59 ok", true},
		{"a", "a ", true},
		{"ab", "a1b", false},
	} {
		if got := similar([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("similar(%q, %q) = %v", tc.a, tc.b, got)
		}
		if got := simKey([]byte(tc.a)) == simKey([]byte(tc.b)); got != tc.want {
			t.Errorf("the keys of %q and %q are equal: %v", tc.a, tc.b, got)
		}
	}
}

// FuzzSimKey holds the keys to the texts: equal keys exactly for similar
// lines.
func FuzzSimKey(f *testing.F) {
	f.Add("test_7 PASSED [  3%]", "test_100 PASSED [100%]")
	f.Add("GET /cart 200", "GET /health 200")
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := simKey([]byte(a)) == simKey([]byte(b)), similar([]byte(a), []byte(b)); got != want {
			t.Fatalf("simKey(%q) == simKey(%q) is %v, similar says %v", a, b, got, want)
		}
	})
}
