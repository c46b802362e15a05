//go:build unix

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
