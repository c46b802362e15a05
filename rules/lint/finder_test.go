package lint

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// TestLintFailures: what the lint family's finder requires, and what it
// must never take for a failure.
func TestLintFailures(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		failed bool
		want   []string
	}{
		{"flake8 style findings", "a.py:1:80: E501 line too long (82 > 79 characters)\na.py:2:1: F401 'os' imported but unused\n", true, nil},
		{"flake8 errors", "./app/s.py:4:11: E999 SyntaxError: '(' was never closed\n./app/n.py:38:16: F821 undefined name 'x'\n./app/n.py:42:1: F706 'return' outside function\n./app/n.py:37:8: F632 use ==/!= to compare constant literals\n", true,
			[]string{"./app/s.py:4:11: E999 SyntaxError: '(' was never closed", "./app/n.py:38:16: F821 undefined name 'x'", "./app/n.py:42:1: F706 'return' outside function",
				"./app/n.py:37:8: F632 use ==/!= to compare constant literals"}},
		// Each undefined name is its own error, with its own message.
		{"flake8 several undefined names", "a.py:1:1: F821 undefined name 'x'\na.py:2:1: F821 undefined name 'y'\n", true,
			[]string{"a.py:1:1: F821 undefined name 'x'", "a.py:2:1: F821 undefined name 'y'"}},
		{"flake8 E902 in a passing pipe", "nosuch.py:0:1: E902 FileNotFoundError: [Errno 2] No such file\n", false, []string{"nosuch.py:0:1: E902 FileNotFoundError: [Errno 2] No such file"}},
		{"flake8 code without its blank", "a.py:1:1: E999\n", true, nil},
		{"pylint conventions and warnings", "a.py:5:8: C0103: Argument name \"a\" doesn't conform (invalid-name)\na.py:11:4: W0612: Unused variable 'r' (unused-variable)\n", true, nil},
		{"pylint errors and fatal", "app/n.py:38:15: E0602: Undefined variable 'd' (undefined-variable)\nnosuchmodule:1:0: F0001: No module named nosuchmodule (fatal)\n", true,
			[]string{"app/n.py:38:15: E0602: Undefined variable 'd' (undefined-variable)", "nosuchmodule:1:0: F0001: No module named nosuchmodule (fatal)"}},
		{"a path with a colon", "C:/x/a.py:3:1: E999 SyntaxError: invalid syntax\n", true, []string{"C:/x/a.py:3:1: E999 SyntaxError: invalid syntax"}},
		{"no column", "a.py:3: E999 SyntaxError\n", true, nil},
		{"E in a message", "note: E0602: not a finding\n", true, nil},
		{"mypy's error lines are the python family's", "a.py:3: error: Name \"x\" is not defined  [name-defined]\n", true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ruletest.CheckRequired(t, Finder, tc.failed, tc.in, "", tc.want)
		})
	}
}
