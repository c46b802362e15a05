package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args  []string
		words []string
		shell bool
		login bool
		err   string
	}{
		{args: []string{"git", "status", "--short"}, words: []string{"git", "status", "--short"}},
		{args: []string{"--", "git", "--raw"}, words: []string{"git", "--raw"}},
		{args: []string{"--raw", "git", "-c", "x"}, words: []string{"git", "-c", "x"}},
		{args: []string{"-c", "git status"}, words: []string{"git status"}, shell: true},
		{args: []string{"-lc", "git status"}, words: []string{"git status"}, shell: true, login: true},
		{args: []string{"-c", "-l", "git status"}, words: []string{"git status"}, shell: true, login: true},
		{args: []string{"-ec", "git status"}, words: []string{"git status"}, shell: true},
		{args: []string{"-c", "echo $0", "zero"}, words: []string{"echo $0", "zero"}, shell: true},
		{args: []string{"--budget", "10"}, err: "--budget must be at least 512 bytes"},
		{args: []string{"--capture-limit", "1"}, err: "--capture-limit must be at least 1024 bytes"},
		{args: []string{"--nope"}, err: "unknown flag: --nope"},
	}
	for _, tt := range tests {
		o, words, err := parseArgs(tt.args)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: err %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(words, tt.words) || o.shell != tt.shell || o.login != tt.login {
			t.Errorf("%q: got %q shell=%v login=%v err=%v", tt.args, words, o.shell, o.login, err)
		}
	}
}

func TestQuoteArgv(t *testing.T) {
	got := quoteArgv([]string{"git", "log", "--grep", "a b", "it's", "|"})
	want := `git log --grep 'a b' "it's" '|'`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestSplitAssigns(t *testing.T) {
	a, argv := classify.SplitAssigns([]string{"A=1", "B_2=x=y", "cargo", "C=3"})
	if !slices.Equal(a, []string{"A=1", "B_2=x=y"}) || !slices.Equal(argv, []string{"cargo", "C=3"}) {
		t.Errorf("got %q %q", a, argv)
	}
	a, _ = classify.SplitAssigns([]string{"1A=1", "x"})
	if len(a) != 0 {
		t.Errorf("1A=1 is not an assignment: %q", a)
	}
}

func TestRunWithBuffers(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"--", "sh", "-c", "echo out; echo err >&2; exit 5"}, strings.NewReader(""), &out, &errb)
	if code != 5 || out.String() != "out\n" || errb.String() != "err\n" {
		t.Errorf("code %d out %q err %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"--version"}, nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "shrinkrun ") {
		t.Errorf("--version: %d %q", code, out.String())
	}
}

// TestOutputs: what curated prints, for each combination of a block, its
// worth, a capture that lost its middle and a stored copy.
func TestOutputs(t *testing.T) {
	for _, c := range []struct {
		ok, worth, truncated, stored bool
		want                         []output
	}{
		{true, true, false, true, []output{theBlock}},
		{true, true, true, false, []output{theBlock}},
		{true, false, false, true, []output{captured}},
		{false, false, false, true, []output{captured}},
		{true, false, true, true, []output{storedCopy, theBlock}},
		{false, false, true, true, []output{storedCopy, captured}},
		{true, false, true, false, []output{theBlock}},
		{false, false, true, false, []output{captured}},
	} {
		if got := outputs(c.ok, c.worth, c.truncated, c.stored); !slices.Equal(got, c.want) {
			t.Errorf("outputs(ok %v, worth %v, truncated %v, stored %v) = %v, want %v", c.ok, c.worth, c.truncated, c.stored, got, c.want)
		}
	}
}
