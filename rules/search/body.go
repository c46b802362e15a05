package search

import (
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// summary is the body of every search rule (docs/format.md, search rules).
// Every count is of lines shrinkrun saw (a Tally), the sum of -c's counts
// too: a cut output's are counts of what was seen.
func summary(r *summarize.Run, l layout) *summarize.Body {
	res := parse(r, l)
	b := &summarize.Body{}
	switch res.layout.mode {
	case filesMode, withoutMode:
		key := "files"
		if res.layout.mode == withoutMode {
			key = "files_without_match"
		}
		b.Tally(key, res.paths.Total)
	case countMode:
		b.Tally("files", len(res.files)+res.zeroCounts+lone(res))
		b.Tally("files_with_matches", len(res.files)+loneMatched(res))
		if res.zeroCounts > 0 {
			b.Tally("files_without_match", res.zeroCounts)
		}
		b.Tally(countKey(res.layout), res.countSum)
	default:
		b.Tally(matchKey(res.layout), res.matchLines)
		if res.layout.context {
			b.Tally("context_lines", res.contextLines)
		}
		if res.lone == nil {
			b.Tally("files", len(res.files))
		}
	}
	if res.lone != nil && res.layout.only1 != "" {
		b.Field("file", res.layout.only1)
	}
	if res.binary.Total > 0 {
		b.Tally("binary_files", res.binary.Total)
	}

	// The lists besides the results take their room first: they are short,
	// and they hold what went wrong.
	var tail summarize.Body
	tail.ListCapped("binary_matches", res.binary)
	tail.ListCapped("messages", res.messages)
	tail.ListCapped("unplaced_lines", res.unplaced)
	tail.ListCapped("other_lines", res.other)
	room := r.BodyRoom() - len(b.Render()) - len(tail.Render()) - partialRoom(r)

	switch {
	case res.layout.mode == filesMode || res.layout.mode == withoutMode:
		n, _ := summarize.FitHead("paths", res.paths.Items, res.paths.Total, maxPaths, room)
		summarize.AddHead(b, "paths", res.paths.Items, res.paths.Total, n)
	case res.layout.mode == countMode:
		addFiles(b, "counts", res.files, res.layout, room)
	case res.lone != nil:
		total := res.lone.matches + res.lone.context
		n, _ := summarize.FitHead("lines", res.lone.lines, total, maxLone, room)
		summarize.AddHead(b, "lines", res.lone.lines, total, n)
	default:
		key := "by_file"
		if r.Partial() {
			key = "by_file_seen"
		}
		addFiles(b, key, res.files, res.layout, room)
	}
	b.Append(&tail)
	return b
}

func lone(res *results) int {
	if res.lone != nil {
		return 1
	}
	return 0
}

func loneMatched(res *results) int {
	if res.lone != nil && res.lone.count != "0" {
		return 1
	}
	return 0
}

// matchKey names the count of result lines: matching lines, or matches
// when each line is one (-o, --vimgrep).
func matchKey(l layout) string {
	if l.only {
		return "matches"
	}
	return "match_lines"
}

// countKey names the sum of -c's counts: of matching lines, or of matches
// (rg --count-matches, -c -o).
func countKey(l layout) string {
	if l.matchCounts {
		return "matches"
	}
	return "match_lines"
}

// partialRoom is what the core adds to a cut output's body (cut_by and
// lines_seen before it, "_seen" after each count's key): the room the
// lists leave for it.
func partialRoom(r *summarize.Run) int {
	if !r.Partial() {
		return 0
	}
	return len("cut_by: \nlines_seen: 0000000000\n") + len(strings.Join(r.Cut.By, " | ")) + 8*len("_seen")
}

// addFiles adds every file that fits the room as an item: its name and
// count of matching lines ("src/a.go: 12"), then its first lines as
// printed, each on a line of its own. The names come first: every file
// is named while the room lasts, and the files past it are counted. The
// room left then goes to the files' lines a round at a time, the first
// line of each file, then the second of each, so that every file shows
// its first ones; at most perFile lines of a file.
func addFiles(b *summarize.Body, key string, files []*fileResult, l layout, room int) {
	if len(files) == 0 {
		return
	}
	heads := make([]string, len(files))
	for i, f := range files {
		if l.mode == countMode {
			heads[i] = f.lines[0] // the count line as printed
		} else {
			heads[i] = f.path + ": " + strconv.Itoa(f.matches)
		}
	}
	n, used := summarize.FitHead(key, heads, len(files), len(files), room)
	if n == 0 {
		b.Count(key+"_omitted", len(files))
		return
	}
	perFile := maxPerFile
	if l.context {
		perFile = maxPerFileContext
	}
	if l.mode == countMode {
		perFile = 0 // the count line is the item's head
	}
	shownN := make([]int, n)
	left := room - used
fill:
	for k := range perFile {
		more := false
		for i, f := range files[:n] {
			if k >= len(f.lines) {
				continue
			}
			size := 3 + len(f.lines[k])
			if size > left {
				break fill
			}
			left -= size
			shownN[i]++
			more = true
		}
		if !more {
			break
		}
	}
	items := make([]string, n)
	for i, f := range files[:n] {
		if shownN[i] == 0 {
			items[i] = heads[i]
			continue
		}
		items[i] = heads[i] + "\n" + strings.Join(f.lines[:shownN[i]], "\n")
	}
	b.ListHead(key, items, len(files))
}

// Caps of the lines shown per file, and of a search of one file whose
// lines carry no name; the budget may show fewer.
const (
	maxPerFile        = 8
	maxPerFileContext = 16
	maxLone           = 100
)
