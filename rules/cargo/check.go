package cargo

import (
	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchCheck recognizes cargo check.
func MatchCheck(argv []string) classify.Answer { return matchSub(argv, "check", formats) }

// Check summarizes bash.cargo_check: the exit code, exact counts of
// warnings and errors, the distinct error codes, cargo's final status line
// and every diagnostic line with its primary location (errors first, then a
// few warnings), within the block budget. Diagnostics go to stderr, but
// both streams are read so that "cargo check 2>&1" gives the same body.
func Check(r *summarize.Run) *summarize.Body {
	var c cargoLog
	summarize.ReadStreams(&c, r.Stderr, r.Stdout)

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	c.addBuildFields(b)

	room := r.BodyRoom() - len(b.Render())
	items, limit := c.diagnosticItems()
	n, _ := summarize.FitList("diagnostics", items, limit, room)
	summarize.AddList(b, "diagnostics", items, n)
	return b
}
