package summarize

// StripTerminal removes terminal control sequences (CSI such as colors and
// cursor moves, OSC such as titles and hyperlinks, and other two-byte ESC
// sequences) and turns "\r\n" into "\n", so that rules see the text a
// person would read. A lone "\r" is kept: progress lines rewrite themselves
// with it, and the rules treat what follows the last "\r" as the line.
func StripTerminal(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == 0x1b && i+1 < len(b):
			i = skipEscape(b, i)
		case c == 0x1b:
		case c == '\r' && i+1 < len(b) && b[i+1] == '\n':
		default:
			out = append(out, c)
		}
	}
	return out
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
