package runner

import (
	"os/exec"
	"runtime"
	"syscall"
)

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

// ptyAttrs gives a pty child its own session with the terminal as its
// controlling tty, keeping the parent-death signal lockForChild set.
func ptyAttrs(cmd *exec.Cmd) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Pdeathsig: cmd.SysProcAttr.Pdeathsig}
}
