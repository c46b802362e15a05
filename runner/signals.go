package runner

import (
	"os"
	"os/exec"
	"os/signal"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// forwarded are the signals a caller uses to stop a command. shrinkrun
// catches them so that it outlives the child and can report its status, and
// passes them on.
var forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// group decides how the child is placed and signalled. When shrinkrun is in
// the foreground of its controlling terminal (a person at a terminal), the
// child stays in shrinkrun's process group so it can read the terminal, and
// Ctrl-C from the terminal reaches it directly. Otherwise (an agent's tool
// call, a pipeline, CI) the child leads a process group of its own, and a
// signal to shrinkrun is relayed to that whole group, so the child's own
// children stop too and none is left behind as an orphan.
type group struct {
	shared bool
}

func newGroup(cmd *exec.Cmd) group {
	g := group{shared: terminalForeground()}
	if !g.shared {
		cmd.SysProcAttr.Setpgid = true
	}
	return g
}

// catch starts catching the forwarded signals. It is called before the
// child starts, so a signal that arrives while the child is starting is held
// rather than killing shrinkrun; relay then passes held and later signals on.
//
// A signal the caller ignores (nohup's SIGHUP, the SIGINT of a background
// job in a script) is left alone, so the child inherits it ignored, as it
// would without shrinkrun: catching it would give the child the default
// action instead. Go keeps an inherited SIG_IGN only for SIGHUP and SIGINT;
// SIGTERM is caught and relayed even when the caller ignores it.
func catch() chan os.Signal {
	ch := make(chan os.Signal, 4)
	for _, s := range forwarded {
		if !signal.Ignored(s) {
			signal.Notify(ch, s)
		}
	}
	return ch
}

// relay passes signals from ch to the child p until the returned func is
// called. In a shared group a SIGINT has already been delivered by the
// terminal to every member; relaying it would deliver Ctrl-C twice.
//
// The returned func is called once the child has exited. If a signal was
// relayed to the child's own group, it then SIGKILLs what is left of the
// group: background jobs ignore SIGINT by POSIX rule, and a process caught
// between fork and exec can swallow the signal, yet the caller asked for the
// command to stop, and an orphan would keep running unseen.
func (g group) relay(ch chan os.Signal, p *os.Process) func() {
	quit := make(chan struct{})
	var relayed atomic.Bool
	go func() {
		for {
			select {
			case s := <-ch:
				switch {
				case !g.shared:
					relayed.Store(true)
					_ = syscall.Kill(-p.Pid, s.(syscall.Signal))
				case s != syscall.SIGINT:
					_ = p.Signal(s)
				}
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(quit)
		if relayed.Load() {
			_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
		}
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
