package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoBash: where PATH has no bash, a recognized command string passes
// through and says why, the argv form is still summarized, and doctor
// says that summaries of command strings are off.
func TestNoBash(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("needs git")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("needs sh")
	}
	bin := t.TempDir()
	for _, p := range []string{git, sh} {
		if err := os.Symlink(p, filepath.Join(bin, filepath.Base(p))); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	t.Setenv("SHRINKRUN_STATE_DIR", t.TempDir())
	t.Chdir(t.TempDir())
	if out, err := exec.Command(git, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}

	if why := summariesOff(false); why != "" {
		t.Errorf("argv form: summaries off without bash: %s", why)
	}
	var out, errb strings.Builder
	run([]string{"--explain", "-c", "git status"}, nil, &out, &errb)
	if want := "summaries are off on this system: no bash on PATH"; !strings.Contains(errb.String(), want) {
		t.Errorf("-c without bash: stderr %q, want %q", errb.String(), want)
	}
	if !strings.HasPrefix(out.String(), "On branch ") {
		t.Errorf("-c without bash: stdout %q, want git's own output", out.String())
	}
	out.Reset()
	errb.Reset()
	run([]string{"--explain", "--", "git", "status", "--short"}, nil, &out, &errb)
	if strings.Contains(errb.String(), "summaries are off") {
		t.Errorf("argv form without bash passed through: %s", errb.String())
	}
	out.Reset()
	run([]string{"doctor"}, nil, &out, &errb)
	if want := "summaries: off on this system, every command passes through: no bash on PATH"; !strings.Contains(out.String(), want) {
		t.Errorf("doctor says:\n%s\nwant a line %q", out.String(), want)
	}
}
