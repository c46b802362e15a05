//go:build unix && !linux

package runner

import (
	"os/exec"
	"syscall"
)

// dieWithParent prepares the child's attributes. Only Linux has a
// parent-death signal; elsewhere a SIGKILLed shrinkrun leaves the child
// running, as any parent would.
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
}

// ptyAttrs gives a pty child its own session with the terminal as its
// controlling tty.
func ptyAttrs(*exec.Cmd) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true}
}
