package summarize

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFindFailures(t *testing.T) {
	tests := []struct {
		name   string
		stdout string
		stderr string
		want   []string
	}{
		{"nothing", "test result: ok. 3 passed; 0 failed; 0 ignored\n", "", nil},
		{"zero failed is no failure", "test result: FAILED. 0 passed; 0 failed\n", "", nil},
		{"failed test", "test a::b ... FAILED\ntest a::c ... ok\n", "", []string{"a::b"}},
		{"doc test", "test src/lib.rs - add (line 5) ... FAILED\n", "", []string{"src/lib.rs - add (line 5)"}},
		{"panic location", "thread 'a::b' (1234) panicked at src/lib.rs:37:9:\nassertion failed\n", "", []string{"src/lib.rs:37:9"}},
		{"old panic form", "thread 'a::b' panicked at src/lib.rs:7:5:\nboom\n", "", []string{"src/lib.rs:7:5"}},
		{"error with location", "", "error[E0425]: cannot find value `x`\n  --> src/main.rs:12:30\n   |\n", []string{"error[E0425]: cannot find value `x`", "src/main.rs:12:30"}},
		{"warning location is not required", "", "warning: unused import\n --> src/main.rs:4:5\n", nil},
		{"location after a warning that follows an error", "", "error: boom\nwarning: w\n --> src/a.rs:1:1\n", []string{"error: boom"}},
		{"git fatal", "", "fatal: bad revision 'nope'\n", []string{"fatal: bad revision 'nope'"}},
		{"should panic", "test tests::x - should panic ... FAILED\n", "", []string{"tests::x"}},
		{"invalid UTF-8 as the body shows it", "", "fatal: \xff\n", []string{"fatal: \uFFFD"}},
		{"a test its binary died in", "running 3 tests\ntest a ... ok\ntest b ... \nrunning 1 test\ntest c ... ok\n", "", []string{"b"}},
		{"a test its binary died in at the end", "running 2 tests\ntest a ... loading\nok\ntest b ... cannot read\n", "", []string{"b"}},
		{"tests that finished with --nocapture", "running 2 tests\ntest a ... loading\nok\ntest b ... ok\n\ntest result: ok. 2 passed; 0 failed\n", "", nil},
		{"a stack overflow", "", "\nthread 'tests::deep' (12) has overflowed its stack\nfatal runtime error: stack overflow, aborting\n", []string{"tests::deep"}},
		{"a stack overflow of an unnamed thread", "", "thread '<unnamed>' has overflowed its stack\nthread 'main' has overflowed its stack\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRequired(t, findFailures(&Run{Stdout: []byte(tt.stdout), Stderr: []byte(tt.stderr), ExitCode: 101, Exited: true}, familyFinders), tt.want)
		})
	}
}

// requiredBy runs one finder over streams (stdout, then stderr) as Block
// runs them, in a run that failed or passed.
func requiredBy(finder Finder, failed bool, streams ...string) *failures {
	r := &Run{Exited: true}
	if failed {
		r.ExitCode = 1
	}
	if len(streams) > 0 {
		r.Stdout = []byte(streams[0])
	}
	if len(streams) > 1 {
		r.Stderr = []byte(streams[1])
	}
	return findFailures(readable(r), []Finder{finder})
}

// checkRequired compares a finder's required strings, in any order, with
// want.
func checkRequired(t *testing.T, f *failures, want []string) {
	t.Helper()
	got := slices.Sorted(maps.Keys(f.required))
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("required = %q, want %q", got, want)
	}
}

// TestDeadBinaryInPassingRun: a start line without a result, or a stack
// overflow, is required only when the run failed, as a panic is.
func TestDeadBinaryInPassingRun(t *testing.T) {
	r := &Run{Stdout: []byte("running 1 test\ntest a ... "), Stderr: []byte("thread 'a' has overflowed its stack\n"), Exited: true}
	if f := findFailures(r, familyFinders); len(f.required) != 0 {
		t.Errorf("a passing run's dead test is required: %v", f.required)
	}
}

func TestPanicInPassingRun(t *testing.T) {
	r := &Run{Stderr: []byte("thread 'x' panicked at src/lib.rs:3:5:\nexpected\n"), Exited: true}
	if f := findFailures(r, familyFinders); len(f.required) != 0 {
		t.Errorf("a passing run's panic is required: %v", f.required)
	}
}

// TestBrokenRuleFallsBack proves the check cannot be skipped: a rule that
// drops every failure gets replaced by the fallback body.
func TestBrokenRuleFallsBack(t *testing.T) {
	stderr, err := os.ReadFile(filepath.Join(corpusDir, "cargo_check", "errors.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	familyRules["bash.test_broken"] = func(*Run) *Body {
		b := &Body{}
		b.Field("verdict", "all good")
		return b
	}
	defer delete(familyRules, "bash.test_broken")
	r := &Run{Rule: "bash.test_broken", Command: "cargo check", Stderr: stderr, StderrBytes: int64(len(stderr)), ExitCode: 101, Exited: true}
	block, _ := BlockOf(r)
	if !bytes.Contains(block, []byte("fallback: true\n")) || bytes.Contains(block, []byte("all good")) {
		t.Fatalf("fallback did not fire:\n%s", block)
	}
	for req := range findFailures(r, familyFinders).required {
		if !bytes.Contains(block, []byte(req)) {
			t.Errorf("fallback lost %q", req)
		}
	}
}

// TestCorpusProperties holds for every real output in the corpus, at the
// default budget and at tight ones: the block is valid UTF-8, within the
// budget unless only counts are left, accounts for every failure, and is
// the same bytes on every render.
func TestCorpusProperties(t *testing.T) {
	for _, c := range loadCorpus(t) {
		for _, budget := range []int{DefaultBudget, 4096, 1024} {
			r := *c.run
			r.Budget = budget
			r.RawOutput = "shrinkrun show 0123456789abcdef"
			block, _ := BlockOf(&r)
			again, _ := BlockOf(&r)
			if !bytes.Equal(block, again) {
				t.Errorf("%s@%d: not deterministic", c.name, budget)
			}
			if !utf8.Valid(block) {
				t.Errorf("%s@%d: invalid UTF-8", c.name, budget)
			}
			if len(block) > budget && strings.Contains(string(block), "\n- ") {
				t.Errorf("%s@%d: %d bytes with list items left", c.name, budget, len(block))
			}
			if missing, ok := accounted(findFailures(readable(&r), familyFinders), block); !ok {
				t.Errorf("%s@%d: %d failures neither shown nor counted", c.name, budget, missing)
			}
		}
	}
}

func TestLibtestLines(t *testing.T) {
	for _, tt := range []struct {
		line, want string
		ok         bool
	}{
		{"thread 'a::b' (1234) panicked at src/lib.rs:37:9:", "src/lib.rs:37:9", true},
		{"thread 'a::b' panicked at src/lib.rs:7:5:", "src/lib.rs:7:5", true},
		{"thread 'main' panicked at 'boom', src/main.rs:2:5", "", false},
		{"thread 'x' (1) panicked at", "", false},
	} {
		got, ok := panicLocation(tt.line)
		if got != tt.want && tt.ok || ok != tt.ok {
			t.Errorf("panicLocation(%q) = %q, %v", tt.line, got, ok)
		}
	}
	for _, tt := range []struct{ line, want string }{
		{"test a::b ... FAILED", "a::b"},
		{"test a::b - should panic ... FAILED", "a::b"},
		{"test src/lib.rs - add (line 5) ... FAILED", "src/lib.rs - add (line 5)"},
		{"test result: FAILED. 0 passed; 1 failed", ""},
	} {
		if got, _ := libtestFailed(tt.line); got != tt.want {
			t.Errorf("libtestFailed(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestDiagnostic(t *testing.T) {
	for _, tt := range []struct {
		line, level, code, text string
		ok                      bool
	}{
		{"error[E0425]: cannot find value", "error", "E0425", "cannot find value", true},
		{"error: could not compile `demo`", "error", "", "could not compile `demo`", true},
		{"warning: unused import", "warning", "", "unused import", true},
		{"fatal: bad revision 'x'", "fatal", "", "bad revision 'x'", true},
		{"error[E0425]:  two spaces", "error", "E0425", "", true},
		{"error[clippy::x]: lint", "", "", "", false},
		{"errors: 3", "", "", "", false},
		{"error", "", "", "", false},
		{"help: try this", "help", "", "try this", true},
	} {
		level, code, text, ok := diagnostic(tt.line)
		if level != tt.level || code != tt.code || text != tt.text || ok != tt.ok {
			t.Errorf("diagnostic(%q) = %q %q %q %v", tt.line, level, code, text, ok)
		}
	}
}

// TestPanickingRule: a rule that panics gives no block, so the caller
// prints the raw output; the process never dies on a rule's bug.
func TestPanickingRule(t *testing.T) {
	familyRules["bash.test_panic"] = func(*Run) *Body { panic("bug") }
	defer delete(familyRules, "bash.test_panic")
	if block, ok := BlockOf(&Run{Rule: "bash.test_panic", Stdout: []byte("x\n")}); ok || block != nil {
		t.Fatalf("got %q, %v", block, ok)
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
		r := &Run{Stdout: []byte(c.stdout), Stderr: []byte(c.stderr), ExitCode: 1, Exited: true}
		lines := findFailures(readable(r), familyFinders).fallbackLines()
		if !slices.Equal(lines.Items, c.want) || lines.Total != len(c.want) {
			t.Errorf("%s: fallback lines %q (%d), want %q", c.name, lines.Items, lines.Total, c.want)
		}
	}
}

// TestFallbackOnRealOutput: on real cargo test output where two finders
// take the same rustc and cargo error lines (cargo_test/ui_output: a test
// prints rustc's errors), a rule the check rejects falls back to each
// failure line once, in the output's order.
func TestFallbackOnRealOutput(t *testing.T) {
	dir := filepath.Join(corpusDir, "cargo_test")
	stdout, err := os.ReadFile(filepath.Join(dir, "ui_output.stdout"))
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := os.ReadFile(filepath.Join(dir, "ui_output.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	familyRules["bash.test_broken"] = func(*Run) *Body { return &Body{} }
	defer delete(familyRules, "bash.test_broken")
	r := &Run{Rule: "bash.test_broken", Command: "cargo test", Stdout: stdout, Stderr: stderr, ExitCode: 101, Exited: true}
	block, _ := BlockOf(r)
	want := "fallback: true\nfailure_lines: 13\nfailures:\n" +
		"- test prints_test_result ... FAILED\n" +
		"- test ui_compile_fail ... FAILED\n" +
		"- test fake_name ... FAILED\n" +
		"- thread 'prints_test_result' (23540) panicked at tests/ui.rs:17:5:\n" +
		"- see above\n" +
		"- error[E0425]: cannot find value `undefined_var` in this scope\n" +
		"-  --> tests/ui/bad.rs:3:13\n" +
		"- error[E0308]: mismatched types\n" +
		"-  --> tests/ui/bad.rs:2:18\n" +
		"- error: aborting due to 2 previous errors\n" +
		"- thread 'ui_compile_fail' (23541) panicked at tests/ui.rs:10:5:\n" +
		"- ui test produced unexpected output\n" +
		"- error: test failed, to rerun pass `--test ui`\n"
	if !bytes.HasSuffix(block, []byte(want)) {
		t.Errorf("fallback body:\n%s\nwant it to end with\n%s", block, want)
	}
}
