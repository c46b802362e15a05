//go:build unix && !linux

package runner

import (
	"os"
	"syscall"
)

// pipe returns a pipe whose ends are in blocking mode and outside the
// runtime's poller: a read waits in the kernel until the child writes, with
// no poller wake-up for each write, and returns all that has arrived.
// capacity is what the pipe holds once it has grown (64 KiB on macOS and
// the BSDs).
func pipe() (r, w *os.File, capacity int, err error) {
	var p [2]int
	// As os.Pipe does: no fork may copy the descriptors before they are
	// marked close-on-exec.
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(p[:]); err != nil {
		return nil, nil, 0, os.NewSyscallError("pipe", err)
	}
	syscall.CloseOnExec(p[0])
	syscall.CloseOnExec(p[1])
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), 64 << 10, nil
}
