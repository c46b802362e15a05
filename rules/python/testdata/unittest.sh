#!/usr/bin/env bash
# unittest.sh regenerates the unittest corpus, and the cases of pytest and
# unittest output that reach shrinkrun by another command than the runner's
# own (make test, npm run test, a shell script, tox): real runs of Debian's
# tools on small projects written here for the purpose.
#
# Tools: /usr/bin/python3 (3.11, Debian), its unittest, python3-django 3.2
# (manage.py test, and a reusable app's runtests.py), python3-pytest 7.2,
# GNU make, npm, and tox 3.28 (Debian's; its environments use the system's
# packages and install nothing). PATH is /usr/bin:/bin, so that no pyenv or
# other python3 on the caller's PATH is picked up.
#
# Every project is written under a fixed path ($ROOT/<project>), so the paths
# the tracebacks print are the same on every run. The command is run exactly
# as an agent would type it, from the project directory, with stdout and
# stderr redirected to files. Timings ("Ran 12 tests in 0.004s") vary between
# runs; everything else is reproducible.
#
# The reference: every unittest run (python -m unittest, manage.py test,
# runtests.py, under make or a script) writes, beside its text, unittest's
# own account of the run to CASE.report.json: a sitecustomize.py on
# PYTHONPATH wraps unittest.TextTestRunner.run, which every one of these
# runners calls, and records from the result object what each test did
# (its description as the text prints it, the first line of its exception as
# Python formats it) and the run's totals, one JSON line per run. It writes
# only that file: the output is the runner's own. The tests hold their
# reference reader of the text to it. Wrapped pytest cases get pytest's JUnit
# XML from a second run, as in python.sh.
#
# A case whose output the table recognizes by output, not by its command,
# says so in its meta ("recognized_by: output"); rules' TestCorpusRecognition
# holds every case to the rule the table gives its command and output.
#
# Usage: bash rules/python/testdata/unittest.sh [unittest] [django] [wrapped]
# (default: all three; then go test ./rules/python -run TestGolden -update)
set -euo pipefail

SECTIONS=${*:-unittest django wrapped}
want() { [[ " $SECTIONS " == *" $1 "* ]]; }

ROOT=/tmp/shrinkrun-corpus/unittest
OUT=$(cd "$(dirname "$0")" && pwd)

unset PYTEST_ADDOPTS PYTEST_PLUGINS FORCE_COLOR PY_COLORS NO_COLOR VIRTUAL_ENV PYTHONPATH \
	DJANGO_SETTINGS_MODULE CI TOX_TESTENV_PASSENV
export PATH=/usr/bin:/bin
export PYTHONDONTWRITEBYTECODE=1 LC_ALL=C.UTF-8

rm -rf "$ROOT"
mkdir -p "$ROOT/.report"

# The report hook (see above). It patches the base TestResult, whose
# methods every result class reaches through super(), and writes when the
# text runner's run returns.
cat >"$ROOT/.report/sitecustomize.py" <<'EOF'
import json
import os
import traceback
import unittest
import unittest.result

_PATH = os.environ.get("UNITTEST_REPORT")


def _first(err):
    lines = traceback.format_exception_only(err[0], err[1])
    return "".join(lines).splitlines()[0] if lines else ""


def _record(result, kind, test, err=None):
    if not hasattr(result, "_report"):
        result._report = []
    result._report.append({"kind": kind, "test": str(test), "id": test.id(),
                           "exception": _first(err) if err else ""})


def _wrap(name, kind, has_err):
    orig = getattr(unittest.result.TestResult, name)

    def method(self, test, *args):
        if has_err:
            _record(self, kind, test, args[0])
        else:
            _record(self, kind, test)
        return orig(self, test, *args)
    setattr(unittest.result.TestResult, name, method)


if _PATH:
    _wrap("addFailure", "failure", True)
    _wrap("addError", "error", True)
    _wrap("addUnexpectedSuccess", "unexpected_success", False)
    _orig_sub = unittest.result.TestResult.addSubTest

    def _add_sub(self, test, subtest, err):
        if err is not None:
            failure = issubclass(err[0], test.failureException)
            _record(self, "failure" if failure else "error", subtest, err)
        return _orig_sub(self, test, subtest, err)
    unittest.result.TestResult.addSubTest = _add_sub
    _orig_run = unittest.TextTestRunner.run

    def _run(self, test):
        result = _orig_run(self, test)
        with open(_PATH, "a") as f:
            f.write(json.dumps({
                "tests_run": result.testsRun,
                "failures": len(result.failures),
                "errors": len(result.errors),
                "skipped": len(result.skipped),
                "expected_failures": len(result.expectedFailures),
                "unexpected_successes": len(result.unexpectedSuccesses),
                "results": getattr(result, "_report", []),
            }, sort_keys=True) + "\n")
        return result
    unittest.TextTestRunner.run = _run
EOF

# capture RULE CASE DIR COMMAND [by]: runs COMMAND (a string, as typed) in
# $ROOT/DIR and writes CASE.meta, CASE.stdout, CASE.stderr and, for an
# uncut unittest run, CASE.report.json under OUT/RULE. A fifth argument
# "output" marks a case the table recognizes by its output.
capture() {
	local rule=$1 name=$2 dir=$3 cmd=$4 by=${5:-} code=0 report
	mkdir -p "$OUT/$rule"
	report=$OUT/$rule/$name.report.json
	rm -f "$report"
	rm -rf "$ROOT/$dir/.pytest_cache"
	(cd "$ROOT/$dir" && PYTHONPATH=$ROOT/.report UNITTEST_REPORT=$report \
		bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	{
		printf 'command: %s\nexit_code: %d\n' "$cmd" "$code"
		if [ "$by" = output ]; then printf 'recognized_by: output\n'; fi
	} >"$OUT/$rule/$name.meta"
	printf '%-9s %-22s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
	case "$cmd" in
	*'|'*) rm -f "$report" ;; # a cut output: the reference is its uncut run's
	esac
	if [ "$rule" = pytest ] && [[ "$cmd" != *'|'* ]]; then
		rm -rf "$ROOT/$dir/.pytest_cache"
		(cd "$ROOT/$dir" && PYTEST_ADDOPTS="-o junit_family=xunit1 --junitxml=$OUT/$rule/$name.junit.xml" \
			bash -c "$cmd" >/dev/null 2>&1) || true
		if [ -f "$OUT/$rule/$name.junit.xml" ]; then
			sed -i -E 's/ (time|timestamp|hostname)="[^"]*"//g' "$OUT/$rule/$name.junit.xml"
		fi
	fi
}

# filler N: N lines of constants, so that later code sits at line numbers of
# two and three digits (peers lose locations at line >= 10).
filler() {
	local i
	for ((i = 1; i <= $1; i++)); do
		printf 'LIMIT_%03d = %d\n' "$i" "$i"
	done
}

# ledger: a package whose tests all pass, with skips, an expected failure
# and subtests, in two modules.
ledger() {
	mkdir -p "$ROOT/ledger/ledger" "$ROOT/ledger/tests"
	touch "$ROOT/ledger/ledger/__init__.py" "$ROOT/ledger/tests/__init__.py"
	cat >"$ROOT/ledger/ledger/book.py" <<'EOF'
"""A ledger of entries in cents."""


def balance(entries):
    return sum(entries)


def parse_amount(text):
    whole, _, cents = text.strip().partition(".")
    return int(whole) * 100 + int((cents + "00")[:2])
EOF
	cat >"$ROOT/ledger/tests/test_book.py" <<'EOF'
import sys
import unittest

from ledger.book import balance, parse_amount


class BalanceTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(balance([]), 0)

    def test_sum(self):
        for n in range(10):
            with self.subTest(n=n):
                self.assertEqual(balance([n, n]), 2 * n)

    @unittest.skipIf(sys.maxsize > 2**40, "needs a 32-bit build")
    def test_overflow(self):
        self.assertEqual(balance([2**31, 2**31]), 2**32)


class ParseTest(unittest.TestCase):
    def test_whole(self):
        self.assertEqual(parse_amount("12"), 1200)

    def test_cents(self):
        self.assertEqual(parse_amount(" 3.5 "), 350)

    @unittest.expectedFailure
    def test_negative(self):
        self.assertEqual(parse_amount("-1.50"), -150)
EOF
	cat >"$ROOT/ledger/tests/test_report.py" <<'EOF'
import unittest

from ledger.book import balance


class ReportTest(unittest.TestCase):
    def test_month(self):
        self.assertEqual(balance([100] * 30), 3000)

    @unittest.skip("the report layout is not settled")
    def test_layout(self):
        pass

    def test_year(self):
        self.assertEqual(balance([100] * 365), 36500)
EOF
}

# billing: the ways a unittest test fails or errs, at lines of one, two and
# three digits: assertion failures with long diffs, exceptions, a chained
# exception, subtest failures, an error in setUpClass, a module that does
# not import, an unexpected success, skips, a test that prints.
billing() {
	mkdir -p "$ROOT/billing/billing" "$ROOT/billing/tests"
	touch "$ROOT/billing/billing/__init__.py" "$ROOT/billing/tests/__init__.py"
	{
		echo '"""Invoices, with the bugs the tests find."""'
		filler 90
		cat <<'EOF'


def total(lines):
    return sum(qty * price for qty, price in lines[1:])


def tax(amount, rate):
    return round(amount * rate)


def lookup(rates, region):
    return rates[region.lower()]


def split(amount, parts):
    share = amount // parts
    return [share] * parts
EOF
	} >"$ROOT/billing/billing/invoice.py"
	{
		cat <<'EOF'
import unittest

from billing.invoice import lookup, split, tax, total


class TotalTest(unittest.TestCase):
    def test_one_line(self):
        self.assertEqual(total([(2, 500)]), 1000)

    def test_lines(self):
        """Every line counts towards the total."""
        self.assertEqual(total([(1, 100), (2, 250), (3, 10)]), 630)

    def test_empty(self):
        self.assertEqual(total([]), 0)


class TaxTest(unittest.TestCase):
    def test_rates(self):
        for rate, want in [(0.0, 0), (0.2, 20), (0.25, 26), (0.5, 50)]:
            with self.subTest(rate=rate):
                self.assertEqual(tax(101, rate), want)

    def test_lookup(self):
        self.assertEqual(lookup({"eu": 0.2}, "EU-West"), 0.2)

    def test_chained(self):
        try:
            lookup({}, "us")
        except KeyError as e:
            raise RuntimeError("no rate for region us") from e
EOF
		filler 60 | sed 's/^/# /'
		cat <<'EOF'


class SplitTest(unittest.TestCase):
    def test_even(self):
        self.assertEqual(split(90, 3), [30, 30, 30])

    def test_remainder(self):
        self.assertEqual(split(100, 3), [34, 33, 33])

    def test_shares(self):
        self.assertListEqual(split(1000, 7), [143, 143, 143, 143, 143, 143, 142])

    def test_prints(self):
        print("splitting 10 into 0 parts")
        split(10, 0)

    @unittest.expectedFailure
    def test_zero_parts(self):
        self.assertEqual(split(0, 1), [0])

    @unittest.skip("rounding rules under review")
    def test_rounding(self):
        pass
EOF
	} >"$ROOT/billing/tests/test_invoice.py"
	cat >"$ROOT/billing/tests/test_db.py" <<'EOF'
import unittest


class LedgerDBTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise ConnectionError("ledger database at localhost:5432 refused the connection")

    def test_insert(self):
        pass
EOF
	cat >"$ROOT/billing/tests/test_export.py" <<'EOF'
import unittest

from billing.export import to_csv


class ExportTest(unittest.TestCase):
    def test_csv(self):
        self.assertEqual(to_csv([]), "")
EOF
}

# many: 150 failing subtests and 150 failing tests, more than any cap.
many() {
	mkdir -p "$ROOT/many/tests"
	touch "$ROOT/many/tests/__init__.py"
	{
		echo 'import unittest'
		echo
		echo
		echo 'class ManyTest(unittest.TestCase):'
		for ((i = 0; i < 150; i++)); do
			printf '    def test_case_%03d(self):\n        self.assertEqual(%d %% 7, %d)\n\n' "$i" "$i" "$((i % 5))"
		done
	} >"$ROOT/many/tests/test_many.py"
}

# inventory: a larger suite, 240 tests in 8 modules of which two fail,
# the size of a real project's, run with -v as agents run it.
inventory() {
	mkdir -p "$ROOT/inventory/tests"
	touch "$ROOT/inventory/tests/__init__.py"
	local m i
	for m in stock orders returns pricing suppliers shelves audit reports; do
		{
			echo 'import unittest'
			echo
			echo
			printf 'class %sTest(unittest.TestCase):\n' "${m^}"
			for ((i = 0; i < 30; i++)); do
				printf '    def test_%s_%02d(self):\n        self.assertEqual(sum(range(%d)), %d)\n\n' "$m" "$i" "$i" "$((i * (i - 1) / 2))"
			done
		} >"$ROOT/inventory/tests/test_$m.py"
	done
	sed -i 's/self.assertEqual(sum(range(17)), 136)/self.assertEqual(sum(range(17)), 137)/' "$ROOT/inventory/tests/test_orders.py"
	sed -i 's/self.assertEqual(sum(range(4)), 6)/self.assertEqual(sum(range(4)) \/\/ 0, 6)/' "$ROOT/inventory/tests/test_audit.py"
}

# ---------------------------------------------------------------- unittest

if want unittest; then
	ledger
	billing
	many
	inventory
	mkdir -p "$ROOT/empty"

	capture unittest pass ledger 'python3 -m unittest'
	capture unittest pass_verbose ledger 'python3 -m unittest -v'
	capture unittest pass_discover ledger 'python3 -m unittest discover -s tests -t .'
	capture unittest pass_quiet ledger 'python3 -m unittest -q'
	capture unittest failures billing 'python3 -m unittest'
	capture unittest failures_verbose billing 'python3 -m unittest -v'
	capture unittest failures_buffer billing 'python3 -m unittest -b'
	capture unittest failfast billing 'python3 -m unittest -f tests.test_invoice'
	capture unittest locals billing 'python3 -m unittest --locals tests.test_invoice.TotalTest'
	capture unittest one_module billing 'python3 -m unittest tests.test_db'
	capture unittest not_found billing 'python3 -m unittest tests.test_nosuch'
	capture unittest bad_option billing 'python3 -m unittest --no-such-option'
	capture unittest many many 'python3 -m unittest'
	capture unittest many_verbose many 'python3 -m unittest -v'
	capture unittest no_tests empty 'python3 -m unittest'
	capture unittest suite_verbose inventory 'python3 -m unittest -v'
	capture unittest suite inventory 'python3 -m unittest'
	capture unittest suite_verbose_tail inventory 'python3 -m unittest -v 2>&1 | tail -40'
	# Cut as agents pipe it: each is the real output of the piped command,
	# its exit status the filter's.
	capture unittest tail_30 billing 'python3 -m unittest 2>&1 | tail -30'
	capture unittest tail_8 billing 'python3 -m unittest 2>&1 | tail -8'
	capture unittest head_40 billing 'python3 -m unittest 2>&1 | head -40'
	capture unittest grep_fail billing "python3 -m unittest 2>&1 | grep -E 'FAIL|Error'"
	capture unittest verbose_grep_v billing "python3 -m unittest -v 2>&1 | grep -v ' ok\$'"
	capture unittest many_tail many 'python3 -m unittest 2>&1 | tail -20'
	capture unittest many_head many 'python3 -m unittest -v 2>&1 | head -100'
	capture unittest pass_tail ledger 'python3 -m unittest 2>&1 | tail -3'

	# runtests.py: a project's own script that builds the suite and runs
	# unittest's text runner, as Django's tests/runtests.py does; the
	# command does not say which runner it starts.
	cat >"$ROOT/billing/runtests.py" <<'EOF'
#!/usr/bin/env python3
"""Runs the billing tests: all of them, or the modules named."""
import argparse
import sys
import unittest


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("modules", nargs="*", help="test modules, as tests.test_x")
    parser.add_argument("-v", "--verbosity", type=int, default=1)
    parser.add_argument("--failfast", action="store_true")
    args = parser.parse_args()
    loader = unittest.TestLoader()
    if args.modules:
        suite = loader.loadTestsFromNames(args.modules)
    else:
        suite = loader.discover("tests", top_level_dir=".")
    print("Testing billing with %d tests" % suite.countTestCases())
    result = unittest.TextTestRunner(verbosity=args.verbosity, failfast=args.failfast).run(suite)
    sys.exit(not result.wasSuccessful())


if __name__ == "__main__":
    main()
EOF
	chmod +x "$ROOT/billing/runtests.py"
	cp "$ROOT/billing/runtests.py" "$ROOT/ledger/runtests.py"
	sed -i 's/billing/ledger/g' "$ROOT/ledger/runtests.py"
	capture unittest runtests billing './runtests.py' output
	capture unittest runtests_module billing 'python3 runtests.py tests.test_invoice -v 2' output
	capture unittest runtests_pass ledger 'python3 runtests.py' output
	capture unittest runtests_tail billing 'python3 runtests.py 2>&1 | tail -25' output

	# make test: a Makefile target (bash.make, whose output unittest's
	# signature claims), and a CI script.
	printf 'test:\n\tpython3 -m unittest discover -s tests -t . -v\n' >"$ROOT/billing/Makefile"
	printf 'test:\n\tpython3 -m unittest\n' >"$ROOT/ledger/Makefile"
	capture unittest make billing 'make test' output
	capture unittest make_pass ledger 'make test' output
	cat >"$ROOT/billing/ci.sh" <<'EOF'
#!/bin/sh
set -e
echo "== lint"
python3 -m compileall -q billing tests
echo "== unit tests"
python3 -m unittest
EOF
	capture unittest script billing 'bash ci.sh' output

	# printed: a test that prints a line in unittest's words (a report
	# formatter's sample, "Ran 3 tests in 0.100s") in a run of its own:
	# the printed line is no run.
	mkdir -p "$ROOT/printed/tests"
	touch "$ROOT/printed/tests/__init__.py"
	cat >"$ROOT/printed/tests/test_report.py" <<'EOF'
import unittest


def summary(n, seconds):
    return "Ran %d tests in %.3fs" % (n, seconds)


class SummaryTest(unittest.TestCase):
    def test_prints_sample(self):
        print(summary(3, 0.1))
        self.assertTrue(summary(3, 0.1).startswith("Ran 3 tests"))

    def test_one_test(self):
        self.assertEqual(summary(1, 0), "Ran 1 test in 0.000s")
EOF
	capture unittest printed printed 'python3 -m unittest -v'
fi

# ------------------------------------------------------------------ django

if want django; then
	# site: a Django 3.2 project with one app whose model tests pass and
	# fail, run by manage.py test against an SQLite test database.
	mkdir -p "$ROOT/site/site" "$ROOT/site/polls"
	cat >"$ROOT/site/manage.py" <<'EOF'
#!/usr/bin/env python3
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_conf.settings")
    from django.core.management import execute_from_command_line
    execute_from_command_line(sys.argv)
EOF
	chmod +x "$ROOT/site/manage.py"
	rmdir "$ROOT/site/site"
	mkdir -p "$ROOT/site/site_conf"
	touch "$ROOT/site/site_conf/__init__.py" "$ROOT/site/polls/__init__.py"
	cat >"$ROOT/site/site_conf/settings.py" <<'EOF'
SECRET_KEY = "corpus-only"
DEBUG = True
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "polls"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True
EOF
	cat >"$ROOT/site/polls/models.py" <<'EOF'
import datetime

from django.db import models
from django.utils import timezone


class Question(models.Model):
    text = models.CharField(max_length=200)
    published = models.DateTimeField()

    def was_published_recently(self):
        return self.published >= timezone.now() - datetime.timedelta(days=1)

    def votes(self):
        return sum(c.votes for c in self.choice_set.all()) + 1


class Choice(models.Model):
    question = models.ForeignKey(Question, on_delete=models.CASCADE)
    text = models.CharField(max_length=200)
    votes = models.IntegerField(default=0)
EOF
	cat >"$ROOT/site/polls/tests.py" <<'EOF'
import datetime

from django.test import TestCase
from django.utils import timezone

from .models import Choice, Question


class QuestionTests(TestCase):
    def test_recent(self):
        q = Question(text="q", published=timezone.now())
        self.assertIs(q.was_published_recently(), True)

    def test_future(self):
        """A question published in the future is not recent."""
        q = Question(text="q", published=timezone.now() + datetime.timedelta(days=30))
        self.assertIs(q.was_published_recently(), False)

    def test_old(self):
        q = Question(text="q", published=timezone.now() - datetime.timedelta(days=2))
        self.assertIs(q.was_published_recently(), False)


class ChoiceTests(TestCase):
    def setUp(self):
        self.q = Question.objects.create(text="Best colour?", published=timezone.now())

    def test_votes(self):
        Choice.objects.create(question=self.q, text="red", votes=2)
        Choice.objects.create(question=self.q, text="blue", votes=3)
        self.assertEqual(self.q.votes(), 5)

    def test_missing(self):
        self.assertEqual(Choice.objects.get(text="green").votes, 0)

    def test_count(self):
        Choice.objects.create(question=self.q, text="red")
        self.assertEqual(self.q.choice_set.count(), 1)
EOF
	capture unittest django_fail site 'python3 manage.py test'
	capture unittest django_verbose site './manage.py test -v 2'
	capture unittest django_one site 'python3 manage.py test polls.tests.QuestionTests'
	capture unittest django_quiet site 'python3 manage.py test -v 0'
	capture unittest django_tail site 'python3 manage.py test 2>&1 | tail -15'
	capture unittest django_no_app site 'python3 manage.py test nosuchapp'

	# passing: the same app with the bugs fixed.
	rm -rf "$ROOT/site_ok"
	cp -r "$ROOT/site" "$ROOT/site_ok"
	sed -i 's/) + 1$/)/' "$ROOT/site_ok/polls/models.py"
	sed -i 's/>= timezone.now() - datetime.timedelta(days=1)/>= timezone.now() - datetime.timedelta(days=1) and self.published <= timezone.now()/' "$ROOT/site_ok/polls/models.py"
	sed -i 's/Choice.objects.get(text="green").votes, 0/Choice.objects.filter(text="green").count(), 0/' "$ROOT/site_ok/polls/tests.py"
	capture unittest django_pass site_ok 'python3 manage.py test'

	# A reusable app's runtests.py, the usual form: settings configured in
	# the script, Django's own test runner.
	cat >"$ROOT/site/runtests.py" <<'EOF'
#!/usr/bin/env python3
import sys

import django
from django.conf import settings
from django.test.utils import get_runner

if __name__ == "__main__":
    settings.configure(
        INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "polls"],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3"}},
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        USE_TZ=True,
    )
    django.setup()
    TestRunner = get_runner(settings)
    failures = TestRunner().run_tests(sys.argv[1:] or ["polls"])
    sys.exit(bool(failures))
EOF
	capture unittest django_runtests site 'python3 runtests.py' output
fi

# ----------------------------------------------------------------- wrapped

if want wrapped; then
	# shop: a pytest suite with failures, run through make, npm, a CI
	# script and tox, whose output pytest's signature claims.
	mkdir -p "$ROOT/shop/shop" "$ROOT/shop/tests"
	touch "$ROOT/shop/shop/__init__.py"
	{
		echo '"""A cart with bugs for the tests to find."""'
		filler 40
		cat <<'EOF'


def total(prices):
    return sum(prices[1:])


def discount(price, percent):
    if percent > 100:
        raise ValueError("percent must be at most 100, got %d" % percent)
    return price * (100 - percent) // 100
EOF
	} >"$ROOT/shop/shop/cart.py"
	cat >"$ROOT/shop/tests/test_cart.py" <<'EOF'
import pytest

from shop.cart import discount, total


@pytest.mark.parametrize("n", range(40))
def test_total_many(n):
    assert total([n, n]) == 2 * n


def test_total():
    assert total([1, 2, 3]) == 6


def test_discount():
    assert discount(200, 25) == 150


def test_discount_over():
    assert discount(100, 120) == 0
EOF
	printf '[pytest]\ntestpaths = tests\npythonpath = .\n' >"$ROOT/shop/pytest.ini"
	printf 'test:\n\tpytest -q\n\ncheck:\n\tpytest\n' >"$ROOT/shop/Makefile"
	cat >"$ROOT/shop/package.json" <<'EOF'
{
  "name": "shop",
  "version": "1.0.0",
  "private": true,
  "scripts": {
    "test": "pytest",
    "test:unit": "pytest -q tests"
  }
}
EOF
	cat >"$ROOT/shop/ci.sh" <<'EOF'
#!/bin/sh
echo "running the test suite"
pytest
status=$?
echo "tests finished with status $status"
exit $status
EOF
	cat >"$ROOT/shop/tox.ini" <<'EOF'
[tox]
envlist = py311
skipsdist = true

[testenv]
sitepackages = true
deps =
commands = pytest {posargs}
EOF
	capture pytest make_test shop 'make test' output
	capture pytest make_check shop 'make check' output
	capture pytest npm_test shop 'npm test' output
	capture pytest npm_run_unit shop 'npm run test:unit' output
	capture pytest script shop 'bash ci.sh' output
	capture pytest script_tail shop 'bash ci.sh 2>&1 | tail -15' output
	capture pytest tox shop 'tox -q' output
fi
