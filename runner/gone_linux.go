package runner

import (
	"syscall"
	"unsafe"
)

// pollNow polls p without waiting (ppoll: arm64 has no poll) and reports
// whether it has events.
func pollNow(p *pollFd) bool {
	var ts syscall.Timespec
	n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(p)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	return errno == 0 && n == 1
}
