package declare

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// What matching a rule's patterns may cost. Go's regexp (RE2) is linear in
// the line, but its cost per byte grows with the compiled program: where a
// match is not decided by a literal prefix, each byte is a step of every
// thread alive, up to one per instruction. [a-z]{1000}Q (1003
// instructions) keeps them all alive on a line of letters: 7 ns per byte
// and instruction, 5 s for 400 KB of 10 KB lines, minutes for a 4 MiB
// capture. So a rule's patterns run on the NFA below, which counts its
// steps, and both limits are counts, never times: the same output always
// gives the same block.
const (
	// MaxProgram bounds one pattern's compiled program, in instructions,
	// when the rule is compiled: at most that many threads step on one
	// byte (about 2 µs), and a mistake such as x{1000} is reported when
	// the file is checked rather than met as a slow command. The patterns
	// the format is written with are far smaller: the shipped rules'
	// largest, a 19-way alternation of apt's messages, is 245.
	MaxProgram = 500
	// MaxWork bounds the matching work of one pass over the output (the
	// lines given to the [[lines]] entries; the lines read for failures),
	// in steps of the NFA's threads: about a second at the slowest
	// measured (3 to 5 ns a step when many threads are alive). The shipped
	// rules take at most 7.1 steps a byte (docs/rules.md, Cost), so a whole
	// capture, two streams of 4 MiB, stays within a fifth of it. A rule whose
	// pass would take more gives up, as a rule that fails does: the raw
	// output prints.
	MaxWork = 1 << 28
)

// maxWork is MaxWork, which a test lowers.
var maxWork int64 = MaxWork

// errWork is the panic of a pass that ran out of MaxWork: the core's
// recover turns it into a rule that failed on this output.
var errWork = errors.New("matching would cost more than the rule's budget")

// pattern is a compiled pattern, run by an NFA that counts its steps
// (machine): Go's regexp does the same work but cannot tell how much.
type pattern struct {
	prog *syntax.Prog
	// anchored: a match starts at the line's start (^, \A); prefix: the
	// literal every match starts with, "" for none, looked for first.
	anchored bool
	prefix   string
}

// compilePattern compiles p as regexp.Compile does (Perl syntax, the same
// errors), refusing a program larger than MaxProgram.
func compilePattern(p string) (*pattern, error) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, err
	}
	if n := len(prog.Inst); n > MaxProgram {
		return nil, fmt.Errorf("compiles to %d instructions: at most %d (a large counted repetition, x{1000}, makes every byte of a line cost as many steps; docs/rules.md, Cost)", n, MaxProgram)
	}
	pt := &pattern{prog: prog, anchored: prog.StartCond()&syntax.EmptyBeginText != 0}
	if !pt.anchored {
		pt.prefix, _ = prog.Prefix()
	}
	return pt, nil
}

// work is one pass's matching: the NFAs of its patterns, and the steps
// they took.
type work struct {
	spent    int64
	machines map[*pattern]*machine
}

// match reports whether p matches line l, as regexp's MatchString does,
// counting the steps. It panics with errWork once they pass MaxWork.
func (w *work) match(p *pattern, l string) bool {
	m := w.machines[p]
	if m == nil {
		if w.machines == nil {
			w.machines = map[*pattern]*machine{}
		}
		m = newMachine(p)
		w.machines[p] = m
	}
	return m.match(l, w)
}

// machine runs a pattern's program on a line, a Pike VM with no
// submatches: the set of threads alive (one per instruction at most)
// steps over each rune; unanchored, a new thread starts at each position.
// Each thread added or stepped is a step of the work.
type machine struct {
	p        *pattern
	cur, nxt threads
	stack    []uint32
}

// threads is a sparse set of instructions.
type threads struct {
	dense, sparse []uint32
}

func newThreads(n int) threads {
	return threads{dense: make([]uint32, 0, n), sparse: make([]uint32, n)}
}

func (t *threads) has(pc uint32) bool {
	i := t.sparse[pc]
	return int(i) < len(t.dense) && t.dense[i] == pc
}

func (t *threads) add(pc uint32) {
	t.sparse[pc] = uint32(len(t.dense))
	t.dense = append(t.dense, pc)
}

func newMachine(p *pattern) *machine {
	n := len(p.prog.Inst)
	return &machine{p: p, cur: newThreads(n), nxt: newThreads(n)}
}

// match reports whether the program matches l.
func (m *machine) match(l string, w *work) bool {
	m.cur.dense = m.cur.dense[:0]
	prog := m.p.prog
	before := rune(-1) // the rune before pos; -1 at the line's start
	for pos := 0; ; {
		if len(m.cur.dense) == 0 {
			switch {
			case m.p.anchored && pos > 0:
				return false
			case m.p.prefix != "":
				// No thread alive: the next match starts at the prefix.
				i := strings.Index(l[pos:], m.p.prefix)
				if i < 0 {
					return false
				}
				if i > 0 {
					pos += i
					before, _ = utf8.DecodeLastRuneInString(l[:pos])
				}
			}
		}
		r, size := rune(-1), 0
		if pos < len(l) {
			r, size = utf8.DecodeRuneInString(l[pos:])
		}
		if (!m.p.anchored || pos == 0) && m.add(&m.cur, uint32(prog.Start), syntax.EmptyOpContext(before, r), w) {
			return true
		}
		if pos >= len(l) {
			return false
		}
		after := rune(-1)
		if pos+size < len(l) {
			after, _ = utf8.DecodeRuneInString(l[pos+size:])
		}
		ctx := syntax.EmptyOpContext(r, after)
		m.nxt.dense = m.nxt.dense[:0]
		for _, pc := range m.cur.dense {
			i := &prog.Inst[pc]
			switch i.Op {
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				w.spent++
				if i.MatchRune(r) && m.add(&m.nxt, i.Out, ctx, w) {
					return true
				}
			}
		}
		if w.spent > maxWork {
			panic(errWork)
		}
		m.cur, m.nxt = m.nxt, m.cur
		pos += size
		before = r
	}
}

// add adds the thread at pc to t, and those its empty transitions reach in
// context ctx (the assertions that hold at this position); it reports
// whether one of them is a match.
func (m *machine) add(t *threads, pc uint32, ctx syntax.EmptyOp, w *work) bool {
	m.stack = append(m.stack[:0], pc)
	for len(m.stack) > 0 {
		pc := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		if t.has(pc) {
			continue
		}
		t.add(pc)
		w.spent++
		i := &m.p.prog.Inst[pc]
		switch i.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			m.stack = append(m.stack, i.Arg, i.Out)
		case syntax.InstNop, syntax.InstCapture:
			m.stack = append(m.stack, i.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(i.Arg)&^ctx == 0 {
				m.stack = append(m.stack, i.Out)
			}
		case syntax.InstMatch:
			return true
		}
	}
	return false
}
