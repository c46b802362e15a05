package python

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// TestPythonFailures: what the python family's finder requires, and what
// it must never take for a failure.
func TestPythonFailures(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		failed bool
		want   []string
	}{
		{"passing run", "tests/t.py::test_a PASSED [ 50%]\n= 2 passed in 0.01s =\n", false, nil},
		{"zero failed is no failure", "0 failed, 3 passed in 0.01s\n", false, nil},
		{"short summary", "FAILED tests/t.py::test_a - assert 1 == 2\nERROR tests/t.py::test_b - RuntimeError: x\nERROR tests/test_import.py\n", true,
			[]string{"tests/t.py::test_a", "tests/t.py::test_b", "tests/test_import.py"}},
		{"parametrized id with a dash", "FAILED tests/t.py::test_l[a - b] - AssertionError: x\n", true, []string{"tests/t.py::test_l[a - b]"}},
		{"verbose", "tests/t.py::test_a FAILED                [ 50%]\ntests/t.py::test_b ERROR                [100%]\n", true,
			[]string{"tests/t.py::test_a", "tests/t.py::test_b"}},
		// Every E line of a section, and where its traceback ends with
		// the exception (issue 21); not the captured output.
		{"E lines and terminal locations of each section", strings.Join([]string{
			"=== FAILURES ===",
			"___ test_a ___",
			">       assert 1 == 2",
			"E       assert 1 == 2",
			"E         more",
			"tests/t.py:3: AssertionError",
			"___ test_b ___",
			"tests/t.py:9: ",
			"/usr/lib/python3.11/json/decoder.py:353: JSONDecodeError",
			"----- Captured stdout call -----",
			"E   printed by the test",
			"Traceback (most recent call last):",
			"ValueError: printed by the test too",
			"=== short test summary info ===",
		}, "\n"), true, []string{"E       assert 1 == 2", "E         more", "tests/t.py:3: AssertionError", "/usr/lib/python3.11/json/decoder.py:353: JSONDecodeError"}},
		{"a native traceback in a section", strings.Join([]string{
			"=== test session starts ===",
			"=== FAILURES ===",
			"___ test_a ___",
			"Traceback (most recent call last):",
			`  File "/x/t.py", line 3, in test_a`,
			"    ValueError: a line of source is no exception",
			"ValueError: bad",
		}, "\n"), true, []string{"Traceback (most recent call last):", "ValueError: bad"}},
		// The same lines without pytest's banner: not pytest's output, so no traceback is required of it.
		{"a traceback without pytest's banner", strings.Join([]string{
			"=== FAILURES ===",
			"___ test_a ___",
			"Traceback (most recent call last):",
			"ValueError: bad",
		}, "\n"), true, nil},
		// Python's own report before the session, in a passing run.
		{"an error before the session starts", strings.Join([]string{
			"Error processing line 1 of /u/lib/python3.11/site-packages/distutils-precedence.pth:",
			"",
			"  Traceback (most recent call last):",
			`    File "<frozen site>", line 192, in addpackage`,
			"  ModuleNotFoundError: No module named '_distutils_hack'",
			"",
			"Remainder of file ignored",
			"=== test session starts ===",
			"36 passed in 0.1s",
		}, "\n"), false, []string{"Error processing line 1 of /u/lib/python3.11/site-packages/distutils-precedence.pth:",
			"Traceback (most recent call last):", "ModuleNotFoundError: No module named '_distutils_hack'"}},
		// The same under -q, which prints no banner: its final line says pytest.
		{"an error before a -q session", strings.Join([]string{
			"Error processing line 1 of /u/lib/python3.11/site-packages/distutils-precedence.pth:",
			"  Traceback (most recent call last):",
			"  ModuleNotFoundError: No module named '_distutils_hack'",
			"....                                     [100%]",
			"4 passed in 0.04s",
		}, "\n"), false, []string{"Error processing line 1 of /u/lib/python3.11/site-packages/distutils-precedence.pth:",
			"Traceback (most recent call last):", "ModuleNotFoundError: No module named '_distutils_hack'"}},
		{"E lines outside failure sections", "=== warnings summary ===\n___ x ___\nE   no\n", true, nil},
		{"collection error", "=== ERRORS ===\n___ ERROR collecting tests/t.py ___\nE   ModuleNotFoundError: No module named 'x'\n", true,
			[]string{"E   ModuleNotFoundError: No module named 'x'"}},
		{"mypy errors, not notes", "a.py:3: error: bad  [misc]\na.py:3: note: see here\nb.pyi:1:2: error: worse\n", true,
			[]string{"a.py:3: error: bad  [misc]", "b.pyi:1:2: error: worse"}},
		{"not mypy", "src/main.rs:3:5: error: x\n", true, nil},
		{"pip errors", "ERROR: No matching distribution found for x\n", true, []string{"ERROR: No matching distribution found for x"}},
		{"pip error in a passing run", "ERROR: pip's dependency resolver does not currently take into account\n", false, nil},
		{"mypy fatal", "mypy: can't read file 'x.py': No such file or directory\n", true, []string{"mypy: can't read file 'x.py': No such file or directory"}},
		{"pip subprocess output", strings.Join([]string{
			"  ╰─> [3 lines of output]",
			"      cext.c:4:28: error: ‘x’ undeclared",
			"      cext.c:3:18: warning: unused",
			"      error: command 'gcc' failed with exit code 1",
			"      [end of output]",
			"  note: This error originates from a subprocess",
		}, "\n"), true, []string{"cext.c:4:28: error: ‘x’ undeclared", "error: command 'gcc' failed with exit code 1"}},
		{"cargo and go output", "test result: FAILED. 0 passed; 1 failed\n--- FAIL: TestX (0.00s)\nFAIL\tpkg\t0.01s\n", true, nil},
		{"cargo test -q", "edge_tests::parse_underscore --- FAILED\ntest tests::adds ... FAILED\n", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ruletest.CheckRequired(t, Finder, tt.failed, tt.in, "", tt.want)
		})
	}
}

func TestPyExcerpt(t *testing.T) {
	ls := []string{"a", "", "ERROR: one", "b", "c", "ERROR: two", "d", "e"}
	kept, lost := pyExcerpt(ls, isPyMustKeep, 1, 2)
	if strings.Join(kept, "|") != "ERROR: one|d|e" || lost != 4 {
		t.Errorf("tail excerpt = %q, %d", kept, lost)
	}
	kept, lost = pyExcerpt(ls, isPyMustKeep, 1, 0)
	if strings.Join(kept, "|") != "ERROR: one" || lost != 1 {
		t.Errorf("must-keep excerpt = %q, %d", kept, lost)
	}
	var tl tailLines
	for i := range 25 {
		tl.add(string(rune('a' + i)))
	}
	if strings.Join(tl.lines, "") != "pqrstuvwxy" || tl.lost != 15 {
		t.Errorf("tailLines = %q, %d", tl.lines, tl.lost)
	}
}
