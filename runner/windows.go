//go:build !unix

package runner

import (
	"errors"
	"io"
	"os"
	"os/exec"
)

// What this file stands in for needs Unix: process groups and the signals
// relayed to them (signals.go), a parent-death signal, pipes outside the
// poller, pseudo-terminals, execve (exec.go) and poll (gone.go). On such a system (Windows) shrinkrun passes
// every command through (privdir.Supported), so only Passthrough runs: the
// child inherits shrinkrun's console and streams, and Ctrl-C reaches it
// from the console directly.

// catchSignals does nothing: no signal is relayed.
func catchSignals() {}

func catch() chan os.Signal { return nil }

func release(chan os.Signal) {}

type group struct{}

func newGroup(*exec.Cmd) group { return group{} }

func (group) relay(chan os.Signal, *os.Process) func() { return func() {} }

func dieWithParent(*exec.Cmd) {}

func pipe() (r, w *os.File, capacity int, err error) {
	r, w, err = os.Pipe()
	return r, w, 64 << 10, err
}

func capturePTY(_ *exec.Cmd, c Command, _ io.Reader, _ io.Writer) Status {
	return startFailed(c.name(), errors.New("--pty needs a Unix pseudo-terminal"))
}

// Exec cannot replace shrinkrun with the command here (no execve): it calls
// before, runs c on shrinkrun's own streams and returns its status, which
// the caller exits with.
func Exec(c Command, before func()) Status {
	if before != nil {
		before()
	}
	return Passthrough(c, os.Stdin, os.Stdout, os.Stderr)
}

// pollNow never sees a reader gone: the relay does not run here.
func pollNow(*pollFd) bool { return false }
