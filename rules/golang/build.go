package golang

import (
	"slices"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchBuild recognizes go build but with the flags of buildFormats.
func MatchBuild(argv []string) classify.Answer {
	if a, ok := matchSub(argv, "build"); !ok {
		return a
	}
	return matchFlags(argv, 2, buildFormats, false)
}

// buildFormats: -json prints events, -v the packages as they build.
var buildFormats = slices.Concat([]string{"-json", "-v"}, buildFlags)

// Build summarizes bash.go_build: the exit code, the number of
// diagnostics with a file.go:line location, of other messages (import
// cycles, missing modules, "too many errors") and of packages reported,
// and every diagnostic with its continuation lines, grouped under its
// package's "# pkg" header as go prints them. A clean build prints
// nothing, so its block is never smaller than the raw output and the raw
// output is shown.
func Build(r *summarize.Run) *summarize.Body {
	return goDiagBody(r)
}

// goDiagBody is the body of go_build and go_vet, whose outputs are the
// same shape: "# pkg" headers and messages on stderr (stdout after 2>&1).
func goDiagBody(r *summarize.Run) *summarize.Body {
	d := goDiags{cutStart: r.MayLackStart()}
	summarize.ReadStreams(&d, r.Stderr, r.Stdout)
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	b.Tally("errors", d.errors)
	b.Tally("messages", d.messages)
	b.Tally("packages", d.headers)
	room := r.BodyRoom() - len(b.Render())
	if d.lost > 0 {
		room -= len("diagnostic_lines_omitted: 0000000000\n")
	}
	items := d.list()
	n, _ := summarize.FitHead("diagnostics", items, d.total, maxGoDiags, room)
	summarize.AddHead(b, "diagnostics", items, d.total, n)
	if d.lost > 0 {
		b.Count("diagnostic_lines_omitted", d.lost)
	}
	return b
}
