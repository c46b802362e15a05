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
	cut := cutOf(r)
	cr := checkReader{unplaced: newUnplaced(cut)}
	summarize.ReadStreams(&cr, r.Stderr, r.Stdout)
	c := &cr.cargo

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	c.addBuildFields(b, cut)
	cr.unplaced.add(b)

	room := r.BodyRoom() - len(b.Render())
	items, limit := c.diagnosticItems()
	n, _ := summarize.FitList("diagnostics", items, limit, room)
	summarize.AddList(b, "diagnostics", items, n)
	return b
}

// checkReader is the cargo log and, when stdout may lack its start, the
// lines before the first one it can place.
type checkReader struct {
	cargo    cargoLog
	unplaced unplacedLines
}

func (c *checkReader) Feed(l string) {
	c.unplaced.see(l, isCargoAnchor(l))
	c.cargo.Feed(l)
}

func (c *checkReader) EndStream() {
	c.cargo.EndStream()
	c.unplaced.endStream()
}
