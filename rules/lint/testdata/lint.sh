#!/usr/bin/env bash
# lint.sh regenerates the corpus of the lint family (golangci_lint, flake8,
# pylint) from real runs of the linters on Go and Python projects written
# here for the purpose, of several sizes: a few findings in three files, one
# project with hundreds of findings over dozens of files, code that does not
# parse or names what does not exist, and clean code.
#
# Tools (.ci/deps.d/lint.sh installs them): Debian's flake8 (5.0) and pylint
# (2.16) under /usr/bin/python3 (3.11), and golangci-lint v2.15.0 built with
# go install into /tmp/shrinkrun-ci/lint/bin. PATH is set so that a pyenv
# python3 on the caller's PATH is never picked up.
#
# Every project is written under a fixed path ($ROOT/<project>) so that the
# paths the tools print are the same on every run. Each command is run as an
# agent would type it, from the project directory, with stdout and stderr
# redirected to files; the cut forms (| tail, | head, | grep, 2>&1) are the
# command as run. Next to each uncut run whose tool has a JSON format, the
# same command with that format writes CASE.json: the independent truth the
# tests hold the blocks to (pylint --output-format=json, golangci-lint
# --output.json.path stdout). flake8's JSON formatter is a plugin Debian does
# not package: its --format with a template that writes one JSON object a
# line (the paths here hold no quote or backslash) stands in for it.
#
# Usage: bash rules/lint/testdata/lint.sh [RULE...]   (then go test ./rules/lint -run TestGolden -update)
# RULE is flake8, pylint or golangci_lint, all three by default: the cases
# of one tool can be made again without the others' tools installed.
set -euo pipefail

ROOT=/tmp/shrinkrun-corpus/lint
OUT=$(cd "$(dirname "$0")" && pwd)
GOLANGCI_BIN=${GOLANGCI_BIN:-/tmp/shrinkrun-ci/lint/bin}

unset PYLINTRC FORCE_COLOR NO_COLOR PY_COLORS PYTHONPATH GOFLAGS
export PATH=/usr/bin:/bin:/usr/local/go/bin:$GOLANGCI_BIN
export PYTHONDONTWRITEBYTECODE=1 LC_ALL=C.UTF-8
# pylint keeps each run's score to print "(previous run: ...)"; a fresh
# home for each run keeps the rating line the same on every run.
export PYLINTHOME=$ROOT/.pylint
# golangci-lint and go build nothing from the network: the projects import
# the standard library only.
export GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local
export GOLANGCI_LINT_CACHE=$ROOT/.golangci-cache
export GOCACHE=${GOCACHE:-$ROOT/.gocache}

RULES=("$@")
[ ${#RULES[@]} -gt 0 ] || RULES=(flake8 pylint pycodestyle golangci_lint)
for rule in "${RULES[@]}"; do
	case $rule in
	flake8 | pylint | pycodestyle | golangci_lint) ;;
	*) echo "lint.sh: unknown rule $rule" >&2; exit 2 ;;
	esac
	tool=${rule/_/-}
	command -v "$tool" >/dev/null || { echo "lint.sh: $tool is not installed (.ci/deps.d/lint.sh)" >&2; exit 1; }
done

# wanted RULE: whether the cases of RULE are to be made.
wanted() {
	local r
	for r in "${RULES[@]}"; do
		[ "$r" = "$1" ] && return 0
	done
	return 1
}

rm -rf "$ROOT"
mkdir -p "$ROOT"

# capture RULE CASE DIR COMMAND [JSON]: runs COMMAND (a string, as typed)
# in $ROOT/DIR and writes CASE.meta, CASE.stdout and CASE.stderr under
# OUT/RULE; with JSON, also runs that command and keeps its stdout as
# CASE.json.
capture() {
	local rule=$1 name=$2 dir=$3 cmd=$4 json=${5:-} code=0
	mkdir -p "$OUT/$rule"
	rm -rf "$PYLINTHOME"
	(cd "$ROOT/$dir" && bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\n' "$cmd" "$code" >"$OUT/$rule/$name.meta"
	if [ -n "$json" ]; then
		rm -rf "$PYLINTHOME"
		(cd "$ROOT/$dir" && bash -c "$json" >"$OUT/$rule/$name.json" 2>/dev/null) || true
	fi
	printf '%-14s %-22s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
}

# filler N: N lines of constants, so that later code sits at line numbers of
# two and three digits.
filler() {
	local i
	for ((i = 1; i <= $1; i++)); do
		printf 'LIMIT_%03d = %d\n' "$i" "$i"
	done
}

# ---------------------------------------------------------------- Python

# pymodule I: a module whose findings depend on I: unused imports, a
# missing docstring, names in the wrong case, an unused variable, a
# comparison with None, a line too long, too many arguments, a class with
# one method, and on some modules a name that is not defined.
pymodule() {
	local i=$1
	if ((i % 3 != 0)); then
		printf '"""Module %d of the shop."""\n' "$i"
	fi
	echo 'import os'
	if ((i % 2 == 0)); then
		echo 'import sys'
	fi
	echo 'import json'
	echo
	if ((i % 4 == 0)); then
		filler $((40 + i * 3))
	fi
	cat <<EOF


def Compute_$i(a, b, c, d, e, f):
    unused = $i
    if a == None:
        return b
    total = a + b + c + d + e + f
    return json.dumps(total)


def describe_$i(order, customer, address, items, discount, coupon):
    """Describe an order."""
    return "order %s for %s at %s with %d items, discount %s and coupon %s, number $i" % (order, customer, address, len(items), discount, coupon)


class helper_$i:
  def run(self):
      return os.getcwd()
EOF
	if ((i % 7 == 0)); then
		cat <<EOF


def broken_$i():
    """Use a name nobody defined."""
    return undefined_total_$i + 1
EOF
	fi
}

# shop: the large project, 36 modules in three packages (hundreds of
# findings over dozens of files).
mkdir -p "$ROOT/shop/shop"
printf '"""The shop."""\n' >"$ROOT/shop/shop/__init__.py"
for pkg in core api util; do
	mkdir -p "$ROOT/shop/shop/$pkg"
	printf '"""The %s package."""\n' "$pkg" >"$ROOT/shop/shop/$pkg/__init__.py"
done
for ((i = 1; i <= 36; i++)); do
	case $((i % 3)) in
	0) pkg=core ;;
	1) pkg=api ;;
	2) pkg=util ;;
	esac
	pymodule "$i" >"$ROOT/shop/shop/$pkg/mod_$(printf '%02d' "$i").py"
done

# calc: the small project, three files and a few findings.
mkdir -p "$ROOT/calc/calc"
printf '"""Arithmetic."""\n' >"$ROOT/calc/calc/__init__.py"
cat >"$ROOT/calc/calc/ops.py" <<'EOF'
"""Operations."""
import math


def add(a, b):
    """Add."""
    return a + b

def div(a, b):
    """Divide."""
    result = a / b
    return a / b
EOF
{
	echo '"""Parsing."""'
	filler 12
	cat <<'EOF'


def parse_num(s):
    """Parse a number."""
    if s == None:
        return 0
    return int(s.strip())   # a comment far enough to the right to make this line too long by far
EOF
} >"$ROOT/calc/calc/parse.py"

# broken: code that cannot run: a syntax error, names that are not
# defined, a return outside a function, an identity test with a literal,
# an import that does not resolve.
mkdir -p "$ROOT/broken/app"
printf '"""The app."""\n' >"$ROOT/broken/app/__init__.py"
cat >"$ROOT/broken/app/syntax.py" <<'EOF'
"""A module that does not parse."""


def total(prices:
    return sum(prices)
EOF
{
	echo '"""Names that do not exist."""'
	filler 30
	cat <<'EOF'
from app.nowhere import thing


def report(kind):
    """Report on kind."""
    if kind is "daily":
        return daily_totals(kind)
    return weekly_total + thing


return None
EOF
} >"$ROOT/broken/app/names.py"

# clean: code with nothing to find.
mkdir -p "$ROOT/clean/tidy"
printf '"""Tidy code."""\n' >"$ROOT/clean/tidy/__init__.py"
cat >"$ROOT/clean/tidy/maths.py" <<'EOF'
"""Maths done tidily."""


def square(value):
    """Return value squared."""
    return value * value
EOF

# dup: two modules with the same lines, which pylint reports on several
# lines, blank ones among them.
mkdir -p "$ROOT/dup/dup"
printf '"""Duplicated code."""\n' >"$ROOT/dup/dup/__init__.py"
for n in first second; do
	cat >"$ROOT/dup/dup/$n.py" <<'EOF'
"""Doc."""


def compute(values):
    """Compute."""
    total = 0
    for value in values:
        if value > 10:
            total += value * 2
        else:
            total += value

    return total
EOF
done

FJSON='--format={"path": "%(path)s", "row": %(row)d, "col": %(col)d, "code": "%(code)s"}'
if wanted flake8; then
capture flake8 small calc 'flake8' "flake8 '$FJSON'"
capture flake8 large shop 'flake8 shop' "flake8 '$FJSON' shop"
capture flake8 dot shop 'flake8 .' "flake8 '$FJSON' ."
capture flake8 count_stats shop 'flake8 --count --statistics shop' "flake8 '$FJSON' shop"
capture flake8 errors broken 'flake8' "flake8 '$FJSON'"
capture flake8 clean clean 'flake8' "flake8 '$FJSON'"
capture flake8 missing_file calc 'flake8 nosuch.py calc' "flake8 '$FJSON' nosuch.py calc"
capture flake8 usage calc 'flake8 --max-line-length=wide'
capture flake8 python_m shop 'python3 -m flake8 --select=F,E9 shop' "python3 -m flake8 '$FJSON' --select=F,E9 shop"
capture flake8 tail shop 'flake8 shop | tail -40'
capture flake8 tail_stats shop 'flake8 --statistics --count shop | tail -12'
capture flake8 head shop 'flake8 shop | head -30'
capture flake8 grep shop 'flake8 shop | grep F401'
capture flake8 grep_v shop 'flake8 shop | grep -v E501'
capture flake8 merged_tail broken 'flake8 2>&1 | tail -3'
capture flake8 tail_count shop 'flake8 --count shop | tail -3'
capture flake8 head_errors broken 'flake8 2>&1 | head -2'
fi

if wanted pycodestyle; then
# pycodestyle takes flake8's --format string: the JSON twin is flake8's.
capture pycodestyle small calc 'pycodestyle .' "pycodestyle '$FJSON' ."
capture pycodestyle large shop 'pycodestyle shop' "pycodestyle '$FJSON' shop"
capture pycodestyle count_stats shop 'pycodestyle --count --statistics shop' "pycodestyle '$FJSON' shop"
capture pycodestyle errors broken 'pycodestyle .' "pycodestyle '$FJSON' ."
capture pycodestyle clean clean 'pycodestyle .' "pycodestyle '$FJSON' ."
capture pycodestyle max_line shop 'pycodestyle --max-line-length=120 --ignore=E302 shop' "pycodestyle '$FJSON' --max-line-length=120 --ignore=E302 shop"
capture pycodestyle python_m shop 'python3 -m pycodestyle --select=E9,W6 shop' "python3 -m pycodestyle '$FJSON' --select=E9,W6 shop"
capture pycodestyle missing_file calc 'pycodestyle nosuch.py .' "pycodestyle '$FJSON' nosuch.py ."
capture pycodestyle tail shop 'pycodestyle shop | tail -30'
capture pycodestyle head shop 'pycodestyle shop | head -25'
capture pycodestyle grep_v shop 'pycodestyle shop | grep -v E501'
capture pycodestyle merged_tail shop 'pycodestyle --count shop 2>&1 | tail -5'
fi

if wanted pylint; then
capture pylint small calc 'pylint calc' 'pylint --output-format=json calc'
capture pylint large shop 'pylint shop' 'pylint --output-format=json shop'
capture pylint errors broken 'pylint app' 'pylint --output-format=json app'
capture pylint clean clean 'pylint tidy' 'pylint --output-format=json tidy'
capture pylint duplicate dup 'pylint dup' 'pylint --output-format=json dup'
capture pylint missing_module calc 'pylint nosuchmodule' 'pylint --output-format=json nosuchmodule'
capture pylint usage calc 'pylint --nosuch calc'
capture pylint disable shop 'pylint --disable=C,R shop' 'pylint --output-format=json --disable=C,R shop'
capture pylint python_m calc 'python3 -m pylint -sn calc' 'python3 -m pylint -sn --output-format=json calc'
capture pylint tail shop 'pylint shop | tail -30'
capture pylint tail_dup dup 'pylint dup | tail -8'
capture pylint head shop 'pylint shop | head -40'
capture pylint grep shop 'pylint shop | grep -E "W0611|E0602"'
capture pylint grep_v shop 'pylint shop | grep -v C0'
capture pylint merged broken 'pylint app 2>&1 | tail -15'
capture pylint tail_rating shop 'pylint shop | tail -4'
capture pylint head_merged broken 'pylint app 2>&1 | head -5'
fi

if wanted golangci_lint; then

# ---------------------------------------------------------------- Go

# gomodule I: a file whose findings depend on I: errors not checked, a
# value overwritten before it is read, a format that does not match its
# argument, an unused function, and on some files a value compared with
# itself. It compiles: a file that does not is reported by golangci-lint as
# one typecheck issue and nothing else (the typeerr project has that case).
gomodule() {
	local i=$1 pkg=$2
	cat <<EOF
package $pkg

import (
	"fmt"
	"os"
	"strings"
)

// Load$i reads a file and ignores what can go wrong.
func Load$i(path string) string {
	f, _ := os.Open(path)
	defer f.Close()
	os.Remove(path + ".bak")
	buf := make([]byte, 64)
	f.Read(buf)
	name := "load"
	name = strings.ToUpper(path)
	return string(buf) + name
}

// Format$i formats with the wrong verb.
func Format$i(n int) string {
	return fmt.Sprintf("%s items", n)
}

func unused$i() int {
	return $i
}
EOF
	if ((i % 3 == 0)); then
		cat <<EOF

// Loop$i compares a value with itself.
func Loop$i(xs []int) bool {
	for _, x := range xs {
		if x == x {
			return true
		}
	}
	return false
}
EOF
	fi
}

# store: the large Go project, 30 files in three packages.
mkdir -p "$ROOT/store"
printf 'module example.com/store\n\ngo 1.24\n' >"$ROOT/store/go.mod"
for ((i = 1; i <= 30; i++)); do
	case $((i % 3)) in
	0) pkg=cache ;;
	1) pkg=disk ;;
	2) pkg=net ;;
	esac
	mkdir -p "$ROOT/store/$pkg"
	gomodule "$i" "$pkg" >"$ROOT/store/$pkg/file_$(printf '%02d' "$i").go"
done

# tiny: a few findings in two files.
mkdir -p "$ROOT/tiny"
printf 'module example.com/tiny\n\ngo 1.24\n' >"$ROOT/tiny/go.mod"
gomodule 1 main >"$ROOT/tiny/load.go"
cat >"$ROOT/tiny/main.go" <<'EOF'
package main

func main() {
	println(Load1("x"), Format1(2))
}
EOF

# typeerr: code that does not compile.
mkdir -p "$ROOT/typeerr"
printf 'module example.com/typeerr\n\ngo 1.24\n' >"$ROOT/typeerr/go.mod"
cat >"$ROOT/typeerr/main.go" <<'EOF'
package main

import "fmt"

func main() {
	var count int = "three"
	fmt.Println(totl)
}
EOF

# gclean: nothing to find.
mkdir -p "$ROOT/gclean"
printf 'module example.com/gclean\n\ngo 1.24\n' >"$ROOT/gclean/go.mod"
cat >"$ROOT/gclean/main.go" <<'EOF'
package main

import "fmt"

func main() {
	fmt.Println("clean")
}
EOF

GJSON='--output.json.path stdout'
capture golangci_lint small tiny 'golangci-lint run' "golangci-lint run $GJSON"
capture golangci_lint large store 'golangci-lint run ./...' "golangci-lint run $GJSON ./..."
capture golangci_lint all store 'golangci-lint run --max-issues-per-linter=0 --max-same-issues=0 ./...' \
	"golangci-lint run --max-issues-per-linter=0 --max-same-issues=0 $GJSON ./..."
capture golangci_lint no_lines store 'golangci-lint run --output.text.print-issued-lines=false --max-same-issues=0 ./...' \
	"golangci-lint run --max-same-issues=0 $GJSON ./..."
capture golangci_lint typecheck typeerr 'golangci-lint run' "golangci-lint run $GJSON"
capture golangci_lint clean gclean 'golangci-lint run' "golangci-lint run $GJSON"
capture golangci_lint no_module calc 'golangci-lint run'
capture golangci_lint enable store 'golangci-lint run --enable misspell,unparam,revive --max-same-issues=0 ./...' \
	"golangci-lint run --enable misspell,unparam,revive --max-same-issues=0 $GJSON ./..."
capture golangci_lint tail store 'golangci-lint run --max-same-issues=0 ./... | tail -25'
capture golangci_lint tail_stats store 'golangci-lint run ./... | tail -6'
capture golangci_lint head store 'golangci-lint run --max-same-issues=0 ./... | head -40'
capture golangci_lint grep store 'golangci-lint run --max-same-issues=0 ./... | grep errcheck'
capture golangci_lint merged typeerr 'golangci-lint run 2>&1 | tail -20'
fi
