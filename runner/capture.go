package runner

import (
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"unsafe"

	"github.com/creack/pty"
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
// stdout and stderr are one pipe, read into stdout.
func runPipes(cmd *exec.Cmd, c Command, stdout, stderr io.Writer, merged bool) Status {
	var readEnds, writeEnds []*os.File
	var capacity []int
	closeAll := func() {
		for _, f := range append(readEnds, writeEnds...) {
			f.Close()
		}
	}
	dsts := []*io.Writer{&cmd.Stdout, &cmd.Stderr}
	if merged {
		dsts = dsts[:1]
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
		for i, w := range []io.Writer{stdout, stderr}[:len(readEnds)] {
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

// capturePTY runs cmd with its stdout and stderr on a new pseudo-terminal
// sized like shrinkrun's own terminal, and keeps the size in step on
// SIGWINCH. Its stdin is the one it is given, as bash gives it: a command
// that tests whether its input is a terminal (rg with no path searches the
// directory then) must see what it would see without shrinkrun, and reads
// to the end of that input itself.
func capturePTY(cmd *exec.Cmd, c Command, stdin io.Reader, w io.Writer) Status {
	dieWithParent(cmd)
	size, tty := terminalSize()
	ptmx, pts, err := pty.Open()
	if err != nil {
		return startFailed(c.name(), err)
	}
	defer ptmx.Close()
	_ = pty.Setsize(ptmx, size)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, pts, pts
	// WaitDelay bounds only the copy of a stdin that is not a file.
	cmd.WaitDelay = DrainTimeout
	cmd.SysProcAttr = ptyAttrs(cmd)
	sigs := catch()
	err = cmd.Start()
	pts.Close()
	if err != nil {
		release(sigs)
		return startFailed(c.name(), err)
	}
	// Fd puts the master in blocking mode: like a pipe, it is read with no
	// poller in between. Pauses would not help: a read returns at most the
	// line discipline's 4 KiB, and a child writing in large chunks waited
	// for them.
	ptmx.Fd()
	out := readStream(ptmx, 0, w, nil)

	if tty != nil {
		winch := make(chan os.Signal, 1)
		signal.Notify(winch, syscall.SIGWINCH)
		defer signal.Stop(winch)
		go func() {
			for range winch {
				if size, err := pty.GetsizeFull(tty); err == nil {
					_ = ioctl(ptmx, syscall.TIOCSWINSZ, unsafe.Pointer(size))
				}
			}
		}()
	}
	// Under Setsid the child leads its own session and process group.
	done := group{}.relay(sigs, cmd.Process)
	st := waited(cmd, cmd.Wait())
	done()
	// Reading the master ends with EIO once the child and every process
	// holding the terminal have gone.
	st.Held = drain(out)
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

// ioctl makes the request on f's descriptor while f holds it, so it fails
// rather than reaching another file once f is closed: the terminal's master
// side is closed while goroutines that feed it may still run.
func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	conn, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := conn.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}
