package golang

import (
	"fmt"
	"slices"
	"testing"
)

func TestGoDiags(t *testing.T) {
	var d goDiags
	for _, l := range []string{
		"go: downloading golang.org/x/text v0.20.0",
		"# example.com/demo",
		"# [example.com/demo]",
		"vet: ./a.go:3:1: undefined: x",
		"\thave ()",
		"\twant (int)",
		"./a.go:9:9: too many errors",
		"",
		"\tnot a continuation after a blank line",
		"other/o.go:5:32: fmt.Printf format %d has arg s of wrong type string",
		"4\t",
		"5\tfunc P(s string) { fmt.Printf(\"%d\\n\", s) }",
		"# example.com/demo/b",
		"package example.com/demo/b",
		"\timports example.com/demo/a: import cycle not allowed",
		"# example.com/demo/c",
	} {
		d.Feed(l)
	}
	d.EndStream()
	want := []string{
		"# example.com/demo\n# [example.com/demo]\nvet: ./a.go:3:1: undefined: x\n\thave ()\n\twant (int)",
		"./a.go:9:9: too many errors",
		"\tnot a continuation after a blank line",
		"other/o.go:5:32: fmt.Printf format %d has arg s of wrong type string\n4\t\n5\tfunc P(s string) { fmt.Printf(\"%d\\n\", s) }",
		"# example.com/demo/b\npackage example.com/demo/b\n\timports example.com/demo/a: import cycle not allowed",
		"# example.com/demo/c",
	}
	if got := joinItems(d.items); !slices.Equal(got, want) {
		t.Errorf("items =\n%q\nwant\n%q", got, want)
	}
	if d.errors != 2 || d.messages != 3 || d.headers != 3 || d.lost != 0 {
		t.Errorf("errors %d messages %d headers %d lost %d; want 2 3 3 0", d.errors, d.messages, d.headers, d.lost)
	}
}

func TestGoDiagsCap(t *testing.T) {
	var d goDiags
	d.Feed("# p")
	d.Feed("./a.go:1:1: long")
	for range 12 {
		d.Feed("\tline")
	}
	if len(d.items[0]) != 2+maxGoDiagLines || d.lost != 12-maxGoDiagLines {
		t.Errorf("item of %d lines, %d lost", len(d.items[0]), d.lost)
	}
}

// TestGoDiagsPastCap: items past maxGoDiags are counted, their headers
// and lost lines too, but not kept.
func TestGoDiagsPastCap(t *testing.T) {
	var d goDiags
	n := maxGoDiags + 5
	for i := range n {
		d.Feed(fmt.Sprintf("# p%d", i))
		d.Feed(fmt.Sprintf("./a.go:%d:1: e", i+1))
		for range maxGoDiagLines + 2 {
			d.Feed("\tline")
		}
	}
	d.Feed("# trailing")
	d.EndStream()
	if len(d.items) != maxGoDiags || d.total != n+1 || len(d.list()) != maxGoDiags {
		t.Errorf("%d items kept, %d counted, %d listed; want %d, %d", len(d.items), d.total, len(d.list()), maxGoDiags, n+1)
	}
	if d.errors != n || d.headers != n+1 || d.lost != 2*n {
		t.Errorf("errors %d headers %d lost %d; want %d %d %d", d.errors, d.headers, d.lost, n, n+1, 2*n)
	}
	if last := d.items[maxGoDiags-1]; len(last) != 2+maxGoDiagLines {
		t.Errorf("last kept item has %d lines", len(last))
	}
}
