package runner

import (
	"os"
	"syscall"
)

// pipeSize is what a capture pipe is enlarged to, so that a child can write
// 1 MiB before it waits for shrinkrun to read: the most an unprivileged
// process may ask for by default (/proc/sys/fs/pipe-max-size).
const pipeSize = 1 << 20

// pipe returns a pipe whose ends are in blocking mode and outside the
// runtime's poller: a read waits in the kernel until the child writes, with
// no poller thread woken for each write, and returns all that has arrived.
// capacity is what the pipe holds: pipeSize, or the default when the kernel
// refuses to enlarge it (a user over its quota of pipe buffers).
func pipe() (r, w *os.File, capacity int, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, 0, os.NewSyscallError("pipe2", err)
	}
	capacity = 64 << 10
	if n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(p[1]), syscall.F_SETPIPE_SZ, pipeSize); errno == 0 {
		capacity = int(n)
	} else if n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(p[1]), syscall.F_GETPIPE_SZ, 0); errno == 0 {
		capacity = int(n)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), capacity, nil
}
