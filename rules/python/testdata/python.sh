#!/usr/bin/env bash
# python.sh regenerates the pytest, mypy and pip_install corpus from real
# runs of Debian's tools on small projects written here for the purpose.
#
# Tools: /usr/bin/pytest (python3-pytest 7.2), /usr/bin/mypy (mypy 1.0),
# /usr/bin/python3 (3.11, Debian) and the pip 23.0 of a venv made from it
# (python3 -m venv). PATH is set to /usr/bin:/bin so that a pyenv or other
# python3 on the caller's PATH is never picked up; pip cases run with the
# venv's bin first, as in an activated venv.
#
# Every project is written under a fixed path ($ROOT/<project>) so that the
# paths the tools print are the same on every run. The command is run exactly
# as an agent would type it, from the project directory, with stdout and
# stderr redirected to files. Timings ("in 0.05s") and object addresses
# ("at 0x7f...") naturally vary between runs; everything else is
# reproducible.
#
# No package registry is ever contacted: pip installs local directories and
# wheels built here with pip wheel, and PIP_INDEX_URL points at a closed
# local port, so a lookup that would reach an index fails at once.
#
# Every uncut pytest case is run a second time with the same command and
# PYTEST_ADDOPTS="-o junit_family=xunit1 --junitxml=CASE.junit.xml", and every
# uncut mypy case with --junit-xml CASE.junit.xml: the tools' own
# machine-readable account of the run, which the tests hold their reference
# reader of the text to (timings, timestamps and the host name are removed
# from the XML). The second run's terminal output is not kept: --junitxml
# adds a line to it.
#
# Usage: bash rules/python/testdata/python.sh [pytest] [mypy] [pip]
# (default: all three; then go test ./rules/python -update)
set -euo pipefail

SECTIONS=${*:-pytest mypy pip}
# want SECTION: whether SECTION is to be regenerated.
want() { [[ " $SECTIONS " == *" $1 "* ]]; }

ROOT=/tmp/shrinkrun-corpus/python
OUT=$(cd "$(dirname "$0")" && pwd)

# The environment an agent's shell would have, without settings that change
# what the tools print (colors, pip's index and links, pytest options).
unset PYTEST_ADDOPTS PYTEST_PLUGINS MYPY_FORCE_COLOR FORCE_COLOR PY_COLORS \
	PIP_FIND_LINKS PIP_DEFAULT_TIMEOUT PIP_CERT PIP_NO_INDEX VIRTUAL_ENV PYTHONPATH
export PATH=/usr/bin:/bin
export PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1
export PIP_INDEX_URL=http://127.0.0.1:9/simple
export PYTHONDONTWRITEBYTECODE=1 LC_ALL=C.UTF-8

rm -rf "$ROOT"
mkdir -p "$ROOT"

# capture RULE CASE DIR COMMAND: runs COMMAND (a string, as typed) in
# $ROOT/DIR and writes CASE.meta, CASE.stdout and CASE.stderr under OUT/RULE.
capture() {
	local rule=$1 name=$2 dir=$3 cmd=$4 code=0
	mkdir -p "$OUT/$rule"
	rm -rf "$ROOT/$dir/.pytest_cache" "$ROOT/$dir/.mypy_cache"
	(cd "$ROOT/$dir" && bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\n' "$cmd" "$code" >"$OUT/$rule/$name.meta"
	printf '%-12s %-20s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
	case "$cmd" in
	*'|'*) ;; # a cut output: the reference is read from its uncut run
	pytest* | python3\ -m\ pytest*)
		rm -rf "$ROOT/$dir/.pytest_cache"
		(cd "$ROOT/$dir" && PYTEST_ADDOPTS="-o junit_family=xunit1 --junitxml=$OUT/$rule/$name.junit.xml" \
			bash -c "$cmd" >/dev/null 2>&1) || true
		junit_clean "$OUT/$rule/$name.junit.xml"
		;;
	mypy* | python3\ -m\ mypy*)
		rm -rf "$ROOT/$dir/.mypy_cache"
		(cd "$ROOT/$dir" && bash -c "$cmd --junit-xml $OUT/$rule/$name.junit.xml" >/dev/null 2>&1) || true
		junit_clean "$OUT/$rule/$name.junit.xml"
		;;
	esac
}

# junit_clean FILE: removes what varies between runs from a JUnit XML file
# (durations, the time stamp, the host name), if the run wrote one.
junit_clean() {
	[ -f "$1" ] || return 0
	sed -i -E 's/ (time|timestamp|hostname)="[^"]*"//g' "$1"
}

# filler N: N lines of constants, so that later code sits at line numbers of
# two and three digits (peers lose locations at line >= 10).
filler() {
	local i
	for ((i = 1; i <= $1; i++)); do
		printf 'LIMIT_%03d = %d\n' "$i" "$i"
	done
}

# ---------------------------------------------------------------- pytest

if want pytest; then

# calc: a small package whose tests all pass (parametrized, a class, a
# fixture), the base of the passing cases.
mkdir -p "$ROOT/calc/calc" "$ROOT/calc/tests"
touch "$ROOT/calc/calc/__init__.py"
{
	echo '"""Arithmetic and parsing helpers."""'
	filler 20
	cat <<'EOF'


def add(a, b):
    return a + b


def div(a, b):
    return a / b


def parse_num(s):
    return int(s.strip())


def mean(xs):
    return sum(xs) / len(xs)
EOF
} >"$ROOT/calc/calc/ops.py"
cat >"$ROOT/calc/tests/test_ops.py" <<'EOF'
import pytest

from calc.ops import add, div, mean, parse_num


@pytest.mark.parametrize("a,b,want", [(i, i + 1, 2 * i + 1) for i in range(30)])
def test_add(a, b, want):
    assert add(a, b) == want


def test_div():
    assert div(6, 3) == 2


@pytest.mark.parametrize("s", ["7", " 7 ", "7\n"])
def test_parse(s):
    assert parse_num(s) == 7


class TestMean:
    def test_one(self):
        assert mean([4]) == 4

    def test_many(self):
        assert mean([1, 2, 3]) == 2
EOF
printf '[pytest]\ntestpaths = tests\npythonpath = .\n' >"$ROOT/calc/pytest.ini"

# all_pass: every test passes.
capture pytest all_pass calc 'pytest'
# all_pass_quiet / all_pass_verbose: the same run with -q and -v.
capture pytest all_pass_quiet calc 'pytest -q'
capture pytest all_pass_verbose calc 'pytest -v'
# python_m: through the interpreter, as python3 -m pytest.
capture pytest python_m calc 'python3 -m pytest -q'
# The passing run cut: the final line alone, and a head that ends before it.
capture pytest pass_tail_3 calc 'pytest -q | tail -3'
capture pytest pass_head_5 calc 'pytest | head -5'
capture pytest pass_verbose_tail calc 'pytest -v 2>&1 | tail -5'

# failing: the ways a test fails or errs, at lines of one, two and three
# digits, with skips, xfail/xpass, warnings, captured output, parametrized
# ids with spaces, a class, fixtures that fail at setup and at teardown.
mkdir -p "$ROOT/failing/shop" "$ROOT/failing/tests"
touch "$ROOT/failing/shop/__init__.py"
{
	echo '"""A shopping cart with bugs for the tests to find."""'
	filler 90
	cat <<'EOF'


def total(prices):
    return sum(prices[1:])


def average(prices):
    return sum(prices) / (len(prices) - 1)


def apply_discount(price, percent):
    if percent > 100:
        raise ValueError("percent must be at most 100, got %d" % percent)
    return price * (100 - percent) // 100


def lookup(catalog, name):
    return catalog[name.lower()]
EOF
} >"$ROOT/failing/shop/cart.py"
cat >"$ROOT/failing/tests/test_cart.py" <<'EOF'
import warnings

import pytest

from shop.cart import apply_discount, average, lookup, total


def test_total():
    assert total([1, 2, 3]) == 6


def test_total_empty():
    assert total([]) == 0


def test_average():
    assert average([2, 4]) == 3


def test_discount():
    assert apply_discount(200, 150) == 0


def test_discount_raises():
    with pytest.raises(ValueError):
        apply_discount(100, 50)


def test_lookup():
    assert lookup({"Apple": 1}, "Apple") == 1


def test_items():
    got = {"apple": 1, "pear": 2, "plum": 3}
    assert got == {"apple": 1, "pear": 5, "plum": 3}


@pytest.mark.parametrize("price,percent,want", [(100, 10, 90), (100, 0, 100), (99, 50, 50)])
def test_discount_table(price, percent, want):
    assert apply_discount(price, percent) == want


@pytest.mark.parametrize("label", ["two words", "a - b"])
def test_labels(label):
    assert label.isidentifier(), "label %r is not an identifier" % label


@pytest.mark.skip(reason="refunds are not written yet")
def test_refund():
    pass


@pytest.mark.xfail(reason="rounding is known to be off")
def test_rounding():
    assert apply_discount(10, 33) == 6.7


@pytest.mark.xfail(reason="should fail but passes")
def test_xpass():
    assert True


@pytest.mark.xfail(strict=True, reason="strict: must fail")
def test_strict_xpass():
    assert True


def test_warns():
    warnings.warn("prices as floats are deprecated", DeprecationWarning)
    assert total([0, 1]) == 1


@pytest.fixture
def catalog():
    raise RuntimeError("catalog database is not reachable")


def test_with_catalog(catalog):
    assert catalog


@pytest.fixture
def session():
    yield {"user": "ann"}
    raise ConnectionError("session did not close")


def test_session(session):
    assert session["user"] == "ann"


class TestCheckout:
    def test_prints(self):
        print("checking out 3 items")
        assert total([5, 5, 5]) == 15

    def test_pass(self):
        assert apply_discount(100, 0) == 100
EOF
{
	filler 110
	cat <<'EOF'


def test_far_down():
    assert [1, 2, 3] == [1, 2, 4], "lists differ far down the file"
EOF
} >"$ROOT/failing/tests/test_far.py"

# failures: the default output.
cp "$ROOT/calc/pytest.ini" "$ROOT/failing/"
capture pytest failures failing 'pytest'
# failures_quiet, failures_verbose: the same run with -q and -v.
capture pytest failures_quiet failing 'pytest -q'
capture pytest failures_verbose failing 'pytest -v'
# exitfirst: -x stops at the first failure.
capture pytest exitfirst failing 'pytest -x'
# keyword: -k selects a few tests and deselects the rest.
capture pytest keyword failing 'pytest -k discount'
# tb_short, tb_line, tb_no: the traceback styles that are recognized.
capture pytest tb_short failing 'pytest --tb=short'
capture pytest tb_line failing 'pytest -q --tb=line'
capture pytest tb_no failing 'pytest -q --tb=no'
# native: a config file whose addopts asks for Python's own tracebacks,
# which the classifier cannot see (it passes --tb=native through).
printf '[pytest]\ntestpaths = tests\npythonpath = .\naddopts = --tb=native\n' >"$ROOT/failing/native.ini"
capture pytest native failing 'pytest -c native.ini -q'
# merged: -v with stderr merged into stdout, piped to tail as agents do.
capture pytest merged failing 'pytest -v 2>&1 | tail -60'

# The failing run cut as agents pipe it (issue 12): each case is the real
# output of the piped command, so its exit status is the filter's (0).
# tail_40 starts inside the traceback of TestCheckout.test_prints, its
# section's title cut off; python_m_tail_25 inside test_far_down's.
capture pytest tail_40 failing 'pytest 2>&1 | tail -40'
capture pytest python_m_tail_25 failing 'python3 -m pytest 2>&1 | tail -25'
# tail_15: the short test summary (its first entries cut) and the final line.
capture pytest tail_15 failing 'pytest | tail -15'
capture pytest quiet_tail_3 failing 'pytest -q 2>&1 | tail -3'
# head: the first failures, no short summary, no final line.
capture pytest quiet_head_50 failing 'pytest -q 2>&1 | head -50'
capture pytest head_20 failing 'pytest | head -20'
# grep: the failure lines without their sections.
capture pytest grep_failed failing "pytest | grep -E 'FAILED|Error'"
capture pytest verbose_grep failing "pytest -v 2>&1 | grep -E 'FAILED|ERROR'"
# grep -v of noise: the passing -v lines, the source lines of tracebacks.
capture pytest verbose_grep_v failing 'pytest -v | grep -v PASSED'
capture pytest grep_v_source failing "pytest | grep -v '^    '"
# sed: a range of lines from the middle.
capture pytest sed_range failing "pytest | sed -n '25,90p'"
capture pytest tb_short_tail failing 'pytest --tb=short 2>&1 | tail -30'
capture pytest tb_line_head failing 'pytest -q --tb=line | head -12'

# collect_error: one module does not import, another has a syntax error;
# pytest stops before running anything.
mkdir -p "$ROOT/collect/tests"
cp "$ROOT/calc/pytest.ini" "$ROOT/collect/"
cat >"$ROOT/collect/tests/test_fine.py" <<'EOF'
def test_fine():
    assert True
EOF
cat >"$ROOT/collect/tests/test_import.py" <<'EOF'
import shop_backend


def test_backend():
    assert shop_backend
EOF
{
	filler 12
	cat <<'EOF'


def test_broken(:
    pass
EOF
} >"$ROOT/collect/tests/test_syntax.py"
capture pytest collect_error collect 'pytest'
# collect_continue: the same tree with --continue-on-collection-errors.
capture pytest collect_continue collect 'pytest -q --continue-on-collection-errors'
capture pytest collect_tail collect 'pytest 2>&1 | tail -20'
capture pytest collect_head collect 'pytest | head -15'

# many_failures: 150 failing parametrized cases, more than any cap.
mkdir -p "$ROOT/many/tests"
cat >"$ROOT/many/tests/test_many.py" <<'EOF'
import pytest


@pytest.mark.parametrize("n", range(150))
def test_square(n):
    assert n * n == n + n, "square of %d" % n


def test_ok():
    assert True
EOF
capture pytest many_failures many 'pytest -q'
capture pytest many_failures_verbose many 'pytest -v --tb=line'
capture pytest many_tail many 'pytest -q 2>&1 | tail -20'
capture pytest many_head many 'pytest -q | head -100'
capture pytest many_grep many 'pytest -q | grep FAILED'

# warnings: everything passes with many warnings.
mkdir -p "$ROOT/warn/tests"
cat >"$ROOT/warn/tests/test_warn.py" <<'EOF'
import warnings

import pytest


@pytest.mark.parametrize("n", range(12))
def test_old_api(n):
    warnings.warn("old_api() is deprecated, use new_api()", DeprecationWarning)
    assert n >= 0


def test_user_warning():
    warnings.warn("cache size %d is small" % 3, UserWarning)
EOF
capture pytest warnings warn 'pytest'
# warnings_tail starts inside the warnings summary.
capture pytest warnings_tail warn 'pytest | tail -8'

# no_tests: an empty directory; pytest exits 5.
mkdir -p "$ROOT/empty"
capture pytest no_tests empty 'pytest'
# not_found: a path that does not exist; a usage error, exit 4.
capture pytest not_found calc 'pytest tests/test_nosuch.py'
# bad_option: an unknown option, exit 4.
capture pytest bad_option calc 'pytest --no-such-option'

# conftest_error: the conftest does not import; pytest reports it on stderr.
mkdir -p "$ROOT/conftest/tests"
printf 'import shop_fixtures\n' >"$ROOT/conftest/tests/conftest.py"
printf 'def test_x():\n    assert True\n' >"$ROOT/conftest/tests/test_x.py"
capture pytest conftest_error conftest 'pytest'

# internal_error: a conftest hook that raises; pytest reports INTERNALERROR
# lines and exits 3.
mkdir -p "$ROOT/internal/tests"
cat >"$ROOT/internal/tests/conftest.py" <<'EOF'
def pytest_collection_modifyitems(items):
    raise RuntimeError("plugin could not order %d items" % len(items))
EOF
printf 'def test_x():\n    assert True\n' >"$ROOT/internal/tests/test_x.py"
capture pytest internal_error internal 'pytest'
capture pytest internal_tail internal 'pytest 2>&1 | tail -12'
capture pytest conftest_tail conftest 'pytest 2>&1 | tail -5'
capture pytest bad_option_head calc 'pytest --no-such-option 2>&1 | head -3'

# deep: failures whose lines a per-failure cap dropped (issue 21): a
# LineMatcher verdict after more than ten E lines ("remains unmatched"), and
# a chained exception whose first location is in the standard library
# ("/usr/lib/python3.11/json/decoder.py:355: JSONDecodeError").
mkdir -p "$ROOT/deep/tests"
cat >"$ROOT/deep/tests/test_deep.py" <<'EOF'
import json

from _pytest.pytester import LineMatcher


def test_verdict():
    lines = ["platform linux", "rootdir: /tmp/x", "plugins: none"] + ["line %d of the run" % i for i in range(12)]
    LineMatcher(lines).fnmatch_lines(["collected 2 items"])


def load(text):
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError("settings are not JSON: %r" % text) from err


def test_chained():
    assert load("{bad") == {}
EOF
capture pytest deep deep 'pytest'

# startup_error: Python itself reports an error before the session starts
# (a .pth file in the user's site-packages that imports what is not
# there, as setuptools' distutils-precedence.pth does when
# _distutils_hack is gone); the tests then pass. The block must not drop
# the error under a summary that says they passed.
mkdir -p "$ROOT/userbase/lib/python3.11/site-packages"
echo 'import _distutils_hack' >"$ROOT/userbase/lib/python3.11/site-packages/distutils-precedence.pth"
capture pytest startup_error calc "PYTHONUSERBASE=$ROOT/userbase pytest -q"
capture pytest startup_merged calc "PYTHONUSERBASE=$ROOT/userbase pytest -q 2>&1"

# imitate: tests whose own output looks like pytest's result lines: a
# final line, PASSED lines, and the whole output of an inner pytest run
# (as a plugin's tests print it). Two of the three tests fail; none of
# the lines they print is a result of this run.
mkdir -p "$ROOT/imitate/tests" "$ROOT/imitate/inner"
cp "$ROOT/calc/pytest.ini" "$ROOT/imitate/"
cat >"$ROOT/imitate/inner/test_inner.py" <<'EOF2'
import pytest


@pytest.mark.parametrize("n", range(7))
def test_inner(n):
    assert n >= 0
EOF2
cat >"$ROOT/imitate/tests/test_imitate.py" <<'EOF2'
import pathlib
import subprocess
import sys

INNER = pathlib.Path(__file__).parent.parent / "inner"


def test_prints_passes():
    print("tests/test_other.py::test_one PASSED")
    print("== 5 passed in 0.10s ==")


def test_prints_then_fails():
    print()
    print("============================== 9 passed in 0.02s ===============================")
    print("tests/test_imitate.py::test_prints_then_fails PASSED")
    assert 1 + 1 == 3


def test_inner_session():
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(INNER)],
                         capture_output=True, text=True, cwd=INNER)
    print(run.stdout)
    assert run.returncode == 1, "the inner session was expected to fail"
EOF2
capture pytest imitate imitate 'pytest'
capture pytest imitate_rp imitate 'pytest -rP'
capture pytest imitate_s imitate 'pytest -s'
capture pytest imitate_tail imitate 'pytest -rP 2>&1 | tail -30'
capture pytest imitate_grep imitate "pytest -v | grep -E 'PASSED|passed'"
# imitate_head and imitate_head_15 end at an imitated final line inside
# a failure's captured output: the inner run's, and a test's own.
capture pytest imitate_head imitate 'pytest -q | head -37'
capture pytest imitate_head_15 imitate 'pytest -q | head -15'

fi

# ------------------------------------------------------------------ mypy

if want mypy; then

# typed: a package with type errors across three files, notes attached to
# errors, a reveal_type note, a missing import, at lines of one, two and
# three digits; and a clean package next to it.
mkdir -p "$ROOT/typed/inventory" "$ROOT/typed/clean"
touch "$ROOT/typed/inventory/__init__.py" "$ROOT/typed/clean/__init__.py"
cat >"$ROOT/typed/clean/units.py" <<'EOF'
def to_grams(kilos: float) -> float:
    return kilos * 1000


def label(name: str, grams: float) -> str:
    return f"{name}: {grams:.0f} g"
EOF
cat >"$ROOT/typed/inventory/stock.py" <<'EOF'
from dataclasses import dataclass
from typing import Optional


@dataclass
class Item:
    name: str
    count: int
    price: float


def find(items: list[Item], name: str) -> Optional[Item]:
    for item in items:
        if item.name == name:
            return item
    return None


def restock(item: Item, extra: int) -> int:
    item.count = item.count + str(extra)
    return item.count


def value(items: list[Item]) -> int:
    return sum(i.count * i.price for i in items)


def first_name(items: list[Item]) -> str:
    return find(items, "a").name
EOF
{
	echo '"""Reports over the inventory."""'
	filler 95
	cat <<'EOF'
from inventory.stock import Item, restock, value


def report(items: list[Item]) -> str:
    total: int = value(items)
    restock(items[0], "5")
    restock(items[0], extra=5, force=True)
    reveal_type(total)
    return total


def summary(items) -> None:
    return len(items)
EOF
} >"$ROOT/typed/inventory/report.py"
cat >"$ROOT/typed/inventory/remote.py" <<'EOF'
import shop_client


def fetch() -> int:
    return shop_client.count()
EOF

# clean: no issues.
capture mypy clean typed 'mypy clean'
# errors: errors with codes and notes in three files.
capture mypy errors typed 'mypy inventory'
# dot: the whole tree, the form agents type; cut as they pipe it. The
# closing "Found N errors in M files" line is mypy's only total.
capture mypy dot typed 'mypy .'
capture mypy dot_tail_5 typed 'mypy . | tail -5'
capture mypy dot_head_4 typed 'mypy . | head -4'
capture mypy dot_grep typed 'mypy . 2>&1 | grep error'
capture mypy dot_grep_v typed 'mypy . | grep -v note:'
capture mypy strict_tail typed 'mypy --strict inventory 2>&1 | tail -8'
capture mypy clean_tail typed 'mypy clean | tail -1'
capture mypy missing_tail typed 'mypy nosuch.py 2>&1 | tail -3'
# strict: the same package with --strict (more errors, untyped defs).
capture mypy strict typed 'mypy --strict inventory'
# columns: through the interpreter, with column numbers.
capture mypy columns typed 'python3 -m mypy --show-column-numbers inventory'
# missing_file: a path that does not exist; mypy exits 2 on stderr.
capture mypy missing_file typed 'mypy nosuch.py'

# syntax: a syntax error is a blocking error that stops the check.
mkdir -p "$ROOT/syntax"
printf 'def broken(:\n    pass\n' >"$ROOT/syntax/bad.py"
printf 'x: int = "a"\n' >"$ROOT/syntax/good.py"
capture mypy syntax syntax 'mypy bad.py good.py'

# many_errors: 150 errors in one module, more than any cap.
mkdir -p "$ROOT/manytyped"
{
	echo 'def need_int(x: int) -> int:'
	echo '    return x'
	echo
	echo
	for ((i = 1; i <= 150; i++)); do
		printf 'v%03d: int = need_int("%d")\n' "$i" "$i"
	done
} >"$ROOT/manytyped/many.py"
capture mypy many_errors manytyped 'mypy many.py'
capture mypy many_tail manytyped 'mypy many.py | tail -20'
capture mypy many_head manytyped 'mypy many.py | head -30'

fi

# ------------------------------------------------------------ pip_install

if want pip; then

# Local projects (setup.py only: Debian's python3-venv ships no build
# backend for pyproject builds without an index) and wheels built from
# them with pip wheel. The venv sees Debian's setuptools and wheel through
# --system-site-packages, so pip builds wheels the ordinary way.
PKGS=$ROOT/pkgs
mkdir -p "$PKGS"
# setup_py DIR NAME VERSION [REQUIRES...]: a one-module setuptools project.
setup_py() {
	local dir=$1 name=$2 version=$3
	shift 3
	local reqs=""
	for r in "$@"; do reqs+="\"$r\", "; done
	mkdir -p "$dir/$name"
	printf 'VERSION = "%s"\n' "$version" >"$dir/$name/__init__.py"
	cat >"$dir/setup.py" <<EOF
from setuptools import setup

setup(name="$name", version="$version", packages=["$name"], install_requires=[$reqs])
EOF
}
setup_py "$PKGS/shopcore" shopcore 1.2.0
setup_py "$PKGS/shopcore-old" shopcore 0.9.0
setup_py "$PKGS/shopapi" shopapi 2.0.1 "shopcore>=1.0"
setup_py "$PKGS/shoplegacy" shoplegacy 0.3.0 "shopcore<1.0"
for ((i = 1; i <= 24; i++)); do
	setup_py "$PKGS/plugin$i" "shopplugin$i" "1.0.$i" "shopcore>=1.0"
done
# broken: setup.py fails while pip reads its metadata.
mkdir -p "$PKGS/broken"
cat >"$PKGS/broken/setup.py" <<'EOF'
from setuptools import setup

import shop_build_helpers

setup(name="broken", version="0.1.0")
EOF
# cext: a C extension that does not compile, so the wheel build fails.
mkdir -p "$PKGS/cext"
cat >"$PKGS/cext/setup.py" <<'EOF'
from setuptools import Extension, setup

setup(name="cext", version="0.1.0", ext_modules=[Extension("cext", ["cext.c"])])
EOF
cat >"$PKGS/cext/cext.c" <<'EOF'
#include <Python.h>

static PyObject *speed(PyObject *self, PyObject *args) {
    return PyLong_FromLong(undefined_speed);
}
EOF

/usr/bin/python3 -m venv --system-site-packages "$ROOT/venv"
VENV=$ROOT/venv/bin
WHEELS=$ROOT/wheels
# Two calls: one pip wheel run cannot build two versions of shopcore.
"$VENV/pip" wheel -q --no-index --no-deps -w "$WHEELS" "$PKGS"/shopcore-old >/dev/null
"$VENV/pip" wheel -q --no-index --no-deps -w "$WHEELS" "$PKGS"/shopcore "$PKGS"/shopapi \
	"$PKGS"/shoplegacy "$PKGS"/plugin* >/dev/null
mkdir -p "$ROOT/app"
for ((i = 1; i <= 24; i++)); do echo "shopplugin$i"; done >"$ROOT/app/requirements.txt"

# pipcase CASE COMMAND: capture in $ROOT/app with the venv first on PATH, as
# an activated venv would have it. Each case starts from a fresh venv
# state: everything installed by an earlier case is removed first.
pipcase() {
	"$VENV/pip" uninstall -q -y shopcore shopapi shoplegacy cext broken $(seq -f 'shopplugin%g' 1 24) >/dev/null 2>&1 || true
	PATH="$VENV:$PATH" capture pip_install "$1" app "$2"
}

# local: two local projects; pip builds a wheel for each.
pipcase local "pip install ../pkgs/shopcore ../pkgs/shopapi"
# wheels: from locally built wheels, with the dependency resolved there.
pipcase wheels "pip install --no-index --find-links ../wheels shopapi"
# already: the same again, after a first install; nothing to do.
"$VENV/pip" install -q --no-index --find-links "$WHEELS" shopapi
PATH="$VENV:$PATH" capture pip_install already app "pip install --no-index --find-links ../wheels shopapi"
# requirements: 24 plugins and their shared dependency from a file.
pipcase requirements "pip install --no-index --find-links ../wheels -r requirements.txt"
# requirements cut: the last lines (Successfully installed), the first
# (Processing lines), and without the noise of the Processing lines.
pipcase requirements_tail "pip install --no-index --find-links ../wheels -r requirements.txt | tail -3"
pipcase requirements_head "pip install --no-index --find-links ../wheels -r requirements.txt | head -10"
pipcase requirements_grep_v "pip install --no-index --find-links ../wheels -r requirements.txt | grep -v Processing"
# quiet: the same with -q; pip prints nothing on success.
pipcase quiet "pip install -q --no-index --find-links ../wheels -r requirements.txt"
# dry_run: --dry-run says what it would install.
pipcase dry_run "pip install --dry-run --no-index --find-links ../wheels shopapi"
# editable: a local project in development mode.
pipcase editable "pip install --no-index -e ../pkgs/shopcore"
# python_m: through the interpreter.
pipcase python_m "python3 -m pip install --no-index --find-links ../wheels shopcore"
# not_found: a requirement no index or link has.
pipcase not_found "pip install --no-index --find-links ../wheels shop-nosuch"
# version_missing: the package exists, the version does not.
pipcase version_missing "pip install --no-index --find-links ../wheels shopcore==3.0"
# conflict: two requirements that need different versions of one package.
pipcase conflict "pip install --no-index --find-links ../wheels shopapi shoplegacy"
pipcase conflict_tail "pip install --no-index --find-links ../wheels shopapi shoplegacy 2>&1 | tail -8"
# broken_setup: setup.py raises while pip prepares the metadata.
pipcase broken_setup "pip install ../pkgs/broken"
# build_failure: the C extension does not compile.
pipcase build_failure "pip install ../pkgs/cext"
# build_failure cut: a tail that starts inside the compiler's output, and
# the error lines alone.
pipcase build_failure_tail "pip install ../pkgs/cext 2>&1 | tail -20"
pipcase build_failure_grep "pip install ../pkgs/cext 2>&1 | grep -E 'error|ERROR'"
pipcase build_failure_head "pip install ../pkgs/cext 2>&1 | head -12"
# index_down: the index cannot be reached (a closed local port), so pip
# retries and gives up.
pipcase index_down "pip install --index-url http://127.0.0.1:9/simple shopcore"
# dependency_warning: installing an old version under an installed package
# that needs a newer one succeeds with an ERROR line.
"$VENV/pip" install -q --no-index --find-links "$WHEELS" shopapi
PATH="$VENV:$PATH" capture pip_install dependency_warning app "pip install --no-index --find-links ../wheels shopcore==0.9.0"
# externally_managed: Debian's pip outside a venv refuses to install.
capture pip_install externally_managed app "pip install --no-index --find-links ../wheels shopcore"
fi
