//go:build unix

package runner

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"unsafe"

	"github.com/creack/pty"
)

// capturePTY runs cmd on a new pseudo-terminal sized like shrinkrun's own
// terminal, keeps the size in step on SIGWINCH, and gives the child stdin
// through the terminal, then the end of input.
func capturePTY(cmd *exec.Cmd, c Command, stdin io.Reader, w io.Writer) Status {
	dieWithParent(cmd)
	size, tty := terminalSize()
	ptmx, pts, err := pty.Open()
	if err != nil {
		return startFailed(c.name(), err)
	}
	defer ptmx.Close()
	// Input is the caller's, not output of the command: the terminal must
	// not echo it into the capture.
	if err := noEcho(pts); err != nil {
		pts.Close()
		return startFailed(c.name(), err)
	}
	_ = pty.Setsize(ptmx, size)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
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
	go feedTerminal(ptmx, stdin)
	// Under Setsid the child leads its own session and process group.
	done := group{}.relay(sigs, cmd.Process)
	st := waited(cmd, cmd.Wait())
	done()
	// Reading the master ends with EIO once the child and every process
	// holding the terminal have gone.
	st.Held = drain(out)
	return st
}

// eofs is how many times the end of input is typed. At a terminal it is
// one 0-byte read per Ctrl-D at the start of a line, not a lasting state as
// at the end of a pipe: a program that reads again after the end (a
// shell's `while read` loop handling a last line without a newline) needs
// it once more.
const eofs = 3

// feedTerminal copies stdin (nothing when nil) to the terminal, then ends
// the child's input as a person at a terminal does, with the terminal's
// end-of-input character (VEOF, Ctrl-D) typed eofs times, and once more
// first after a partial line, which the first one only hands over. A child
// that has put the terminal in raw mode reads bytes, not lines, and has no
// end of input to see: it gets none.
func feedTerminal(ptmx *os.File, stdin io.Reader) {
	last := byte('\n')
	if stdin != nil {
		buf := make([]byte, 32<<10)
		for {
			n, err := stdin.Read(buf)
			if n > 0 {
				if _, werr := ptmx.Write(buf[:n]); werr != nil {
					return
				}
				last = buf[n-1]
			}
			if err != nil {
				break
			}
		}
	}
	var t syscall.Termios
	// On the master side the request reads the terminal's settings, as the
	// child last left them.
	if ioctl(ptmx, getTermios, unsafe.Pointer(&t)) != nil || t.Lflag&syscall.ICANON == 0 || t.Cc[syscall.VEOF] == 0 {
		return
	}
	n := eofs
	if last != '\n' {
		n++
	}
	_, _ = ptmx.Write(bytes.Repeat([]byte{t.Cc[syscall.VEOF]}, n))
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

// noEcho turns off the terminal's echo of input.
func noEcho(tty *os.File) error {
	var t syscall.Termios
	if err := ioctl(tty, getTermios, unsafe.Pointer(&t)); err != nil {
		return err
	}
	t.Lflag &^= syscall.ECHO
	return ioctl(tty, setTermios, unsafe.Pointer(&t))
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
