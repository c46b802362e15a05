package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func sh(script string) Command { return Command{Shell: script} }

func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "notexec")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		cmd    Command
		exit   int
		exited bool
	}{
		{"zero", sh("true"), 0, true},
		{"code", sh("exit 3"), 3, true},
		{"cargo-like", sh("exit 101"), 101, true},
		{"signal", sh("kill -KILL $$"), 128 + 9, false},
		{"segv", sh("kill -SEGV $$"), 128 + 11, false},
		{"shell not found", sh("no-such-command-xyz"), 127, true},
		{"argv not found", Command{Argv: []string{"no-such-command-xyz"}}, 127, false},
		{"argv not executable", Command{Argv: []string{notExec}}, 126, false},
		{"argv", Command{Argv: []string{"sh", "-c", "exit 7"}}, 7, true},
		{"empty string", sh(""), 0, true},
		{"empty word", Command{Argv: []string{""}}, 127, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			st := Passthrough(tt.cmd, nil, &out, &errb)
			if st.ExitCode() != tt.exit || st.Exited != tt.exited {
				t.Errorf("passthrough: exit %d exited %v, want %d %v (%+v)", st.ExitCode(), st.Exited, tt.exit, tt.exited, st)
			}
			_, st = Capture(tt.cmd, Options{})
			if st.ExitCode() != tt.exit || st.Exited != tt.exited {
				t.Errorf("capture: exit %d exited %v, want %d %v", st.ExitCode(), st.Exited, tt.exit, tt.exited)
			}
		})
	}
}

// TestLookPath: argv[0] is found as execvp finds it, where Go's LookPath
// differs: in the PATH the command's assignments give it, and in "." or an
// empty PATH entry.
func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	for _, p := range []string{filepath.Join(bin, "tool"), filepath.Join(dir, "here")} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	noexec := filepath.Join(dir, "noexec")
	os.MkdirAll(noexec, 0o755)
	os.WriteFile(filepath.Join(noexec, "tool"), []byte("#!/bin/sh\n"), 0o644)
	t.Chdir(dir)
	t.Setenv("PATH", "/usr/bin:/bin")
	// Found but not executable: permission denied (126), not not found.
	if _, err := lookPath("tool", []string{"PATH=" + noexec}); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("a file on PATH that is not executable: %v, want permission denied", err)
	}
	if got, err := lookPath("tool", []string{"PATH=" + noexec + ":" + bin}); err != nil || got != filepath.Join(bin, "tool") {
		t.Errorf("an executable after one that is not: %q, %v", got, err)
	}
	tests := []struct {
		name string
		env  []string
		path string // "" when PATH is left alone
		want string // "" for not found
	}{
		{"tool", nil, "", ""},
		{"tool", []string{"PATH=" + bin}, "", filepath.Join(bin, "tool")},
		{"tool", []string{"PATH=/usr/bin", "PATH=bin"}, "", "bin/tool"},
		{"here", nil, "", ""},
		{"here", nil, "/usr/bin::/bin", "./here"},
		{"here", nil, "/usr/bin:.", "./here"},
		{"here", []string{"PATH=:/bin"}, "", "./here"},
		{"./here", nil, "", "./here"},
		{"", nil, "/usr/bin::.", ""},
	}
	for _, tt := range tests {
		if tt.path != "" {
			t.Setenv("PATH", tt.path)
		}
		got, err := lookPath(tt.name, tt.env)
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("lookPath(%q, %q) with PATH=%s = %q, %v; want %q", tt.name, tt.env, os.Getenv("PATH"), got, err, tt.want)
		}
		t.Setenv("PATH", "/usr/bin:/bin")
	}
}

// TestShellName: the shell's argv[0] is its name, as when a shell runs
// `bash -c`: it is $0 and begins bash's own messages.
func TestShellName(t *testing.T) {
	out, _ := Capture(sh(`echo "$0"`), Options{})
	if got, want := strings.TrimSpace(string(out.Stdout.Bytes())), filepath.Base(Shell()); got != want {
		t.Errorf("$0 = %q, want %q", got, want)
	}
}

func TestCaptureStreamsApart(t *testing.T) {
	out, st := Capture(sh(`echo out1; echo err1 >&2; printf out2; printf 'err\0two' >&2`), Options{})
	if st.ExitCode() != 0 {
		t.Fatal(st)
	}
	if got := string(out.Stdout.Bytes()); got != "out1\nout2" {
		t.Errorf("stdout %q", got)
	}
	if got := string(out.Stderr.Bytes()); got != "err1\nerr\x00two" {
		t.Errorf("stderr %q", got)
	}
}

func TestCaptureEnvAndArgs(t *testing.T) {
	out, _ := Capture(Command{Argv: []string{"sh", "-c", `printf '%s|%s' "$FOO" "$1"`, "x", "a b"}, Env: []string{"FOO=bar baz"}}, Options{})
	if got := string(out.Stdout.Bytes()); got != "bar baz|a b" {
		t.Errorf("got %q", got)
	}
	out, _ = Capture(Command{Shell: `printf '%s|%s' "$0" "$1"`, ShellArgs: []string{"zero", "one"}}, Options{})
	if got := string(out.Stdout.Bytes()); got != "zero|one" {
		t.Errorf("got %q", got)
	}
}

func TestCaptureStdin(t *testing.T) {
	out, _ := Capture(sh("cat"), Options{Stdin: strings.NewReader("from stdin\n")})
	if got := string(out.Stdout.Bytes()); got != "from stdin\n" {
		t.Errorf("got %q", got)
	}
}

func TestCaptureTruncates(t *testing.T) {
	var tee bytes.Buffer
	out, _ := Capture(sh(`i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done`), Options{Limit: 1000, StdoutTee: &tee})
	if !out.Stdout.Truncated() {
		t.Fatal("not truncated")
	}
	if out.Stdout.Total() != int64(tee.Len()) {
		t.Errorf("total %d, tee got %d", out.Stdout.Total(), tee.Len())
	}
	got := string(out.Stdout.Bytes())
	if !strings.HasPrefix(got, "line 0\n") || !strings.HasSuffix(got, "line 1999\n") {
		t.Errorf("capture lost an end: %q", got)
	}
}

// A background descendant that keeps stdout or stderr open must not keep
// shrinkrun waiting past DrainTimeout, and is reported whatever the child's
// exit status.
func TestCaptureHeldPipes(t *testing.T) {
	for _, code := range []int{0, 3} {
		for _, stream := range []string{"", " >&2"} {
			script := fmt.Sprintf("echo before%s; sleep 30 & exit %d", stream, code)
			t.Run(script, func(t *testing.T) {
				t.Parallel()
				start := time.Now()
				out, st := Capture(sh(script), Options{})
				if d := time.Since(start); d > DrainTimeout+5*time.Second {
					t.Errorf("took %v", d)
				}
				if !st.Held || st.ExitCode() != code {
					t.Errorf("status %+v", st)
				}
				if got := string(out.Stdout.Bytes()) + string(out.Stderr.Bytes()); got != "before\n" {
					t.Errorf("got %q", got)
				}
			})
		}
	}
}

// A child that exits with its output closed is not held, and its last
// bytes are all read.
func TestCaptureNotHeld(t *testing.T) {
	out, st := Capture(sh("seq 100000; echo done >&2; exit 3"), Options{})
	if st.Held || st.ExitCode() != 3 {
		t.Errorf("status %+v", st)
	}
	if !strings.HasSuffix(string(out.Stdout.Bytes()), "\n100000\n") || string(out.Stderr.Bytes()) != "done\n" {
		t.Errorf("lost output: %d bytes, stderr %q", out.Stdout.Total(), out.Stderr.Bytes())
	}
}

func TestCapturePTY(t *testing.T) {
	out, st := Capture(sh(`if [ -t 1 ]; then echo tty; else echo notty; fi; echo err >&2; exit 4`), Options{PTY: true})
	if st.ExitCode() != 4 {
		t.Errorf("exit %d", st.ExitCode())
	}
	if got := string(out.Stdout.Bytes()); got != "tty\r\nerr\r\n" {
		t.Errorf("got %q", got)
	}
}

// Under a pseudo-terminal the child writes to the terminal but reads the
// stdin it is given, as bash gives it (issue 21: a recognized command that
// tests isatty(0), rg with no path, searched the directory instead of the
// piped input). It reads to the end of its input, whether or not the input
// ends a line, and the input is not echoed into the capture.
func TestCapturePTYStdinNotTerminal(t *testing.T) {
	for _, stdin := range []io.Reader{strings.NewReader("piped\n"), nil} {
		out, st := Capture(sh(`if [ -t 0 ]; then echo stdin-tty; else echo stdin-notty; fi; if [ -t 1 ]; then echo stdout-tty; fi; cat`), Options{PTY: true, Stdin: stdin})
		want := "stdin-notty\r\nstdout-tty\r\n"
		if stdin != nil {
			want += "piped\r\n"
		}
		if got := string(out.Stdout.Bytes()); st.ExitCode() != 0 || got != want {
			t.Errorf("stdin %v: status %+v, got %q, want %q", stdin != nil, st, got, want)
		}
	}
}

// A child that reads its stdin to the end under a pseudo-terminal ends,
// whether or not the input ends a line (issue 14, item 8: it waited for an
// end of input on the terminal).
func TestCapturePTYStdin(t *testing.T) {
	tests := []struct {
		name  string
		stdin io.Reader
		want  string
	}{
		{"lines", strings.NewReader("one\ntwo\n"), "got one\r\ngot two\r\nend\r\n"},
		{"no final newline", strings.NewReader("one\ntwo"), "got one\r\ngot two\r\nend\r\n"},
		{"empty", strings.NewReader(""), "end\r\n"},
		{"none", nil, "end\r\n"},
	}
	script := `while IFS= read -r l || [ -n "$l" ]; do echo "got $l"; done; echo end`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			done := make(chan struct{})
			var out *Output
			var st Status
			go func() {
				defer close(done)
				out, st = Capture(sh(script), Options{PTY: true, Stdin: tt.stdin})
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the child never saw the end of its input")
			}
			if st.ExitCode() != 0 {
				t.Errorf("status %+v", st)
			}
			if got := string(out.Stdout.Bytes()); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSignalExitCode(t *testing.T) {
	st := Status{Signal: syscall.SIGINT}
	if st.ExitCode() != 130 {
		t.Errorf("got %d", st.ExitCode())
	}
}
