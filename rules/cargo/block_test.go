package cargo_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/cargo"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The tests that need a whole block, or every family's finder, as
// rules.Block and rules.Finders() give them.

func TestGolden(t *testing.T) {
	ruletest.Golden(t, "testdata", rules.Block)
}

func TestCorpusProperties(t *testing.T) {
	ruletest.Properties(t, "testdata", rules.Block, rules.Finders())
}

// TestCorpusKeepsFailures: the check after every rule never needs the
// fallback on the cargo build and clippy corpus: the rules keep every
// failure line themselves.
func TestCorpusKeepsFailures(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		switch filepath.Base(c.Dir) {
		case "cargo_build", "cargo_clippy":
		default:
			continue
		}
		block := ruletest.MustBlock(t, rules.Block, c.Run)
		if strings.Contains(string(block), "\nfallback: true\n") {
			t.Errorf("%s: the rule's body lost a failure:\n%s", c.Name, block)
		}
	}
}

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
			r := &summarize.Run{Stdout: []byte(tt.stdout), Stderr: []byte(tt.stderr), ExitCode: 101, Exited: true}
			ruletest.EqualRequired(t, ruletest.Required(r, rules.Finders()...), tt.want)
		})
	}
}

// TestDeadBinaryInPassingRun: a start line without a result, or a stack
// overflow, is required only when the run failed, as a panic is.
func TestDeadBinaryInPassingRun(t *testing.T) {
	r := &summarize.Run{Stdout: []byte("running 1 test\ntest a ... "), Stderr: []byte("thread 'a' has overflowed its stack\n"), Exited: true}
	if req := ruletest.Required(r, rules.Finders()...); len(req) != 0 {
		t.Errorf("a passing run's dead test is required: %v", req)
	}
}

func TestPanicInPassingRun(t *testing.T) {
	r := &summarize.Run{Stderr: []byte("thread 'x' panicked at src/lib.rs:3:5:\nexpected\n"), Exited: true}
	if req := ruletest.Required(r, rules.Finders()...); len(req) != 0 {
		t.Errorf("a passing run's panic is required: %v", req)
	}
}

// Errors come first and list up to 50 diagnostics of a lint, warnings 10;
// the rest are counted in the item and in lint_diagnostics_omitted, which
// the boundary check accepts for the error locations left out.
func TestClippyGroups(t *testing.T) {
	var b strings.Builder
	for i := range 15 {
		b.WriteString(cargo.ClippyLint("warning", "unneeded `return` statement", "needless_return", 100+i, i == 0))
	}
	for i := range 60 {
		b.WriteString(cargo.ClippyLint("error", "approximate value of `f{32, 64}::consts::PI` found", "approx_constant", 200+i, false))
	}
	b.WriteString("error[E0425]: cannot find value `x` in this scope\n --> src/main.rs:3:5\n\n")
	b.WriteString("warning: `demo` (lib) generated 15 warnings\nerror: could not compile `demo` (lib) due to 61 previous errors; 15 warnings emitted\n")
	r := &summarize.Run{Rule: "bash.cargo_clippy", Command: "cargo clippy", Stderr: []byte(b.String()), ExitCode: 101, Exited: true}
	block := string(ruletest.MustBlock(t, rules.Block, r))
	for _, want := range []string{
		"warnings: 15\nerrors: 61\ncompiler_error_codes: E0425\n",
		"warning_summaries:\n- warning: `demo` (lib) generated 15 warnings\n",
		"diagnostics:\n- approx_constant\n  error: approximate value of `f{32, 64}::consts::PI` found\n    --> src/lib.rs:200:5\n",
		"    --> src/lib.rs:249:5\n  [10 more diagnostics not shown]\n- error[E0425]: cannot find value `x` in this scope\n   --> src/main.rs:3:5\n",
		"- clippy::needless_return\n  warning: unneeded `return` statement\n",
		"    --> src/lib.rs:109:5\n  [5 more diagnostics not shown]\nlint_diagnostics_omitted: 15\n",
	} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
	if strings.Contains(block, "fallback: true") {
		t.Errorf("the boundary check rejected the body:\n%s", block)
	}
}
