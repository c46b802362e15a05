//go:build unix && !linux

package runner

import (
	"syscall"
	"unsafe"
)

// pollNow polls p without waiting and reports whether it has events.
func pollNow(p *pollFd) bool {
	n, _, errno := syscall.Syscall(syscall.SYS_POLL, uintptr(unsafe.Pointer(p)), 1, 0)
	return errno == 0 && n == 1
}
