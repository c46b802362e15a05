package summarize

import (
	"strings"
	"testing"
)

// checkFitHead holds FitHead and AddHead, on the head of a list, to
// FitList and AddList on the whole list: the items are s cut at '|'.
func checkFitHead(t *testing.T, s string) {
	items := strings.Split(s, "|")
	for _, limit := range []int{1, 2, 3, 30} {
		head := items[:min(limit, len(items))]
		for room := 0; room < len(s)+40; room += max(7, len(s)/8) {
			n, size := FitHead("k", head, len(items), limit, room)
			wn, wsize := FitList("k", items, limit, room)
			if n != wn || size != wsize {
				t.Fatalf("fitHead(%q, limit %d, room %d) = %d, %d; fitList says %d, %d", s, limit, room, n, size, wn, wsize)
			}
			var got, want Body
			AddHead(&got, "k", head, len(items), n)
			AddList(&want, "k", items, n)
			if g, w := got.Render(), want.Render(); string(g) != string(w) {
				t.Fatalf("addHead(%q, %d) renders %q; addList renders %q", s, n, g, w)
			}
		}
	}
}
