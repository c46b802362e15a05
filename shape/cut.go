package shape

import (
	"bytes"
	"unicode/utf8"
)

// cutState is the Cutter past the limit. It reads the rest of the output a
// line at a time through the shapes, each a stage that holds at most a line
// or two, into the list, which the budget bounds: so what it keeps never
// grows with the output. The list is written out at Close, and its failure
// lines at a Tick.
//
// The stages, in order: the line as a terminal shows it (redraw.go);
// runs of identical lines (repeat.go); stack traces, failures, warnings
// (trace.go, log.go); runs of near-identical lines (repeat.go); the list,
// where each line gets its rank and the lines beside a failure theirs.
// A source file viewed whole skips them for its outline (outline.go); a
// JSON document gets its structure (json.go).
type cutState struct {
	c       *Cutter
	maxLine int // the most of one line kept; the rest is counted
	cur     [2]lineBuf
	l       list
	seq     int64

	rep   repeatStage
	trace traceStage
	sim   similarStage

	tail      ring  // the newest lines placed, until newer ones push them into the list
	prevSeq   int64 // the last line placed, to rank it as a failure's context; 0 after a gap
	afterFail bool  // the next line placed is a failure's context
	live      int   // what quiet Ticks may still spend on the newest lines (liveTail)

	outline *outline // a source file viewed whole
	lineNo  int64    // the next stdout line's number in the whole output

	slab []byte // where lines' texts are made, a slab at a time (alloc)
}

// slabSize is the size of the slabs lines' texts are cut from. An item of
// the list copies its text out (tailLine.node), so a slab stays alive only
// while the tail or a stage holds a line of it: a few of them at a time.
const slabSize = 8 << 10

// alloc returns an empty slice with room for n bytes, cut from the slab:
// a line costs no allocation of its own.
func (k *cutState) alloc(n int) []byte {
	if n > slabSize/4 {
		return make([]byte, 0, n)
	}
	if cap(k.slab)-len(k.slab) < n {
		k.slab = make([]byte, 0, slabSize)
	}
	b := k.slab[len(k.slab) : len(k.slab) : len(k.slab)+n]
	k.slab = k.slab[:len(k.slab)+n]
	return b
}

// lineBuf is the line a stream has begun: its first maxLine bytes, its
// length, and for a line redrawn with "\r" how often and its last drawing
// (what a line too long to keep whole needs).
type lineBuf struct {
	keep []byte
	n    int64
	crs  int64  // carriage returns that redraw the line
	cr   bool   // the bytes so far end in "\r": a redraw, or a "\r\n"
	last []byte // what follows the last redraw, up to maxLine bytes
	// released: the line's start is out (a Tick released it, before the
	// cut or after); its first shown bytes of n were. The rest is shown or
	// counted where the line ends.
	released bool
	shown    int64
}

// drawn follows the redraws in piece, the next bytes of the line (ended,
// when nl, by its newline). A "\r" before the newline ends the line, as
// "\r\n"; one at the end of a Write waits for the next byte to tell.
func (b *lineBuf) drawn(piece []byte, nl bool, maxLine int) {
	q := piece
	if nl {
		q = q[:len(q)-1]
	}
	if b.cr {
		b.cr = false
		if len(q) > 0 || !nl {
			b.crs++
			b.last = b.last[:0]
		}
	}
	if n := len(q); n > 0 && q[n-1] == '\r' {
		q = q[:n-1]
		b.cr = !nl
	}
	if j := bytes.LastIndexByte(q, '\r'); j >= 0 {
		b.crs += int64(bytes.Count(q, []byte{'\r'}))
		b.last = appendMax(b.last[:0], q[j+1:], maxLine)
	} else if b.crs > 0 {
		b.last = appendMax(b.last, q, maxLine)
	}
}

// unit is a line, or a run of identical lines, as the stages pass it on.
type unit struct {
	s    Stream
	text []byte // the rendering, without its newline
	c    counts
	fail bool
	run  int64 // identical lines it stands for
	no   int64 // its line number in stdout, 0 on stderr
}

func newCut(c *Cutter, nextLine int64) *cutState {
	k := &cutState{c: c, maxLine: max(256, c.o.Budget/4), lineNo: nextLine, live: liveTailMax}
	if k.outline = newOutline(c.o.Argv, c.o.Budget); k.outline != nil && c.o.Piped && !k.outline.numbered {
		k.outline = nil // the lines' numbers in the file are unknown
	}
	return k
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
		b.drawn(piece, i >= 0, k.maxLine)
		p = p[len(piece):]
		if i >= 0 {
			k.line(s, true)
		}
	}
}

// appendMax appends p to b up to max bytes in all.
func appendMax(b, p []byte, max int) []byte {
	if room := max - len(b); room > 0 {
		b = append(b, p[:min(room, len(p))]...)
	}
	return b
}

// line ends the line stream s has begun, at its newline (nl) or at the
// end of the output, and passes it through the stages.
func (k *cutState) line(s Stream, nl bool) {
	if k.cur[s].released {
		k.endReleased(s, nl)
		return
	}
	// A file's text viewed whole: its words are no failures.
	file := s == Stdout && k.outline != nil
	u := k.render(s, nl, !file)
	b := &k.cur[s]
	b.keep, b.n, b.crs, b.cr, b.last = b.keep[:0], 0, 0, false, b.last[:0]
	if s == Stdout {
		u.no = k.lineNo
		k.lineNo++
		if file {
			k.outline.see(u)
			k.place(u, rankPlain)
			return
		}
	}
	k.rep.add(k, u)
}

// classify is the stage after the repeats: it ranks a unit as a failure,
// a frame of a trace, a warning or a plain line.
func (k *cutState) classify(u unit) {
	k.trace.add(k, u)
}

// place puts a ranked unit at the end of the output kept so far: the
// tail, until newer lines push it into the list, and ranks the lines
// beside a failure as their context. It returns the line's place in the
// output, by which a stage may rank it again (rerank).
func (k *cutState) place(u unit, r rank) int64 {
	if u.fail {
		r = rankFailure
		k.rerank(k.prevSeq, rankContext)
		k.afterFail = true
	} else if k.afterFail {
		r = max(r, rankContext)
		k.afterFail = false
	}
	k.seq++
	k.tail.push(tailLine{s: u.s, text: unitText(u), c: u.c, rank: r, seq: k.seq, no: u.no})
	k.prevSeq = k.seq
	k.bound()
	return k.seq
}

// rerank raises the rank of the line placed as seq to at least r, while
// it is in the tail; a line pushed out of it has its rank for good.
func (k *cutState) rerank(seq int64, r rank) {
	if t := k.tail.find(seq); t != nil {
		t.rank = max(t.rank, r)
	}
}

// omit puts a unit straight into a gap: a library's frame of a trace.
func (k *cutState) omit(u unit, frames int64) {
	c := u.c
	c.frames = frames
	var sh gapLines
	sh.add(u.s, unitText(u), true)
	k.omitGap(u.s, c, 0, sh)
}

// omitGap puts omitted lines, with their renderings while few, at the end
// of the output kept so far.
func (k *cutState) omitGap(s Stream, c counts, period int, sh gapLines) {
	k.tail.push(tailLine{s: s, c: c, gap: true, period: period, shown: sh})
	k.prevSeq = 0
}

// flush passes on what every stage holds: at Close, and before a Tick
// returns what the list has.
func (k *cutState) flush() {
	k.rep.flush(k)
	k.trace.flush(k)
	k.sim.flush(k)
}

// unitText is a unit's rendering in the cut: its text, "(×N)" for a run,
// and its newline.
func unitText(u unit) []byte {
	if u.run == 1 {
		return append(u.text, '\n') // in the room render left, mostly
	}
	return append(appendRun(append(make([]byte, 0, len(u.text)+16), u.text...), u.run), '\n')
}

// lineCutRoom is what the marker after a long line's kept start takes.
var lineCutRoom = len(appendLineCut(nil, maxCount))

// bound keeps what the cut holds within the budget while the output goes
// on: the tail within what is left after the items, the items within what
// is left after the head. Memory then never exceeds a few budgets (with
// Ticks, the limit).
//
// Failure lines may take the list up to the hard room (hardRoom), the rest
// only up to the room: after Ticks released more than the budget affords
// before the cut, that is where the cut shrinks to its marker and its
// failure lines.
func (k *cutState) bound() {
	room, hard := k.room(0), k.hardRoom(0)
	for limit := max(room-k.l.itemBytes, k.tailShare()); k.l.tailBytes+k.tail.bytes > limit; {
		if k.l.tailBytes > 0 {
			k.l.ageTail() // a tail spilled into the list by a Tick: older
			continue
		}
		k.age(k.tail.pop(), room, hard)
	}
	k.l.trimItems(room, hard)
}

// age moves a line out of the tail: ranked above plain, it stays as an
// item of the list, unless the list would drop it at once for room (hard,
// for a failure line); plain, it joins the gap at the list's end.
func (k *cutState) age(t tailLine, room, hard int) {
	if t.rank == rankFailure {
		room = hard
	}
	switch {
	case t.gap:
		k.l.omit(t.s, t.c, t.period, t.shown)
	case t.rank == rankPlain || !k.l.wouldKeep(t.rank, len(t.text), room):
		k.l.omitLine(t.s, t.c, t.text)
	default:
		k.l.push(t.node(), false)
	}
}

// spill moves the whole tail into the list, as its tail: before a Tick
// returns the list up to a failure, and at Close, which fit and render the
// list as a whole.
func (k *cutState) spill() {
	for k.tail.len() > 0 {
		t := k.tail.pop()
		if t.gap {
			k.l.omit(t.s, t.c, t.period, t.shown)
			continue
		}
		k.l.push(t.node(), true)
	}
}

// room is what the budget leaves for the list, with reserve kept back.
func (k *cutState) room(reserve int) int {
	return k.c.ceiling() - k.c.out.n - trailerRoom() - 2 - reserve
}

// hardRoom is what the hard ceiling leaves for the list, with reserve
// kept back: the room failure lines may take.
func (k *cutState) hardRoom(reserve int) int {
	return k.c.hardCeiling() - k.c.out.n - trailerRoom() - 2 - reserve
}

// tailShare is the tail's share of the budget, chosen by the kind of
// command.
func (k *cutState) tailShare() int { return k.c.afford() * k.c.kind.tail / 100 }

// commit returns the list up to its newest failure line, at a Tick: the
// failure lines found so far reach the reader as they come. Each Tick
// costs a marker, so it returns them as a group: one marker for every line
// it skips, then its failure lines and the project's frames of their
// traces; or the list as it is (each gap its marker, the lines beside a
// failure) when that costs no more. It returns as many failure lines, from
// the first, as leave room for the trailer, a marker and half the tail's
// share; the others wait for Close, which fits what is left as one.
func (k *cutState) commit() {
	k.flush()
	k.spill()
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
	room := k.hardRoom(maxGapMarker + k.tailShare()/2)
	var stop *node // the last failure line returned
	group := false
	var omitted counts
	normal, texts, kept := 0, 0, 0
	for n := k.l.first; n != nil; n = n.next {
		normal += n.renderSize()
		if n.gap || n.rank < rankFrame {
			omitted.add(n.counts)
			continue
		}
		kept++
		texts += len(n.text)
		if n.rank != rankFailure {
			continue
		}
		g := texts
		if omitted.lines > 0 {
			g += groupMarkerLen(omitted, kept)
		}
		if min(normal, g) > room {
			break
		}
		stop, group = n, g < normal
		if n == last {
			break
		}
	}
	if stop == nil {
		return
	}
	if !group {
		k.l.render(&k.c.out, stop.next)
		return
	}
	var g gapSum
	var keep []*node
	for n := k.l.first; ; n = n.next {
		if !n.gap && n.rank >= rankFrame {
			keep = append(keep, n)
		} else {
			g.add(n)
		}
		if n == stop {
			break
		}
	}
	for n, after := k.l.first, stop.next; n != after; {
		next := n.next
		k.l.remove(n)
		n = next
	}
	if g.c.lines > 0 {
		s := Stderr
		if g.stdout {
			s = Stdout
		}
		k.c.out.emitLine(s, appendGroupMarker(nil, g.c, len(keep)))
	}
	for _, n := range keep {
		k.c.out.emitLine(n.s, n.text)
	}
}

// liveTailMax is what quiet Ticks past the cut may spend, in all, on the
// newest lines of a command that has stopped writing (liveTail): a fixed
// part of what the limit leaves, so that a server that never ends shows
// its "listening on" line without its idle hours crowding out the cut.
const liveTailMax = 1024

// liveTail releases the newest lines, at a Tick that found the output
// quiet (less than quietBytes written since the Tick before): a dev
// server that printed its start-up log and waits, a prompt. Everything the cut holds before them
// becomes one gap, counted exactly; they follow it in their order, the
// line a stream has begun (a prompt) last, within what is left of
// liveTailMax and of the hard room. Failure lines the list still holds
// wait for Close instead; so does a file viewed whole, for its outline.
func (k *cutState) liveTail() {
	if k.live <= 0 || k.outline != nil || k.holdsFailure() {
		return
	}
	budget := min(k.live, k.hardRoom(maxGapMarker))
	var begun []Stream
	size := 0
	for s := range k.cur {
		if b := &k.cur[s]; b.n > 0 && !b.released && b.crs == 0 && !b.cr && b.n == int64(len(b.keep)) && len(escapeStart(b.keep)) > 0 {
			begun = append(begun, Stream(s))
			size += len(readable(escapeStart(b.keep)))
		}
	}
	// before[i] is the list's first i nodes as one gap.
	var nodes []*node
	for n := k.l.first; n != nil; n = n.next {
		nodes = append(nodes, n)
	}
	before := make([]gapSum, len(nodes)+1)
	for i, n := range nodes {
		before[i+1] = before[i].clone()
		before[i+1].add(n)
	}
	from := len(nodes)
	for from > 0 && !nodes[from-1].gap && before[from-1].size()+size+len(nodes[from-1].text) <= budget {
		from--
		size += len(nodes[from].text)
	}
	if size == 0 || before[from].size()+size > budget {
		return
	}
	spent := k.c.out.n
	if from < len(nodes) {
		k.settle(nodes[from])
	} else {
		k.settle(nil)
	}
	k.l.render(&k.c.out, nil)
	for _, s := range begun {
		b := &k.cur[s]
		kept := escapeStart(b.keep)
		k.c.out.emitLine(s, readable(kept))
		b.released, b.shown = true, int64(len(kept))
	}
	k.live -= k.c.out.n - spent
}

// holdsFailure reports whether the list holds a failure line not yet
// returned.
func (k *cutState) holdsFailure() bool {
	for n := k.l.first; n != nil; n = n.next {
		if !n.gap && n.rank == rankFailure {
			return true
		}
	}
	return false
}

// settle returns everything the list holds before node from (all of it,
// for nil) as one gap: its marker, or its lines when they cost less.
func (k *cutState) settle(from *node) {
	var g gapSum
	for n := k.l.first; n != from; {
		next := n.next
		g.add(n)
		k.l.remove(n)
		n = next
	}
	if gn := g.node(); gn != nil {
		var l list
		l.link(gn)
		l.render(&k.c.out, nil)
	}
}

// releaseLong releases, at a Tick, the start of a line a stream has begun
// that is already longer than the cut keeps of a line (a minified JSON
// document, a log without newlines): its kept start is then what the cut
// shows of it whatever follows, so it need not wait for the line's end.
// Everything the cut holds before it becomes one gap; where the line ends,
// a marker counts the rest (endReleased). A line being redrawn waits:
// its last state is what counts.
func (k *cutState) releaseLong() {
	for s := range k.cur {
		b := &k.cur[s]
		if b.released || b.n <= int64(k.maxLine) || b.crs > 0 || b.cr || k.holdsFailure() {
			continue
		}
		var g gapSum
		for n := k.l.first; n != nil; n = n.next {
			g.add(n)
		}
		h := min(k.maxLine-lineCutRoom, k.hardRoom(maxGapMarker+lineCutRoom+1)-g.size())
		if h < minRelease {
			continue
		}
		kept := escapeStart(runeStart(b.keep[:h]))
		if len(kept) < minRelease {
			continue
		}
		k.settle(nil)
		k.c.out.emitLine(Stream(s), readable(kept))
		b.released, b.shown = true, int64(len(kept))
	}
}

// minRelease is the least of a long line's start worth releasing at a Tick.
const minRelease = 64

// endReleased ends a line whose start a Tick released: the rest of it,
// when it is short, whole and fits, else a marker counting it; then its
// newline.
func (k *cutState) endReleased(s Stream, nl bool) {
	b := &k.cur[s]
	rest := b.n - b.shown - nlCount(nl)
	var text []byte
	if rest > 0 {
		if cont := trimEnd(b.keep[min(int64(len(b.keep)), b.shown):]); b.n == int64(len(b.keep)) && b.crs == 0 &&
			len(cont) < lineCutRoom && len(cont) <= k.hardRoom(maxGapMarker) {
			text = readable(cont)
		} else {
			text = appendLineCut(nil, rest)
		}
	}
	k.c.out.emit(s, append(text, '\n'))
	if s == Stdout {
		k.lineNo++
	}
	*b = lineBuf{keep: b.keep[:0], last: b.last[:0]}
}

// close writes the rest of the cut and the trailer.
func (k *cutState) close(raw string, block []byte) {
	for s := range k.cur {
		if k.cur[s].n > 0 {
			k.line(Stream(s), false)
		}
	}
	k.flush()
	k.spill()
	raw = oneLine(raw)
	t := trailer(k.c.lines(), k.c.total, raw)
	ceiling := k.c.hardCeiling()
	if len(raw) > maxRaw && k.c.out.n+len(t) > ceiling-maxGapMarker-2 {
		t = trailer(k.c.lines(), k.c.total, "")
	}
	room := k.c.ceiling() - k.c.out.n - len(t) - 2
	hard := ceiling - k.c.out.n - len(t) - 2
	if block != nil && k.useBlock(block, room) {
		k.c.out.emitLine(Stdout, t)
		return
	}
	var after []byte // what follows the list: an outline, a JSON structure
	switch {
	case k.outline != nil:
		after = k.outline.fit(k, room)
	case k.c.json.valid():
		after = k.c.json.fit(k, room)
	}
	if !k.l.fit(room-len(after), hard-len(after), k.tailShare()) {
		// A budget too small for even one marker: the cut says nothing
		// more than fits.
		for n := k.l.first; n != nil; n = n.next {
			if !n.gap {
				k.l.drop(n)
			}
		}
		k.l.mergeGaps()
		if k.l.size+2 <= ceiling-k.c.out.n {
			k.l.render(&k.c.out, nil)
		}
		if len(t)+2 <= ceiling-k.c.out.n {
			k.c.out.emitLine(Stdout, t)
		}
		return
	}
	if k.outline != nil {
		// The outline follows the marker of the lines it outlines.
		k.l.render(&k.c.out, k.l.firstAfterGap())
		k.c.out.emitLine(Stdout, after)
		k.l.render(&k.c.out, nil)
	} else {
		k.l.render(&k.c.out, nil)
		k.c.out.emitLine(Stdout, after)
	}
	k.c.out.emitLine(Stdout, t)
}

// useBlock writes a rule's block in place of the list, after a marker
// for everything the list stands for, when both fit room. The block's
// own counts cover the whole output, so it is printed even when Ticks
// have already returned every line the list had: the result does not
// depend on when they came.
func (k *cutState) useBlock(block []byte, room int) bool {
	var all counts
	stdout := false
	for n := k.l.first; n != nil; n = n.next {
		all.add(n.counts)
		stdout = stdout || n.s == Stdout && !n.gap || n.hasStdout
	}
	all.frames = 0
	var m []byte
	if all.lines > 0 {
		m = gapMarker(all, 0)
	}
	if len(m)+len(block)+1 > room {
		return false
	}
	s := Stderr
	if stdout {
		s = Stdout
	}
	if m != nil {
		k.c.out.emitLine(s, m)
	}
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
