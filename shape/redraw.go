package shape

import (
	"bytes"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// render makes the unit of the line stream s has just ended: the line as
// a terminal shows it once drawn (escapes removed; a line redrawn with
// "\r", a progress bar, at its last state, with a marker saying how often
// it was drawn), or the start of a line too long to keep, with a marker
// counting the rest.
//
//	100% |██████████| 500/500 [shrinkrun: last state of a line redrawn 500 times, 31000 bytes]
//	{"items":[{"id":1, ... [shrinkrun: 5242880 more bytes of this line omitted]
func (k *cutState) render(s Stream, nl, failures bool) unit {
	b := &k.cur[s]
	u := unit{s: s, c: counts{lines: 1, bytes: b.n}, run: 1}
	whole := int64(len(b.keep)) == b.n
	line := b.keep
	if whole {
		line = trimEnd(line)
	}
	u.fail = failures && isFailure(b.keep)
	if u.fail {
		u.c.fails = 1
	}
	redraws := b.crs
	if whole && redraws > 0 {
		redraws = int64(bytes.Count(line, []byte{'\r'}))
	}
	switch {
	case redraws > 0:
		state := line
		if !whole {
			state = b.last
		}
		state = readable(state)
		if u.fail && !isFailure(state) {
			// A failure drawn over: its line stays as it was written.
			if whole {
				u.text = summarize.StripTerminal(line)
				break
			}
			kept := runeStart(line[:min(len(line), k.maxLine-lineCutRoom)])
			u.text = appendLineCut(summarize.StripTerminal(kept), b.n-int64(len(kept))-nlCount(nl))
			break
		}
		u.text = appendRedraws(append([]byte(nil), state...), redraws, b.n)
	case whole:
		// Room for the newline the cut adds (unitText).
		r := readable(line)
		u.text = append(k.alloc(len(r)+1), r...)
	default:
		kept := runeStart(b.keep[:min(len(b.keep), k.maxLine-lineCutRoom)])
		// The marker's newline stands for the line's.
		u.text = appendLineCut(append([]byte(nil), readable(kept)...), b.n-int64(len(kept))-nlCount(nl))
	}
	return u
}

func nlCount(nl bool) int64 {
	if nl {
		return 1
	}
	return 0
}

// trimEnd removes a line's newline and the carriage returns before it, as
// a terminal shows them: nothing.
func trimEnd(l []byte) []byte {
	return bytes.TrimRight(bytes.TrimSuffix(l, []byte{'\n'}), "\r")
}

// readable is one line as a terminal shows it.
func readable(l []byte) []byte {
	if bytes.IndexByte(l, 0x1b) < 0 && bytes.IndexByte(l, '\r') < 0 {
		return l
	}
	return bytes.TrimSuffix(summarize.Readable(l), []byte{'\n'})
}

// escapeStart is b without a terminal escape sequence that its end cuts
// short. The start of a line released before the line ends (a prompt, a
// long line) is shown as readable text, and the rest later on its own: an
// escape split between the two would leave part of it in the text.
func escapeStart(b []byte) []byte {
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b {
			continue
		}
		if i == len(b)-1 {
			return b[:i]
		}
		end := summarize.SkipEscape(b, i)
		if end == len(b)-1 && !escapeEnds(b[i:]) {
			return b[:i]
		}
		i = end
	}
	return b
}

// escapeEnds reports whether seq, an escape sequence as far as
// summarize.SkipEscape reads it, has its final byte.
func escapeEnds(seq []byte) bool {
	last := seq[len(seq)-1]
	switch seq[1] {
	case '[':
		return len(seq) > 2 && 0x40 <= last && last <= 0x7e
	case ']', 'P', '_', '^':
		return last == 0x07 || len(seq) >= 4 && last == '\\' && seq[len(seq)-2] == 0x1b
	}
	return last < 0x20 || last > 0x2f
}
