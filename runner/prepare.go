package runner

import "os"

// Prepare starts, in the background, the work of starting a child that
// does not depend on the command, so that a caller that knows a child will
// run overlaps it with its own (finding the program, the state directory):
// catching the relayed signals, which Capture and Passthrough still wait
// for before the start, and os's one-time probe of pidfd support, a vfork
// and a wait of its own (0.1 ms here) that os.StartProcess would otherwise
// make on the way to the child. The probe is os's, done once per process
// (os.FindProcess makes it too), so whichever comes first makes it.
func Prepare() {
	catchSignals()
	go func() {
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			p.Release()
		}
	}()
}
