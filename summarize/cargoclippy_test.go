package summarize

import (
	"fmt"
	"strings"
	"testing"
)

func TestLintName(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_return", "needless_return"},
		{"   = note: `#[warn(clippy::needless_return)]` on by default", "clippy::needless_return"},
		{"   = note: `#[warn(unused_variables)]` (part of `#[warn(unused)]`) on by default", "unused_variables"},
		{"   = help: to override `-D warnings` add `#[allow(clippy::ptr_arg)]`", "clippy::ptr_arg"},
		{"   = note: `-D clippy::needless-return` implied by `-D warnings`", ""},
		{"  = help: for further information visit https://doc.rust-lang.org/book/", ""},
		{"1 | #![deny(clippy::approx_constant)]", ""},
		{"   = note: `#[warn(a, b)]` on by default", ""},
		{"warning: unneeded `return` statement", ""},
	} {
		if got := lintName(tt.in); got != tt.want {
			t.Errorf("lintName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// clippyLint is one clippy diagnostic as printed, the first of its lint
// with the level note.
func clippyLint(level, msg, lint string, line int, first bool) string {
	s := fmt.Sprintf("%s: %s\n  --> src/lib.rs:%d:5\n   |\n   = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#%s\n", level, msg, line, lint)
	if first {
		s += fmt.Sprintf("   = note: `#[%s(clippy::%s)]` on by default\n", map[string]string{"warning": "warn", "error": "deny"}[level], lint)
	}
	return s + "\n"
}

// Errors come first and list up to 50 diagnostics of a lint, warnings 10;
// the rest are counted in the item and in lint_diagnostics_omitted, which
// the boundary check accepts for the error locations left out.
func TestClippyGroups(t *testing.T) {
	var b strings.Builder
	for i := range 15 {
		b.WriteString(clippyLint("warning", "unneeded `return` statement", "needless_return", 100+i, i == 0))
	}
	for i := range 60 {
		b.WriteString(clippyLint("error", "approximate value of `f{32, 64}::consts::PI` found", "approx_constant", 200+i, false))
	}
	b.WriteString("error[E0425]: cannot find value `x` in this scope\n --> src/main.rs:3:5\n\n")
	b.WriteString("warning: `demo` (lib) generated 15 warnings\nerror: could not compile `demo` (lib) due to 61 previous errors; 15 warnings emitted\n")
	r := &Run{Rule: "bash.cargo_clippy", Command: "cargo clippy", Stderr: []byte(b.String()), ExitCode: 101, Exited: true}
	block := string(mustBlock(t, r))
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
