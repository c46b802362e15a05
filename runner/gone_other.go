//go:build !linux

package runner

import (
	"syscall"
	"unsafe"
)

// readerGone reports whether the reading end of the pipe or socket fd
// writes to has been closed (POLLERR or POLLHUP from a poll that does not
// wait).
func readerGone(fd int) bool {
	pfd := struct {
		fd             int32
		events, revent int16
	}{fd: int32(fd)}
	n, _, errno := syscall.Syscall(syscall.SYS_POLL, uintptr(unsafe.Pointer(&pfd)), 1, 0)
	return errno == 0 && n == 1 && pfd.revent&(pollErr|pollHup) != 0
}

const (
	pollErr = 0x8
	pollHup = 0x10
)
