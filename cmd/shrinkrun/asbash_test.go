package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// bashLink makes the shell route's link: DIR/gemini/bash pointing at this
// test binary, which TestMain runs as bashMain under that name. It returns
// the link's directory.
func bashLink(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "gemini")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(dir, "bash")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shellRun is what one bash invocation did.
type shellRun struct {
	stdout, stderr string
	status         string // "exit N" or "signal S"
	pid            int
}

// runShell runs name (a path or "bash" found on PATH) with args in dir,
// with only the given environment.
func runShell(t *testing.T, dir, name string, args []string, stdin string, env []string) shellRun {
	t.Helper()
	cmd := exec.Command(name, args...)
	if !strings.Contains(name, "/") {
		// Found as execvp finds it, on the PATH given to the child, as a
		// client that spawns "bash" does.
		for _, kv := range env {
			if p, ok := strings.CutPrefix(kv, "PATH="); ok {
				for _, d := range filepath.SplitList(p) {
					if c := filepath.Join(d, name); isExecutable(c) {
						cmd.Path = c
						break
					}
				}
			}
		}
		cmd.Err = nil
	}
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := shellRun{stdout: out.String(), stderr: errb.String(), status: "exit 0"}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.status = "signal " + ws.Signal().String()
		} else {
			r.status = "exit " + strconv.Itoa(ee.ExitCode())
		}
	case err != nil:
		t.Fatalf("%s %q: %v", name, args, err)
	}
	if cmd.Process != nil {
		r.pid = cmd.Process.Pid
	}
	return r
}

// TestBashDifferential runs the same invocations with the real bash and
// with shrinkrun linked as bash first on PATH, as the shell route installs
// it, and requires the same stdout, stderr and exit status: everything
// shrinkrun does not summarize is bash's own, scripts, -c strings, flags,
// login shells, stdin, $0, PATH and the environment included.
func TestBashDifferential(t *testing.T) {
	realBash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	link := bashLink(t)
	work := t.TempDir()
	home := t.TempDir()
	script := filepath.Join(work, "script.sh")
	if err := os.WriteFile(script, []byte("echo \"script $0 $# $1 $2\"\nread -r line && echo \"stdin: $line\"\nexit 5\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", work).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	path := filepath.Dir(realBash) + string(filepath.ListSeparator) + os.Getenv("PATH")
	base := []string{"HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, "state"), "LANG=C", "LC_ALL=C", "TERM=dumb", "GIT_CONFIG_NOSYSTEM=1"}
	cases := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"dollar zero and args", []string{"-c", `echo "$0" "$#" "$@"`}, ""},
		{"positional parameters", []string{"-c", `echo "$0|$1|$2"`, "name", "a", "b c"}, ""},
		{"exit status", []string{"-c", "exit 7"}, ""},
		{"killed by a signal", []string{"-c", "kill -TERM $$"}, ""},
		{"not found", []string{"-c", "no-such-command-here"}, ""},
		{"syntax error", []string{"-c", "if then"}, ""},
		{"bash and PATH", []string{"-c", `echo "$BASH"; command -v bash; type -ap bash; echo "$PATH"`}, ""},
		{"environment", []string{"-c", "env | grep -v '^_=' | sort"}, ""},
		{"shell level", []string{"-c", `echo "$SHLVL $BASH_SUBSHELL"`}, ""},
		{"option flags", []string{"-c", `echo "$-"`}, ""},
		{"no rc files", []string{"--norc", "--noprofile", "-c", `echo "$-"; shopt login_shell`}, ""},
		{"login shell", []string{"-l", "-c", `shopt login_shell; echo "$0"`}, ""},
		{"login -lc", []string{"-lc", `shopt -q login_shell && echo login`}, ""},
		{"errexit", []string{"-e", "-c", "false; echo not reached"}, ""},
		{"xtrace", []string{"-x", "-c", "echo traced"}, ""},
		{"pipefail", []string{"-o", "pipefail", "-c", "false | true; echo $?"}, ""},
		{"shopt", []string{"-O", "extglob", "-c", "shopt extglob"}, ""},
		{"script", []string{script, "one", "two"}, "piped line\n"},
		{"script after --", []string{"--", script, "x"}, "l\n"},
		{"stdin commands", nil, "echo from stdin \"$0\"; exit 4\n"},
		{"-s with args", []string{"-s", "a", "b"}, "echo \"$1 $2 $#\"\n"},
		{"read from stdin", []string{"-c", `read -r x; echo "got $x"`}, "line one\n"},
		{"interactive -c", []string{"-i", "-c", `echo "$-" | tr -d 'sm'`}, ""},
		{"version", []string{"--version"}, ""},
		{"empty string", []string{"-c", ""}, ""},
		{"unknown option", []string{"--no-such-option"}, ""},
		// A command shrinkrun recognizes whose block would not be clearly
		// smaller: the raw output, as bash printed it.
		{"recognized, small", []string{"-c", "git status"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := runShell(t, work, "bash", tc.args, tc.stdin, append([]string{"PATH=" + path}, base...))
			got := runShell(t, work, "bash", tc.args, tc.stdin, append([]string{"PATH=" + link + string(filepath.ListSeparator) + path}, base...))
			if got.stdout != want.stdout || got.stderr != want.stderr || got.status != want.status {
				t.Errorf("bash %q\nreal bash: %s\nstdout: %q\nstderr: %q\nshrinkrun: %s\nstdout: %q\nstderr: %q",
					tc.args, want.status, want.stdout, want.stderr, got.status, got.stdout, got.stderr)
			}
			// Named by its path, as Gemini CLI, opencode and Copilot CLI
			// name the shell, $0 is the path of the bash that runs.
			byPath := runShell(t, work, filepath.Join(link, "bash"), tc.args, tc.stdin, append([]string{"PATH=" + path}, base...))
			wantPath := runShell(t, work, realBash, tc.args, tc.stdin, append([]string{"PATH=" + path}, base...))
			if byPath.stdout != wantPath.stdout || byPath.stderr != wantPath.stderr || byPath.status != wantPath.status {
				t.Errorf("%s %q\nreal bash: %s\nstdout: %q\nstderr: %q\nshrinkrun by path: %s\nstdout: %q\nstderr: %q",
					realBash, tc.args, wantPath.status, wantPath.stdout, wantPath.stderr, byPath.status, byPath.stdout, byPath.stderr)
			}
		})
	}
}

// TestBashIsExec checks that what shrinkrun neither summarizes nor relays
// is bash in shrinkrun's own process: $$ is the pid the client started. A
// login shell's command string (Copilot CLI's environment snapshot), a
// script on stdin, and any command string with the cut turned off.
func TestBashIsExec(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	link := bashLink(t)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	for _, c := range []struct {
		args  []string
		stdin string
		env   []string
	}{
		{args: []string{"-l", "-c", `echo $$`}},
		{args: []string{"-s"}, stdin: "echo $$\n"},
		{args: []string{"-c", `echo $$`}, env: []string{"SHRINKRUN_CUT=0"}},
	} {
		r := runShell(t, t.TempDir(), filepath.Join(link, "bash"), c.args, c.stdin, append(c.env, env...))
		if got := strings.TrimSpace(r.stdout); got != strconv.Itoa(r.pid) {
			t.Errorf("%q %v: $$ = %q, the started process was %d", c.args, c.env, got, r.pid)
		}
	}
}

// TestBashRelays checks that a command string no rule recognizes, whose
// output the client collects, runs through the relay: byte for byte below
// the limit, cut by shape past it, with the real bash's exit status, and
// killed by the signal that killed the real bash, as the client's own bash
// would have been.
func TestBashRelays(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	link := bashLink(t)
	home := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, "state"), "SHRINKRUN_CUT_LIMIT=20000"}
	bash := filepath.Join(link, "bash")
	small := runShell(t, t.TempDir(), bash, []string{"-c", "seq 1 3000"}, "", env)
	want := runShell(t, t.TempDir(), "/bin/bash", []string{"-c", "seq 1 3000"}, "", env)
	if small != (shellRun{stdout: want.stdout, stderr: want.stderr, status: want.status, pid: small.pid}) {
		t.Errorf("below the limit: %s, %d bytes, want %s, %d bytes", small.status, len(small.stdout), want.status, len(want.stdout))
	}
	big := runShell(t, t.TempDir(), bash, []string{"-c", "seq 1 30000; echo 'ERROR: the one that matters' >&2; exit 3"}, "", env)
	if big.status != "exit 3" || len(big.stdout)+len(big.stderr) > 20000 ||
		!strings.Contains(big.stdout, "[shrinkrun: output cut by shape from 30001 lines") ||
		!strings.Contains(big.stderr, "ERROR: the one that matters") {
		t.Errorf("past the limit: %s, stdout %d bytes:\n%s\nstderr: %q", big.status, len(big.stdout), big.stdout, big.stderr)
	}
	for _, sig := range []string{"TERM", "SEGV", "USR1"} {
		got := runShell(t, t.TempDir(), bash, []string{"-c", "kill -" + sig + " $$"}, "", env)
		want := runShell(t, t.TempDir(), "/bin/bash", []string{"-c", "kill -" + sig + " $$"}, "", env)
		if got.status != want.status {
			t.Errorf("kill -%s: %s, want %s as bash", sig, got.status, want.status)
		}
	}
}

// TestBashSummarizes checks the one thing shrinkrun as bash does besides
// being bash: a command string a rule recognizes, bare or inside Gemini
// CLI's wrapper, prints the block, and the exit status is the command's.
func TestBashSummarizes(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	link := bashLink(t)
	work := t.TempDir()
	home := t.TempDir()
	var script strings.Builder
	script.WriteString("git init -q && git config user.email e@x && git config user.name e && for i in $(seq 1 80); do echo \"line $i\" > f$i.txt; done && git add . && git commit -qm one")
	if out, err := exec.Command("bash", "-c", "cd "+work+" && "+script.String()).CombinedOutput(); err != nil {
		t.Skipf("git: %v %s", err, out)
	}
	for i := 1; i <= 80; i++ {
		os.WriteFile(filepath.Join(work, "f"+strconv.Itoa(i)+".txt"), []byte(strings.Repeat("changed line\n", 20)), 0o644)
	}
	env := []string{"PATH=" + link + string(filepath.ListSeparator) + os.Getenv("PATH"), "HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, "state"), "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C"}
	wrapped := "shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=" + filepath.Join(home, "bgpids") +
		"\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\ngit diff\n)\n__code=$?\nexit $__code"
	for _, args := range [][]string{
		{"-c", "git diff"},
		{"--norc", "--noprofile", "-c", "git diff"},
		{"-c", wrapped},
	} {
		r := runShell(t, work, "bash", args, "", env)
		if !strings.HasPrefix(r.stdout, "[tool_output_compression]\n") || !strings.Contains(r.stdout, "\ncommand: git diff\n") || r.status != "exit 0" {
			t.Errorf("bash %q: %s\n%s\nstderr: %s", args, r.status, r.stdout, r.stderr)
		}
	}
	// Not summarized: more than a command string, or summaries off.
	for _, tc := range []struct {
		args []string
		env  []string
	}{
		{[]string{"-x", "-c", "git diff"}, nil},
		{[]string{"-c", "git diff", "name"}, nil},
		{[]string{"-c", "git diff"}, []string{"SHRINKRUN_DISABLE=1"}},
	} {
		r := runShell(t, work, "bash", tc.args, "", append(append([]string{}, env...), tc.env...))
		if strings.Contains(r.stdout, "[tool_output_compression]") || !strings.Contains(r.stdout, "+changed line") {
			t.Errorf("bash %q %q was summarized:\n%.300s", tc.args, tc.env, r.stdout)
		}
	}
}
