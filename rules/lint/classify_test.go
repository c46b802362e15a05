package lint_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// lintCases walks docs/classify.md (lint rules): what each lint rule
// recognizes and what passes through, with the word the reason must point
// at.
var lintCases = []ruletest.FamilyCase{
	{In: "flake8", Want: Flake8, At: 0},
	{In: "pycodestyle .", Want: Pycodestyle, At: 0},
	{In: "pycodestyle --max-line-length=120 --ignore=E302,W503 src", Want: Pycodestyle, At: 0},
	{In: "pycodestyle --count --statistics src", Want: Pycodestyle, At: 0},
	{In: "pycodestyle --format=default src", Want: Pycodestyle, At: 0},
	{In: "python3 -m pycodestyle src 2>&1 | tail -20", Want: Pycodestyle, At: 0},
	{In: "pycodestyle --format=pylint src", Want: "", At: 1},
	{In: "pycodestyle --show-source src", Want: "", At: 1},
	{In: "pycodestyle --show-pep8 src", Want: "", At: 1},
	{In: "pycodestyle --show src", Want: "", At: 1},
	{In: "pycodestyle -q src", Want: "", At: 1},
	{In: "pycodestyle --diff", Want: "", At: 1},
	{In: "pycodestyle --version", Want: "", At: 1},
	{In: "python -m pycodestyle -h", Want: "", At: 3},
	{In: "flake8 .", Want: Flake8, At: 0},
	{In: "flake8 src tests", Want: Flake8, At: 0},
	{In: "flake8 --count --statistics src", Want: Flake8, At: 0},
	{In: "flake8 --select=E9,F63,F7,F82 src", Want: Flake8, At: 0},
	{In: "flake8 --max-line-length=120 --extend-ignore E203 src", Want: Flake8, At: 0},
	{In: "flake8 --exit-zero src", Want: Flake8, At: 0},
	{In: "flake8 -j 4 src", Want: Flake8, At: 0},
	{In: "flake8 -jq src", Want: Flake8, At: 0},
	{In: "flake8 --format=default src", Want: Flake8, At: 0},
	{In: "flake8 --format default src", Want: Flake8, At: 0},
	{In: "flake8 src 2>&1 | tail -20", Want: Flake8, At: 0},
	{In: "python -m flake8 src", Want: Flake8, At: 0},
	{In: "python3 -m flake8 --count .", Want: Flake8, At: 0},
	{In: "flake8 --format=pylint src", Want: "", At: 1},
	{In: "flake8 --format pylint src", Want: "", At: 1},
	{In: "flake8 --form=pylint src", Want: "", At: 1},
	{In: "flake8 --show-source src", Want: "", At: 1},
	{In: "flake8 --no-show-source src", Want: Flake8, At: 0},
	{In: "flake8 --show src", Want: "", At: 1},
	{In: "flake8 -q src", Want: "", At: 1},
	{In: "flake8 -qq src", Want: "", At: 1},
	{In: "flake8 --quiet src", Want: "", At: 1},
	{In: "flake8 --output-file=r.txt src", Want: "", At: 1},
	{In: "flake8 --tee --output-file r.txt src", Want: "", At: 1},
	{In: "flake8 --benchmark src", Want: "", At: 1},
	{In: "flake8 --bug-report", Want: "", At: 1},
	{In: "flake8 --help", Want: "", At: 1},
	{In: "flake8 -h", Want: "", At: 1},
	{In: "flake8 --version", Want: "", At: 1},
	{In: "python3 -m flake8 --version", Want: "", At: 3},
	{In: "python3 -B -m flake8", Want: "", At: 1},

	{In: "pylint src", Want: Pylint, At: 0},
	{In: "pylint pkg tests/test_a.py", Want: Pylint, At: 0},
	{In: "pylint --disable=C,R src", Want: Pylint, At: 0},
	{In: "pylint -d C0114 -j 2 src", Want: Pylint, At: 0},
	{In: "pylint -sn src", Want: Pylint, At: 0},
	{In: "pylint --score=n src", Want: Pylint, At: 0},
	{In: "pylint --reports=n src", Want: Pylint, At: 0},
	{In: "pylint -rn src", Want: Pylint, At: 0},
	{In: "pylint -r n src", Want: Pylint, At: 0},
	{In: "pylint --output-format=text src", Want: Pylint, At: 0},
	{In: "pylint -f text src", Want: Pylint, At: 0},
	{In: "pylint -E src", Want: Pylint, At: 0},
	{In: "pylint --errors-only src", Want: Pylint, At: 0},
	{In: "pylint -dfixme src", Want: Pylint, At: 0},
	{In: "pylint src 2>&1 | tail -30", Want: Pylint, At: 0},
	{In: "python -m pylint src", Want: Pylint, At: 0},
	{In: "python3 -m pylint -sn src", Want: Pylint, At: 0},
	{In: "pylint --output-format=json src", Want: "", At: 1},
	{In: "pylint --output-format json src", Want: "", At: 1},
	{In: "pylint --output-format=colorized src", Want: "", At: 1},
	{In: "pylint --output-format=parseable src", Want: "", At: 1},
	{In: "pylint --output-f=json src", Want: "", At: 1},
	{In: "pylint -f json src", Want: "", At: 1},
	{In: "pylint -fjson src", Want: "", At: 1},
	{In: "pylint -Ef json src", Want: "", At: 1},
	{In: "pylint --msg-template={path}:{line} src", Want: "", At: 1},
	{In: "pylint --reports=y src", Want: "", At: 1},
	{In: "pylint -ry src", Want: "", At: 1},
	{In: "pylint --output=report.txt src", Want: "", At: 1},
	{In: "pylint --help", Want: "", At: 1},
	{In: "pylint -h", Want: "", At: 1},
	{In: "pylint --long-help", Want: "", At: 1},
	{In: "pylint --help-msg=W0611", Want: "", At: 1},
	{In: "pylint --version", Want: "", At: 1},
	{In: "pylint --list-msgs", Want: "", At: 1},
	{In: "pylint --generate-rcfile", Want: "", At: 1},
	{In: "pylint --generate-toml-config", Want: "", At: 1},
	{In: "python3 -m pylint --version", Want: "", At: 3},
	{In: "python3 -m pylint3 src", Want: "", At: 2},

	{In: "golangci-lint run", Want: Golangci, At: 0},
	{In: "golangci-lint run ./...", Want: Golangci, At: 0},
	{In: "golangci-lint run --max-same-issues=0 ./...", Want: Golangci, At: 0},
	{In: "golangci-lint run --enable misspell,revive -D unused ./...", Want: Golangci, At: 0},
	{In: "golangci-lint run -E misspell ./pkg/...", Want: Golangci, At: 0},
	{In: "golangci-lint run --timeout 5m -v ./...", Want: Golangci, At: 0},
	{In: "golangci-lint run --output.text.print-issued-lines=false ./...", Want: Golangci, At: 0},
	{In: "golangci-lint run --color never ./...", Want: Golangci, At: 0},
	{In: "golangci-lint run ./... 2>&1 | tail -20", Want: Golangci, At: 0},
	{In: "golangci-lint run ./... | grep errcheck", Want: Golangci, At: 0},
	{In: "golangci-lint run --output.json.path stdout ./...", Want: "", At: 2},
	{In: "golangci-lint run --output.json.path=stdout ./...", Want: "", At: 2},
	{In: "golangci-lint run --output.text.path=out.txt", Want: "", At: 2},
	{In: "golangci-lint run --output.text.print-linter-name=false", Want: "", At: 2},
	{In: "golangci-lint run --output.sarif.path stdout", Want: "", At: 2},
	{In: "golangci-lint run --fix ./...", Want: "", At: 2},
	{In: "golangci-lint run --help", Want: "", At: 2},
	{In: "golangci-lint run -h", Want: "", At: 2},
	{In: "golangci-lint run -vh", Want: "", At: 2},
	{In: "golangci-lint run --version", Want: "", At: 2},
	{In: "golangci-lint run --color=always", Want: "", At: 2},
	{In: "golangci-lint --version", Want: "", At: 1},
	{In: "golangci-lint version", Want: "", At: 1},
	{In: "golangci-lint linters", Want: "", At: 1},
	{In: "golangci-lint fmt ./...", Want: "", At: 1},
	{In: "golangci-lint", Want: "", At: 0},
}

// TestLintRules checks the table in both modes, with the position of each
// pass-through reason.
func TestLintRules(t *testing.T) {
	table.CheckFamily(t, lintCases, []string{Flake8, Pylint, Pycodestyle, Golangci})
}

// table classifies commands as shrinkrun does.
var table = ruletest.Classifier{String: rules.String, Argv: rules.Argv, Has: rules.Has}

// Rule ids, as the block's rule: line shows them.
const (
	Flake8   = "bash.flake8"
	Pylint   = "bash.pylint"
	Golangci = "bash.golangci_lint"
	// pycodestyle's output is flake8's format (pycodestyle.go).
	Pycodestyle = "bash.pycodestyle"
)

// isLintRule reports whether rule is one of the lint family's.
func isLintRule(rule string) bool {
	return rule == Flake8 || rule == Pylint || rule == Pycodestyle || rule == Golangci
}
