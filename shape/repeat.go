package shape

import "bytes"

// Runs of repeated lines. Identical lines in a row (as a terminal shows
// them, on one stream) become one line with their count:
//
//	Retrying connection... (×120)
//
// Near-identical lines in a row, lines that differ only in their numbers
// (a download's "file 17 of 500", a log's timestamps and ids), keep the
// first and the last of the run, and a marker counts those between:
//
//	Downloaded chunk 1 of 500
//	[shrinkrun: 498 similar lines, 23000 bytes omitted]
//	Downloaded chunk 500 of 500
//
// Failure lines are never folded into a similar run: each failing test's
// name stays. Each stage holds at most one line.

// repeatStage folds identical lines into one unit.
type repeatStage struct{ p *unit }

func (st *repeatStage) add(k *cutState, u *unit) {
	if p := st.p; p != nil {
		if p.s == u.s && bytes.Equal(p.text, u.text) {
			p.c.add(u.c)
			p.run++
			return
		}
		k.classify(p)
	}
	st.p = u
}

func (st *repeatStage) flush(k *cutState) {
	if p := st.p; p != nil {
		st.p = nil
		k.classify(p)
	}
}

// similarStage folds runs of near-identical plain lines.
type similarStage struct {
	first *node // the run's first line, placed; nil for no run
	key   []byte
	s     Stream
	mid   counts // the lines between the first and the last
	last  *unit  // the run's last line so far, held
	n     int64  // lines in the run
}

// add places u, or holds it as the newest line of the run.
func (st *similarStage) add(k *cutState, u *unit, r rank) {
	foldable := r == rankPlain && !u.fail && u.run == 1
	if st.first != nil && foldable && u.s == st.s && similar(st.key, u.text) {
		if st.last != nil {
			st.mid.add(st.last.c)
		}
		st.last = u
		st.n++
		if st.n == 3 {
			k.l.rerank(st.first, rankRepeat)
		}
		return
	}
	st.flush(k)
	n := k.place(u, r)
	if foldable && hasDigit(u.text) {
		st.first, st.key, st.s, st.n = n, u.text, u.s, 1
	}
}

// flush ends the run: its middle becomes a marker, its last line is
// placed.
func (st *similarStage) flush(k *cutState) {
	if st.first == nil {
		return
	}
	if st.mid.lines > 0 {
		k.l.omit(st.s, st.mid, true)
		k.prev = nil
	}
	if st.last != nil {
		r := rankPlain
		if st.n >= 3 {
			r = rankRepeat
		}
		k.place(st.last, r)
	}
	*st = similarStage{}
}

// similar reports whether two lines differ only in their numbers (runs of
// digits) and not in their words.
func similar(a, b []byte) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		da, db := isDigit(a[i]), isDigit(b[j])
		switch {
		case da && db:
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
		case a[i] != b[j]:
			return false
		default:
			i++
			j++
		}
	}
	return i == len(a) && j == len(b)
}

func hasDigit(b []byte) bool {
	for _, c := range b {
		if isDigit(c) {
			return true
		}
	}
	return false
}
