package runner

import (
	"os/exec"
	"syscall"
)

// dieWithParent asks the kernel to SIGKILL the child if shrinkrun dies
// without waiting for it (killed with SIGKILL itself, say), so no orphan
// keeps running unseen.
//
// Linux sends the parent-death signal when the thread that forked the child
// ends, not the process. Go ends a thread only when a goroutine locked to it
// returns, which no goroutine in shrinkrun does, so every thread lives as
// long as the process. (Locking the starting goroutine to its thread until
// the wait, as a guard, cost every command 0.1 to 0.3 ms of thread
// hand-offs; a program using this package must not end a goroutine locked
// to its thread while a child runs.)
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// ptyAttrs gives a pty child its own session with the terminal, its
// stdout (fd 1: its stdin is the caller's), as its controlling tty, keeping the parent-death signal dieWithParent set.
func ptyAttrs(cmd *exec.Cmd) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1, Pdeathsig: cmd.SysProcAttr.Pdeathsig}
}
