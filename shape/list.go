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
	gone       bool     // left the list (trimmed or returned); its entries in the rank stacks are stale
	hasStdout  bool     // a gap holds lines from stdout
	period     int      // a gap of similar lines (1), or of blocks of period similar lines; 0 for others
	shown      gapLines // a gap's lines, while they may cost less than its marker
	group      int      // a group: a gap counting the lines before and between the next group items
}

// gapLines are the renderings of the lines a gap stands for, kept while
// they may cost less than the gap's marker: the cut then shows them in its
// place, so that no marker costs more than the lines it replaces. Past the
// longest marker, or when a line's rendering is unknown or on the other
// stream, they are lost, and the marker stands.
type gapLines struct {
	text []byte // each line's rendering, newline included
	s    Stream
	lost bool
}

// add appends a line's rendering (or lines'), known or not.
func (g *gapLines) add(s Stream, text []byte, known bool) {
	switch {
	case g.lost:
	case !known || len(g.text) > 0 && g.s != s || len(g.text)+len(text) > maxMarker:
		g.text, g.lost = nil, true
	default:
		if g.text == nil {
			g.text = make([]byte, 0, maxMarker) // one allocation, however many lines
		}
		g.s = s
		g.text = append(g.text, text...)
	}
}

// join appends the lines of h, which follow g's.
func (g *gapLines) join(h gapLines) {
	if h.lost {
		g.text, g.lost = nil, true
	} else if len(h.text) > 0 {
		g.add(h.s, h.text, true)
	}
}

// showsLines reports whether gap n shows its lines rather than its
// marker: a group never does, for it is made only when it costs less.
func (n *node) showsLines() bool {
	return n.group == 0 && !n.shown.lost && len(n.shown.text) <= markerLen(n.counts, n.period, 0)
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
	switch {
	case !n.gap:
		return len(n.text)
	case n.showsLines():
		return len(n.shown.text)
	}
	return markerLen(n.counts, n.period, n.group)
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
func (l *list) omit(s Stream, c counts, period int, sh gapLines) {
	g := l.openGap(s, c, period)
	g.shown.join(sh)
	l.closeGap(g)
}

// omitLine appends one omitted line, text its rendering, as omit does.
func (l *list) omitLine(s Stream, c counts, text []byte) {
	g := l.openGap(s, c, 0)
	g.shown.add(s, text, true)
	l.closeGap(g)
}

// openGap returns the gap at the list's end that omitted input joins, its
// counts added, out of the list's size until closeGap.
func (l *list) openGap(s Stream, c counts, period int) *node {
	if g := l.last; mergeable(g) && (g.period == period || mergeable(g.prev)) {
		l.size -= g.renderSize()
		g.counts.add(c)
		g.hasStdout = g.hasStdout || s == Stdout
		if g.period != period {
			g.period = 0
		}
		return g
	}
	g := &node{gap: true, counts: c, hasStdout: s == Stdout, period: period}
	l.link(g)
	return g
}

// closeGap counts gap g, which openGap returned, in the list's size again.
func (l *list) closeGap(g *node) {
	l.size += g.renderSize()
	if p := g.prev; mergeable(p) && p.period == g.period {
		// Two gaps of one kind in a row are one.
		l.size -= p.renderSize() + g.renderSize()
		p.absorb(g)
		l.unlink(g)
		l.size += p.renderSize()
	}
}

// mergeable reports whether n is a gap that may take more lines: a
// group's count of the lines it spans is fixed.
func mergeable(n *node) bool { return n != nil && n.gap && n.group == 0 }

// absorb adds gap g, which follows gap n, to n.
func (n *node) absorb(g *node) {
	n.counts.add(g.counts)
	n.shown.join(g.shown)
	n.hasStdout = n.hasStdout || g.hasStdout
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
	// Every gap beside it joins it, in their order: nothing is kept
	// between them now.
	g := &node{gap: true}
	first := n
	for mergeable(first.prev) {
		first = first.prev
	}
	for m := first; m != n; {
		next := m.next
		l.size -= m.renderSize()
		g.absorb(m)
		l.unlink(m)
		m = next
	}
	g.counts.add(n.counts)
	g.shown.add(n.s, n.text, true)
	g.hasStdout = g.hasStdout || n.s == Stdout
	for mergeable(n.next) {
		m := n.next
		l.size -= m.renderSize()
		g.absorb(m)
		l.unlink(m)
	}
	n.gap, n.counts, n.hasStdout, n.inTail, n.period, n.shown, n.text = true, g.counts, g.hasStdout, false, 0, g.shown, nil
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

// firstAfterGap returns the node after the list's first gap, or nil; after
// a group, the node after the lines it spans.
func (l *list) firstAfterGap() *node {
	for n := l.first; n != nil; n = n.next {
		if n.gap {
			after := n.next
			for range n.group {
				after = after.next
			}
			return after
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
// first within a rank, while the kept items' renderings exceed room; and
// failure lines, from the newest, while they exceed hard. The first
// failures are the ones kept.
func (l *list) trimItems(room, hard int) {
	for r := rankPlain; r < rankFailure && l.itemBytes > room; r++ {
		for l.itemBytes > room && l.dropRank(r) {
		}
	}
	for l.itemBytes > hard && l.dropRank(rankFailure) {
	}
}

// dropBelowFailure drops items outside the tail ranked below failures,
// lowest rank first and newest first within a rank, while the list's
// rendering exceeds room.
func (l *list) dropBelowFailure(room int) {
	for r := rankPlain; r < rankFailure && l.size > room; r++ {
		for l.size > room && l.dropRank(r) {
		}
	}
}

// fit trims the list until its rendering is at most room, or, when its
// failure lines and the markers between them alone need more, at most
// hard with nothing else: first the tail beyond its share, then what is
// ranked lowest, then the rest of the tail from its oldest line, then what
// it held that is ranked below failures; then the failure lines from the
// newest, the gaps between those kept made one group when their markers
// would crowd them out (condense). It reports whether it fits.
func (l *list) fit(room, hard, tailShare int) bool {
	for l.size > room && l.tailBytes > tailShare && l.ageTail() {
	}
	l.dropBelowFailure(room)
	for l.size > room && l.ageTail() {
	}
	l.dropBelowFailure(room)
	if l.size <= max(room, hard) {
		return true
	}
	l.mergeGaps()
	return l.size <= hard || l.condense(hard)
}

// mergeGaps makes each run of gaps one gap, of similar lines only if all
// were, of the same period.
func (l *list) mergeGaps() {
	for n := l.first; n != nil; n = n.next {
		for mergeable(n) && mergeable(n.next) {
			g := n.next
			l.size -= n.renderSize() + g.renderSize()
			n.absorb(g)
			if n.period != g.period {
				n.period = 0
			}
			l.unlink(g)
			l.size += n.renderSize()
		}
	}
}

// gapSum is what a run of nodes comes to as one gap: their counts and
// lines, and the period when they are one gap already.
type gapSum struct {
	c      counts
	shown  gapLines
	stdout bool
	nodes  int
	period int
}

// add adds node n, which follows what the sum holds.
func (a *gapSum) add(n *node) {
	a.nodes++
	a.period = n.period
	a.c.add(n.counts)
	a.stdout = a.stdout || n.hasStdout || !n.gap && n.s == Stdout
	a.shown.join(n.lines())
}

// prepend adds node n, which comes before what the sum holds.
func (a *gapSum) prepend(n *node) {
	sh := n.lines()
	sh.join(a.shown)
	a.shown = sh
	a.nodes++
	a.period = n.period
	a.c.add(n.counts)
	a.stdout = a.stdout || n.hasStdout || !n.gap && n.s == Stdout
}

// lines is what n's lines come to in a gap, in a slice of their own.
func (n *node) lines() gapLines {
	var sh gapLines
	if !n.gap {
		sh.add(n.s, n.text, true)
	} else if sh.lost = n.shown.lost; len(n.shown.text) > 0 {
		sh.add(n.shown.s, n.shown.text, true)
	}
	return sh
}

// clone returns a copy of a whose lines are its own.
func (a gapSum) clone() gapSum {
	b := a
	b.shown.text = append([]byte(nil), a.shown.text...)
	return b
}

// node is the gap the sum comes to: nil for nothing.
func (a gapSum) node() *node {
	if a.nodes == 0 {
		return nil
	}
	g := &node{gap: true, counts: a.c, hasStdout: a.stdout}
	g.shown.lost = a.shown.lost
	if len(a.shown.text) > 0 {
		g.shown.add(a.shown.s, a.shown.text, true)
	}
	if a.nodes == 1 {
		g.period = a.period
	}
	return g
}

// size is the rendering of the sum's gap.
func (a gapSum) size() int {
	if g := a.node(); g != nil {
		return g.renderSize()
	}
	return 0
}

// condense fits a list of failure lines and gaps into room when the
// markers between the lines crowd them out. It keeps the most failure
// lines, from the first, that fit, in the form that costs least: each gap
// as it is, or all the gaps before the last kept line as one group marker
// (the kept lines then follow it with no marker of their own); the rest is
// one gap. Anything else the list still holds counts as omitted. It
// reports whether the list fits.
func (l *list) condense(room int) bool {
	var items []*node
	for n := l.first; n != nil; n = n.next {
		if !n.gap && n.rank == rankFailure {
			items = append(items, n)
		}
	}
	// rest[j] is everything after the first j items, as one gap.
	rest := make([]gapSum, len(items)+1)
	var a gapSum
	j := len(items)
	for n := l.last; n != nil; n = n.prev {
		if j > 0 && n == items[j-1] {
			rest[j] = a
			j--
		}
		a.prepend(n)
	}
	rest[0] = a
	best, group := -1, false
	if rest[0].size() <= room {
		best = 0
	}
	var before gapSum // what is omitted before the next item, in a group
	normal, texts, k := 0, 0, 0
	for n := l.first; n != nil && k < len(items); n = n.next {
		normal += n.renderSize()
		if n != items[k] {
			before.add(n)
			continue
		}
		k++
		texts += len(n.text)
		g := texts
		if before.c.lines > 0 {
			g += groupMarkerLen(before.c, k)
		}
		if size := min(normal, g) + rest[k].size(); size <= room {
			best, group = k, g < normal
		}
	}
	if best < 0 {
		return false
	}
	if !group {
		for i := len(items) - 1; i >= best; i-- {
			l.drop(items[i])
		}
		l.mergeGaps()
		return l.size <= room
	}
	// The group: one marker, its lines, the rest.
	var g gapSum
	var keep []*node
	k = 0
	for n := l.first; n != nil && k < best; n = n.next {
		if n == items[k] {
			keep = append(keep, n)
			k++
		} else {
			g.add(n)
		}
	}
	restGap := rest[best].node()
	*l = list{}
	if g.c.lines > 0 {
		gn := g.node()
		gn.period, gn.group = 0, best
		l.link(gn)
		l.size += gn.renderSize()
	}
	for _, n := range keep {
		n.prev, n.next, n.gone = nil, nil, false
		l.push(n, false)
	}
	if restGap != nil {
		l.link(restGap)
		l.size += restGap.renderSize()
	}
	return l.size <= room
}

// remove takes node n out of the list, with what it counts for.
func (l *list) remove(n *node) {
	l.size -= n.renderSize()
	if !n.gap {
		if n.inTail {
			l.tailBytes -= len(n.text)
		} else {
			l.itemBytes -= len(n.text)
			l.rankBytes[n.rank] -= len(n.text)
		}
	}
	l.unlink(n)
}

// render returns every node from the first to stop (excluded; nil for
// all) through o, and takes them out of the list.
func (l *list) render(o *outState, stop *node) {
	for n := l.first; n != nil && n != stop; {
		next := n.next
		if n.gap {
			s := Stderr
			if n.hasStdout {
				s = Stdout
			}
			if n.showsLines() {
				o.emitLine(n.shown.s, n.shown.text)
			} else {
				o.emitLine(s, appendMarker(nil, n.counts, n.period, n.group))
			}
		} else {
			o.emitLine(n.s, n.text)
		}
		l.remove(n)
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
	shown  gapLines // a gap's lines, while they may cost less than its marker
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
		last.shown.join(t.shown)
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
