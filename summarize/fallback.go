package summarize

import mathbits "math/bits"

// lineSet is the set of the lines of one stream that finders took, by
// their index in the stream's lines, then in the readings of it finders
// viewed (Report.View). A bit per line: a finder may take every line of a
// large capture.
type lineSet struct {
	ls    []string   // the stream's lines
	views [][]string // other readings of the stream, numbered after ls
	bits  []uint64
	n     int
	// shown holds the lines a finder gave in another form than ls or a
	// view holds them (a jest frame, trimmed).
	shown map[int]string
}

// view numbers lines after the stream's lines and the views before it.
func (s *lineSet) view(lines []string) int {
	if sameLines(lines, s.ls) {
		return 0
	}
	base := len(s.ls)
	for _, v := range s.views {
		if sameLines(v, lines) {
			return base
		}
		base += len(v)
	}
	s.views = append(s.views, lines)
	return base
}

// line returns the line at index at as the set's stream holds it, or "".
func (s *lineSet) line(at int) (string, bool) {
	if at < len(s.ls) {
		return s.ls[at], true
	}
	at -= len(s.ls)
	for _, v := range s.views {
		if at < len(v) {
			return v[at], true
		}
		at -= len(v)
	}
	return "", false
}

// add takes the line at index at, given as line.
func (s *lineSet) add(line string, at int) {
	w := at / 64
	if w >= len(s.bits) {
		s.bits = append(s.bits, make([]uint64, w+1-len(s.bits))...)
	}
	if s.bits[w]&(1<<(at%64)) != 0 {
		return
	}
	s.bits[w] |= 1 << (at % 64)
	s.n++
	if l, ok := s.line(at); !ok || l != line {
		if s.shown == nil {
			s.shown = map[int]string{}
		}
		s.shown[at] = line
	}
}

// sameLines reports whether a and b are the same slice.
func sameLines(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// fallbackLines returns the lines the finders took, each once, in output
// order: stdout's, then stderr's. Only the first maxFallbackLines are
// kept; all are counted.
func (f *failures) fallbackLines() Capped {
	c := NewCapped(maxFallbackLines)
	for _, set := range f.taken {
		if len(c.Items) == c.Max {
			c.Total += set.n
			continue
		}
		for w, bits := range set.bits {
			for bits != 0 {
				at := w*64 + mathbits.TrailingZeros64(bits)
				bits &= bits - 1
				l, ok := set.shown[at]
				if !ok {
					l, _ = set.line(at)
				}
				c.Add(l)
			}
		}
	}
	return c
}

// fallbackBody is what the block shows when a rule's body fails the check:
// the exit code and every raw line that reported a failure, copied once
// each, in order.
func fallbackBody(r *Run, f *failures) *Body {
	b := &Body{}
	if r.Exited {
		b.Count("exit_code", r.ExitCode)
	}
	b.Field("fallback", "true")
	lines := f.fallbackLines()
	b.Count("failure_lines", lines.Total)
	b.ListCapped("failures", lines)
	return b
}

// maxFallbackLines caps the fallback list; the budget may cut it further.
const maxFallbackLines = 400
