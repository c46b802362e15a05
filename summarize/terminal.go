package summarize

import "bytes"

// StripTerminal removes terminal control sequences (CSI such as colors and
// cursor moves, OSC such as titles and hyperlinks, and other two-byte ESC
// sequences) and turns "\r\n" into "\n", so that rules see the text a
// person would read. A lone "\r" is kept: progress lines rewrite themselves
// with it, and the rules treat what follows the last "\r" as the line.
//
// Text between escapes is copied a run at a time, found with IndexByte: a
// colored log is mostly plain runs, and the node rules strip every stream.
func StripTerminal(b []byte) []byte {
	return appendStripped(make([]byte, 0, len(b)), b)
}

// appendStripped appends b without its terminal escapes to out.
func appendStripped(out, b []byte) []byte {
	esc, cr := bytes.IndexByte(b, 0x1b), bytes.IndexByte(b, '\r')
	for i := 0; ; {
		j := esc
		if j < 0 || 0 <= cr && cr < j {
			j = cr
		}
		if j < 0 {
			return append(out, b[i:]...)
		}
		out = append(out, b[i:j]...)
		switch {
		case j == cr && j+1 < len(b) && b[j+1] == '\n':
			i = j + 1
		case j == cr:
			out = append(out, '\r')
			i = j + 1
		case j+1 < len(b):
			i = skipEscape(b, j) + 1
		default:
			i = j + 1
		}
		if esc >= 0 && esc < i {
			esc = nextByte(b, i, 0x1b)
		}
		if cr >= 0 && cr < i {
			cr = nextByte(b, i, '\r')
		}
	}
}

// nextByte returns the index of the first c in b at or after i, or -1.
func nextByte(b []byte, i int, c byte) int {
	if j := bytes.IndexByte(b[i:], c); j >= 0 {
		return i + j
	}
	return -1
}

// skipEscape returns the index of the last byte of the escape sequence that
// starts at b[i] == ESC.
func skipEscape(b []byte, i int) int {
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
