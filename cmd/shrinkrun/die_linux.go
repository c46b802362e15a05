package main

import (
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// dieBy ends shrinkrun killed by sig, as the process it stands for was
// (the real bash behind the shell route): the signal's action set back to
// the kernel's default, which Go's runtime would otherwise keep (a
// goroutine dump for SIGQUIT and SIGABRT, nothing at all for SIGUSR1),
// then sent to this process. The client then sees what it would have seen
// of its own bash. It returns only for a signal whose default is not to
// end the process, a second later.
func dieBy(sig syscall.Signal) {
	// A zero struct sigaction is SIG_DFL with no flags and an empty mask,
	// whatever the architecture's layout; the kernel reads its own size.
	var act [8]uintptr
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	// To this thread, which takes it on its way back from the call: sent
	// to the process, a signal that dumps core (SIGSEGV, SIGABRT) could go
	// to another thread while this one went on to exit with 128+N.
	runtime.LockOSThread()
	syscall.Tgkill(os.Getpid(), syscall.Gettid(), sig)
	time.Sleep(time.Second)
}
