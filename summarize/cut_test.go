package summarize

import (
	"strings"
	"testing"
)

// TestPartial: on a cut output the block names the filters and the lines
// seen, tallies become counts of what was seen and a zero tally goes, while
// totals the tool printed keep their names (docs/format.md, "A count is a
// statement").
func TestPartial(t *testing.T) {
	rule := func(r *Run) *Body {
		var b Body
		b.Tally("files_changed", 2)
		b.Tally("hunks", 0)
		b.Count("passed", 150)
		b.List("files", []string{"a.go", "b.go"}, 0)
		return &b
	}
	for _, c := range []struct {
		name string
		run  Run
		want string
	}{
		{"whole", Run{}, "files_changed: 2\nhunks: 0\npassed: 150\n"},
		{"tail", Run{Cut: Cut{By: []string{"tail -40"}, Start: true}},
			"cut_by: tail -40\nlines_seen: 3\nfiles_changed_seen: 2\npassed: 150\n"},
		{"two filters", Run{Cut: Cut{By: []string{"grep -v x", "head -n 5"}, Any: true, End: true}},
			"cut_by: grep -v x | head -n 5\nlines_seen: 3\nfiles_changed_seen: 2\npassed: 150\n"},
		{"capture limit", Run{StdoutTruncated: true},
			"files_changed_seen: 2\npassed: 150\n"},
	} {
		r := c.run
		r.Stdout = []byte("one\ntwo\nthree\n")
		r.Exited = true
		block, ok := Block(&r, rule, nil)
		if !ok {
			t.Fatalf("%s: no block", c.name)
		}
		body := string(block[len(header(&r)):])
		want := c.want + "files:\n- a.go\n- b.go\n"
		if body != want {
			t.Errorf("%s: body\n%s\nwant\n%s", c.name, body, want)
		}
		if !strings.Contains(string(block), "compression: curated\n") {
			t.Errorf("%s: no header", c.name)
		}
	}
}

func TestMayLack(t *testing.T) {
	for _, c := range []struct {
		run        Run
		start, end bool
	}{
		{Run{}, false, false},
		{Run{Cut: Cut{Start: true}}, true, false},
		{Run{Cut: Cut{End: true}}, false, true},
		{Run{Cut: Cut{Any: true}}, true, true},
		{Run{StdoutTruncated: true}, true, true},
		{Run{StderrTruncated: true}, false, false},
	} {
		if s, e := c.run.MayLackStart(), c.run.MayLackEnd(); s != c.start || e != c.end {
			t.Errorf("%+v: MayLackStart %v MayLackEnd %v, want %v %v", c.run.Cut, s, e, c.start, c.end)
		}
	}
}
