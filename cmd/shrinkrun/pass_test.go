//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"
)

// pty [-intr] PROG ARGS... runs PROG with a new pseudo-terminal as its
// controlling terminal and its stdin, stdout and stderr, as a person's
// terminal is, and puts what the terminal showed on stdout. With -intr it
// waits for the first line and types the terminal's interrupt character
// (Ctrl-C), which the terminal turns into SIGINT for its foreground process
// group, every 100 ms until the command ends. PROG must exit 0 (with !, must not); the exit status is logged.
func cmdPty(ts *testscript.TestScript, neg bool, args []string) {
	intr := len(args) > 0 && args[0] == "-intr"
	if intr {
		args = args[1:]
	}
	if len(args) < 1 {
		ts.Fatalf("usage: pty [-intr] PROG [ARG...]")
	}
	cmd := command(ts, args)
	ptmx, err := pty.Start(cmd)
	ts.Check(err)
	defer ptmx.Close()
	var out bytes.Buffer
	done, ready := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		r := bufio.NewReader(ptmx)
		if intr {
			line, err := r.ReadString('\n')
			out.WriteString(line)
			if err != nil {
				return
			}
			close(ready)
		}
		io.Copy(&out, r) // ends with EIO once every holder of the terminal is gone
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	if intr {
		// Typed again until the command ends: a shell between two commands
		// can let one Ctrl-C go by, as at a real terminal.
		go func() {
			<-ready
			for {
				ptmx.Write([]byte{3})
				select {
				case <-done:
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
		}()
	}
	select {
	case err = <-waited:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		ts.Fatalf("pty: still running after 20s")
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		ts.Fatalf("pty: the terminal stayed open 5s after the command exited")
	}
	// A terminal shows a newline as CR LF.
	ts.Stdout().Write(bytes.ReplaceAll(out.Bytes(), []byte("\r\n"), []byte("\n")))
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		ts.Logf("exit status %v", ee.ProcessState)
	case err != nil:
		ts.Fatalf("pty: %v", err)
	}
	if (err != nil) != neg {
		ts.Fatalf("pty: unexpected exit status: %v", err)
	}
}

// killed PROG ARGS... starts PROG, waits for its first stdout line, sends it
// SIGTERM, and prints on stdout every stdout byte that reached the caller
// before it ended, then `status N` (its exit status, -1 for a signal): a
// command that never exits, such as a dev server, stopped by its caller.
func cmdKilled(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: killed PROG [ARG...]")
	}
	cmd := command(ts, args)
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	var errb strings.Builder
	cmd.Stderr = &errb
	ts.Check(cmd.Start())
	r := bufio.NewReader(out)
	first, err := r.ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		ts.Fatalf("killed: no first line: %v", err)
	}
	ts.Check(cmd.Process.Signal(syscall.SIGTERM))
	rest, _ := io.ReadAll(r)
	err = cmd.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	w := ts.Stdout()
	io.WriteString(w, first)
	w.Write(rest)
	io.WriteString(w, "status "+strconv.Itoa(code)+"\n")
	io.WriteString(ts.Stderr(), errb.String())
}
