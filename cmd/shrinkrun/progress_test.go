package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestProgressOnTerminal runs a slow recognized command with stderr on a
// pseudo-terminal: the progress line appears, and is erased before the
// command's result is printed.
func TestProgressOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: waits for the progress delay (-short)")
	}
	bin := t.TempDir()
	fake := "#!/bin/sh\nsleep 1.6\ni=0; while [ $i -lt 50 ]; do echo \"?? file$i\"; i=$((i+1)); done\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "")
	os.Unsetenv("NO_COLOR")
	t.Setenv("SHRINKRUN_STATE_DIR", t.TempDir())

	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("pseudo-terminal unavailable: %v", err)
	}
	defer ptmx.Close()
	seen := make(chan string)
	go func() {
		b, _ := io.ReadAll(ptmx)
		seen <- string(b)
	}()
	var stdout bytes.Buffer
	code := run([]string{"--", "git", "status", "--short"}, strings.NewReader(""), &stdout, tty)
	tty.Close()
	got := <-seen
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	i := strings.Index(got, "shrinkrun: running 1s, ")
	if i < 0 {
		t.Fatalf("no progress line on the terminal: %q", got)
	}
	if !strings.HasSuffix(got, eraseLine) {
		t.Errorf("progress line not erased at the end: %q", got)
	}
	if strings.Contains(stdout.String(), "shrinkrun: running") {
		t.Errorf("progress leaked into stdout")
	}
}

func TestNoProgressWhenNotTerminal(t *testing.T) {
	var b bytes.Buffer
	if progressWanted(&b) {
		t.Error("a buffer is not a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if progressWanted(f) {
		t.Error("a file is not a terminal")
	}
}

func TestNoProgressWithNoColorOrDumb(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("pseudo-terminal unavailable: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "1")
	if progressWanted(tty) {
		t.Error("NO_COLOR set")
	}
	os.Unsetenv("NO_COLOR")
	if !progressWanted(tty) {
		t.Error("a terminal without NO_COLOR wants progress")
	}
	t.Setenv("TERM", "dumb")
	if progressWanted(tty) {
		t.Error("TERM=dumb")
	}
}
