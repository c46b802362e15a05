//go:build unix

package main

import (
	"bufio"
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

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	if asBash(os.Args[0]) {
		// The test binary linked as bash (bash_test.go).
		os.Exit(bashMain(os.Args, os.Stdin, os.Stdout, os.Stderr))
	}
	testscript.Main(m, map[string]func(){
		"shrinkrun": func() {
			if os.Getenv("SHRINKRUN_TEST_PROBE") == "1" {
				matcher = probeMatcher
			}
			os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
		"probe": probe,
	})
}

// TestScript runs the end-to-end scripts in testdata/script: real git
// repositories and real commands, built in each script's $WORK.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			home := filepath.Join(e.WorkDir, ".home")
			e.Setenv("HOME", home)
			e.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
			e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			e.Setenv("GIT_AUTHOR_NAME", "Shrink Run")
			e.Setenv("GIT_AUTHOR_EMAIL", "dev@shrinkrun.test")
			e.Setenv("GIT_AUTHOR_DATE", "2026-01-02T03:04:05Z")
			e.Setenv("GIT_COMMITTER_NAME", "Shrink Run")
			e.Setenv("GIT_COMMITTER_EMAIL", "dev@shrinkrun.test")
			e.Setenv("GIT_COMMITTER_DATE", "2026-01-02T03:04:05Z")
			e.Setenv("LC_ALL", "C")
			// cargo, rustup and go find their toolchains and caches through
			// HOME unless told otherwise; the scripts' HOME is a fresh
			// directory, and a fresh Go cache would rebuild the standard
			// library in every script that runs go.
			realHome := os.Getenv("HOME")
			goCache := os.Getenv("GOCACHE")
			if goCache == "" {
				if dir, err := os.UserCacheDir(); err == nil {
					goCache = filepath.Join(dir, "go-build")
				}
			}
			e.Setenv("GOCACHE", goCache)
			for k, def := range map[string]string{"GOMODCACHE": "go/pkg/mod", "GOPATH": "go"} {
				if v := os.Getenv(k); v != "" {
					e.Setenv(k, v)
				} else if realHome != "" {
					e.Setenv(k, filepath.Join(realHome, def))
				}
			}
			for k, def := range map[string]string{"CARGO_HOME": ".cargo", "RUSTUP_HOME": ".rustup"} {
				if v := os.Getenv(k); v != "" {
					e.Setenv(k, v)
				} else if realHome != "" {
					e.Setenv(k, filepath.Join(realHome, def))
				}
			}
			// The module's source, for the scripts that build shrinkrun as
			// a user would.
			src, err := filepath.Abs(filepath.Join("..", ".."))
			if err != nil {
				return err
			}
			e.Setenv("SRCROOT", src)
			return os.MkdirAll(home, 0o755)
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "slow":
				// Scripts that take tens of seconds (building shrinkrun
				// several times) run when asked, as .ci/run does.
				return os.Getenv("SHRINKRUN_SLOW_TESTS") == "1", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": cmdExitcode,
			"live":     cmdLive,
			"signal":   cmdSignal,
			"pty":      cmdPty,
			"killed":   cmdKilled,
		},
	})
}

// exitcode N PROG ARGS... runs PROG like exec and checks that it exits with
// exactly N; stdout and stderr are kept for cmp and stdout/stderr checks.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROG [ARG...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// command builds an exec.Cmd for a program in the script's environment, for
// the commands that must watch a process while it runs.
func command(ts *testscript.TestScript, args []string) *exec.Cmd {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Path = lookPath(ts, args[0])
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = os.Environ()
	for _, k := range []string{"PATH", "HOME", "WORK", "XDG_STATE_HOME", "LC_ALL", "GIT_CONFIG_NOSYSTEM"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	return cmd
}

// alive reports whether pid runs: it exists and is not a zombie waiting
// for an init that reaps slowly.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// waitFor waits up to 10s for path to exist and be non-empty.
func waitFor(ts *testscript.TestScript, path string) {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
			return
		}
	}
	ts.Fatalf("%s did not appear within 10s", path)
}

// lookPath finds name on the script's PATH, where the shrinkrun under test
// is installed.
func lookPath(ts *testscript.TestScript, name string) string {
	if strings.Contains(name, "/") {
		return ts.MkAbs(name)
	}
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	ts.Fatalf("%s not found on the script's PATH", name)
	return ""
}

// live PROG ARGS... starts PROG and checks that its first stdout line
// arrives while it is still running: pass-through must not buffer.
func cmdLive(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: live PROG [ARG...]")
	}
	cmd := command(ts, args)
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	exited := make(chan struct{})
	first := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(out).ReadString('\n')
		first <- l
	}()
	var line string
	select {
	case line = <-first:
	case <-time.After(10 * time.Second):
		ts.Fatalf("no first line within 10s")
	}
	go func() { cmd.Wait(); close(exited) }()
	select {
	case <-exited:
		ts.Fatalf("first line %q arrived only after the command exited", line)
	default:
	}
	ts.Logf("first line %q arrived while running", line)
	<-exited
}

// signal [-ready FILE] SIG N PROG ARGS... starts PROG, waits until it is
// running, sends SIG to PROG, and checks that it exits with status N (-1:
// killed by a signal) and leaves no process behind. "Running" is its first stdout line, or with
// -ready the existence of FILE, for children whose output is captured;
// FILE then lists PIDs (one per line) that must be gone afterwards.
func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	ready := ""
	if len(args) > 1 && args[0] == "-ready" {
		ready, args = ts.MkAbs(args[1]), args[2:]
	}
	if neg || len(args) < 3 {
		ts.Fatalf("usage: signal [-ready FILE] SIG N PROG [ARG...]")
	}
	sig := map[string]syscall.Signal{
		"INT": syscall.SIGINT, "TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP, "QUIT": syscall.SIGQUIT, "ABRT": syscall.SIGABRT,
		"USR1": syscall.SIGUSR1, "USR2": syscall.SIGUSR2, "ALRM": syscall.SIGALRM, "PIPE": syscall.SIGPIPE,
		"KILL": syscall.SIGKILL,
	}[args[0]]
	if sig == 0 {
		ts.Fatalf("signal: unknown signal %s", args[0])
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	cmd := command(ts, args[2:])
	// Its own process group, so the signal goes to shrinkrun alone (as when
	// an agent kills its tool process), and survivors can be found after.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	r := bufio.NewReader(out)
	if ready == "" {
		if _, err := r.ReadString('\n'); err != nil {
			ts.Fatalf("signal: no ready line: %v", err)
		}
	} else {
		waitFor(ts, ready)
	}
	ts.Check(cmd.Process.Signal(sig))
	done := make(chan error, 1)
	go func() {
		rest, _ := r.ReadString(0)
		ts.Logf("after signal: %q", rest)
		done <- cmd.Wait()
	}()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		ts.Fatalf("still running 10s after SIG%s", args[0])
	}
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("signal: %v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
	// No process of the group may outlive shrinkrun. A killed process
	// still has to be scheduled to die, which on a loaded machine takes a
	// while: each gets 3 s.
	if gone(func() bool { return syscall.Kill(-cmd.Process.Pid, 0) != nil }) != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		ts.Fatalf("processes of group %d outlived shrinkrun", cmd.Process.Pid)
	}
	if ready != "" {
		pids, _ := os.ReadFile(ready)
		for _, f := range strings.Fields(string(pids)) {
			pid, err := strconv.Atoi(f)
			if err == nil && gone(func() bool { return !alive(pid) }) != nil {
				syscall.Kill(pid, syscall.SIGKILL)
				ts.Fatalf("process %d outlived shrinkrun", pid)
			}
		}
	}
}

// gone waits up to 3 s for dead to report true, and says when it did not.
func gone(dead func() bool) error {
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if dead() {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("still alive")
		}
	}
}
