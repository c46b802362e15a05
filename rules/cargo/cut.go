package cargo

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The cargo rules read stderr first and stdout second; a filter stage
// (| tail -40, | head -100, | grep FAILED) or the capture limit cuts only
// stdout, which holds everything after a 2>&1. This file says what such a
// cut changes in how the rules read it (docs/format.md, "A count is a
// statement").

// cutStream is the index of the stream a filter cuts, in the order the
// rules read them (stderr, then stdout).
const cutStream = 1

// maxUnplaced bounds the copied lines of unplacedLines: they are the end
// of something the cut began in the middle of (a diagnostic's snippet, a
// failing test's output), and the raw output has them all.
const maxUnplaced = 5

// streamCut is what a filter may have left out of the stream read as
// cutStream.
type streamCut struct {
	start bool // lines before its first one (tail, grep, the capture limit)
	end   bool // lines after its last one (head, grep, the capture limit)
	// any: lines anywhere (grep, the capture limit's middle): the
	// runner's framing between two lines seen may be gone.
	any bool
}

func cutOf(r *summarize.Run) streamCut {
	return streamCut{start: r.MayLackStart(), end: r.MayLackEnd(), any: r.Cut.Any || r.StdoutTruncated}
}

// unplacedLines collects, in a stream that may lack its start, the lines
// before the first one a rule can place (a diagnostic's first line, one of
// cargo's status or progress lines, one of libtest's): the rest of
// whatever the cut began inside. They are kept, up to maxUnplaced, and
// counted, so that they never vanish silently.
type unplacedLines struct {
	cut    bool // cutStream may lack its start
	stream int  // the index of the stream being read
	placed bool // a line was placed in cutStream
	kept   summarize.Capped
}

func newUnplaced(cut streamCut) unplacedLines {
	return unplacedLines{cut: cut.start, kept: summarize.NewCapped(maxUnplaced)}
}

// see reads l, which anchor tells a rule can place, and reports whether
// it comes before the first such line of a stream that may lack its start.
func (u *unplacedLines) see(l string, anchor bool) bool {
	if !u.cut || u.stream != cutStream || u.placed {
		return false
	}
	if anchor {
		u.placed = true
		return false
	}
	if strings.TrimSpace(l) != "" {
		u.kept.Add(l)
	}
	return true
}

func (u *unplacedLines) endStream() { u.stream++ }

// unsee takes back the last n lines seen: a rule placed them after all.
func (u *unplacedLines) unsee(n int) {
	u.kept.Total -= n
	if len(u.kept.Items) > u.kept.Total {
		u.kept.Items = u.kept.Items[:u.kept.Total]
	}
}

// size is the size of the list add appends.
func (u *unplacedLines) size() int {
	var b summarize.Body
	u.add(&b)
	return len(b.Render())
}

// add appends the unplaced_lines list, when there were any.
func (u *unplacedLines) add(b *summarize.Body) {
	b.ListCapped("unplaced_lines", u.kept)
}

// isCargoAnchor reports whether l starts something cargoLog reads: a
// diagnostic or one of cargo's error and warning lines, a progress line
// or "Caused by:".
func isCargoAnchor(l string) bool {
	if l == "Caused by:" || isProgress(l) {
		return true
	}
	_, ok := parseDiagHead(l)
	return ok
}
