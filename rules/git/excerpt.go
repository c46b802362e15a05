package git

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The excerpt is the budgeted view of a patch. It has one item per file:
// the file's "diff" line, then its hunk headers, every changed line, and at
// most one context line on each side of a run of changes. Context cut from
// the start or the middle of a hunk is replaced by a "[N context lines]"
// line, so that lines shown are never mistaken for adjacent ones; context
// cut from the end of a hunk needs no marker and is only counted. A file
// whose lines do not all fit keeps the prefix that fits and ends with
// "[K changed lines not shown]". Every other line is copied from the output;
// the two marker lines cannot be diff lines (those start with ' ', '+',
// '-', '\' or '@') and hold counts computed from it.
type excerpt struct {
	items []string

	changedOmitted int // changed lines not shown
	contextOmitted int // context lines not shown
	filesOmitted   int // files with hunks of which no changed line is shown
}

// excerptMinShare is the room a file is promised while room lasts: its diff
// line, a hunk header and a few changed lines.
const excerptMinShare = 400

// buildExcerpt makes the excerpt of the files with hunks in at most room
// bytes. Files are measured, then served from the smallest: a file is shown
// whole when that still leaves excerptMinShare for each file after it, and
// otherwise gets an even share of what is left (at least excerptMinShare
// while it lasts). Small files thus come through complete, every file gets
// a look while room allows, and one huge file (a lock file, generated code)
// cannot crowd out the rest. Items stay in the patch's order.
func buildExcerpt(out []byte, files []diffFile, room int) excerpt {
	room = max(room, 0) // the fields before the excerpt may take it all
	var withHunks []int
	size := make([]int, len(files))
	for i := range files {
		if len(files[i].segs) == 0 {
			continue
		}
		withHunks = append(withHunks, i)
		e := excerptOf(out, &files[i], room, 0, true)
		size[i] = e.used
		if e.full {
			size[i] = room + 1 // more than any share
		}
	}
	order := slices.Clone(withHunks)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size[a], size[b]) })
	alloc := make([]int, len(files))
	left := room
	for k, i := range order {
		after := len(order) - k - 1
		if size[i] <= left-after*excerptMinShare {
			alloc[i] = size[i]
		} else {
			alloc[i] = min(size[i], max(left/(after+1), min(left, excerptMinShare)))
		}
		left -= alloc[i]
	}
	var x excerpt
	for _, i := range withHunks {
		f := &files[i]
		reserve := 0
		if alloc[i] < size[i] {
			reserve = lineCost(notShown(f.ins + f.del))
		}
		x.add(f, excerptOf(out, f, alloc[i], reserve, false))
	}
	return x
}

// add appends the item of f made by e, and counts what e left out: every
// line of a hunk is a change, a context line or a "\ No newline" note, and
// each change and context line is either shown or counted here.
func (x *excerpt) add(f *diffFile, e *excerptFile) {
	changed := f.ins + f.del
	if e.shownChanged == 0 {
		// An item without any of the file's changes would only cost room.
		x.filesOmitted++
		x.changedOmitted += changed
		x.contextOmitted += f.context
		return
	}
	x.changedOmitted += changed - e.shownChanged
	x.contextOmitted += f.context - e.shownContext
	if e.shownChanged < changed {
		e.lines = append(e.lines, notShown(changed-e.shownChanged))
	}
	x.items = append(x.items, strings.Join(e.lines, "\n"))
}

// notShown is the line that ends a file cut short.
func notShown(n int) string {
	return "[" + strconv.Itoa(n) + " changed lines not shown]"
}

// lineCost is what one excerpt line takes in the rendered block: a "- " or
// "  " prefix, the line as Body renders it, and its newline.
func lineCost(l string) int {
	return 2 + len(summarize.Clean(l)) + 1
}

// lineCostBytes is lineCost without converting l, for the common case of
// valid UTF-8 that clean leaves as it is.
func lineCostBytes(l []byte) int {
	if utf8.Valid(l) && !bytes.HasSuffix(l, []byte("\r")) {
		return 2 + len(l) + 1
	}
	return lineCost(string(l))
}

// excerptFile builds the item of one file within alloc bytes, keeping
// reserve bytes free for the "not shown" line should the file not fit.
type excerptFile struct {
	head    string
	cols    int
	alloc   int
	reserve int
	lines   []string
	used    int
	full    bool // a line did not fit: the rest of the file is left out
	measure bool // only count the bytes the item takes; keep no lines

	shownChanged int
	shownContext int

	// The pending run of context lines: its first three lines, its last
	// line, its length and the "\ No newline" line that may follow its last.
	run     [3][]byte
	runLast []byte
	runN    int
	runNoNL []byte

	afterChange bool // the hunk's last non-context line was a change
	lastShown   bool // the last line was shown, for a "\ No newline" after it
}

// excerptOf runs the excerpt of f's hunks. Lines stay []byte views of out
// until one is shown, and the walk stops at the first line that does not
// fit (parseDiff already counted the file), so a huge file costs about its
// share of the budget.
func excerptOf(out []byte, f *diffFile, alloc, reserve int, measure bool) *excerptFile {
	e := &excerptFile{head: f.excerptHead(), cols: f.cols, alloc: alloc, reserve: reserve, measure: measure}
	for _, s := range f.segs {
		for _, l := range byteLines(out[s.start:s.end]) {
			if e.line(l); e.full {
				return e
			}
		}
	}
	e.flushRun(false)
	return e
}

// line takes the next line of the file's hunks (parseDiff checked their
// shape).
func (e *excerptFile) line(l []byte) {
	switch {
	case bytes.HasPrefix(l, []byte("@@")):
		e.flushRun(false)
		e.afterChange = false
		e.emit(l, false)
	case bytes.HasPrefix(l, []byte(`\`)):
		if e.runN > 0 {
			e.runNoNL = l
		} else if e.lastShown {
			e.emit(l, false)
		}
	case len(l) < e.cols || len(bytes.Trim(l[:e.cols], " ")) == 0:
		if e.runN < len(e.run) {
			e.run[e.runN] = l
		}
		e.runLast = l
		e.runN++
		e.runNoNL = nil
	default:
		e.flushRun(true)
		e.afterChange = true
		if e.emit(l, false) {
			e.shownChanged++
		}
	}
}

// flushRun decides about the pending context run now that what follows it
// is known: a change (changeNext) or the end of the hunk.
func (e *excerptFile) flushRun(changeNext bool) {
	n := e.runN
	if n == 0 {
		return
	}
	e.runN = 0
	keepFirst := 0
	if e.afterChange {
		keepFirst = 1
	}
	if !changeNext {
		// The end of the hunk: keep the line after the last change.
		if keepFirst == 1 {
			e.context(e.run[0], n == 1)
		}
		return
	}
	dropped := n - keepFirst - 1
	if dropped < 2 {
		// Cutting one line would save nothing: its marker is as long.
		// Here n <= 3, so the run holds every line.
		for i, l := range e.run[:n] {
			e.context(l, i == n-1)
		}
		return
	}
	if keepFirst == 1 {
		e.context(e.run[0], false)
	}
	e.emit([]byte("["+strconv.Itoa(dropped)+" context lines]"), true)
	e.context(e.runLast, true)
}

// context shows a kept context line; last says whether it ends its run, in
// which case the run's "\ No newline" line follows it.
func (e *excerptFile) context(l []byte, last bool) {
	if !e.emit(l, false) {
		return
	}
	e.shownContext++
	if last && e.runNoNL != nil {
		e.emit(e.runNoNL, false)
	}
}

// emit appends l when it fits. Once a line does not fit, no later line of
// the file is shown either, so that the item is a prefix of the file's
// excerpt and never skips lines silently.
func (e *excerptFile) emit(b []byte, marker bool) bool {
	e.lastShown = false
	if e.full {
		return false
	}
	c := lineCostBytes(b)
	first := e.used == 0
	need := c + e.reserve
	if first {
		need += lineCost(e.head)
	}
	if e.used+need > e.alloc {
		e.full = true
		return false
	}
	if first {
		e.used += lineCost(e.head)
		if !e.measure {
			e.lines = append(e.lines, e.head)
		}
	}
	if !e.measure {
		e.lines = append(e.lines, string(b))
	}
	e.used += c
	e.lastShown = !marker
	return true
}
