package rules_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The boundary check with every family's finder, on rules that fail it.

// empty is a rule that drops everything, failures included.
func empty(*summarize.Run) *summarize.Body { return &summarize.Body{} }

// fallbackLines reads a fallback body's failure lines and their count.
func fallbackLines(block []byte) (items []string, total int) {
	in := false
	for l := range strings.Lines(string(block)) {
		l = strings.TrimSuffix(l, "\n")
		switch {
		case strings.HasPrefix(l, "failure_lines: "):
			total, _ = strconv.Atoi(strings.TrimPrefix(l, "failure_lines: "))
		case l == "failures:":
			in = true
		case in && strings.HasPrefix(l, "- "):
			items = append(items, l[2:])
		default:
			in = false
		}
	}
	return items, total
}

// TestBrokenRuleFallsBack proves the check cannot be skipped: a rule that
// drops every failure gets replaced by the fallback body.
func TestBrokenRuleFallsBack(t *testing.T) {
	stderr, err := os.ReadFile(filepath.Join("cargo", "testdata", "cargo_check", "errors.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	broken := func(*summarize.Run) *summarize.Body {
		b := &summarize.Body{}
		b.Field("verdict", "all good")
		return b
	}
	r := &summarize.Run{Rule: "bash.test_broken", Command: "cargo check", Stderr: stderr, StderrBytes: int64(len(stderr)), ExitCode: 101, Exited: true}
	block, _ := summarize.Block(r, broken, rules.Finders())
	if !bytes.Contains(block, []byte("fallback: true\n")) || bytes.Contains(block, []byte("all good")) {
		t.Fatalf("fallback did not fire:\n%s", block)
	}
	for _, req := range ruletest.Required(r, rules.Finders()...) {
		if !bytes.Contains(block, []byte(req)) {
			t.Errorf("fallback lost %q", req)
		}
	}
}

// TestFallbackLinesOnce: the fallback lists every line a finder took once,
// in output order, and counts each once, however many finders took it
// (the rust finder and pip's both keep "error:" lines) and in whatever
// order they took it (a panic's message line that is an error line too,
// a -v reason taken at its test's result line).
func TestFallbackLinesOnce(t *testing.T) {
	for _, c := range []struct {
		name           string
		stdout, stderr string
		want           []string
	}{
		{"an error line two finders take",
			"error[E0425]: cannot find value `x`\n --> a.rs:3:13\nerror: aborting due to 2 previous errors\n",
			"error: test failed, to rerun pass `--test ui`\n",
			[]string{"error[E0425]: cannot find value `x`", " --> a.rs:3:13", "error: aborting due to 2 previous errors",
				"error: test failed, to rerun pass `--test ui`"}},
		{"a panic message that is an error line",
			"thread 'a' (1) panicked at src/a.rs:1:2:\nerror: boom\ntest a ... FAILED\n", "",
			[]string{"thread 'a' (1) panicked at src/a.rs:1:2:", "error: boom", "test a ... FAILED"}},
		{"a go reason taken at its result line",
			"=== RUN   TestA\n    a_test.go:3: bad\nerror: x\n--- FAIL: TestA (0.00s)\n", "",
			[]string{"    a_test.go:3: bad", "error: x", "--- FAIL: TestA (0.00s)"}},
		{"a colored line is listed as its plain text, in its place",
			"error: first\n\x1b[31m FAIL \x1b[39m src/a.test.ts > adds\nerror: last\n", "",
			[]string{"error: first", " FAIL  src/a.test.ts > adds", "error: last"}},
		{"the same text twice is two lines",
			"test a ... FAILED\ntest a ... FAILED\n", "",
			[]string{"test a ... FAILED", "test a ... FAILED"}},
	} {
		r := &summarize.Run{Stdout: []byte(c.stdout), Stderr: []byte(c.stderr), ExitCode: 1, Exited: true}
		block, _ := summarize.Block(r, empty, rules.Finders())
		items, total := fallbackLines(block)
		if !slices.Equal(items, c.want) || total != len(c.want) {
			t.Errorf("%s: fallback lines %q (%d), want %q", c.name, items, total, c.want)
		}
	}
}

// TestFallbackOnRealOutput: on real cargo test output where two finders
// take the same rustc and cargo error lines (cargo_test/ui_output: a test
// prints rustc's errors), a rule the check rejects falls back to each
// failure line once, in the output's order.
func TestFallbackOnRealOutput(t *testing.T) {
	dir := filepath.Join("cargo", "testdata", "cargo_test")
	stdout, err := os.ReadFile(filepath.Join(dir, "ui_output.stdout"))
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := os.ReadFile(filepath.Join(dir, "ui_output.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	r := &summarize.Run{Rule: "bash.test_broken", Command: "cargo test", Stdout: stdout, Stderr: stderr, ExitCode: 101, Exited: true}
	block, _ := summarize.Block(r, empty, rules.Finders())
	want := "fallback: true\nfailure_lines: 13\nfailures:\n" +
		"- test prints_test_result ... FAILED\n" +
		"- test ui_compile_fail ... FAILED\n" +
		"- test fake_name ... FAILED\n" +
		"- thread 'prints_test_result' (11318) panicked at tests/ui.rs:17:5:\n" +
		"- see above\n" +
		"- error[E0425]: cannot find value `undefined_var` in this scope\n" +
		"-  --> tests/ui/bad.rs:3:13\n" +
		"- error[E0308]: mismatched types\n" +
		"-  --> tests/ui/bad.rs:2:18\n" +
		"- error: aborting due to 2 previous errors\n" +
		"- thread 'ui_compile_fail' (11319) panicked at tests/ui.rs:10:5:\n" +
		"- ui test produced unexpected output\n" +
		"- error: test failed, to rerun pass `--test ui`\n"
	if !bytes.HasSuffix(block, []byte(want)) {
		t.Errorf("fallback body:\n%s\nwant it to end with\n%s", block, want)
	}
}
