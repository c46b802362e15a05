package runner

import (
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// DefaultLimit is the default capture limit per stream. A head and a tail
// of 2 MiB each hold real git and cargo outputs whole (a 430 KiB diff, a
// 24 KiB test log), and bound what the summarizers see, so peak memory
// stays under 96 MiB however much a command prints (docs/performance.md).
const DefaultLimit = 4 << 20

// Options configure Capture.
type Options struct {
	// Limit is the number of bytes kept per stream; 0 means DefaultLimit.
	Limit int
	// StdoutTee and StderrTee, when set, also receive every byte of the
	// stream (the on-disk copy of the raw output). They must not fail; a
	// failing tee would otherwise stop the capture.
	StdoutTee, StderrTee io.Writer
	// PTY runs the child on a pseudo-terminal, as if it wrote to a terminal.
	// Its stdout and stderr then arrive merged on the stdout stream.
	PTY bool
	// Stdin is given to the child (under PTY it is copied to the terminal).
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
	return out, capturePipes(cmd, c, stdout, stderr)
}

// capturePipes runs cmd with its stdout and stderr on pipes read into
// stdout and stderr, and reads them at most DrainTimeout past the child's
// exit: a background descendant may hold them open. exec.Cmd's own
// WaitDelay would tell that only when the child exited 0; this tells it
// whatever the child's status.
func capturePipes(cmd *exec.Cmd, c Command, stdout, stderr io.Writer) Status {
	var readEnds, writeEnds []*os.File
	defer func() {
		for _, f := range append(readEnds, writeEnds...) {
			f.Close()
		}
	}()
	for _, dst := range []*io.Writer{&cmd.Stdout, &cmd.Stderr} {
		r, w, err := os.Pipe()
		if err != nil {
			return startFailed(c.name(), err)
		}
		readEnds, writeEnds = append(readEnds, r), append(writeEnds, w)
		*dst = w
	}
	read := make(chan struct{})
	st := start(cmd, c, func() {
		// The child has its own copies; ours would keep the pipes open.
		for _, w := range writeEnds {
			w.Close()
		}
		go func() {
			done := make(chan struct{}, 2)
			for i, w := range []io.Writer{stdout, stderr} {
				go func() {
					_, _ = io.Copy(w, readEnds[i])
					done <- struct{}{}
				}()
			}
			<-done
			<-done
			close(read)
		}()
	})
	if st.StartErr != nil {
		return st
	}
	select {
	case <-read:
	case <-time.After(DrainTimeout):
		st.Held = true
		// Closing the read ends ends the copies, so nothing writes to the
		// capture after Capture returns.
		for _, r := range readEnds {
			r.Close()
		}
		<-read
	}
	return st
}

func tee(b *Buffer, w io.Writer) io.Writer {
	if w == nil {
		return b
	}
	return io.MultiWriter(b, w)
}

// capturePTY runs cmd on a new pseudo-terminal sized like shrinkrun's own
// terminal, and keeps the size in step on SIGWINCH.
func capturePTY(cmd *exec.Cmd, c Command, stdin io.Reader, w io.Writer) Status {
	stop := lockForChild(cmd)
	defer stop()
	size, tty := terminalSize()
	sigs := catch()
	ptmx, err := pty.StartWithAttrs(cmd, size, ptyAttrs(cmd))
	if err != nil {
		signal.Stop(sigs)
		return startFailed(c.name(), err)
	}
	defer ptmx.Close()

	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	go func() {
		for range winch {
			if tty != nil {
				_ = pty.InheritSize(tty, ptmx)
			}
		}
	}()
	if stdin != nil {
		go func() { _, _ = io.Copy(ptmx, stdin) }()
	}
	// Under Setsid the child leads its own session and process group.
	done := group{}.relay(sigs, cmd.Process)

	read := make(chan struct{})
	go func() {
		// Reading the master ends with EIO once the child and every process
		// holding the terminal have gone.
		_, _ = io.Copy(w, ptmx)
		close(read)
	}()
	err = cmd.Wait()
	done()
	st := waited(cmd, err)
	select {
	case <-read:
	case <-time.After(DrainTimeout):
		st.Held = true
	}
	return st
}

// terminalSize is the size of shrinkrun's own terminal, read from the first
// of stdin, stdout and stderr that is one (an agent may pipe stdin but not
// stderr), or 24x80 with no terminal to follow.
func terminalSize() (*pty.Winsize, *os.File) {
	for _, f := range []*os.File{os.Stdin, os.Stdout, os.Stderr} {
		if size, err := pty.GetsizeFull(f); err == nil {
			return size, f
		}
	}
	return &pty.Winsize{Rows: 24, Cols: 80}, nil
}
