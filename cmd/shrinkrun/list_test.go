package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/rules"
)

// The differential tests of the -c form against bash: a list run part by
// part, a cd reproduced, a recognized command run without bash in between
// (shell.direct) must give what `bash -c` gives: the same argv, directory
// and environment for every command, the same output in the same order
// on each stream, the same exit status. (A recognized command's two
// streams are captured apart, so their interleaving is not compared.) Every command in
// the lists is probe, registered in TestMain: it prints its argv (as the
// kernel has it), its directory and its whole environment, then a line on
// stderr, and exits with the status an exit=N argument names. With the word
// rec, probe is a recognized command (probeMatcher), which shrinkrun runs
// captured; its rule is no rule of the table, so shrinkrun prints the raw
// output, stdout then stderr, as probe wrote it.

// probe is the program the differential tests run.
func probe() {
	cmdline, _ := os.ReadFile("/proc/self/cmdline")
	argv := strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")
	wd, _ := os.Getwd()
	fmt.Printf("argv %q\ncwd %s\n", argv, wd)
	env := os.Environ()
	slices.Sort(env)
	for _, kv := range env {
		fmt.Printf("env %q\n", kv)
	}
	fmt.Fprintf(os.Stderr, "stderr of %q\n", argv[1:])
	code := 0
	for _, a := range argv[1:] {
		if n, ok := strings.CutPrefix(a, "exit="); ok {
			code, _ = strconv.Atoi(n)
		}
	}
	os.Exit(code)
}

// probeMatcher recognizes probe with the word rec, under a rule no table
// has; every other command goes to the table.
func probeMatcher(argv []string) classify.Verdict {
	if filepath.Base(argv[0]) == "probe" && slices.Contains(argv, "rec") {
		return classify.Verdict{Rule: "bash.probe"}
	}
	return rules.Match(argv)
}

// listWorld is the directory the differential tests run in.
type listWorld struct {
	dir  string
	base []string // the environment both shells start with
}

func newListWorld(tb testing.TB) *listWorld {
	tb.Helper()
	dir := tb.TempDir()
	for _, d := range []string{"sub/deeper", "sub dir", "home/proj", "state", "noexec"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	for _, f := range []string{"a.c", "b.c", "sub/c.c", "file"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.Symlink("sub/deeper", filepath.Join(dir, "link")); err != nil {
		tb.Fatal(err)
	}
	probeDir := filepath.Dir(lookProbe(tb))
	return &listWorld{dir: dir, base: []string{
		"PATH=" + probeDir + ":/usr/bin:/bin",
		"HOME=" + filepath.Join(dir, "home"),
		"LC_ALL=C.UTF-8",
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"SHRINKRUN_HISTORY=0",
		"SHRINKRUN_TEST_PROBE=1",
	}}
}

// lookProbe finds the probe testscript installed on PATH.
func lookProbe(tb testing.TB) string {
	p, err := exec.LookPath("probe")
	if err != nil {
		tb.Fatalf("probe is not on PATH: %v", err)
	}
	return p
}

// run runs argv in the world with the environment, and returns its
// stdout, its stderr and its exit status.
func (w *listWorld) run(t *testing.T, env []string, argv ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = w.dir, env
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%q: %v", argv, err)
	}
	return "stdout:\n" + out.String() + "stderr:\n" + errs.String(), code
}

// compare runs src with bash and with shrinkrun in the world, with extra
// variables on top of its environment, and fails on any difference. flag
// is -c, or -ec for bash -e.
func (w *listWorld) compare(t *testing.T, flag, src string, extra ...string) {
	t.Helper()
	env := append(slices.Clone(w.base), extra...)
	want, wantCode := w.run(t, env, "bash", flag, src)
	got, gotCode := w.run(t, env, "shrinkrun", flag, src)
	if got != want || gotCode != wantCode {
		t.Fatalf("%s %q with %q:\nbash (%d):\n%s\nshrinkrun (%d):\n%s", flag, src, extra, wantCode, want, gotCode, got)
	}
}

// listCases are lists of the forms issue 23 names, each run by bash and by
// shrinkrun; they also seed FuzzList.
var listCases = []string{
	"probe rec a",
	"probe a",
	"probe rec a && probe rec b",
	"probe rec exit=1 && probe rec b",
	"probe rec exit=1 || probe rec b",
	"probe rec exit=1; probe rec b",
	"probe exit=2 && probe rec b || probe rec c; probe d exit=4",
	"probe rec a\nprobe b exit=3\n",
	"cd sub && probe rec a",
	"cd sub; probe rec a",
	"cd 'sub dir' && probe rec a && probe b",
	"cd link && probe rec a",
	"cd link/.. && probe rec a",
	"cd sub/deeper/../.. && probe rec a",
	"cd ~/proj && probe rec a",
	"cd / && probe rec a",
	"cd . && probe rec a",
	"cd sub && cd deeper && probe rec a",
	"cd missing && probe rec a",
	"cd missing; probe rec a",
	"cd missing || probe rec a",
	"cd file && probe rec a",
	"probe rec a && cd missing && probe rec b; probe rec c",
	"probe rec a && cd sub && probe rec b",
	"cd sub && probe rec *.c && cd .. && probe rec *.c",
	"cd sub && pwd && probe rec a",
	"probe rec a 2>&1 && probe rec b 2>/dev/null",
	"probe rec a | cat && probe rec b | tail -3",
	"A=1 probe rec a && B=2 probe rec b",
	"echo hi && probe rec a; true; false",
	"probe rec 'a b' \"c d\" && probe rec {x,y}",
	"cd sub && probe rec a && cd missing",
	"cd missing; cd sub && probe rec a",
	"cd missing || cd sub; probe rec a",
	"cd ./link && cd - && probe rec a",
	"cd $HOME && probe rec a",
	"cd link/../deeper; probe rec a",
}

// envCases are environments both shells start with, on top of the base.
var envCases = [][]string{
	nil,
	{"SHLVL=3"},
	{"SHLVL=007"},
	{"SHLVL=abc"},
	{"SHLVL=-1"},
	{"SHLVL=999"},
	{"PWD=/nonexistent"},
	{"OLDPWD=/"},
	{"OLDPWD=missing"},
	{"CDPATH=/tmp"},
	{"LC_ALL=xx_YY.UTF-8"},
	{"IFS=x"},
	{"BASH_FUNC_probe%%=() { echo function; }"},
	{"BASH_ENV=/dev/null"},
	{"T=1", "T2=x y"},
}

func TestListLikeBash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash: skipped under -short")
	}
	w := newListWorld(t)
	pwd := "PWD=" + w.dir
	for _, src := range listCases {
		for _, extra := range envCases {
			w.compare(t, "-c", src, extra...)
		}
		w.compare(t, "-c", src, pwd)
		w.compare(t, "-c", src, pwd, "SHLVL=2", "OLDPWD=sub")
		w.compare(t, "-ec", src)
	}
}

// FuzzList builds lists from the fuzzer's bytes: parts drawn from the
// forms above, joined by the four separators, in one of the environments.
func FuzzList(f *testing.F) {
	if testing.Short() {
		f.Skip("runs bash: skipped under -short")
	}
	for i := range listCases {
		f.Add([]byte{byte(i), 0, byte(i * 7), 1, byte(i * 3)})
	}
	w := newListWorld(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		src, extra := fuzzList(data)
		flag := "-c"
		if len(data) > 0 && data[0]&0x80 != 0 {
			flag = "-ec"
		}
		w.compare(t, flag, src, extra...)
	})
}

// fuzzParts are what FuzzList builds lists from.
var fuzzParts = []string{
	"probe rec a", "probe b", "probe rec exit=1", "probe exit=2", "probe rec 'x y' exit=3",
	"cd sub", "cd 'sub dir'", "cd link", "cd ..", "cd missing", "cd sub/..", "cd link/..",
	"cd ~", "cd .", "cd /", "cd file", "cd $HOME", "cd ./sub", "cd sub/deeper", "probe rec *.c", "A=1 probe rec", "probe rec 2>&1",
	"probe rec 2>/dev/null", "probe | cat", "probe rec | tail -3", "true", "false", "echo hi", "pwd",
}

func fuzzList(data []byte) (string, []string) {
	if len(data) == 0 {
		return "probe rec", nil
	}
	extra := envCases[int(data[0])%len(envCases)]
	var b strings.Builder
	seps := []string{" ; ", " && ", " || ", "\n"}
	// Bytes in pairs: a part, then the separator before the next one.
	for i := 1; i < len(data) && i < 13; i += 2 {
		if i > 1 {
			b.WriteString(seps[int(data[i-1])%len(seps)])
		}
		b.WriteString(fuzzParts[int(data[i])%len(fuzzParts)])
	}
	if b.Len() == 0 {
		b.WriteString("probe rec")
	}
	// What may follow the last command decides whether bash execs it.
	b.WriteString([]string{"", "", "\n", "\n\n", " # c", ";", " ;\n"}[len(data)%7])
	return b.String(), extra
}

// TestListPaths checks, with --explain, that the differential tests take
// the paths they are meant to hold to bash: parts run one by one, a cd
// reproduced or handed to bash, a recognized command run without bash.
func TestListPaths(t *testing.T) {
	w := newListWorld(t)
	for _, c := range []struct {
		src   string
		extra []string
		want  []string
	}{
		{"probe rec a", nil, []string{"runs probe without bash in between"}},
		{"probe rec a", []string{"SHLVL=999"}, []string{"rule bash.probe"}},
		{"cd sub && probe rec a", nil, []string{`part 1 of 2, "cd sub": into ` + w.dir + "/sub", "runs probe without bash"}},
		{"cd link/.. && probe rec a", nil, []string{"into " + w.dir + "\n"}},
		{"cd missing; probe rec a", nil, []string{"a cd bash runs itself"}},
		{"cd sub; probe rec a", []string{"CDPATH=/tmp"}, []string{"a cd bash runs itself"}},
		{"probe rec a && probe b", nil, []string{`part 2 of 2, "probe b": 1:16: not a recognized command; passing through`}},
		{"probe a && probe b", nil, []string{"a list in which no part is a command shrinkrun summarizes"}},
		{"probe rec a && probe b", []string{"BASH_ENV=/dev/null"}, []string{"a list with BASH_ENV set"}},
		{"probe rec a && probe b", []string{"BASH_FUNC_probe%%=() { :; }"}, []string{"a list calling probe, an exported function"}},
	} {
		env := append(slices.Clone(w.base), c.extra...)
		out, _ := w.run(t, env, "shrinkrun", "--explain", "-c", c.src)
		for _, s := range c.want {
			if !strings.Contains(out, s) {
				t.Errorf("%q with %q: no %q in\n%s", c.src, c.extra, s, out)
			}
		}
	}
}
