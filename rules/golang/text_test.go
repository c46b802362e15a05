package golang

import (
	"slices"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// TestGoTextOf: a stream of go test -json events is decoded once per Run,
// into what goTextLines yields; a stream without events is its lines.
func TestGoTextOf(t *testing.T) {
	events := []byte(`{"Action":"output","Package":"p","Output":"--- FAIL: TestX (0.00s)\n"}` + "\n" +
		`{"Action":"fail","Package":"p"}` + "\n")
	r := &summarize.Run{Stdout: events, Stderr: []byte("plain\n")}
	text := goTextOf(r, r.Stdout)
	if want := slices.Collect(goTextLines(summarize.Lines(events))); !slices.Equal(text, want) {
		t.Fatalf("goTextOf = %q, want %q", text, want)
	}
	if &goTextOf(r, r.Stdout)[0] != &text[0] {
		t.Error("the events were decoded twice")
	}
	if got := goTextOf(r, r.Stderr); !slices.Equal(got, []string{"plain"}) {
		t.Errorf("stderr: %q", got)
	}
}
