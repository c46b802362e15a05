package runner

import (
	"errors"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/shrinkrun/shrinkrun/shape"
)

// Cutter decides what of a command's output reaches the caller, as the
// command writes it: shape.Cutter. Its methods are called under one lock.
type Cutter interface {
	Write(s shape.Stream, p []byte) []shape.Chunk
	Tick() []shape.Chunk
	Cutting() bool
	Close(raw string, block []byte) []shape.Chunk
}

// TickWait is how long bytes the cutter holds wait before the relay calls
// Tick: long enough that a burst of output (a test runner printing a
// screenful, a progress bar redrawn ten times a second) reaches the cutter
// whole, so it decides on the whole burst; short enough that nobody
// watching sees output stall (docs/design.md, "The relay").
const TickWait = 200 * time.Millisecond

// RelayOptions configure a Relay.
type RelayOptions struct {
	// Cutter is fed every byte of the commands' output.
	Cutter Cutter
	// Limit is what the cutter lets through unchanged: the bytes kept in
	// memory until the cut starts, for the raw copy.
	Limit int
	// Stdin is given to the commands: an *os.File is inherited.
	Stdin io.Reader
	// Stdout and Stderr are the caller's streams. When they are one file
	// (Claude Code gives commands one file for both) the command gets one
	// pipe for both, and its output keeps its order; all of it is then fed
	// to the cutter as stdout.
	Stdout, Stderr io.Writer
	// Direct marks a caller's stream the command is given itself (an
	// *os.File): a terminal a person reads while the other stream goes to
	// a reader that cuts (`shrinkrun -- make | less`). Its bytes reach it
	// live and whole; the cutter, the raw copy and the capture never see
	// them, and the limit is the other stream's alone.
	Direct [2]bool
	// Keep, when set, is called once, when the cut starts, for the writers
	// of the on-disk copy of the raw output (store.Entry), which then
	// receive every byte from the first. An output that stays at or below
	// Limit never calls it and never touches the disk. Either writer may
	// be nil: that stream is not kept.
	Keep func() (stdout, stderr io.Writer)
	// CaptureLimit bounds the capture kept from the start of the cut for a
	// rule that recognizes the output (Capture); 0 means DefaultLimit.
	CaptureLimit int
	// Wait is how long held bytes wait for a Tick; 0 means TickWait.
	Wait time.Duration
}

// Relay carries the output of one or more commands, run one after the
// other (the parts of a list), to the caller's streams through one Cutter:
// below its limit byte for byte and as it is written, above it cut by
// shape. Run runs each command; Close ends the output.
type Relay struct {
	o      RelayOptions
	merged bool

	mu      sync.Mutex // held while the cutter is fed and its chunks written
	early   [2][]byte  // the output until the cut starts, for the raw copy
	lost    bool       // early was dropped: no raw copy can be whole
	raw     [2]io.Writer
	capture *Output // from the start of the cut
	in, out int64   // bytes fed and written
	broken  [2]bool // the caller's stream failed: EPIPE or another error
	watched [2]int  // the caller's stream's fd when it is a pipe or socket, else -1
	werr    error   // the first write error other than EPIPE
	timer   *time.Timer
	armed   bool
	fed     bool // bytes were fed since the last Tick
	closed  bool
}

// NewRelay returns a Relay for o.
func NewRelay(o RelayOptions) *Relay {
	if o.Wait <= 0 {
		o.Wait = TickWait
	}
	if o.CaptureLimit <= 0 {
		o.CaptureLimit = DefaultLimit
	}
	r := &Relay{o: o, merged: sameFile(o.Stdout, o.Stderr) && o.Direct == [2]bool{}}
	for s, w := range []io.Writer{o.Stdout, o.Stderr} {
		r.watched[s] = pipeOrSocket(w)
	}
	r.timer = time.AfterFunc(time.Hour, r.tick)
	r.timer.Stop()
	return r
}

// Run runs c with its output relayed, and returns once it has exited and
// its output has been read (at most DrainTimeout after the exit when a
// descendant holds the pipes). Signals are relayed and the exit status is
// exact, as for Capture.
func (r *Relay) Run(c Command) Status {
	cmd := c.cmd()
	cmd.Stdin = r.o.Stdin
	cmd.WaitDelay = DrainTimeout
	ws := [2]io.Writer{r.streamWriter(shape.Stdout), r.streamWriter(shape.Stderr)}
	for s, direct := range r.o.Direct {
		if direct {
			ws[s] = nil
		}
	}
	if r.o.Direct[shape.Stdout] {
		cmd.Stdout = r.o.Stdout
	}
	if r.o.Direct[shape.Stderr] {
		cmd.Stderr = r.o.Stderr
	}
	return runPipes(cmd, c, ws[0], ws[1], r.merged)
}

// Cutting reports whether the output went past the limit.
func (r *Relay) Cutting() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.o.Cutter.Cutting()
}

// Capture is the bounded capture of both streams from the start of the
// cut (the whole output when it began within the capture's head), for a
// rule that recognizes the output by its signature; nil when the output
// stayed at or below the limit.
func (r *Relay) Capture() *Output {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.capture
}

// Close ends the output: the cutter's last chunks, with raw naming the raw
// copy and block a rule's block, are written. It returns the bytes fed and
// the bytes written to the caller, and the first error writing to the
// caller other than a reader that went away (EPIPE).
func (r *Relay) Close(raw string, block []byte) (in, out int64, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	r.timer.Stop()
	r.write(r.o.Cutter.Close(raw, block))
	return r.in, r.out, r.werr
}

// errBroken stops the copy of a stream whose destination failed.
var errBroken = errors.New("runner: the caller's stream failed")

// streamWriter is what the reader of the command's stream s writes to.
func (r *Relay) streamWriter(s shape.Stream) io.Writer {
	return writerFunc(func(p []byte) (int, error) { return r.feed(s, p) })
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// feed gives p, read from the command's stream s, to the cutter and writes
// what it returns.
func (r *Relay) feed(s shape.Stream, p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.broken[s] {
		return 0, errBroken
	}
	r.in += int64(len(p))
	r.fed = true
	chunks := r.o.Cutter.Write(s, p)
	switch {
	case r.capture != nil:
		r.keep(s, p)
	case r.o.Cutter.Cutting():
		r.startCut()
		r.keep(s, p)
	case r.in <= int64(r.o.Limit):
		r.early[s] = append(r.early[s], p...)
	default:
		// A cutter past its limit that does not cut: memory stays bounded,
		// and a later cut has no whole copy to keep.
		r.early, r.lost = [2][]byte{}, true
	}
	r.write(chunks)
	if fd := r.watched[s]; fd >= 0 && !r.broken[s] && readerGone(fd) {
		// The caller stopped reading while the cutter held what the child
		// wrote: no write of ours met the broken pipe, so the child would
		// write on for ever where it would have met it.
		r.broken[s] = true
		if r.merged {
			r.broken[1-s] = true
		}
	}
	// Below the limit the cutter holds bytes only when it returned fewer
	// than it was fed; past it, it may hold any.
	if !r.armed && !r.closed && (r.capture != nil || r.out < r.in) {
		r.armed = true
		r.timer.Reset(r.o.Wait)
	}
	if r.broken[s] {
		return len(p), errBroken
	}
	return len(p), nil
}

// startCut opens the raw copy and the capture with everything so far.
func (r *Relay) startCut() {
	r.capture = &Output{Stdout: NewBuffer(r.o.CaptureLimit), Stderr: NewBuffer(r.o.CaptureLimit)}
	if r.o.Keep != nil && !r.lost {
		r.raw[0], r.raw[1] = r.o.Keep()
	}
	for s := range r.early {
		r.keep(shape.Stream(s), r.early[s])
		r.early[s] = nil
	}
}

// keep writes p to the raw copy and the capture.
func (r *Relay) keep(s shape.Stream, p []byte) {
	if w := r.raw[s]; w != nil {
		w.Write(p)
	}
	b := r.capture.Stdout
	if s == shape.Stderr {
		b = r.capture.Stderr
	}
	b.Write(p)
}

// tick is the clock: held bytes have waited long enough. Past the cut, a
// Tick that followed output is followed by one more a wait later: when no
// byte came between, the cutter sees the command has gone quiet (a server
// that started and waits) and releases its newest lines.
func (r *Relay) tick() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.armed = false
	if r.closed {
		return
	}
	r.write(r.o.Cutter.Tick())
	if r.fed && r.capture != nil {
		r.armed = true
		r.timer.Reset(r.o.Wait)
	}
	r.fed = false
}

// write writes chunks to the caller's streams, in order. A stream that
// failed receives nothing more, and its command's stream is closed by its
// reader, so the command sees the broken pipe it would have seen.
func (r *Relay) write(chunks []shape.Chunk) {
	for _, c := range chunks {
		s := c.Stream & 1
		w := r.o.Stdout
		if s == shape.Stderr {
			w = r.o.Stderr
		}
		if r.broken[s] {
			continue
		}
		n, err := w.Write(c.Data)
		r.out += int64(n)
		if err != nil {
			r.broken[s] = true
			if r.merged {
				r.broken[1-s] = true
			}
			if r.werr == nil && !errors.Is(err, syscall.EPIPE) {
				r.werr = err
			}
		}
	}
}

// pipeOrSocket returns w's descriptor when w is a pipe or a socket, whose
// reader can go away, else -1.
func pipeOrSocket(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return -1
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return -1
	}
	return int(f.Fd())
}

// sameFile reports whether the caller's two streams are one: the same
// writer, or files that are the same file.
func sameFile(a, b io.Writer) bool {
	if a == b {
		return true
	}
	fa, ok1 := a.(*os.File)
	fb, ok2 := b.(*os.File)
	if !ok1 || !ok2 {
		return false
	}
	sa, err1 := fa.Stat()
	sb, err2 := fb.Stat()
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
