//go:build !linux

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// dieBy ends shrinkrun killed by sig where Go's runtime ends a process by
// the signal itself once nothing catches it (SIGHUP, SIGINT, SIGTERM); for
// other signals it returns, and the exit status says 128+N.
func dieBy(sig syscall.Signal) {
	signal.Reset(sig)
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Signal(sig)
	}
}
