package shape

import (
	"math"
	"strconv"
)

// Every marker the cut writes is one line that starts with "[shrinkrun: "
// and states exactly what it stands for (docs/shape.md, "Markers").

// maxCount is the largest count a marker may state, for reserving room.
const maxCount = math.MaxInt64

// maxRaw is the longest name of the raw output the budget keeps room for.
const maxRaw = 256

// markerPrefix starts every marker line.
const markerPrefix = "[shrinkrun: "

// appendCount appends "N unit" or "N units".
func appendCount(b []byte, n int64, unit string) []byte {
	b = strconv.AppendInt(b, n, 10)
	b = append(b, ' ')
	b = append(b, unit...)
	if n != 1 {
		b = append(b, 's')
	}
	return b
}

// appendGapMarker appends the marker of omitted input: how many lines
// and bytes, and of those how many were failure lines and how many frames
// of a trace outside the project. Similar lines differ from the line
// before them only in their numbers and spacing; in blocks of period
// lines, from the line period lines before.
//
//	[shrinkrun: 4512 lines, 312044 bytes omitted]
//	[shrinkrun: 498 similar lines, 23000 bytes omitted]
//	[shrinkrun: 1993 blocks of 5 similar lines, 150000 bytes omitted]
//	[shrinkrun: 204 lines, 11903 bytes omitted (9 failure lines, 3 library frames)]
func appendGapMarker(b []byte, c counts, period int) []byte {
	return appendMarker(b, c, period, 0)
}

// appendGroupMarker appends the marker of a group: lines omitted before
// and between the next kept lines, which follow it with no marker of their
// own. A group costs one marker however many gaps it stands for: the form
// a cut takes when the markers between its failure lines would crowd them
// out.
//
//	[shrinkrun: 5806 lines, 136021 bytes omitted before and between the next 162 lines]
func appendGroupMarker(b []byte, c counts, kept int) []byte {
	return appendMarker(b, c, 0, kept)
}

// appendMarker appends a gap's marker, or, for kept > 1, a group's.
func appendMarker(b []byte, c counts, period, kept int) []byte {
	b = append(b, markerPrefix...)
	switch {
	case period > 1:
		b = appendCount(b, c.lines/int64(period), "block")
		b = append(b, " of "...)
		b = strconv.AppendInt(b, int64(period), 10)
		b = append(b, " similar lines"...)
	case period == 1:
		b = strconv.AppendInt(b, c.lines, 10)
		b = append(b, " similar line"...)
		if c.lines != 1 {
			b = append(b, 's')
		}
	default:
		b = appendCount(b, c.lines, "line")
	}
	b = append(b, ", "...)
	b = appendCount(b, c.bytes, "byte")
	b = append(b, " omitted"...)
	if kept > 1 {
		b = append(b, groupWords...)
		b = appendCount(b, int64(kept), "line")
	}
	if c.fails > 0 || c.frames > 0 {
		b = append(b, " ("...)
		if c.fails > 0 {
			b = appendCount(b, c.fails, "failure line")
		}
		if c.frames > 0 {
			if c.fails > 0 {
				b = append(b, ", "...)
			}
			b = appendCount(b, c.frames, "library frame")
		}
		b = append(b, ')')
	}
	return append(b, "]\n"...)
}

// groupWords join a group's counts to the lines it spans.
const groupWords = " before and between the next "

func gapMarker(c counts, period int) []byte { return appendGapMarker(nil, c, period) }

// gapMarkerLen is len(gapMarker(c, period)), counted without writing it:
// the list asks it for every line it omits.
func gapMarkerLen(c counts, period int) int { return markerLen(c, period, 0) }

// groupMarkerLen is len(appendGroupMarker(nil, c, kept)); for kept 1 or
// less, a gap's.
func groupMarkerLen(c counts, kept int) int { return markerLen(c, 0, kept) }

// markerLen is len(appendMarker(nil, c, period, kept)).
func markerLen(c counts, period, kept int) int {
	n := len(markerPrefix) + len(", ") + digits(c.bytes) + len(" byte") + pluralLen(c.bytes) + len(" omitted") + len("]\n")
	switch {
	case period > 1:
		blocks := c.lines / int64(period)
		n += digits(blocks) + len(" block") + pluralLen(blocks) + len(" of ") + digits(int64(period)) + len(" similar lines")
	case period == 1:
		n += digits(c.lines) + len(" similar line") + pluralLen(c.lines)
	default:
		n += digits(c.lines) + len(" line") + pluralLen(c.lines)
	}
	if kept > 1 {
		n += len(groupWords) + digits(int64(kept)) + len(" line") + pluralLen(int64(kept))
	}
	if c.fails > 0 || c.frames > 0 {
		n += len(" ()")
		if c.fails > 0 {
			n += digits(c.fails) + len(" failure line") + pluralLen(c.fails)
		}
		if c.frames > 0 {
			if c.fails > 0 {
				n += len(", ")
			}
			n += digits(c.frames) + len(" library frame") + pluralLen(c.frames)
		}
	}
	return n
}

// digits is how many digits n has in decimal (n >= 0).
func digits(n int64) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

// pluralLen is the length of the "s" a count of n takes.
func pluralLen(n int64) int {
	if n == 1 {
		return 0
	}
	return 1
}

// maxGapMarker is the longest gap marker.
var maxGapMarker = max(gapMarkerLen(counts{maxCount, maxCount, maxCount, maxCount}, 0),
	gapMarkerLen(counts{maxCount, maxCount, maxCount, maxCount}, maxPeriod))

// maxMarker is the longest marker of omitted lines, a group's included:
// lines whose rendering is longer can never cost less than a marker.
var maxMarker = max(maxGapMarker, groupMarkerLen(counts{maxCount, maxCount, maxCount, maxCount}, math.MaxInt))

// trailer is the cut's last line: how large the output was and where it
// is kept.
//
//	[shrinkrun: output cut by shape from 40213 lines, 2340112 bytes; full output: shrinkrun show 1a2b3c]
func trailer(lines, bytes int64, raw string) []byte {
	b := []byte(markerPrefix + "output cut by shape from ")
	b = appendCount(b, lines, "line")
	b = append(b, ", "...)
	b = appendCount(b, bytes, "byte")
	if raw != "" {
		b = append(b, "; full output: "...)
		b = append(b, raw...)
	}
	return append(b, "]\n"...)
}

// appendLineCut appends the marker that ends a line too long to keep
// whole: what follows the kept start.
//
//	[shrinkrun: 80123 more bytes of this line omitted]
func appendLineCut(b []byte, n int64) []byte {
	b = append(b, " "+markerPrefix...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, " more "...)
	if n == 1 {
		b = append(b, "byte"...)
	} else {
		b = append(b, "bytes"...)
	}
	return append(b, " of this line omitted]"...)
}

// appendRun appends the count of a run of identical lines: "line (×N)".
func appendRun(b []byte, n int64) []byte {
	b = append(b, " (×"...)
	b = strconv.AppendInt(b, n, 10)
	return append(b, ')')
}

// appendRedraws appends the marker after the last state of a line drawn
// again and again with "\r".
//
//	100% [====] [shrinkrun: last state of a line redrawn 341 times, 23412 bytes]
func appendRedraws(b []byte, n, bytes int64) []byte {
	b = append(b, " "+markerPrefix+"last state of a line redrawn "...)
	b = appendCount(b, n, "time")
	b = append(b, ", "...)
	b = appendCount(b, bytes, "byte")
	return append(b, ']')
}
