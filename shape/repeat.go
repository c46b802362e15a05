package shape

import "bytes"

// Runs of repeated lines. Identical lines in a row (as a terminal shows
// them, on one stream) become one line with their count:
//
//	Retrying connection... (×120)
//
// Near-identical lines in a row, lines that differ only in their numbers
// and spacing (a download's "file 17 of 500", a log's timestamps and ids,
// a test runner's "test_x[17] PASSED [ 3%]"), keep the first and the last
// of the run, and a marker counts those between:
//
//	Downloaded chunk 1 of 500
//	[shrinkrun: 498 similar lines, 23000 bytes omitted]
//	Downloaded chunk 500 of 500
//
// Failure lines are never folded into a similar run: each failing test's
// name stays. Each stage holds at most one line.

// repeatStage folds identical lines into one unit.
type repeatStage struct {
	p   unit
	has bool
}

func (st *repeatStage) add(k *cutState, u unit) {
	if p := &st.p; st.has {
		if p.s == u.s && bytes.Equal(p.text, u.text) && !blank(u.text) {
			p.c.add(u.c)
			p.run++
			return
		}
		k.classify(*p)
	}
	st.p, st.has = u, true
}

func (st *repeatStage) flush(k *cutState) {
	if st.has {
		st.has = false
		k.classify(st.p)
	}
}

// similarStage folds runs of near-identical plain lines, and runs of
// near-identical blocks of up to maxPeriod lines (a test runner that
// reports each test on a few lines: node's "# Subtest", "ok 12 - ...",
// its YAML). A run keeps its first and its last line (or block) and a
// marker counts those between; it folds once the marker would stand for
// at least three lines (and a whole number of blocks). Until then its lines are held: the stage holds at
// most a few blocks.
type similarStage struct {
	buf []simUnit // lines not yet placed, newest last

	period int       // the run's period, 0 for no run
	s      Stream    // the run's stream
	first  []simUnit // the run's first block, placed
	seqs   []int64   // the first block's places, ranked as a repeat once the run folds
	held   []simUnit // the lines after it not yet placed or counted
	pos    int       // the lines after the first block
	folded bool
	mid    counts   // once folded, the lines counted between the first block and the held ones
	midAs  gapLines // their renderings, while few
}

// simUnit is a unit with its rank and its key: the hash of its text
// without numbers and spacing, 0 for a line that never folds.
type simUnit struct {
	u   unit
	r   rank
	key uint64
}

// maxPeriod is the longest block a run of similar blocks may have.
const maxPeriod = 8

// add places u, or holds it as part of a run.
func (st *similarStage) add(k *cutState, u unit, r rank) {
	su := simUnit{u: u, r: r}
	if r == rankPlain && !u.fail && u.run == 1 {
		su.key = simKey(u.text)
	}
	for st.period > 0 {
		if st.extends(su) {
			st.grow(k, su)
			return
		}
		st.end(k) // which may start a shorter run from the lines it held
	}
	st.push(k, su)
}

// extends reports whether su is the run's next line.
func (st *similarStage) extends(su simUnit) bool {
	f := st.first[st.pos%st.period]
	return su.key != 0 && su.key == f.key && su.u.s == st.s
}

// grow adds the run's next line: held until the run folds, then counted a
// block at a time, the newest block held as the run's last.
func (st *similarStage) grow(k *cutState, su simUnit) {
	st.held = append(st.held, su)
	st.pos++
	if st.pos%st.period != 0 {
		return
	}
	if !st.folded && st.pos-st.period >= 3 {
		st.folded = true
		for _, seq := range st.seqs {
			k.rerank(seq, rankRepeat)
		}
	}
	if st.folded {
		for _, h := range st.held[:len(st.held)-st.period] {
			st.mid.add(h.u.c)
			st.midAs.add(h.u.s, unitText(h.u), true)
		}
		st.held = append(st.held[:0], st.held[len(st.held)-st.period:]...)
	}
}

// push holds su and starts a run when the held lines end in two similar
// blocks (three similar lines for a block of one).
func (st *similarStage) push(k *cutState, su simUnit) {
	st.buf = append(st.buf, su)
	n := len(st.buf)
	for p := 1; p <= maxPeriod && 2*p <= n; p++ {
		need := 2 * p
		if p == 1 {
			need = 3
		}
		// The newest line against the one a period before it first: the
		// check that fails for most lines.
		if need > n || su.key == 0 || st.buf[n-1-p].key != su.key || !st.blocks(n-need, p, need) {
			continue
		}
		for _, b := range st.buf[:n-need] {
			k.place(b.u, b.r)
		}
		st.period, st.s, st.pos, st.folded, st.mid, st.midAs = p, su.u.s, 0, false, counts{}, gapLines{}
		st.first = append(st.first[:0], st.buf[n-need:n-need+p]...)
		st.seqs = st.seqs[:0]
		for _, b := range st.first {
			st.seqs = append(st.seqs, k.place(b.u, b.r))
		}
		st.held = st.held[:0]
		rest := st.buf[n-need+p:]
		st.buf = st.buf[:0]
		for _, b := range rest {
			st.grow(k, b)
		}
		return
	}
	if n >= 4*maxPeriod {
		// Lines too old to start a run: placed, a batch at a time.
		keep := n - 2*maxPeriod
		for _, b := range st.buf[:keep] {
			k.place(b.u, b.r)
		}
		st.buf = append(st.buf[:0], st.buf[keep:]...)
	}
}

// blocks reports whether buf[from:from+n] repeats its first p lines.
func (st *similarStage) blocks(from, p, n int) bool {
	for i := from + p; i < from+n; i++ {
		if a, b := st.buf[i-p], st.buf[i]; a.key == 0 || a.key != b.key || a.u.s != b.u.s {
			return false
		}
	}
	return true
}

// end ends the run. Folded, its first block ranks as a repeat, a marker
// counts its middle and its last block is placed; a partial block after
// it goes back to be read again. Too short to fold, its lines are placed
// as they are.
func (st *similarStage) end(k *cutState) {
	held := append([]simUnit(nil), st.held...)
	if st.folded {
		last := held[:st.period]
		k.omitGap(st.s, st.mid, st.period, st.midAs)
		for _, b := range last {
			k.place(b.u, rankRepeat)
		}
		held = held[st.period:]
	}
	st.period = 0
	st.held = st.held[:0]
	for _, b := range held {
		st.push(k, b)
	}
}

// flush places everything held.
func (st *similarStage) flush(k *cutState) {
	for st.period > 0 || len(st.buf) > 0 {
		if st.period > 0 {
			st.end(k)
			continue
		}
		for _, b := range st.buf {
			k.place(b.u, b.r)
		}
		st.buf = st.buf[:0]
	}
}

// simKey hashes a line's text without its numbers and spacing (FNV-1a):
// two lines are similar when their keys are equal. (A collision of two
// 64-bit hashes is not to be met in any output; the tests hold the keys
// to a comparison of the texts, similar in repeat_test.go.)
func simKey(t []byte) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(t); i++ {
		v := uint64(t[i])
		switch {
		case isBlank(t[i]):
			continue
		case isDigit(t[i]):
			for i+1 < len(t) && isDigit(t[i+1]) {
				i++
			}
			v = 0x100 // a number: no byte hashes so
		}
		h = (h ^ v) * 1099511628211
	}
	return max(h, 1)
}

// blank reports whether a line is empty or only spaces: such lines are
// never folded into a run, which would print as " (×N)".
func blank(l []byte) bool {
	for _, c := range l {
		if !isBlank(c) {
			return false
		}
	}
	return true
}
