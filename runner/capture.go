package runner

import (
	"io"
	"os"
	"os/exec"
)

// DefaultLimit is the default capture limit per stream. A head and a tail
// of 2 MiB each hold real git and cargo outputs whole (a 430 KiB diff, a
// 24 KiB test log), and bound what the summarizers see, so peak memory
// stays under 64 MiB however much a command prints (docs/performance.md).
const DefaultLimit = 4 << 20

// Options configure Capture.
type Options struct {
	// Limit is the number of bytes kept per stream; 0 means DefaultLimit.
	Limit int
	// StdoutTee and StderrTee, when set, also receive every byte of the
	// stream (the on-disk copy of the raw output), in the chunks the
	// capture reads, up to 1 MiB. They must not fail; a failing tee would
	// otherwise stop the capture.
	StdoutTee, StderrTee io.Writer
	// PTY runs the child with its stdout and stderr on a pseudo-terminal,
	// as if it wrote to a terminal; they then arrive merged on the stdout
	// stream.
	PTY bool
	// Stdin is given to the child, under PTY too; nil is an empty stdin.
	Stdin io.Reader
}

// Output is the bounded capture of both streams.
type Output struct {
	Stdout, Stderr *Buffer
}

// Capture runs c and captures its output, returning once the child has
// exited and its output has been read (at most DrainTimeout after the exit
// when a descendant holds the pipes).
func Capture(c Command, opt Options) (*Output, Status) {
	limit := opt.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	out := &Output{Stdout: NewBuffer(limit), Stderr: NewBuffer(limit)}
	stdout, stderr := tee(out.Stdout, opt.StdoutTee), tee(out.Stderr, opt.StderrTee)
	cmd := c.cmd()
	if opt.PTY {
		return out, capturePTY(cmd, c, opt.Stdin, stdout)
	}
	cmd.Stdin = opt.Stdin
	// WaitDelay bounds only the copy of a stdin that is not a file; the
	// output streams are read by capturePipes.
	cmd.WaitDelay = DrainTimeout
	return out, runPipes(cmd, c, stdout, stderr, false)
}

// runPipes runs cmd with its stdout and stderr on pipes read into stdout
// and stderr, one goroutine per stream, and reads them at most
// DrainTimeout past the child's exit: a background descendant may hold them
// open. exec.Cmd's own WaitDelay would tell that only when the child exited
// 0; this tells it whatever the child's status. With merged, the child's
// stdout and stderr are one pipe, read into stdout. A nil stdout or stderr
// is a stream the caller gave cmd itself: it gets no pipe.
func runPipes(cmd *exec.Cmd, c Command, stdout, stderr io.Writer, merged bool) Status {
	var readEnds, writeEnds []*os.File
	var capacity []int
	closeAll := func() {
		for _, f := range append(readEnds, writeEnds...) {
			f.Close()
		}
	}
	var dsts []*io.Writer
	var ws []io.Writer
	if stdout != nil {
		dsts, ws = append(dsts, &cmd.Stdout), append(ws, stdout)
	}
	if stderr != nil && !merged {
		dsts, ws = append(dsts, &cmd.Stderr), append(ws, stderr)
	}
	for _, dst := range dsts {
		r, w, n, err := pipe()
		if err != nil {
			closeAll()
			return startFailed(c.name(), err)
		}
		readEnds, writeEnds, capacity = append(readEnds, r), append(writeEnds, w), append(capacity, n)
		*dst = w
	}
	if merged {
		cmd.Stderr = cmd.Stdout
	}
	var streams []*stream
	exited := make(chan struct{})
	st := start(cmd, c, func() {
		// The child has its own copies; ours would keep the pipes open.
		for _, w := range writeEnds {
			w.Close()
		}
		for i, w := range ws {
			streams = append(streams, readStream(readEnds[i], capacity[i], w, exited))
		}
	})
	defer closeAll()
	if st.StartErr != nil {
		return st
	}
	close(exited)
	st.Held = drain(streams...)
	return st
}

func tee(b *Buffer, w io.Writer) io.Writer {
	if w == nil {
		return b
	}
	return io.MultiWriter(b, w)
}
