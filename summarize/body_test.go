package summarize

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBodyRender(t *testing.T) {
	var b Body
	b.Count("changed_files", 3)
	b.Field("branch", "## main...origin/main [ahead 1]")
	b.List("status_lines", []string{" M a.go", "?? b.go", "A  c.go"}, 2)
	b.List("diagnostics", []string{"error[E0425]: x\n --> src/main.rs:2:13"}, 0)
	b.List("empty", nil, 5)
	b.Field("forged", "a\nrule: fake")
	want := `changed_files: 3
branch: ## main...origin/main [ahead 1]
status_lines:
-  M a.go
- ?? b.go
status_lines_omitted: 1
diagnostics:
- error[E0425]: x
   --> src/main.rs:2:13
forged: a rule: fake
`
	if got := string(b.Render()); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestBodyFit: the rendered body never exceeds the budget when lists can
// give way, every dropped item is counted, and no item is cut.
func TestBodyFit(t *testing.T) {
	items := func(prefix string, n int) []string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprintf("%s line %d é", prefix, i))
		}
		return s
	}
	for _, max := range []int{0, 10, 50, 100, 333, 1000, 5000, 100000} {
		var b Body
		b.Count("files", 2)
		b.List("a", items("a", 100), 0)
		b.List("b", items("b", 7), 0)
		b.List("c", items("c", 300), 250)
		b.fit(max)
		out := string(b.Render())
		if !utf8.ValidString(out) {
			t.Fatalf("max %d: invalid UTF-8", max)
		}
		// Over the budget is allowed only once every list is down to its
		// omitted count: counts are never dropped.
		if len(out) > max && strings.Contains(out, "\n- ") {
			t.Errorf("max %d: rendered %d bytes:\n%s", max, len(out), out)
		}
		for _, k := range []struct {
			key string
			n   int
		}{{"a", 100}, {"b", 7}, {"c", 300}} {
			kept := strings.Count(out, "\n- "+k.key+" line ")
			if strings.HasPrefix(out, "- "+k.key) {
				kept++
			}
			omitted := 0
			fmt.Sscanf(after(out, k.key+"_omitted: "), "%d", &omitted)
			if kept+omitted != k.n {
				t.Errorf("max %d: list %s kept %d + omitted %d != %d", max, k.key, kept, omitted, k.n)
			}
		}
	}
}

func after(s, sep string) string {
	_, a, _ := strings.Cut(s, sep)
	return a
}

// TestListCapped checks that collecting the head of a list as it is read
// renders exactly what List renders from the whole list.
func TestListCapped(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7} {
		for _, max := range []int{1, 3, 5} {
			var all []string
			c := NewCapped(max)
			for i := range n {
				item := fmt.Sprintf("line %d", i)
				all = append(all, item)
				c.Add(item)
			}
			var want, got Body
			want.List("k", all, max)
			got.ListCapped("k", c)
			if w, g := string(want.Render()), string(got.Render()); w != g {
				t.Errorf("%d items, cap %d: ListCapped renders\n%s\nList renders\n%s", n, max, g, w)
			}
		}
	}
}
