package summarize

import (
	"bytes"
	"slices"
)

// StripTerminal removes terminal control sequences (CSI such as colors and
// cursor moves, OSC such as titles and hyperlinks, and other two-byte ESC
// sequences) and turns "\r\n" into "\n", so that rules see the text a
// person would read. A lone "\r" is kept: progress lines rewrite themselves
// with it, and the rules treat what follows the last "\r" as the line.
//
// Text between escapes is copied a run at a time: a colored log is mostly
// plain runs, and the node rules strip every stream.
func StripTerminal(b []byte) []byte {
	return appendStripped(make([]byte, 0, len(b)), b)
}

// appendStripped appends b without its terminal escapes to out. The next
// escape is looked for by hand over a few bytes, which is what separates
// the escapes of a colored line, then with IndexByte; the next '\r' is
// remembered, so that neither search passes over a byte twice. The text
// is copied into room made once for all of b, and the colors' CSI
// sequences are skipped in place: a colored log has one every few bytes.
func appendStripped(out, b []byte) []byte {
	const short = 16
	n := len(out)
	out = slices.Grow(out, len(b))[:n+len(b)]
	cr := bytes.IndexByte(b, '\r') // the first '\r' at or after i, or -1
	for i := 0; i < len(b); {
		if 0 <= cr && cr < i {
			if cr = bytes.IndexByte(b[i:], '\r'); cr >= 0 {
				cr += i
			}
		}
		end := len(b)
		if cr >= 0 {
			end = cr
		}
		j := i
		for j < end && j-i < short && b[j] != 0x1b {
			j++
		}
		if j < end && b[j] != 0x1b {
			if k := bytes.IndexByte(b[j:end], 0x1b); k >= 0 {
				j += k
			} else {
				j = end
			}
		}
		n += copy(out[n:], b[i:j])
		switch {
		case j == len(b):
			return out[:n]
		case b[j] == '\r':
			if j+1 == len(b) || b[j+1] != '\n' {
				out[n] = '\r'
				n++
			}
			i = j + 1
		case j+1 == len(b):
			i = j + 1
		case b[j+1] == '[':
			// skipEscape's CSI case, inlined.
			k := j + 2
			for k < len(b) && (b[k] < 0x40 || b[k] > 0x7e) {
				k++
			}
			i = min(k, len(b)-1) + 1
		default:
			i = SkipEscape(b, j) + 1
		}
	}
	return out[:n]
}

// SkipEscape returns the index of the last byte of the escape sequence that
// starts at b[i] == ESC.
func SkipEscape(b []byte, i int) int {
	switch b[i+1] {
	case '[': // CSI: parameters and intermediates, then a final byte 0x40-0x7e
		j := i + 2
		for j < len(b) && (b[j] < 0x40 || b[j] > 0x7e) {
			j++
		}
		return min(j, len(b)-1)
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ESC \
		for j := i + 2; j < len(b); j++ {
			if b[j] == 0x07 {
				return j
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 1
			}
		}
		return len(b) - 1
	}
	// nF sequences (such as ESC ( B, a charset choice): intermediates
	// 0x20-0x2f, then one final byte.
	j := i + 1
	for j < len(b)-1 && b[j] >= 0x20 && b[j] <= 0x2f {
		j++
	}
	return j
}

// Readable is the text a person reads where b was printed on a terminal:
// StripTerminal's text, except that a line that moves back to its start
// with a lone "\r" (a progress bar, cargo's "Building [==> ] 3/7" just
// before "error: ...") shows what the terminal shows once it is done:
// later characters over earlier ones, and what "ESC [ K" erased gone.
// Rules are written against plain output; a tool that colors it
// (CARGO_TERM_COLOR=always, FORCE_COLOR, --pty) or draws progress in front
// of its messages would otherwise hide every line from them. Output with
// neither escapes nor carriage returns is returned as it is, without a copy.
func Readable(b []byte) []byte {
	if bytes.IndexByte(b, 0x1b) < 0 && bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	if bytes.IndexByte(b, '\r') < 0 {
		// Colors only: stripping the whole stream at once gives the
		// lines stripped one by one, unless a sequence ran across a
		// newline, which then went missing.
		if s := StripTerminal(b); bytes.Count(s, []byte{'\n'}) == bytes.Count(b, []byte{'\n'}) {
			return s
		}
	}
	out := make([]byte, 0, len(b))
	var line []byte
	for rest := b; len(rest) > 0; {
		l, after, nl := bytes.Cut(rest, []byte{'\n'})
		rest = after
		l = bytes.TrimRight(l, "\r")
		switch {
		case bytes.IndexByte(l, '\r') >= 0:
			line = rewrite(line[:0], l)
			out = append(out, line...)
		case bytes.IndexByte(l, 0x1b) >= 0:
			out = appendStripped(out, l)
		default:
			out = append(out, l...)
		}
		if nl {
			out = append(out, '\n')
		}
	}
	return out
}

// rewrite appends to dst what a terminal shows of one line that returns to
// its start with "\r": each character replaces the one under the cursor,
// "ESC [ K" erases to the end of the line and "ESC [ 2 K" all of it; other
// escapes are dropped.
func rewrite(dst, line []byte) []byte {
	col := 0
	for i := 0; i < len(line); {
		j := i
		for j < len(line) && line[j] != '\r' && line[j] != 0x1b {
			j++
		}
		if j > i {
			// Text from the cursor on: over what is there, then past it.
			for len(dst) < col {
				dst = append(dst, ' ')
			}
			n := copy(dst[col:], line[i:j])
			dst = append(dst, line[i+n:j]...)
			col += j - i
			i = j
			continue
		}
		if line[i] == '\r' {
			col = 0
			i++
			continue
		}
		if i+1 == len(line) {
			return dst
		}
		k := SkipEscape(line, i)
		if line[i+1] == '[' && line[k] == 'K' {
			switch string(line[i+2 : k]) {
			case "", "0":
				dst = dst[:min(col, len(dst))]
			case "2":
				dst = dst[:0]
			}
		}
		i = k + 1
	}
	return dst
}
