package golang

import (
	"iter"
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// This file gives go test's text as both the go test rule and the go
// finder read it: the text of test2json's events, and a line where a
// test's output without a final newline ran into go's own text cut in two.

// goTextKey derives goTextOf's text.
var goTextKey = summarize.NewKey("go text")

// goTextOf returns goText of b's lines, b one of r's streams, decoded
// once per Run: the go test rule and the go finder both read it, and
// decoding the events was half of a go test -json summary. Without events
// and without a line to split it is r.Lines(b) itself.
func goTextOf(r *summarize.Run, b []byte) []string {
	return summarize.Derive(r, goTextKey, b, func(b []byte) []string {
		return goTextOrTails(r.Lines(b), mayRunIntoGo(b))
	})
}

// goTextLines yields the lines of go test's text output that a stream
// carries. Lines of test2json events are replaced by the text of their
// Output fields, joined per package (build output per import path) and
// released when that package's run or build ends, so that packages whose
// events interleave come out one after the other, as without -json; an
// event that is one of go's marker lines starts a line of its own. Other
// lines are yielded in place. A line where a test's output without a
// final newline ran into go's own text is yielded as two (goTailStart).
func goTextLines(ls []string) iter.Seq[string] {
	return func(yield0 func(string) bool) {
		// Each line is yielded as two when test output ran into go's own
		// text on it.
		yield := func(l string) bool {
			if i := goTailStart(l); i > 0 {
				return yield0(l[:i]) && yield0(l[i:])
			}
			return yield0(l)
		}
		if !hasGoEvents(ls) {
			for _, l := range ls {
				if !yield(l) {
					return
				}
			}
			return
		}
		texts := map[string]*goPackageText{}
		var order []string
		var arena textArena
		// Events of one package come in runs: its text is looked up again
		// only when the key changes.
		var lastKey string
		var last *goPackageText
		for _, l := range ls {
			var e goEvent
			ok := false
			if strings.HasPrefix(l, `{"`) {
				e, ok = decodeGoEvent(l)
			}
			if !ok || e.Action == "" {
				if !yield(l) {
					return
				}
				continue
			}
			key := e.Package
			if key == "" {
				key = "build " + e.ImportPath
			}
			if last == nil || key != lastKey {
				last = texts[key]
				if last == nil {
					last = &goPackageText{}
					texts[key] = last
					order = append(order, key)
				}
				lastKey = key
			}
			if last.partial.Len() > 0 && startsGoMarker(e.Output, e.quoted, &arena) {
				// test2json gives go's lines events of their own: what a
				// test printed without a final newline ends before them.
				last.endLine("")
			}
			if e.quoted {
				last.addQuoted(e.Output, &arena)
			} else {
				last.add(e.Output, false)
			}
			released := e.Action == "build-fail" ||
				e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip")
			if released && !last.release(yield) {
				return
			}
		}
		for _, key := range order {
			if !texts[key].release(yield) {
				return
			}
		}
	}
}

// goText returns the lines goTextLines yields: ls itself when the stream
// holds no test2json event and no line to split.
func goText(ls []string) []string { return goTextOrTails(ls, true) }

// mayRunIntoGo reports whether a stream has any of the text goTailStart
// looks for, so that goText need not look on every line: most outputs
// summarized are not go's.
func mayRunIntoGo(b []byte) bool { return summarize.ContainsAny(b, goTailMarkers) }

var goTailMarkers = [][]byte{[]byte("--- "), []byte("=== "), []byte(".go:")}

// goTextOrTails is goText, looking for lines that ran into go's text only
// when tails is set.
func goTextOrTails(ls []string, tails bool) []string {
	if hasGoEvents(ls) {
		return slices.Collect(goTextLines(ls))
	}
	if !tails {
		return ls
	}
	for i, l := range ls {
		if goTailStart(l) > 0 {
			text := make([]string, i, len(ls)+len(ls)/8+1)
			copy(text, ls[:i])
			for _, l := range ls[i:] {
				if j := goTailStart(l); j > 0 {
					text = append(text, l[:j], l[j:])
				} else {
					text = append(text, l)
				}
			}
			return text
		}
	}
	return ls
}

// startsGoMarker reports whether the text of an Output field (spelled as
// in its line when quoted) is one line of go's test markers, a result or
// a run marker.
func startsGoMarker(out string, quoted bool, arena *textArena) bool {
	if !strings.HasPrefix(out, "--- ") && !strings.HasPrefix(out, "=== ") {
		return false
	}
	if quoted {
		out = arena.unquote(out)
	}
	return goMarkerTail(strings.TrimSuffix(out, "\n")) == 0
}

// goTailStart returns where go test's own text starts on a line that a
// test's output without a final newline ran into, or 0. go test writes
// its lines after whatever a test printed, so fmt.Print("loading...")
// before a test ends gives
//
//	loading...--- FAIL: TestLoad (0.00s)
//	loading...=== RUN   TestSections/footer       (-v)
//	loading...    report_test.go:24: total = 7    (-v: t.Error's line)
//
// The tail must have go's exact shape and run to the end of the line, and
// what precedes it must not be blank: a line that starts with go's text
// is read as it is. A reason is only looked for at the line's first
// ".go:", with go -v's indentation of four spaces before it.
func goTailStart(l string) int {
	i := goMarkerTail(l)
	if i < 0 {
		i = goReasonTail(l)
	}
	if i <= 0 || goIndentOf(l) >= i {
		return 0
	}
	return i
}

// goMarkerTail returns the index of the test result ("--- FAIL: name
// (0.00s)", PASS, SKIP) or run marker ("=== RUN   name", PAUSE, CONT,
// NAME) that l ends with, or -1. A test's name holds no blank: go
// replaces them with underscores.
func goMarkerTail(l string) int {
	sp := strings.LastIndexByte(l, ' ')
	if sp < 0 {
		return -1
	}
	last := l[sp+1:]
	if last == "" || strings.IndexByte(last, '\t') >= 0 {
		return -1
	}
	for _, m := range [...]string{"=== RUN   ", "=== PAUSE ", "=== CONT  ", "=== NAME  "} {
		if strings.HasSuffix(l[:sp+1], m) {
			return sp + 1 - len(m)
		}
	}
	// "(0.00s)", after the name.
	if len(last) < 4 || last[0] != '(' || !strings.HasSuffix(last, "s)") || !isGoDuration(last[1:len(last)-2]) {
		return -1
	}
	sp2 := strings.LastIndexByte(l[:sp], ' ')
	if sp2 < 0 || sp2+1 == sp || strings.IndexByte(l[sp2+1:sp], '\t') >= 0 {
		return -1
	}
	for _, m := range [...]string{"--- FAIL: ", "--- PASS: ", "--- SKIP: "} {
		if strings.HasSuffix(l[:sp2+1], m) {
			return sp2 + 1 - len(m)
		}
	}
	return -1
}

// goReasonTail returns the index of the "    file.go:12: message" that l
// ends with after other text, taken at l's first ".go:", or -1.
func goReasonTail(l string) int {
	i := strings.Index(l, ".go:")
	if i < 0 {
		return -1
	}
	w := i
	for w > 0 && l[w-1] != ' ' && l[w-1] != '\t' {
		w--
	}
	if w < 4 || l[w-4:w] != "    " || goLocLen(l[w:], 1) == 0 {
		return -1
	}
	return w - 4
}
