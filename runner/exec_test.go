//go:build unix

package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// execHelper is set in the environment of the test binary run as a child:
// it then calls Exec with the Command it holds (JSON) and reports what Exec
// returned, which it does only when the exec failed.
const execHelper = "RUNNER_TEST_EXEC"

func TestMain(m *testing.M) {
	if spec := os.Getenv(execHelper); spec != "" {
		var c Command
		if err := json.Unmarshal([]byte(spec), &c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Unsetenv(execHelper)
		st := Exec(c, func() { fmt.Fprintf(os.Stderr, "before %d\n", os.Getpid()) })
		fmt.Fprintf(os.Stderr, "returned %v\n", st.StartErr)
		os.Exit(st.ExitCode())
	}
	os.Exit(m.Run())
}

// execCmd is the test binary, set to Exec c.
func execCmd(t *testing.T, c Command) *exec.Cmd {
	t.Helper()
	spec, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), execHelper+"="+string(spec))
	return cmd
}

// TestExec: the process becomes the command (same PID, the command's own
// exit status), or, when the command cannot run, Exec returns the status
// bash gives without having called before.
func TestExec(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "notexec")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		cmd    Command
		exit   int
		stdout string // with PID for the process's own PID
		stderr string // a substring
	}{
		{"argv", Command{Argv: []string{"sh", "-c", `echo "$$ $0 $1"; exit 7`, "zero", "one"}}, 7, "PID zero one\n", "before PID"},
		{"string", Command{Shell: `echo "$$ $0 $1"; exit 5`, ShellArgs: []string{"zero", "one"}}, 5, "PID zero one\n", "before PID"},
		{"shell name", Command{Shell: `echo "$0"`}, 0, filepath.Base(Shell()) + "\n", ""},
		{"errexit", Command{Shell: "false; echo not reached", Errexit: true}, 1, "", ""},
		{"login", Command{Shell: "shopt -q login_shell && echo login", Login: true}, 0, "login\n", ""},
		{"assignment wins", Command{Argv: []string{"sh", "-c", `echo "$X"`}, Env: []string{"X=command line"}}, 0, "command line\n", ""},
		{"not found", Command{Argv: []string{"no-such-command-xyz"}}, 127, "", "returned no-such-command-xyz: command not found"},
		{"not executable", Command{Argv: []string{notExec}}, 126, "", "returned " + notExec + ": permission denied"},
		{"directory", Command{Argv: []string{dir}}, 126, "", "is a directory"},
		{"empty word", Command{Argv: []string{""}}, 127, "", "command not found"},
		{"shell: not found", Command{Shell: "no-such-command-xyz"}, 127, "", "command not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cmd.Login && filepath.Base(Shell()) != "bash" {
				t.Skip("no bash")
			}
			cmd := execCmd(t, tt.cmd)
			cmd.Env = append(cmd.Env, "X=environment")
			var out, errb strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			pid := strconv.Itoa(cmd.Process.Pid)
			if code != tt.exit {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.exit, errb.String())
			}
			if want := strings.ReplaceAll(tt.stdout, "PID", pid); out.String() != want {
				t.Errorf("stdout %q, want %q", out.String(), want)
			}
			if want := strings.ReplaceAll(tt.stderr, "PID", pid); !strings.Contains(errb.String(), want) {
				t.Errorf("stderr %q, want it to hold %q", errb.String(), want)
			}
			if tt.cmd.Argv != nil && tt.exit >= 126 && strings.Contains(errb.String(), "before") {
				t.Errorf("before was called for a command that could not run: %q", errb.String())
			}
		})
	}
}

// TestExecSignal: a signal to shrinkrun's PID is a signal to the command,
// which dies of it as it would without shrinkrun.
func TestExecSignal(t *testing.T) {
	cmd := execCmd(t, Command{Argv: []string{"sh", "-c", "echo ready; exec sleep 30"}})
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("wait: %v; want killed by SIGTERM", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to die", d)
	}
}

func TestDedupEnv(t *testing.T) {
	got := dedupEnv([]string{"A=1", "B=2", "A=3", "C", "B=4"})
	if want := []string{"A=3", "B=4", "C"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("dedupEnv = %q, want %q", got, want)
	}
}
