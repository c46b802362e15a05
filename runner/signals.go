//go:build unix

package runner

import (
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"unsafe"
)

// relayed are the signals a caller sends a command to stop it or to poke
// it, and that reach the command itself when no wrapper stands between:
// shrinkrun catches them so that it outlives the child and reports its
// status, and passes them on. Uncaught, Go would exit on SIGHUP, SIGINT
// and SIGTERM, exit with a goroutine dump on SIGQUIT and SIGABRT, and
// swallow the others; in each case the child would go on running or be
// left an orphan.
//
// Not relayed: signals the kernel sends shrinkrun about shrinkrun itself
// (SIGXCPU, SIGXFSZ, SIGSYS, the faults), job control (SIGTSTP, SIGTTIN,
// SIGTTOU, SIGCONT), signals that do nothing by default (SIGCHLD, SIGWINCH,
// SIGURG, which the Go runtime uses) and the rarely sent rest (SIGVTALRM,
// SIGPROF, SIGIO, SIGPWR, real-time signals); docs/design.md says why.
var relayed = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGABRT, syscall.SIGTERM,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGPIPE,
}

// group decides how the child is placed and signalled. When shrinkrun is in
// the foreground of its controlling terminal (a person at a terminal), the
// child stays in shrinkrun's process group so it can read the terminal, and
// Ctrl-C from the terminal reaches it directly. Otherwise (an agent's tool
// call, a pipeline, CI) the child leads a process group of its own, and a
// signal to shrinkrun is relayed to that whole group, so the child's own
// children stop too and none is left behind as an orphan.
type group struct {
	shared bool
	// noPipe is set when shrinkrun itself writes to a pipe the child reads
	// (os/exec copying a stdin that is not a file): a SIGPIPE may then be
	// the kernel's answer to that write, not a caller's signal.
	noPipe bool
}

func newGroup(cmd *exec.Cmd) group {
	_, stdinFile := cmd.Stdin.(*os.File)
	g := group{shared: terminalForeground(), noPipe: cmd.Stdin != nil && !stdinFile}
	if !g.shared {
		cmd.SysProcAttr.Setpgid = true
	}
	return g
}

// The relayed signals are caught once, for the rest of the process's life:
// Notify costs a round trip to a runtime thread for each signal, and Stop
// as much again, which every command would pay. One goroutine hands each
// caught signal to the relay of every child running; a signal that arrives
// while none runs is dropped, as the command it was meant for has finished
// and shrinkrun exits as soon as it has reported it.
var (
	catchOnce sync.Once
	// caughtAll is closed once Notify has returned for every relayed signal.
	caughtAll = make(chan struct{})
	runs      = struct {
		sync.Mutex
		relays map[chan os.Signal]bool
	}{relays: map[chan os.Signal]bool{}}
)

// catch makes sure the relayed signals are caught and returns a channel
// that receives them until release. It is called before the child starts,
// so a signal that arrives while the child is starting is held rather than
// killing shrinkrun; relay then passes held and later signals on.
//
// A signal the caller ignores (nohup's SIGHUP, the SIGINT of a background
// job in a script) is left alone, so the child inherits it ignored, as it
// would without shrinkrun: catching it would give the child the default
// action instead. Go keeps an inherited SIG_IGN only for SIGHUP and SIGINT;
// SIGTERM is caught and relayed even when the caller ignores it.
func catch() chan os.Signal {
	catchSignals()
	<-caughtAll
	ch := make(chan os.Signal, 16)
	runs.Lock()
	runs.relays[ch] = true
	runs.Unlock()
	return ch
}

// catchSignals starts catching the relayed signals in the background and
// returns at once (Prepare). Notify's round trip per signal adds up to
// about a millisecond on a busy 2-core machine (docs/performance.md,
// "Start-up at the limit"). catch waits for it: no child starts before its
// signals are caught.
func catchSignals() {
	catchOnce.Do(func() {
		go func() {
			caught := make(chan os.Signal, 16)
			signal.Notify(caught, slices.DeleteFunc(slices.Clone(relayed), signal.Ignored)...)
			close(caughtAll)
			for s := range caught {
				runs.Lock()
				for ch := range runs.relays {
					select {
					case ch <- s:
					default:
					}
				}
				runs.Unlock()
			}
		}()
	})
}

// release stops the signals to ch.
func release(ch chan os.Signal) {
	runs.Lock()
	delete(runs.relays, ch)
	runs.Unlock()
}

// relay passes signals from ch to the child p until the returned func is
// called. In a shared group the terminal has already delivered a SIGINT or
// SIGQUIT to every member; relaying it would deliver it twice.
//
// The returned func is called once the child has exited. If a signal was
// relayed to the child's own group, it then SIGKILLs what is left of the
// group: background jobs ignore SIGINT and SIGQUIT by POSIX rule, and a
// process caught between fork and exec can swallow a signal, yet the
// caller was managing the command's life, and an orphan would keep running
// unseen.
func (g group) relay(ch chan os.Signal, p *os.Process) func() {
	quit := make(chan struct{})
	done := make(chan struct{})
	var sent bool
	go func() {
		defer close(done)
		for {
			select {
			case s := <-ch:
				sig := s.(syscall.Signal)
				switch {
				case sig == syscall.SIGPIPE && g.noPipe:
				case !g.shared:
					sent = true
					_ = syscall.Kill(-p.Pid, sig)
				case sig != syscall.SIGINT && sig != syscall.SIGQUIT:
					_ = p.Signal(sig)
				}
			case <-quit:
				return
			}
		}
	}()
	return func() {
		release(ch)
		close(quit)
		<-done
		if sent {
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
