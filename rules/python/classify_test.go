package python_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// pythonCases walks docs/classify.md (Python rules): what each python rule
// recognizes and what passes through, with the word the reason must point
// at.
var pythonCases = []ruletest.FamilyCase{
	{In: "pytest", Want: Pytest, At: 0},
	{In: "pytest -q", Want: Pytest, At: 0},
	{In: "pytest -v", Want: Pytest, At: 0},
	{In: "pytest -vv -x", Want: Pytest, At: 0},
	{In: "pytest -x tests/test_cart.py", Want: Pytest, At: 0},
	{In: "pytest -k 'discount and not raises'", Want: Pytest, At: 0},
	{In: "pytest -k -q", Want: Pytest, At: 0},
	{In: "pytest -kq", Want: Pytest, At: 0},
	{In: "pytest tests/test_cart.py::test_total", Want: Pytest, At: 0},
	{In: "pytest 'tests/test_cart.py::test_labels[a - b]'", Want: Pytest, At: 0},
	{In: "pytest --tb=short", Want: Pytest, At: 0},
	{In: "pytest --tb line", Want: Pytest, At: 0},
	{In: "pytest --tb=no -q", Want: Pytest, At: 0},
	{In: "pytest -p no:cacheprovider", Want: Pytest, At: 0},
	{In: "pytest -p xdist -n 4", Want: Pytest, At: 0},
	{In: "pytest --junitxml=report.xml", Want: Pytest, At: 0},
	{In: "pytest --color=no", Want: Pytest, At: 0},
	{In: "pytest -rA", Want: Pytest, At: 0},
	{In: "pytest -rN", Want: Pytest, At: 0},
	{In: "pytest -q -v -q", Want: Pytest, At: 0},
	{In: "pytest --verbosity=-1", Want: Pytest, At: 0},
	{In: "pytest -s --lf --maxfail=3", Want: Pytest, At: 0},
	{In: "pytest --continue-on-collection-errors", Want: Pytest, At: 0},
	{In: "pytest -- -qq", Want: Pytest, At: 0},
	{In: "python -m pytest", Want: Pytest, At: 0},
	{In: "python3 -m pytest -q tests", Want: Pytest, At: 0},
	{In: "PYTHONPATH=. python3 -m pytest -x 2>&1 | tail -40", Want: Pytest, At: 0},
	{In: "pytest --help", Want: "", At: 1},
	{In: "pytest -h", Want: "", At: 1},
	{In: "pytest --version", Want: "", At: 1},
	{In: "pytest -V", Want: "", At: 1},
	{In: "pytest -xh", Want: "", At: 1},
	{In: "pytest --collect-only", Want: "", At: 1},
	{In: "pytest --co -q", Want: "", At: 1},
	{In: "pytest --fixtures", Want: "", At: 1},
	{In: "pytest --markers", Want: "", At: 1},
	{In: "pytest --setup-plan", Want: "", At: 1},
	{In: "pytest --setup-only", Want: "", At: 1},
	{In: "pytest --collectonly", Want: "", At: 1},
	{In: "pytest --collect-o", Want: "", At: 1},
	{In: "pytest --setup-p", Want: "", At: 1},
	{In: "pytest -x --fixtures-per", Want: "", At: 2},
	{In: "pytest --setup-show", Want: Pytest, At: 0},
	{In: "pytest --full-trace", Want: Pytest, At: 0},
	{In: "pytest -o addopts=--co", Want: "", At: 1},
	{In: "pytest -oaddopts=--co", Want: "", At: 1},
	{In: "pytest -x -o 'addopts=-q --tb=native'", Want: "", At: 2},
	{In: "pytest --override-ini=addopts=--collect-only", Want: "", At: 1},
	{In: "pytest --override-ini addopts=--co", Want: "", At: 1},
	{In: "pytest -q -o addopts=-q", Want: "", At: 2},
	{In: `pytest -o "addopts='--co"`, Want: "", At: 1},
	{In: "pytest -o addopts=-v -qq", Want: Pytest, At: 0},
	{In: "pytest -o addopts=-x -o junit_family=xunit1", Want: Pytest, At: 0},
	{In: "pytest -o 'addopts=-p no:cacheprovider' -q", Want: Pytest, At: 0},
	{In: "pytest --pdb", Want: "", At: 1},
	{In: "pytest -x --trace", Want: "", At: 2},
	{In: "pytest --color=yes", Want: "", At: 1},
	{In: "pytest --color yes", Want: "", At: 1},
	{In: "pytest --tb=native", Want: "", At: 1},
	{In: "pytest --tb native", Want: "", At: 1},
	{In: "pytest -p no:terminal", Want: "", At: 1},
	{In: "pytest -pno:terminal", Want: "", At: 1},
	{In: "pytest --json-report", Want: "", At: 1},
	{In: "pytest --json-report-file=r.json", Want: "", At: 1},
	{In: "pytest -qq", Want: "", At: 1},
	{In: "pytest -q -q", Want: "", At: 2},
	{In: "pytest -q --quiet tests", Want: "", At: 2},
	{In: "pytest --verbosity=-2", Want: "", At: 1},
	{In: "pytest --verbosity=x", Want: "", At: 1},
	{In: "python -m pytest --help", Want: "", At: 3},
	{In: "python -B -m pytest", Want: "", At: 1},
	{In: "python3 -mpytest", Want: "", At: 1},
	{In: "python", Want: "", At: 0},
	{In: "python -m", Want: "", At: 1},
	{In: "python3 -m unittest", Want: Unittest, At: 0},
	{In: "python -m unittest -v", Want: Unittest, At: 0},
	{In: "python3 -m unittest discover -s tests -p 'test_*.py'", Want: Unittest, At: 0},
	{In: "python3 -m unittest tests.test_cart.CartTest.test_total -f -b", Want: Unittest, At: 0},
	{In: "python3 -m unittest -k discount --locals 2>&1 | tail -30", Want: Unittest, At: 0},
	{In: "DJANGO_SETTINGS_MODULE=site.test python3 -m unittest", Want: Unittest, At: 0},
	{In: "python3 -m unittest -h", Want: "", At: 3},
	{In: "python3 -m unittest --help", Want: "", At: 3},
	{In: "python3 -m unittest discover --he", Want: "", At: 4},
	{In: "python manage.py test", Want: Unittest, At: 0},
	{In: "python3 manage.py test polls.tests.QuestionTests -v 2", Want: Unittest, At: 0},
	{In: "./manage.py test --parallel 4 --keepdb", Want: Unittest, At: 0},
	{In: "python3 -m django test --settings=site.settings", Want: Unittest, At: 0},
	{In: "python3 manage.py test --pdb", Want: "", At: 3},
	{In: "python3 manage.py test --testrunner=xmlrunner.extra.djangotestrunner.XMLTestRunner", Want: "", At: 3},
	{In: "python3 manage.py test --test", Want: "", At: 3},
	{In: "./manage.py test -h", Want: "", At: 2},
	{In: "python3 manage.py runserver", Want: "", At: 1},
	{In: "./manage.py migrate", Want: "", At: 1},
	{In: "python3 -m django runserver", Want: "", At: 2},
	{In: "python3 runtests.py", Want: "", At: 1},
	{In: "./tests/runtests.py forms", Want: "", At: 0},
	{In: "python3 script.py", Want: "", At: 1},

	{In: "mypy .", Want: Mypy, At: 0},
	{In: "mypy src tests", Want: Mypy, At: 0},
	{In: "mypy --strict src", Want: Mypy, At: 0},
	{In: "mypy --show-column-numbers --show-error-codes src", Want: Mypy, At: 0},
	{In: "mypy --no-pretty src", Want: Mypy, At: 0},
	{In: "mypy --junit-xml r.xml src", Want: Mypy, At: 0},
	{In: "mypy -p inventory", Want: Mypy, At: 0},
	{In: "mypy -c 'x: int = 1'", Want: Mypy, At: 0},
	{In: "python -m mypy src", Want: Mypy, At: 0},
	{In: "python3 -m mypy --strict .", Want: Mypy, At: 0},
	{In: "mypy --pretty src", Want: "", At: 1},
	{In: "mypy --pre src", Want: "", At: 1},
	{In: "mypy --show-error-context src", Want: "", At: 1},
	{In: "mypy --show-error-c src", Want: "", At: 1},
	{In: "mypy --output=json src", Want: "", At: 1},
	{In: "mypy -O json src", Want: "", At: 1},
	{In: "mypy --install-types --non-interactive", Want: "", At: 1},
	{In: "mypy --help", Want: "", At: 1},
	{In: "mypy -h", Want: "", At: 1},
	{In: "mypy --version", Want: "", At: 1},
	{In: "mypy -V", Want: "", At: 1},
	{In: "python3 -m mypy --version", Want: "", At: 3},

	{In: "pip install requests", Want: PipInstall, At: 0},
	{In: "pip3 install -r requirements.txt", Want: PipInstall, At: 0},
	{In: "pip install -e .", Want: PipInstall, At: 0},
	{In: "pip install --no-index --find-links ../wheels shopapi", Want: PipInstall, At: 0},
	{In: "pip install -q -U 'shopcore>=1.0'", Want: PipInstall, At: 0},
	{In: "pip install --dry-run shopcore", Want: PipInstall, At: 0},
	{In: "pip install --report report.json shopcore", Want: PipInstall, At: 0},
	{In: "pip install --hash=sha256:00 shopcore", Want: PipInstall, At: 0},
	{In: "python -m pip install shopcore", Want: PipInstall, At: 0},
	{In: "python3 -m pip install --user shopcore", Want: PipInstall, At: 0},
	{In: "pip install --help", Want: "", At: 2},
	{In: "pip install -h", Want: "", At: 2},
	{In: "pip install --version", Want: "", At: 2},
	{In: "pip install --report - shopcore", Want: "", At: 2},
	{In: "pip install --report=- shopcore", Want: "", At: 2},
	{In: "pip install --rep - shopcore", Want: "", At: 2},
	{In: "pip", Want: "", At: 0},
	{In: "pip list", Want: "", At: 1},
	{In: "pip uninstall shopcore", Want: "", At: 1},
	{In: "pip -q install shopcore", Want: "", At: 1},
	{In: "pip --disable-pip-version-check install x", Want: "", At: 1},
	{In: "python3 -m pip list", Want: "", At: 3},
	{In: "python3 -m pip3 install x", Want: "", At: 2},
	{In: "python3 -m pip", Want: "", At: 2},
}

// TestPythonRules checks the table in both modes, with the position of each
// pass-through reason.
func TestPythonRules(t *testing.T) {
	table.CheckFamily(t, pythonCases, []string{Pytest, Mypy, PipInstall, Unittest})
}

// table classifies commands as shrinkrun does.
var table = ruletest.Classifier{String: rules.String, Argv: rules.Argv, Has: rules.Has}

// Rule ids, as the block's rule: line shows them.
const (
	Pytest     = "bash.pytest"
	Mypy       = "bash.mypy"
	PipInstall = "bash.pip_install"
	Unittest   = "bash.unittest"
)

// TestPythonEnv: the environment sets options the python tools read as
// their own (docs/classify.md, python rules): a command the table
// recognizes passes through when its environment, the command's own
// assignments before the inherited ones, changes the output its rule reads.
func TestPythonEnv(t *testing.T) {
	for _, c := range []struct {
		src       string
		inherited map[string]string
		want      string
	}{
		{"pytest", nil, Pytest},
		{"PYTEST_ADDOPTS=--co pytest", nil, ""},
		{"pytest -q", map[string]string{"PYTEST_ADDOPTS": "--collect-only"}, ""},
		{"pytest", map[string]string{"PYTEST_ADDOPTS": "-x --setup-only"}, ""},
		{"pytest -q", map[string]string{"PYTEST_ADDOPTS": "-q"}, ""},
		{"pytest -v", map[string]string{"PYTEST_ADDOPTS": "-q"}, Pytest},
		{"pytest", map[string]string{"PYTEST_ADDOPTS": "'--tb=native'"}, ""},
		{"pytest", map[string]string{"PYTEST_ADDOPTS": `-p "no:terminal"`}, ""},
		{"pytest", map[string]string{"PYTEST_ADDOPTS": "-o addopts=--co"}, ""},
		{"pytest", map[string]string{"PYTEST_ADDOPTS": "-k 'a or b' -x"}, Pytest},
		{"pytest", map[string]string{"PYTEST_ADDOPTS": "-k 'a or b"}, ""},
		{"PYTEST_ADDOPTS= pytest", map[string]string{"PYTEST_ADDOPTS": "--co"}, Pytest},
		{"python3 -m pytest tests", map[string]string{"PYTEST_ADDOPTS": "--co"}, ""},
		{"pytest 2>&1 | tail -20", map[string]string{"PYTEST_ADDOPTS": "--co"}, ""},
		{"pytest", map[string]string{"PY_COLORS": "1"}, ""},
		{"pytest", map[string]string{"FORCE_COLOR": "1"}, ""},
		{"pytest", map[string]string{"FORCE_COLOR": "1", "PY_COLORS": "0"}, Pytest},
		{"pytest", map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, Pytest},
		{"PY_COLORS=1 pytest", map[string]string{"NO_COLOR": "1"}, ""},
		{"pytest", map[string]string{"PYTHONWARNINGS": "error"}, Pytest},

		{"mypy .", nil, Mypy},
		{"MYPY_FORCE_COLOR=1 mypy .", nil, ""},
		{"mypy .", map[string]string{"FORCE_COLOR": "1"}, ""},
		{"mypy .", map[string]string{"FORCE_COLOR": "true"}, ""},
		{"mypy .", map[string]string{"FORCE_COLOR": "0"}, Mypy},
		{"MYPY_FORCE_COLOR=0 mypy .", map[string]string{"FORCE_COLOR": "1"}, Mypy},
		{"mypy .", map[string]string{"MYPY_CACHE_DIR": "/tmp/c"}, Mypy},

		{"pip install x", nil, PipInstall},
		{"PIP_REPORT=- pip install x", nil, ""},
		{"pip install x", map[string]string{"PIP_REPORT": "r.json"}, PipInstall},
		{"pip install x", map[string]string{"FORCE_COLOR": "1"}, ""},
		{"pip install x", map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, PipInstall},
		{"pip install x", map[string]string{"PIP_QUIET": "1"}, PipInstall},
	} {
		getenv := func(n string) string { return c.inherited[n] }
		r := rules.String(c.src).InEnviron(getenv)
		if r.Rule != c.want || c.want == "" && r.Reason == "" {
			t.Errorf("%q with %v: rule %q (%s), want %q", c.src, c.inherited, r.Rule, r.Reason, c.want)
		}
	}
}
