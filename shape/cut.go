package shape

import (
	"bytes"
	"unicode/utf8"
)

// cutState is the Cutter past the limit: it reads the rest of the output
// line by line into the list, within bounds that do not grow with the
// output, and writes the list out at Close (or, for failures, at a Tick).
type cutState struct {
	c       *Cutter
	maxLine int // the most of one line kept; the rest is counted
	cur     [2]lineBuf
	l       list
	seq     int64
}

// lineBuf is the line a stream has begun: its first maxLine bytes and its
// length.
type lineBuf struct {
	keep []byte
	n    int64
}

func newCut(c *Cutter) *cutState {
	return &cutState{c: c, maxLine: max(256, c.o.Budget/4)}
}

// feed reads bytes of stream s.
func (k *cutState) feed(s Stream, p []byte) {
	b := &k.cur[s]
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		piece := p
		if i >= 0 {
			piece = p[:i+1]
		}
		if room := k.maxLine - len(b.keep); room > 0 {
			b.keep = append(b.keep, piece[:min(room, len(piece))]...)
		}
		b.n += int64(len(piece))
		p = p[len(piece):]
		if i >= 0 {
			k.line(s, true)
		}
	}
}

// line ends the line stream s has begun, at its newline (nl) or at the
// end of the output.
func (k *cutState) line(s Stream, nl bool) {
	b := &k.cur[s]
	whole := b.keep
	var text []byte
	if int64(len(whole)) == b.n {
		text = append([]byte(nil), whole...)
		if !nl {
			text = append(text, '\n')
		}
	} else {
		kept := runeStart(whole[:min(len(whole), k.maxLine-lineCutRoom)])
		omitted := b.n - int64(len(kept))
		if nl {
			omitted-- // the marker's newline stands for the line's
		}
		text = appendLineCut(append([]byte(nil), kept...), omitted)
	}
	fail := isFailure(whole)
	k.seq++
	n := &node{s: s, text: text, counts: counts{lines: 1, bytes: b.n}, seq: k.seq}
	if fail {
		n.rank, n.fails = rankFailure, 1
	}
	k.l.push(n, true)
	b.keep, b.n = b.keep[:0], 0
	k.bound()
}

// lineCutRoom is what the marker after a long line's kept start takes.
var lineCutRoom = len(appendLineCut(nil, maxCount))

// bound keeps the list within the budget while the output goes on: the
// tail within what is left after the items, the items within what is left
// after the head. Memory then never exceeds a few budgets.
func (k *cutState) bound() {
	room := k.room(0)
	for k.l.tailBytes > max(room-k.l.itemBytes, k.tailShare()) && k.l.ageTail() {
	}
	k.l.trimItems(room)
}

// room is what the budget leaves for the list, with reserve kept back.
func (k *cutState) room(reserve int) int {
	return k.c.o.Budget - k.c.out.n - trailerRoom() - 2 - reserve
}

// tailShare is the tail's share of the budget, chosen by the kind of
// command.
func (k *cutState) tailShare() int { return k.c.afford() * k.c.kind.tail / 100 }

// commit returns the list up to its newest failure line, a failure at a
// time, while what it returns leaves room for the trailer, a marker and
// half the tail's share.
func (k *cutState) commit() {
	var last *node
	for n := k.l.last; n != nil; n = n.prev {
		if !n.gap && n.rank == rankFailure {
			last = n
			break
		}
	}
	if last == nil {
		return
	}
	// The lines before it are no longer the end of the output.
	for t := k.l.oldestTail(); t != nil && t.seq <= last.seq; t = k.l.oldestTail() {
		k.l.ageTail()
	}
	reserve := maxGapMarker + k.tailShare()/2
	for {
		size, end := 0, (*node)(nil)
		for n := k.l.first; n != nil; n = n.next {
			size += n.renderSize()
			if !n.gap && n.rank == rankFailure {
				end = n
				break
			}
		}
		if end == nil || size > k.room(reserve) {
			return
		}
		k.l.render(&k.c.out, end.next)
		if end == last {
			return
		}
	}
}

// close writes the rest of the cut and the trailer.
func (k *cutState) close(raw string, block []byte) {
	for s := range k.cur {
		if k.cur[s].n > 0 {
			k.line(Stream(s), false)
		}
	}
	raw = oneLine(raw)
	t := trailer(k.c.lines(), k.c.total, raw)
	if len(raw) > maxRaw && k.c.out.n+len(t) > k.c.o.Budget-maxGapMarker-2 {
		t = trailer(k.c.lines(), k.c.total, "")
	}
	room := k.c.o.Budget - k.c.out.n - len(t) - 2
	if block != nil && k.useBlock(block, room) {
		k.c.out.emitLine(Stdout, t)
		return
	}
	if !k.l.fit(room, k.tailShare()) {
		// A budget too small for even one marker: the cut says nothing
		// more than fits.
		for n := k.l.first; n != nil; n = n.next {
			if !n.gap {
				k.l.drop(n)
			}
		}
		if k.l.size+2 <= k.c.o.Budget-k.c.out.n {
			k.l.render(&k.c.out, nil)
		}
		if len(t)+2 <= k.c.o.Budget-k.c.out.n {
			k.c.out.emitLine(Stdout, t)
		}
		return
	}
	k.l.render(&k.c.out, nil)
	k.c.out.emitLine(Stdout, t)
}

// useBlock writes a rule's block in place of the list, after a marker
// for everything the list stands for, when both fit room.
func (k *cutState) useBlock(block []byte, room int) bool {
	var all counts
	stdout := false
	for n := k.l.first; n != nil; n = n.next {
		all.add(n.counts)
		stdout = stdout || n.s == Stdout && !n.gap || n.hasStdout
	}
	m := gapMarker(all)
	if all.lines == 0 || len(m)+len(block)+1 > room {
		return false
	}
	s := Stderr
	if stdout {
		s = Stdout
	}
	k.c.out.emitLine(s, m)
	k.c.out.emitLine(Stdout, block)
	if block[len(block)-1] != '\n' {
		k.c.out.emit(Stdout, []byte{'\n'})
	}
	return true
}

// oneLine keeps a name on one line of the marker.
func oneLine(s string) string {
	return string(bytes.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, []byte(s)))
}

// runeStart cuts b back to a whole UTF-8 character.
func runeStart(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return b
			}
			return b[:i]
		}
	}
	return b
}
