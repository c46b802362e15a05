package shape

import "bytes"

// The cut keeps what follows the head as a list in the output's order:
// items (lines and shapes it keeps) and gaps (what it omitted, counted).
// Items have a rank; when the list outgrows the budget the lowest-ranked
// item leaves it and its lines join the gaps beside it, so every count
// stays exact however often the list is trimmed.

// rank orders what the cut keeps, lowest first out.
type rank int8

const (
	rankPlain   rank = iota // an ordinary line: kept only in the tail
	rankContext             // a line beside a failure, a trace's header
	rankRepeat              // a run of identical lines, the ends of a run of similar ones
	rankWarning             // a warning
	rankFrame               // a frame of a trace in the project's own code
	rankFailure             // a failure line
	ranks
)

// node is an item or a gap.
type node struct {
	prev, next *node
	gap        bool
	s          Stream // the item's stream; for a gap, stdout unless all its lines were on stderr
	text       []byte // an item's rendering, newline included
	counts            // what the node stands for in the input
	rank       rank   // an item's rank once it leaves the tail
	seq        int64  // an item's place in the output
	no         int64  // an item's line number in stdout
	inTail     bool
	gone       bool // left the list (trimmed or returned); its entries in the rank stacks are stale
	hasStdout  bool // a gap holds lines from stdout
	period     int  // a gap of similar lines (1), or of blocks of period similar lines; 0 for others
}

// counts is how much input a node stands for: lines, bytes, and of
// those the failure lines and the library frames of traces.
type counts struct {
	lines, bytes, fails, frames int64
}

func (a *counts) add(b counts) {
	a.lines += b.lines
	a.bytes += b.bytes
	a.fails += b.fails
	a.frames += b.frames
}

// list is the cut's kept output after the head.
type list struct {
	first, last *node
	size        int        // the rendering's size, every gap's marker included
	itemBytes   int        // the items' renderings outside the tail
	rankBytes   [ranks]int // itemBytes by rank
	tailBytes   int        // the tail's items
	byRank      [ranks][]*node
	tail        []*node // the tail's items, oldest first; tail[tailFrom:] are live
	tailFrom    int
}

// renderSize is what n adds to the output.
func (n *node) renderSize() int {
	if n.gap {
		return gapMarkerLen(n.counts, n.period)
	}
	return len(n.text)
}

// push appends an item. In the tail it waits for newer lines to push it
// out; otherwise it is ranked at once.
func (l *list) push(n *node, inTail bool) {
	n.inTail = inTail
	l.link(n)
	l.size += len(n.text)
	if inTail {
		l.tail = append(l.tail, n)
		l.tailBytes += len(n.text)
		return
	}
	l.itemBytes += len(n.text)
	l.rankBytes[n.rank] += len(n.text)
	l.byRank[n.rank] = append(l.byRank[n.rank], n)
}

// omit appends omitted input: to the gap at the end when it is of the
// same kind (similar lines of the same period, or not), else a new gap,
// but never a third in a row: the gap at the end then takes it and loses
// its kind. Memory then follows the items, not the gaps between them.
func (l *list) omit(s Stream, c counts, period int) {
	if g := l.last; g != nil && g.gap && (g.period == period || g.prev != nil && g.prev.gap) {
		l.size -= g.renderSize()
		g.counts.add(c)
		g.hasStdout = g.hasStdout || s == Stdout
		if g.period != period {
			g.period = 0
		}
		l.size += g.renderSize()
		if p := g.prev; p != nil && p.gap && p.period == g.period {
			// Two gaps of one kind in a row are one.
			l.size -= p.renderSize() + g.renderSize()
			p.counts.add(g.counts)
			p.hasStdout = p.hasStdout || g.hasStdout
			l.unlink(g)
			l.size += p.renderSize()
		}
		return
	}
	g := &node{gap: true, counts: c, hasStdout: s == Stdout, period: period}
	l.link(g)
	l.size += g.renderSize()
}

func (l *list) link(n *node) {
	n.prev = l.last
	if l.last != nil {
		l.last.next = n
	} else {
		l.first = n
	}
	l.last = n
}

// unlink takes n out of the list.
func (l *list) unlink(n *node) {
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		l.first = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	} else {
		l.last = n.prev
	}
	n.prev, n.next = nil, nil
	n.gone = true
}

// drop turns item n into a gap, merged with the gaps beside it.
func (l *list) drop(n *node) {
	l.size -= len(n.text)
	if n.inTail {
		l.tailBytes -= len(n.text)
	} else {
		l.itemBytes -= len(n.text)
		l.rankBytes[n.rank] -= len(n.text)
	}
	c := n.counts
	stdout := n.s == Stdout
	n.text = nil
	// Every gap beside it joins it: nothing is kept between them now.
	for _, next := range []bool{false, true} {
		for {
			g := n.prev
			if next {
				g = n.next
			}
			if g == nil || !g.gap {
				break
			}
			l.size -= g.renderSize()
			c.add(g.counts)
			stdout = stdout || g.hasStdout
			l.unlink(g)
		}
	}
	n.gap, n.counts, n.hasStdout, n.inTail, n.period = true, c, stdout, false, 0
	l.size += n.renderSize()
}

// ageTail moves the tail's oldest item out of it: ranked above plain, it
// stays as an item; plain, it becomes part of a gap. It reports false when
// the tail is empty.
func (l *list) ageTail() bool {
	for l.tailFrom < len(l.tail) {
		n := l.tail[l.tailFrom]
		l.tail[l.tailFrom] = nil
		l.tailFrom++
		if l.tailFrom > 64 && l.tailFrom*2 > len(l.tail) {
			l.tail = append(l.tail[:0], l.tail[l.tailFrom:]...)
			l.tailFrom = 0
		}
		if n.gone || !n.inTail {
			continue
		}
		if n.rank == rankPlain {
			l.drop(n)
			return true
		}
		n.inTail = false
		l.tailBytes -= len(n.text)
		l.itemBytes += len(n.text)
		l.rankBytes[n.rank] += len(n.text)
		l.byRank[n.rank] = append(l.byRank[n.rank], n)
		return true
	}
	return false
}

// firstAfterGap returns the node after the list's first gap, or nil.
func (l *list) firstAfterGap() *node {
	for n := l.first; n != nil; n = n.next {
		if n.gap {
			return n.next
		}
	}
	return nil
}

// oldestTail returns the tail's oldest item, or nil.
func (l *list) oldestTail() *node {
	for _, n := range l.tail[l.tailFrom:] {
		if !n.gone && n.inTail {
			return n
		}
	}
	return nil
}

// dropRank drops the newest live item of rank r outside the tail, and
// reports false when there is none.
func (l *list) dropRank(r rank) bool {
	st := l.byRank[r]
	for len(st) > 0 {
		n := st[len(st)-1]
		st = st[:len(st)-1]
		if !n.gone && !n.gap && !n.inTail && n.rank == r {
			l.byRank[r] = st
			l.drop(n)
			return true
		}
	}
	l.byRank[r] = st
	return false
}

// wouldKeep reports whether an item of rank r and size n would stay in a
// list whose items may take limit bytes: trimItems drops lower ranks
// first, and of its own rank the newest, so an item that does not fit in
// what the lower ranks would free is dropped at once.
func (l *list) wouldKeep(r rank, n, limit int) bool {
	free := limit - l.itemBytes
	for lower := rankPlain; lower < r; lower++ {
		free += l.rankBytes[lower]
	}
	return n <= free
}

// trimItems drops items outside the tail, lowest rank first and newest
// first within a rank, while the kept items' renderings exceed limit. The
// first failures are the ones kept.
func (l *list) trimItems(limit int) {
	for r := rankPlain; r < ranks && l.itemBytes > limit; r++ {
		for l.itemBytes > limit && l.dropRank(r) {
		}
	}
}

// fit trims the list until its rendering is at most room: first the tail
// beyond its share, then what is ranked lowest, then the rest of the tail
// from its oldest line, then failures from the newest. It reports whether
// it fits.
func (l *list) fit(room, tailShare int) bool {
	for l.size > room && l.tailBytes > tailShare && l.ageTail() {
	}
	for r := rankPlain; r < rankFailure && l.size > room; r++ {
		for l.size > room && l.dropRank(r) {
		}
	}
	for l.size > room && l.ageTail() {
	}
	if l.size > room {
		l.mergeGaps()
	}
	for l.size > room && l.dropRank(rankFailure) {
	}
	return l.size <= room
}

// mergeGaps makes each run of gaps one gap, of similar lines only if all
// were, of the same period.
func (l *list) mergeGaps() {
	for n := l.first; n != nil; n = n.next {
		for n.gap && n.next != nil && n.next.gap {
			g := n.next
			l.size -= n.renderSize() + g.renderSize()
			n.counts.add(g.counts)
			n.hasStdout = n.hasStdout || g.hasStdout
			if n.period != g.period {
				n.period = 0
			}
			l.unlink(g)
			l.size += n.renderSize()
		}
	}
}

// render returns every node from the first to stop (excluded; nil for
// all) through o, and takes them out of the list.
func (l *list) render(o *outState, stop *node) {
	for n := l.first; n != nil && n != stop; {
		next := n.next
		l.size -= n.renderSize()
		if n.gap {
			s := Stderr
			if n.hasStdout {
				s = Stdout
			}
			o.emitLine(s, gapMarker(n.counts, n.period))
		} else {
			if n.inTail {
				l.tailBytes -= len(n.text)
			} else {
				l.itemBytes -= len(n.text)
				l.rankBytes[n.rank] -= len(n.text)
			}
			o.emitLine(n.s, n.text)
		}
		l.unlink(n)
		n = next
	}
}

// tailLine is a line in the cut's tail, or omitted lines between them.
type tailLine struct {
	s      Stream
	text   []byte
	c      counts
	rank   rank
	seq    int64
	no     int64
	gap    bool
	period int
}

// node makes the list's item of t, its text copied out of the slab the
// tail's lines share.
func (t tailLine) node() *node {
	return &node{s: t.s, text: bytes.Clone(t.text), counts: t.c, rank: t.rank, seq: t.seq, no: t.no}
}

// ring is the cut's tail: the newest lines, oldest first. It holds them
// as values, so that a line that leaves it as part of a gap, as most do,
// never becomes a node of the list.
type ring struct {
	lines []tailLine
	from  int // lines[from:] are the tail
	bytes int // the lines' renderings
}

func (r *ring) len() int { return len(r.lines) - r.from }

// push adds a line, or omitted lines: to the gap at the end when it is of
// the same kind, or when it follows another gap (as list.omit).
func (r *ring) push(t tailLine) {
	if n := len(r.lines); t.gap && n > r.from && r.lines[n-1].gap && (r.lines[n-1].period == t.period || n-1 > r.from && r.lines[n-2].gap) {
		last := &r.lines[n-1]
		last.c.add(t.c)
		last.s = min(last.s, t.s) // stdout, if either was
		if last.period != t.period {
			last.period = 0
		}
		return
	}
	r.lines = append(r.lines, t)
	r.bytes += len(t.text)
}

// pop takes the oldest line out.
func (r *ring) pop() tailLine {
	t := r.lines[r.from]
	r.lines[r.from] = tailLine{}
	r.from++
	r.bytes -= len(t.text)
	if r.from == len(r.lines) {
		r.lines, r.from = r.lines[:0], 0
	} else if r.from > 64 && 2*r.from > len(r.lines) {
		r.lines = append(r.lines[:0], r.lines[r.from:]...)
		r.from = 0
	}
	return t
}

// find returns the line placed as seq while it is in the tail, or nil.
func (r *ring) find(seq int64) *tailLine {
	if seq <= 0 {
		return nil
	}
	// The lines are in the order they were placed; gaps have no seq.
	for i := len(r.lines) - 1; i >= r.from; i-- {
		switch t := &r.lines[i]; {
		case t.seq == seq:
			return t
		case !t.gap && t.seq < seq:
			return nil
		}
	}
	return nil
}
