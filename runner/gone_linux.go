package runner

import (
	"syscall"
	"unsafe"
)

// readerGone reports whether the reading end of the pipe or socket fd
// writes to has been closed: poll reports POLLERR for a pipe without
// readers and POLLHUP for a socket whose peer is gone, whatever events are
// asked for, and a zero timeout makes it a check, not a wait.
func readerGone(fd int) bool {
	pfd := struct {
		fd             int32
		events, revent int16
	}{fd: int32(fd)}
	var ts syscall.Timespec
	n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	return errno == 0 && n == 1 && pfd.revent&(pollErr|pollHup) != 0
}

const (
	pollErr = 0x8
	pollHup = 0x10
)
