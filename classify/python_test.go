package classify

import (
	"strconv"
	"strings"
	"testing"
)

// pythonCases walks docs/classify.md (Python rules): what each python rule
// recognizes and what passes through, with the word the reason must point
// at.
var pythonCases = []struct {
	in   string
	want string
	at   int
}{
	{"pytest", Pytest, 0},
	{"pytest -q", Pytest, 0},
	{"pytest -v", Pytest, 0},
	{"pytest -vv -x", Pytest, 0},
	{"pytest -x tests/test_cart.py", Pytest, 0},
	{"pytest -k 'discount and not raises'", Pytest, 0},
	{"pytest -k -q", Pytest, 0},
	{"pytest -kq", Pytest, 0},
	{"pytest tests/test_cart.py::test_total", Pytest, 0},
	{"pytest 'tests/test_cart.py::test_labels[a - b]'", Pytest, 0},
	{"pytest --tb=short", Pytest, 0},
	{"pytest --tb line", Pytest, 0},
	{"pytest --tb=no -q", Pytest, 0},
	{"pytest -p no:cacheprovider", Pytest, 0},
	{"pytest -p xdist -n 4", Pytest, 0},
	{"pytest --junitxml=report.xml", Pytest, 0},
	{"pytest --color=no", Pytest, 0},
	{"pytest -rA", Pytest, 0},
	{"pytest -rN", Pytest, 0},
	{"pytest -q -v -q", Pytest, 0},
	{"pytest --verbosity=-1", Pytest, 0},
	{"pytest -s --lf --maxfail=3", Pytest, 0},
	{"pytest --continue-on-collection-errors", Pytest, 0},
	{"pytest -- -qq", Pytest, 0},
	{"python -m pytest", Pytest, 0},
	{"python3 -m pytest -q tests", Pytest, 0},
	{"PYTHONPATH=. python3 -m pytest -x 2>&1 | tail -40", Pytest, 0},
	{"pytest --help", "", 1},
	{"pytest -h", "", 1},
	{"pytest --version", "", 1},
	{"pytest -V", "", 1},
	{"pytest -xh", "", 1},
	{"pytest --collect-only", "", 1},
	{"pytest --co -q", "", 1},
	{"pytest --fixtures", "", 1},
	{"pytest --markers", "", 1},
	{"pytest --setup-plan", "", 1},
	{"pytest --pdb", "", 1},
	{"pytest -x --trace", "", 2},
	{"pytest --color=yes", "", 1},
	{"pytest --color yes", "", 1},
	{"pytest --tb=native", "", 1},
	{"pytest --tb native", "", 1},
	{"pytest -p no:terminal", "", 1},
	{"pytest -pno:terminal", "", 1},
	{"pytest --json-report", "", 1},
	{"pytest --json-report-file=r.json", "", 1},
	{"pytest -qq", "", 1},
	{"pytest -q -q", "", 2},
	{"pytest -q --quiet tests", "", 2},
	{"pytest --verbosity=-2", "", 1},
	{"pytest --verbosity=x", "", 1},
	{"python -m pytest --help", "", 3},
	{"python -B -m pytest", "", 1},
	{"python3 -mpytest", "", 1},
	{"python", "", 0},
	{"python -m", "", 1},
	{"python3 -m unittest", "", 2},
	{"python3 script.py", "", 1},

	{"mypy .", Mypy, 0},
	{"mypy src tests", Mypy, 0},
	{"mypy --strict src", Mypy, 0},
	{"mypy --show-column-numbers --show-error-codes src", Mypy, 0},
	{"mypy --no-pretty src", Mypy, 0},
	{"mypy --junit-xml r.xml src", Mypy, 0},
	{"mypy -p inventory", Mypy, 0},
	{"mypy -c 'x: int = 1'", Mypy, 0},
	{"python -m mypy src", Mypy, 0},
	{"python3 -m mypy --strict .", Mypy, 0},
	{"mypy --pretty src", "", 1},
	{"mypy --pre src", "", 1},
	{"mypy --show-error-context src", "", 1},
	{"mypy --show-error-c src", "", 1},
	{"mypy --output=json src", "", 1},
	{"mypy -O json src", "", 1},
	{"mypy --install-types --non-interactive", "", 1},
	{"mypy --help", "", 1},
	{"mypy -h", "", 1},
	{"mypy --version", "", 1},
	{"mypy -V", "", 1},
	{"python3 -m mypy --version", "", 3},

	{"pip install requests", PipInstall, 0},
	{"pip3 install -r requirements.txt", PipInstall, 0},
	{"pip install -e .", PipInstall, 0},
	{"pip install --no-index --find-links ../wheels shopapi", PipInstall, 0},
	{"pip install -q -U 'shopcore>=1.0'", PipInstall, 0},
	{"pip install --dry-run shopcore", PipInstall, 0},
	{"pip install --report report.json shopcore", PipInstall, 0},
	{"pip install --hash=sha256:00 shopcore", PipInstall, 0},
	{"python -m pip install shopcore", PipInstall, 0},
	{"python3 -m pip install --user shopcore", PipInstall, 0},
	{"pip install --help", "", 2},
	{"pip install -h", "", 2},
	{"pip install --version", "", 2},
	{"pip install --report - shopcore", "", 2},
	{"pip install --report=- shopcore", "", 2},
	{"pip install --rep - shopcore", "", 2},
	{"pip", "", 0},
	{"pip list", "", 1},
	{"pip uninstall shopcore", "", 1},
	{"pip -q install shopcore", "", 1},
	{"pip --disable-pip-version-check install x", "", 1},
	{"python3 -m pip list", "", 3},
	{"python3 -m pip3 install x", "", 2},
	{"python3 -m pip", "", 2},
}

func TestPythonRules(t *testing.T) {
	for _, c := range pythonCases {
		r := String(c.in)
		if r.Rule != c.want {
			t.Errorf("String(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
			continue
		}
		if r.Rule != "" {
			continue
		}
		// The reason points at the word at fault (the cases that pass
		// through are written with single spaces, no quotes and no
		// assignments).
		words := strings.Fields(c.in)
		col := 1
		for _, w := range words[:c.at] {
			col += len(w) + 1
		}
		if want := "1:" + strconv.Itoa(col); r.Pos != want {
			t.Errorf("String(%q): position %s (%s), want %s (word %d)", c.in, r.Pos, r.Explain(), want, c.at)
		}
	}
}

// TestPythonArgv: argv mode matches the same words the same way.
func TestPythonArgv(t *testing.T) {
	for _, c := range pythonCases {
		if strings.ContainsAny(c.in, "|>'") || strings.Contains(strings.Fields(c.in)[0], "=") {
			continue
		}
		if r := Argv(strings.Fields(c.in)); r.Rule != c.want {
			t.Errorf("Argv(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
		}
	}
}

func TestPythonRulesListed(t *testing.T) {
	for _, id := range []string{Pytest, Mypy, PipInstall} {
		found := false
		for _, r := range Rules {
			found = found || r == id
		}
		if !found {
			t.Errorf("%s is not in Rules", id)
		}
	}
}
