package cargo

import (
	"fmt"
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
