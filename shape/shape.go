// Package shape cuts a command's output by its shape when it grows past
// what the agent's client would show, instead of letting the client cut it
// blindly by position.
//
// A Cutter is a deterministic state machine over one command's output. The
// caller (the relay in package runner, or package compress for output
// captured elsewhere) feeds it the bytes as the command writes them and
// writes whatever it returns, at once. An output that stays at or below the
// limit comes back byte for byte, on its own stream. Past the limit the
// Cutter keeps the head it already released, every failure line, the
// shapes that carry information (docs/shape.md), and a tail, within the
// budget, and marks each omission with exact line and byte counts.
//
// The Cutter knows nothing of processes, clocks or files: the caller says
// when held bytes have waited long enough (Tick), and where the raw output
// is kept (Close). So the same bytes in the same calls always give the same
// result, and `shrinkrun compress` gives what the relay gives for a command
// that wrote everything at once.
package shape

import (
	"bytes"
	"math"
)

// Stream is one of the command's two output streams.
type Stream int

const (
	Stdout Stream = iota
	Stderr
)

// Chunk is bytes to write to one of the caller's streams, in order.
type Chunk struct {
	Stream Stream
	Data   []byte
}

// Options configure a Cutter.
type Options struct {
	// Limit: an output whose two streams together stay at or below Limit
	// bytes passes unchanged. Zero means DefaultLimit.
	Limit int
	// Budget: the most a cut output may be, every marker included
	// (Budget <= Limit; a larger Budget is lowered to Limit). Zero means
	// DefaultBudget, or Limit when that is smaller.
	Budget int
	// Argv: the command's words when known (first stage), to choose
	// head/tail and shapes.
	Argv []string
	// Piped: later pipeline stages (filters) changed what Argv printed,
	// so that its lines are not a viewed file's from its first (cat f.py |
	// sed -n '100,200p'): a file's outline then needs the numbers nl or
	// cat -n print in the lines.
	Piped bool
}

// The defaults, for a caller that knows no client: Claude Code's limit
// (it cuts past 30,000 characters) and the curated blocks' budget.
const (
	DefaultLimit  = 30000
	DefaultBudget = 16384
)

// normalized returns o with its defaults applied and Budget within Limit.
func (o Options) normalized() Options {
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	o.Budget = min(o.Budget, o.Limit)
	return o
}

// Cutter cuts one command's output. Its methods are not safe for concurrent
// use: the relay holds one lock around it.
type Cutter struct {
	o    Options
	kind kind

	total    int64 // bytes fed
	fed      [2]int64
	newlines int64
	endedNL  int64   // stdout lines ended before the cut
	last     [2]byte // each stream's last byte fed
	closed   bool

	// Before the cut: lines held in the order they ended, and the line
	// each stream has begun. Together they are every byte fed and not yet
	// returned, at most Limit.
	held     []heldLine
	heldFrom int // held[heldFrom:] is still held
	part     [2][]byte
	headOpen bool // Write may still release whole lines

	out outState
	// ticked: a Tick released output before the cut; beforeCut: what
	// was released then. ticks: Tick was called; wrote: the bytes
	// written since the last Tick.
	ticked    bool
	beforeCut int
	ticks     bool
	wrote     int64
	cut       *cutState  // nil until the output passes Limit
	json      *jsonShape // stdout read as JSON, while it may be JSON
	// jsonSeen: stdout's first byte that is not white space has come.
	jsonSeen bool
}

// heldLine is a whole line (or, at the cut, a begun one) not yet returned.
type heldLine struct {
	s    Stream
	data []byte
}

// New returns a Cutter for one command's output.
func New(o Options) *Cutter {
	o = o.normalized()
	return &Cutter{o: o, kind: kindOf(o.Argv), headOpen: true}
}

// Cutting reports whether the output has gone past Limit: the relay then
// needs the raw copy.
func (c *Cutter) Cutting() bool { return c.cut != nil }

// Write feeds bytes the command wrote on s, in the order they came, and
// returns what to write now (possibly nothing while the cutter holds bytes
// it cannot decide yet).
//
// Without Ticks the result does not depend on how the output is split into
// Writes: the head is released a whole line at a time, as long as it fits
// the head's share of the budget.
func (c *Cutter) Write(s Stream, p []byte) []Chunk {
	if c.closed || len(p) == 0 {
		return nil
	}
	s = s & 1
	c.out.chunks = nil
	c.wrote += int64(len(p))
	c.fed[s] += int64(len(p))
	c.newlines += int64(bytes.Count(p, []byte{'\n'}))
	c.last[s] = p[len(p)-1]
	if s == Stdout {
		c.readJSON(p)
	}
	for len(p) > 0 {
		if c.cut != nil {
			c.total += int64(len(p))
			c.cut.feed(s, p)
			break
		}
		// Up to the end of the line, but never past the limit.
		n := len(p)
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			n = i + 1
		}
		if room := int64(c.o.Limit) - c.total; int64(n) > room {
			n = int(room)
		}
		if n == 0 {
			c.startCut()
			continue
		}
		c.total += int64(n)
		c.part[s] = append(c.part[s], p[:n]...)
		if p[n-1] == '\n' {
			if s == Stdout {
				c.endedNL++
			}
			c.held = append(c.held, heldLine{s, c.part[s]})
			c.part[s] = nil
			c.releaseHead()
		}
		p = p[n:]
	}
	return c.out.take()
}

// releaseHead returns whole held lines while they fit the head's share.
func (c *Cutter) releaseHead() {
	for c.headOpen && c.heldFrom < len(c.held) {
		h := c.held[c.heldFrom]
		if c.out.n+len(h.data) > c.headCap() {
			c.headOpen = false
			return
		}
		c.out.emit(h.s, h.data)
		c.held[c.heldFrom] = heldLine{}
		c.heldFrom++
	}
	if c.heldFrom == len(c.held) {
		c.held, c.heldFrom = c.held[:0], 0
	}
}

// Tick tells the cutter that the bytes it holds have waited as long as the
// relay lets output wait: it releases what it can without breaking the
// limit. Before the cut that is held output, as long as the limit keeps
// room for a cut's closing marker and first failure lines (a cut then
// shrinks its middle and tail to fit, so that with Ticks a cut output is
// at most Limit, without them at most Budget). After the cut, it is the
// failure lines found so far, after a marker counting what they skip;
// the start of a line already too long to keep whole; and, when fewer than
// quietBytes were written since the Tick before (the command has gone
// quiet, or nearly: a server that started and waits, or logs a request now
// and then; a prompt), the newest lines, within a fixed part of what the
// limit leaves (liveTailMax).
func (c *Cutter) Tick() []Chunk {
	if c.closed {
		return nil
	}
	c.out.chunks = nil
	quiet := c.ticks && c.wrote < quietBytes
	c.ticks, c.wrote = true, 0
	if c.cut != nil {
		c.cut.commit()
		c.cut.releaseLong()
		if quiet {
			c.cut.liveTail()
		}
		return c.out.take()
	}
	c.releaseHeld(c.tickCap())
	out := c.out.take()
	c.ticked = c.ticked || len(out) > 0
	return out
}

// releaseHeld returns held lines, then begun lines, while the output
// returned stays within capacity.
func (c *Cutter) releaseHeld(capacity int) {
	for c.heldFrom < len(c.held) {
		h := c.held[c.heldFrom]
		if c.out.n+len(h.data) > capacity {
			return
		}
		c.out.emit(h.s, h.data)
		c.held[c.heldFrom] = heldLine{}
		c.heldFrom++
	}
	c.held, c.heldFrom = c.held[:0], 0
	for s := range c.part {
		if p := c.part[s]; len(p) > 0 && c.out.n+len(p) <= capacity {
			c.out.emit(Stream(s), p)
			c.part[s] = nil
		}
	}
}

// Close ends the output: it returns everything still held when the output
// stayed at or below Limit (byte-identical in all), or the rest of the cut
// (its markers, the shaped middle, the tail). raw names where the raw
// output is kept, for the marker ("shrinkrun show ID", or why it was not
// kept). block, when not nil, is a block made by a rule that recognized
// the whole output by its signature, to print in place of the shaped
// middle and tail when it fits what the budget leaves; the cutter decides.
func (c *Cutter) Close(raw string, block []byte) []Chunk {
	if c.closed {
		return nil
	}
	c.closed = true
	c.out.chunks = nil
	if c.cut == nil {
		c.releaseHeld(math.MaxInt)
		return c.out.take()
	}
	c.cut.close(raw, block)
	return c.out.take()
}

// readJSON passes stdout to the JSON reader while it may be JSON.
func (c *Cutter) readJSON(p []byte) {
	if !c.jsonSeen {
		t := bytes.TrimLeft(p, " \t\r\n")
		if len(t) == 0 {
			return
		}
		c.jsonSeen = true
		c.json = newJSON(t[0])
	}
	if c.json != nil {
		c.json.feed(p)
		if c.json.bad {
			c.json = nil
		}
	}
}

// lines is the number of lines fed: newlines, and a last line without
// one on either stream.
func (c *Cutter) lines() int64 {
	n := c.newlines
	for s, b := range c.last {
		if c.fed[s] > 0 && b != '\n' {
			n++
		}
	}
	return n
}

// startCut moves everything held into the cut: the output has just passed
// the limit.
func (c *Cutter) startCut() {
	// The stdout lines returned so far are those ended before the cut
	// less those held.
	next := c.endedNL + 1
	for _, h := range c.held[c.heldFrom:] {
		if h.s == Stdout {
			next--
		}
	}
	c.beforeCut = c.out.n
	c.cut = newCut(c, next)
	for s, midway := range c.out.midway {
		// A Tick released the start of the line this stream has begun.
		c.cut.cur[s].released = midway
	}
	for _, h := range c.held[c.heldFrom:] {
		c.cut.feed(h.s, h.data)
	}
	// A stream's begun line goes last: its end is still to come.
	for s, p := range c.part {
		c.cut.feed(Stream(s), p)
	}
	c.held, c.heldFrom, c.part = nil, 0, [2][]byte{}
}

// quietBytes is what a command may write between two Ticks and still
// count as quiet: a line or a few, as a server logs a request or a health
// check, not a test run's screenful.
const quietBytes = 512

// trailerRoom is what the budget keeps for the closing marker: its text
// with the largest counts and a raw output name of up to maxRaw bytes.
func trailerRoom() int { return trailerMax }

var trailerMax = len(trailer(maxCount, maxCount, "")) + maxRaw

// afford is what the budget leaves once the closing marker has its room.
func (c *Cutter) afford() int { return max(0, c.o.Budget-trailerRoom()) }

// headCap is how much Write releases before the cut: the head's share,
// chosen by the kind of command.
func (c *Cutter) headCap() int { return c.afford() * c.kind.head / 100 }

// tickCap is how much a Tick releases before the cut. Liveness wins over
// the budget, never over the limit: a Tick releases what waits as long as
// the output stays within the limit less a fixed reserve, for the closing
// marker, a marker and the first failure lines. A cut then shrinks its
// middle and tail to what is left (ceiling), down to those.
func (c *Cutter) tickCap() int { return max(c.headCap(), c.o.Limit-tickReserve) }

// tickReserve is what a Tick leaves under the limit.
var tickReserve = trailerMax + 2 + maxGapMarker + failReserve

// failReserve is the room Ticks leave for the first failure lines.
const failReserve = 2048

// ceiling is the most the whole output may be but for failure lines: the
// budget, or, when Ticks released more before the cut than the budget
// leaves room for, what they released and the reserve, never past the
// limit.
func (c *Cutter) ceiling() int {
	if !c.ticked || c.beforeCut+tickReserve <= c.o.Budget {
		return c.o.Budget
	}
	return min(c.o.Limit, c.beforeCut+tickReserve)
}

// hardCeiling is the most the whole output may be: with Ticks, the limit,
// for failure lines and what a Tick releases live take the room the budget
// does not have, up to where the client would cut again; without them
// (compress), the budget.
func (c *Cutter) hardCeiling() int {
	if c.ticks {
		return c.o.Limit
	}
	return c.o.Budget
}

// outState is what the Cutter has returned: the chunks of the current
// call, the bytes returned in all, and whether each stream ended its last
// line.
type outState struct {
	chunks []Chunk
	n      int
	midway [2]bool // the stream's last returned byte was not a newline
}

// emit returns p on s.
func (o *outState) emit(s Stream, p []byte) {
	if len(p) == 0 {
		return
	}
	if k := len(o.chunks); k > 0 && o.chunks[k-1].Stream == s {
		o.chunks[k-1].Data = append(o.chunks[k-1].Data, p...)
	} else {
		o.chunks = append(o.chunks, Chunk{s, append([]byte(nil), p...)})
	}
	o.n += len(p)
	o.midway[s] = p[len(p)-1] != '\n'
}

// emitLine returns a line of the cut on s, starting it on a line of its own
// when the stream's last returned byte ended none.
func (o *outState) emitLine(s Stream, p []byte) {
	if o.midway[s] {
		o.emit(s, []byte{'\n'})
	}
	o.emit(s, p)
}

// take returns the current call's chunks.
func (o *outState) take() []Chunk {
	c := o.chunks
	o.chunks = nil
	return c
}
