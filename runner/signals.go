package runner

import (
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
	"unsafe"
)

// forwarded are the signals a caller uses to stop a command. shrinkrun
// catches them so that it outlives the child and can report its status, and
// passes them on.
var forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// forwardSignals relays forwarded signals to p until the returned func is
// called. When the child shares shrinkrun's terminal foreground process
// group, a SIGINT typed at the terminal has already reached it: relaying it
// again would deliver Ctrl-C twice, so it is relayed only when shrinkrun is
// not in the terminal's foreground group or the child has its own session
// (ownSession, as under --pty).
func forwardSignals(p *os.Process, ownSession bool) func() {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, forwarded...)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-ch:
				if s == syscall.SIGINT && !ownSession && terminalForeground() {
					continue
				}
				_ = p.Signal(s)
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(quit)
	}
}

// terminalForeground reports whether shrinkrun's process group is the
// foreground group of its controlling terminal, which is when the terminal
// driver itself delivers Ctrl-C to the whole group.
func terminalForeground() bool {
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return false
	}
	defer tty.Close()
	var pgrp int32
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, tty.Fd(), syscall.TIOCGPGRP, uintptr(unsafe.Pointer(&pgrp)))
	return errno == 0 && int(pgrp) == syscall.Getpgrp()
}

// lockForChild asks the kernel to SIGKILL the child if shrinkrun dies
// without waiting for it (for example, killed with SIGKILL itself), so no
// orphan keeps running unseen. Linux ties the parent-death signal to the
// thread that forked, so the goroutine stays on that thread until the child
// has been waited for.
func lockForChild(cmd *exec.Cmd) func() {
	runtime.LockOSThread()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	return runtime.UnlockOSThread
}
