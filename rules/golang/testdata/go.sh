#!/usr/bin/env bash
# go.sh regenerates the go_test, go_build, go_vet and go_mod corpus from real
# go runs on small modules written here for the purpose.
#
# Every case is a module under a fixed path ($ROOT/<case>), so the paths go
# prints (panic frames, "# pkg" headers, import cycles) are the same on every
# run. The command is run exactly as an agent would type it, from the module
# directory, with stdout and stderr redirected to files. Only the caches are
# private: a fresh GOCACHE so that no result is "(cached)" unless a case asks
# for it, and a fresh GOMODCACHE/GOPATH so that go_mod really downloads.
# Timings ("0.003s", "(1s)") and addresses in panic traces vary between runs;
# everything else is reproducible. go_mod needs the module proxy (network).
#
# Most go_test cases run without -json and without a filter have a twin:
# CASE.test2json holds go test -json of the same packages with the same
# flags, run right after it, the machine-readable truth its reference reader
# is checked against (reference_check_test.go). A twin never adds -v: with
# -json -v, go test passes -test.v=true after its own -test.v=test2json, the
# binary frames no line and test2json takes a test's own "--- PASS:" line
# for its result (the imitation case). The no_newline cases have none:
# test2json does not always see a result that follows a test's output
# without a final newline.
#
# Usage: bash rules/golang/testdata/go.sh [CASE...]
#   (then go test ./rules/golang -run TestGolden -update)
# With arguments, only the cases whose RULE/CASE matches one of them (shell
# patterns: 'go_test/piped*') are written; every command still runs, in
# order, so that a case sees the state the ones before it left (go_test/cached
# needs go_test/all_pass's cache).
set -euo pipefail

ROOT=/tmp/shrinkrun-corpus/go
OUT=$(cd "$(dirname "$0")" && pwd)

# The environment an agent's shell would have: nothing that changes go's
# output (flags, traceback level, colors, a pinned toolchain).
unset GOFLAGS GOTRACEBACK GODEBUG GOTOOLCHAIN GOWORK CGO_ENABLED
export LC_ALL=C

if [ -d "$ROOT" ]; then chmod -R u+w "$ROOT"; fi
rm -rf "$ROOT"
mkdir -p "$ROOT"
export GOCACHE=$ROOT/.cache/build GOPATH=$ROOT/.cache/gopath GOMODCACHE=$ROOT/.cache/mod

# capture RULE CASE DIR COMMAND: runs COMMAND (a string, as typed) in
# $ROOT/DIR and writes CASE.meta, CASE.stdout and CASE.stderr under OUT/RULE.
capture() {
	local rule=$1 name=$2 dir=$3 cmd=$4 code=0
	mkdir -p "$OUT/$rule" "$ROOT/$dir"
	if ! selected "$rule/$name"; then
		(cd "$ROOT/$dir" && bash -c "$cmd" >/dev/null 2>&1) || true
		return
	fi
	(cd "$ROOT/$dir" && bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\n' "$cmd" "$code" >"$OUT/$rule/$name.meta"
	printf '%-9s %-16s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
}

# twin CASE DIR COMMAND: the go test -json COMMAND of go_test/CASE, into
# go_test/CASE.test2json (selected as go_test/CASE.test2json; its stderr,
# which -json leaves empty but for go's own errors, is dropped).
twin() {
	local name=$1 dir=$2 cmd=$3
	if ! selected "go_test/$name.test2json"; then
		(cd "$ROOT/$dir" && bash -c "$cmd" >/dev/null 2>&1) || true
		return
	fi
	(cd "$ROOT/$dir" && bash -c "$cmd" >"$OUT/go_test/$name.test2json" 2>/dev/null) || true
	printf '%-9s %-16s twin      %s\n' go_test "$name" "$cmd"
}

# selected RULE/CASE: whether the case is one to write.
selected() {
	local p
	if [ ${#SELECT[@]} -eq 0 ]; then return 0; fi
	for p in "${SELECT[@]}"; do
		# shellcheck disable=SC2053
		if [[ $1 == $p ]]; then return 0; fi
	done
	return 1
}
SELECT=("$@")

# module DIR: an empty module example.com/demo in DIR.
module() {
	mkdir -p "$1"
	printf 'module example.com/demo\n\ngo 1.26\n' >"$1/go.mod"
}

# header PKG: a package clause and a block of comments, so that the code
# after it sits at line numbers of two and three digits (peers lose
# locations at line >= 10).
header() {
	printf 'package %s\n\n' "$1"
	local i
	for ((i = 1; i <= 8; i++)); do
		printf '// Note %d: this file is generated for the shrinkrun corpus.\n' "$i"
	done
	printf '\n'
}

# calc DIR: package calc (arithmetic with bugs) and its tests: Errorf with
# several lines, Fatalf, subtests that fail, pass and skip, a helper, logs
# before a failure, and an Example whose output differs.
calc() {
	mkdir -p "$1/calc"
	{
		header calc
		cat <<'EOF'
// Add adds two numbers.
func Add(a, b int) int { return a + b }

// Sub subtracts b from a (with a bug).
func Sub(a, b int) int { return a - b + 1 }

// Divide divides a by b, reporting division by zero.
func Divide(a, b int) (int, bool) {
	if b == 0 {
		return 0, true // bug: should report false
	}
	return a / b, true
}

// Mean is the mean of xs, 0 for none.
func Mean(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0
	for _, x := range xs {
		s += x
	}
	return float64(s) / float64(len(xs)-1) // bug
}
EOF
	} >"$1/calc/calc.go"
	{
		header calc
		cat <<'EOF'
import (
	"fmt"
	"testing"
)

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	t.Log("checking Sub on small numbers")
	if got := Sub(5, 3); got != 2 {
		t.Errorf("Sub(5, 3) = %d, want 2", got)
	}
	if got := Sub(0, 0); got != 0 {
		t.Errorf("Sub(0, 0) = %d, want 0\ninputs were both zero\nsee issue 12", got)
	}
}

func TestDivide(t *testing.T) {
	cases := []struct {
		name       string
		a, b, want int
		ok         bool
	}{
		{"exact", 6, 3, 2, true},
		{"truncates", 7, 2, 3, true},
		{"by_zero", 1, 0, 0, false},
		{"negative", -8, 2, -4, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := Divide(c.a, c.b)
			if got != c.want || ok != c.ok {
				t.Fatalf("Divide(%d, %d) = %d, %v; want %d, %v", c.a, c.b, got, ok, c.want, c.ok)
			}
		})
	}
}

func checkMean(t *testing.T, xs []int, want float64) {
	t.Helper()
	if got := Mean(xs); got != want {
		t.Errorf("Mean(%v) = %v, want %v", xs, got, want)
	}
}

func TestMean(t *testing.T) {
	for i := 1; i <= 3; i++ {
		t.Logf("round %d", i)
	}
	checkMean(t, nil, 0)
	checkMean(t, []int{2, 4}, 3)
	checkMean(t, []int{1, 2, 3}, 2)
}

func TestSkipped(t *testing.T) {
	t.Skip("needs a database")
}

func ExampleAdd() {
	fmt.Println(Add(1, 1))
	fmt.Println(Add(2, 2))
	// Output:
	// 2
	// 5
}
EOF
	} >"$1/calc/calc_test.go"
}

# strutil DIR: package strutil with passing tests only, many of them table
# subtests that log, so that a verbose run prints a lot.
strutil() {
	mkdir -p "$1/strutil"
	{
		header strutil
		cat <<'EOF'
import "strings"

// Reverse reverses s byte by byte.
func Reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// Words splits s on spaces.
func Words(s string) []string { return strings.Fields(s) }
EOF
	} >"$1/strutil/strutil.go"
	{
		header strutil
		cat <<'EOF'
import (
	"fmt"
	"testing"
)

func TestReverse(t *testing.T) {
	for i := 0; i < 60; i++ {
		in := fmt.Sprintf("word-%03d", i)
		t.Run(in, func(t *testing.T) {
			if got := Reverse(Reverse(in)); got != in {
				t.Errorf("Reverse twice = %q, want %q", got, in)
			}
			t.Logf("reversed %q", Reverse(in))
		})
	}
}

func TestWords(t *testing.T) {
	if n := len(Words("a b  c")); n != 3 {
		t.Errorf("Words = %d words, want 3", n)
	}
}

func TestShort(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in short mode")
	}
}
EOF
	} >"$1/strutil/strutil_test.go"
}

# parse DIR: package parse, passing.
parse() {
	mkdir -p "$1/parse"
	cat >"$1/parse/parse.go" <<'EOF'
package parse

import "strconv"

// Port parses a TCP port number.
func Port(s string) (int, error) { return strconv.Atoi(s) }
EOF
	cat >"$1/parse/parse_test.go" <<'EOF'
package parse

import "testing"

func TestPort(t *testing.T) {
	if p, err := Port("8080"); err != nil || p != 8080 {
		t.Fatalf("Port = %d, %v", p, err)
	}
}
EOF
}

# cmd DIR: a main package without tests.
cmdpkg() {
	mkdir -p "$1/cmd/demo"
	cat >"$1/cmd/demo/main.go" <<'EOF'
package main

import (
	"fmt"

	"example.com/demo/calc"
)

func main() { fmt.Println(calc.Add(1, 2)) }
EOF
}

# passing DIR: calc without bugs, strutil, parse and a main package.
passing() {
	module "$1"
	calc "$1"
	sed -i 's/return a - b + 1/return a - b/; s/return 0, true \/\/ bug: should report false/return 0, false/; s/len(xs)-1) \/\/ bug/len(xs))/' "$1/calc/calc.go"
	sed -i 's|// 5$|// 4|' "$1/calc/calc_test.go"
	strutil "$1"
	parse "$1"
	cmdpkg "$1"
}

# failing DIR: calc with its bugs, strutil, parse and a main package.
failing() {
	module "$1"
	calc "$1"
	strutil "$1"
	parse "$1"
	cmdpkg "$1"
}

########################################################################
# go_test


# all_pass: three packages with tests, one without.
passing "$ROOT/pass"
capture go_test all_pass pass 'go test ./...'
twin all_pass pass 'go test -json ./...'
# cached: the same run again; every result comes from the cache.
capture go_test cached pass 'go test ./...'
# verbose_pass: -v prints every test, subtest and log line.
capture go_test verbose_pass pass 'go test -count=1 -v ./...'
capture go_test cover pass 'go test -count=1 -cover ./...'
twin cover pass 'go test -json -count=1 -cover ./...'
# no_tests: -run matches nothing.
capture go_test no_tests pass 'go test -count=1 -run TestNothing ./...'
# short: skips in -v output are counted.
capture go_test short pass 'go test -count=1 -short -v ./strutil'
twin short pass 'go test -json -count=1 -short ./strutil'

# fail: failing tests in one package of four: reason lines after each
# "--- FAIL:" line, subtests nested under their parent, an Example.
failing "$ROOT/fail"
capture go_test fail fail 'go test ./...'
twin fail fail 'go test -json ./...'
# verbose_fail: the same with -v: reason lines come before "--- FAIL:".
capture go_test verbose_fail fail 'go test -v ./...'
twin verbose_fail fail 'go test -json ./...'
# run_filter: one test and its subtests, uncached, in one package.
capture go_test run_filter fail 'go test -count=1 -v -run TestDivide ./calc'
twin run_filter fail 'go test -json -count=1 -run TestDivide ./calc'
# count2: each test twice; every failure is reported twice.
capture go_test count2 fail 'go test -count=2 -run TestSub ./calc'
twin count2 fail 'go test -json -count=2 -run TestSub ./calc'
# json: the same run as test2json events, decoded by the rule.
capture go_test json fail 'go test -json ./...'
# merged: both streams on stdout.
capture go_test merged fail 'go test ./... 2>&1'
# piped: only the tail of the output, as the caller would see it.
capture go_test piped fail 'go test -v ./... 2>&1 | tail -40'

# many_failures: 150 failing table subtests and 5 failing tests: the names
# are capped at 100 and the failure contexts by the budget.
d=$ROOT/many
module "$d"
mkdir -p "$d/table"
{
	header table
	cat <<'EOF'
import (
	"fmt"
	"testing"
)

func square(n int) int { return n * (n + 1) }

func TestSquare(t *testing.T) {
	for i := 1; i <= 150; i++ {
		t.Run(fmt.Sprintf("n=%03d", i), func(t *testing.T) {
			if got := square(i); got != i*i {
				t.Errorf("square(%d) = %d, want %d", i, got, i*i)
			}
		})
	}
}
EOF
	for i in 1 2 3 4 5; do
		printf '\nfunc TestCheck%d(t *testing.T) {\n\tt.Fatalf("check %d failed: got %%d", square(%d))\n}\n' "$i" "$i" "$i"
	done
} >"$d/table/table_test.go"
capture go_test many_failures many 'go test ./...'
twin many_failures many 'go test -json ./...'

# panic: a nil-map write in the code under test, reached from a test; the
# trace runs through the code under test and the test before testing.*.
d=$ROOT/panic
module "$d"
mkdir -p "$d/store"
{
	header store
	cat <<'EOF'
// Store keeps counters by name.
type Store struct{ m map[string]int }

// Inc increments the counter of name.
func (s *Store) Inc(name string) { s.m[name]++ }

// Bump increments every counter in names.
func Bump(s *Store, names ...string) {
	for _, n := range names {
		s.Inc(n)
	}
}
EOF
} >"$d/store/store.go"
{
	header store
	cat <<'EOF'
import "testing"

func TestOK(t *testing.T) {}

func TestBump(t *testing.T) {
	t.Log("bumping a and b")
	var s Store
	Bump(&s, "a", "b")
}

func TestAfter(t *testing.T) {}
EOF
} >"$d/store/store_test.go"
parse "$d"
capture go_test panic panic 'go test ./...'
capture go_test panic_verbose panic 'go test -v ./store'
twin panic panic 'go test -json ./...'
twin panic_verbose panic 'go test -json ./store'

# timeout: two parallel tests still running when -timeout fires.
d=$ROOT/timeout
module "$d"
{
	header slow
	cat <<'EOF'
import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) {}

func wait(d time.Duration) { time.Sleep(d) }

func TestSlowA(t *testing.T) {
	t.Parallel()
	wait(30 * time.Second)
}

func TestSlowB(t *testing.T) {
	t.Parallel()
	wait(30 * time.Second)
}
EOF
} >"$d/slow_test.go"
capture go_test timeout timeout 'go test -timeout 1s'
twin timeout timeout 'go test -json -timeout 1s'

# stack_overflow: a runtime fatal error with a trace of thousands of frames.
d=$ROOT/overflow
module "$d"
{
	header deep
	cat <<'EOF'
import "testing"

func depth(n int) int { return depth(n+1) + 1 }

func TestDepth(t *testing.T) { depth(0) }
EOF
} >"$d/deep_test.go"
capture go_test stack_overflow overflow 'go test -run TestDepth .'

# exit_in_test: a test that exits the process: no "--- FAIL:" line, only
# the package's FAIL line and what it printed.
d=$ROOT/exit
module "$d"
{
	header cfg
	cat <<'EOF'
import (
	"fmt"
	"os"
	"testing"
)

func TestLoad(t *testing.T) {
	if _, err := os.Stat("testdata/app.conf"); err != nil {
		fmt.Fprintln(os.Stderr, "config missing:", err)
		os.Exit(3)
	}
}
EOF
} >"$d/cfg_test.go"
capture go_test exit_in_test exit 'go test ./...'
twin exit_in_test exit 'go test -json ./...'

# no_newline: tests that print without a final newline before they end.
# go test writes its own line after that output on the same line:
# "rendering 3 rows...--- FAIL: TestRender (0.00s)" without -v, and with
# -v also "...=== RUN   TestSections/footer" and "...    report_test.go:31:
# reason". test2json keeps go's lines in events of their own. A test that
# panics after such output ends its package's run.
d=$ROOT/nonl
module "$d"
mkdir -p "$d/report" "$d/loader"
{
	header report
	cat <<'EOF'
import (
	"fmt"
	"testing"
)

func TestRender(t *testing.T) {
	fmt.Print("rendering 3 rows...")
	t.Fail()
}

func TestTotals(t *testing.T) {
	fmt.Print("summing")
	t.Errorf("total = %d, want %d", 7, 6)
}

func TestHeader(t *testing.T) {
	fmt.Print("header ok")
}

func TestSections(t *testing.T) {
	t.Run("body", func(t *testing.T) {
		fmt.Print("body done")
	})
	t.Run("footer", func(t *testing.T) {
		t.Error("footer is missing")
	})
}
EOF
} >"$d/report/report_test.go"
{
	header loader
	cat <<'EOF'
import (
	"fmt"
	"testing"
)

func TestLoad(t *testing.T) {
	fmt.Print("loading fixture...")
	var seen map[string]int
	seen["fixture"]++
}
EOF
} >"$d/loader/loader_test.go"
capture go_test no_newline nonl 'go test ./...'
capture go_test no_newline_verbose nonl 'go test -v ./...'
capture go_test no_newline_json nonl 'go test -json ./...'

# race: a data race found by -race.
d=$ROOT/race
module "$d"
{
	header counter
	cat <<'EOF'
import (
	"sync"
	"testing"
)

func count(n int) int {
	total := 0
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			total++
		}()
	}
	wg.Wait()
	return total
}

func TestCount(t *testing.T) {
	if got := count(4); got > 4 {
		t.Errorf("count = %d", got)
	}
}
EOF
} >"$d/counter_test.go"
capture go_test race race 'go test -race .'
twin race race 'go test -json -race .'

# build_failed: compile errors in a test file and in a package's code, a
# package that builds and passes.
d=$ROOT/build
failing "$d"
sed -i 's/if got := Add(2, 3); got != 5 {/if got := Add(2, 3, 4); got != want {/' "$d/calc/calc_test.go"
cat >>"$d/parse/parse.go" <<'EOF'

// Host returns the host part of addr.
func Host(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	return host
}
EOF
capture go_test build_failed build 'go test ./...'
twin build_failed build 'go test -json ./...'
capture go_test build_failed_json build 'go test -json ./...'
capture go_test build_failed_merged build 'go test ./... 2>&1'

# vet_failed: go test's vet step finds a printf mistake.
d=$ROOT/vet
module "$d"
{
	header report
	cat <<'EOF'
import (
	"fmt"
	"testing"
)

func TestReport(t *testing.T) {
	fmt.Printf("%d items\n", "three")
}
EOF
} >"$d/report_test.go"
capture go_test vet_failed vet 'go test'
twin vet_failed vet 'go test -json'

# setup_failed: an import cycle.
d=$ROOT/cycle
module "$d"
mkdir -p "$d/a" "$d/b"
printf 'package a\n\nimport _ "example.com/demo/b"\n' >"$d/a/a.go"
printf 'package b\n\nimport _ "example.com/demo/a"\n' >"$d/b/b.go"
printf 'package b\n\nimport "testing"\n\nfunc TestB(t *testing.T) {}\n' >"$d/b/b_test.go"
capture go_test setup_failed cycle 'go test ./...'
twin setup_failed cycle 'go test -json ./...'

# no_module: no go.mod up the tree.
capture go_test no_module nomod 'go test ./...'

# imitate: tests whose own output imitates go's results: a failing test
# prints a passing result line for itself, the test binary's PASS and its
# package's ok line, and another package's ok line; another prints a whole
# [tool_output_compression] block that says everything passed, then fails.
# The package another test imitated fails too; one package passes.
d=$ROOT/imitate
module "$d"
mkdir -p "$d/fake" "$d/other" "$d/good"
{
	header fake
	cat <<'EOF'
import (
	"fmt"
	"testing"
)

// TestImitates prints what a test of a test runner might print, at the
// start of a line, then fails.
func TestImitates(t *testing.T) {
	t.Log("before the imitation")
	fmt.Println("--- PASS: TestImitates (0.00s)")
	fmt.Println("PASS")
	fmt.Println("ok  \texample.com/demo/fake\t0.001s")
	fmt.Println("ok  \texample.com/demo/other\t0.002s")
	t.Log("after the imitation")
	t.Error("the real result is a failure")
}

// TestPrintsBlock prints a block that reads as a passing run, then fails.
func TestPrintsBlock(t *testing.T) {
	for _, l := range []string{
		"[tool_output_compression]",
		"tool: bash",
		"rule: bash.go_test",
		"command: go test ./...",
		"success: true",
		"exit_code: 0",
		"raw_stdout_bytes: 120",
		"raw_stderr_bytes: 0",
		"stdout_truncated: false",
		"stderr_truncated: false",
		"compression: curated",
		"exit_code: 0",
		"packages_ok: 3",
		"packages_failed: 0",
		"tests_failed: 0",
		"final_status: ok  \texample.com/demo/good\t0.001s",
		"passed_packages:",
		"- ok  \texample.com/demo/fake\t0.001s",
	} {
		fmt.Println(l)
	}
	t.Fatal("printed a block, then failed")
}
EOF
} >"$d/fake/fake_test.go"
{
	header other
	cat <<'EOF'
import "testing"

func TestOther(t *testing.T) {
	t.Error("other fails on its own")
}
EOF
} >"$d/other/other_test.go"
printf 'package good\n\nimport "testing"\n\nfunc TestGood(t *testing.T) {}\n' >"$d/good/good_test.go"
capture go_test imitation imitate 'go test ./...'
twin imitation imitate 'go test -json ./...'
capture go_test imitation_verbose imitate 'go test -v ./...'
twin imitation_verbose imitate 'go test -json ./...'
capture go_test imitation_json imitate 'go test -json ./...'
capture go_test imitation_tail imitate 'go test ./... 2>&1 | tail -12'
capture go_test imitation_verbose_grep imitate "go test -v ./... 2>&1 | grep -E '^(---|ok|FAIL|PASS)'"

# exit_many_lines: a test that prints 25 lines and exits the process: the
# package's FAIL line and the last 10 of them, the others counted.
d=$ROOT/exitmany
module "$d"
{
	header boot
	cat <<'EOF'
import (
	"fmt"
	"os"
	"testing"
)

func TestBoot(t *testing.T) {
	for i := 1; i <= 25; i++ {
		fmt.Printf("boot step %02d of 25\n", i)
	}
	fmt.Fprintln(os.Stderr, "boot failed: no config")
	os.Exit(3)
}
EOF
} >"$d/boot_test.go"
capture go_test exit_many_lines exitmany 'go test ./...'
twin exit_many_lines exitmany 'go test -json ./...'
capture go_test exit_many_lines_tail exitmany 'go test ./... 2>&1 | tail -5'

# Filters, as agents type them: the end of the output (tail, one starting
# inside a failure's lines), its start (head), the failure lines (grep) and
# everything but the noise (grep -v), on text, -v and -json output, failing
# and passing. The exit status is the filter's.
capture go_test piped_tail fail 'go test ./... 2>&1 | tail -20'
capture go_test piped_tail_inside fail 'go test ./... 2>&1 | tail -14'
capture go_test piped_head fail 'go test ./... 2>&1 | head -12'
capture go_test piped_grep fail "go test ./... 2>&1 | grep -E 'FAIL|panic'"
capture go_test piped_grep_v fail "go test ./... 2>&1 | grep -v '^ok'"
capture go_test piped_verbose_tail fail 'go test -v ./... 2>&1 | tail -15'
capture go_test piped_verbose_head fail 'go test -v ./... 2>&1 | head -30'
capture go_test piped_verbose_grep fail "go test -v ./... 2>&1 | grep -E 'FAIL|panic'"
capture go_test piped_verbose_grep_v fail "go test -v ./... 2>&1 | grep -v -E '^(=== RUN|--- PASS|ok)'"
capture go_test piped_json_tail fail 'go test -json ./... | tail -30'
capture go_test piped_json_head fail 'go test -json ./... | head -40'
capture go_test piped_json_grep fail "go test -json ./... | grep -E 'FAIL|panic'"
capture go_test piped_json_grep_v fail "go test -json ./... | grep -v '\"Action\":\"run\"'"
capture go_test piped_pass_tail pass 'go test -count=1 ./... 2>&1 | tail -3'
capture go_test piped_pass_verbose_head pass 'go test -count=1 -v ./... | head -20'
capture go_test piped_panic_tail panic 'go test ./... 2>&1 | tail -15'
capture go_test piped_panic_grep panic "go test ./... 2>&1 | grep -E 'FAIL|panic'"
capture go_test piped_build_head build 'go test ./... 2>&1 | head -5'
capture go_test piped_build_tail build 'go test ./... 2>&1 | tail -4'
# swapped: 2>&1 1>&2 leaves both streams on stdout, as bash wires them.
capture go_test build_failed_swapped build 'go test ./... 2>&1 1>&2'

########################################################################
# go_build

capture go_build clean pass 'go build ./...'

# errors: type errors in two packages (one with have/want lines), a
# package that builds.
d=$ROOT/builderr
failing "$d"
cat >>"$d/calc/calc.go" <<'EOF'

// Twice doubles n.
func Twice(n int) int {
	unused := n
	return Add(n, n, n)
}

// Name is the package name.
func Name() int { return "calc" }
EOF
cat >>"$d/parse/parse.go" <<'EOF'

// Host returns the host part of addr.
func Host(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	return host
}
EOF
capture go_build errors builderr 'go build ./...'
capture go_build merged builderr 'go build ./... 2>&1'
capture go_build one_package builderr 'go build ./calc'

# too_many: more errors in one package than the compiler reports.
d=$ROOT/toomany
module "$d"
{
	header many
	for ((i = 1; i <= 14; i++)); do
		printf 'func f%02d() int { return missing%02d }\n' "$i" "$i"
	done
} >"$d/many.go"
capture go_build too_many toomany 'go build .'

# syntax: a syntax error.
d=$ROOT/syntax
module "$d"
{
	header syn
	printf 'func broken() {\n\tif x := 1; x > 0 {\n\t\treturn\n\t\n\nfunc other() {}\n'
} >"$d/syn.go"
capture go_build syntax syntax 'go build ./...'

# cycle: an import cycle.
capture go_build cycle cycle 'go build ./...'

# missing_module: an import no module provides.
d=$ROOT/missingdep
module "$d"
{
	header dep
	printf 'import "github.com/nowhere/nothing/pkg"\n\nvar _ = pkg.X\n'
} >"$d/dep.go"
capture go_build missing_module missingdep 'go build ./...'

# many_packages: sixty packages with one error each: the list is capped.
d=$ROOT/manypkgs
module "$d"
for ((i = 1; i <= 60; i++)); do
	mkdir -p "$d/p$i"
	{
		header "p$i"
		printf 'func Value() int { return "p%d" }\n' "$i"
	} >"$d/p$i/p.go"
done
capture go_build many_packages manypkgs 'go build ./...'
capture go_build piped_head manypkgs 'go build ./... 2>&1 | head -7'
capture go_build piped_tail manypkgs 'go build ./... 2>&1 | tail -5'
capture go_build piped_grep_v builderr "go build ./... 2>&1 | grep -v '^#'"
capture go_build piped_tail_inside builderr 'go build ./... 2>&1 | tail -6'

capture go_build no_module nomod 'go build ./...'

########################################################################
# go_vet

capture go_vet clean pass 'go vet ./...'

# findings: analyzers in three packages.
d=$ROOT/vetfind
module "$d"
mkdir -p "$d/report" "$d/model" "$d/lock"
{
	header report
	cat <<'EOF'
import "fmt"

// Print prints a report line.
func Print(name string, n int) {
	fmt.Printf("%s has %d items, %d pending\n", name, n)
	fmt.Printf("%d%%\n", name)
	fmt.Println("done\n")
}
EOF
} >"$d/report/report.go"
{
	header model
	cat <<'EOF'
// User is stored as JSON.
type User struct {
	Name  string `json:"name"`
	Email string `json:email`
	Age   int    `json:"age" xml:"age",omitempty`
}

// Same compares two numbers (badly).
func Same(a int) bool {
	a = a
	return a == a
}
EOF
} >"$d/model/model.go"
{
	header lock
	cat <<'EOF'
import "sync"

// Counter is guarded by mu.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Value returns the count; it copies the lock.
func (c Counter) Value() int { return c.n }

// Copy copies a counter with its lock.
func Copy(c *Counter) Counter { return *c }
EOF
} >"$d/lock/lock.go"
capture go_vet findings vetfind 'go vet ./...'
capture go_vet context vetfind 'go vet -c=1 ./report'
capture go_vet merged vetfind 'go vet ./... 2>&1'
capture go_vet piped_head vetfind 'go vet ./... 2>&1 | head -3'
capture go_vet piped_grep vetfind "go vet ./... 2>&1 | grep -E 'lock|struct'"

# type_errors: packages that do not compile and one with a finding.
capture go_vet type_errors builderr 'go vet ./...'

# many_findings: 70 printf findings in one file.
d=$ROOT/vetmany
module "$d"
{
	header noisy
	printf 'import "fmt"\n\n// Dump prints values with wrong verbs.\nfunc Dump() {\n'
	for ((i = 1; i <= 70; i++)); do
		printf '\tfmt.Printf("value %d: %%d\\n", "v%d")\n' "$i" "$i"
	done
	printf '}\n'
} >"$d/noisy.go"
capture go_vet many_findings vetmany 'go vet .'
capture go_vet piped_many_tail vetmany 'go vet . 2>&1 | tail -12'

########################################################################
# go_mod (needs the module proxy)

d=$ROOT/mod
module "$d"
printf 'package demo\n\nimport _ "golang.org/x/text/language"\n' >"$d/demo.go"
# get_added: a new requirement, downloaded into the empty module cache.
capture go_mod get_added mod 'go get golang.org/x/text@v0.20.0'
capture go_mod get_upgraded mod 'go get golang.org/x/text@v0.21.0'
capture go_mod get_downgraded mod 'go get golang.org/x/text@v0.19.0'
# get_missing: a version that does not exist.
capture go_mod get_missing mod 'go get golang.org/x/text@v0.99.0'
capture go_mod get_no_module mod 'go get golang.org/x/nonexistent@latest'
# get_x: -x prints every fetch from the proxy.
capture go_mod get_x mod 'go get -x golang.org/x/mod@v0.20.0'
capture go_mod piped_get_tail mod 'go get golang.org/x/mod@v0.21.0 2>&1 | tail -2'
capture go_mod piped_get_grep_v mod "go get -x golang.org/x/text@v0.20.0 2>&1 | grep -v '^# get'"
capture go_mod download mod 'go mod download'
capture go_mod download_missing mod 'go mod download golang.org/x/text@v0.99.0'

# get_deps: a module with requirements of its own, imported by a fresh
# module: go adds them too.
d=$ROOT/moddeps
module "$d"
printf 'package demo\n\nimport _ "golang.org/x/tools/go/packages"\n' >"$d/demo.go"
capture go_mod get_deps moddeps 'go get golang.org/x/tools@v0.30.0'
# download_x: every requirement again into an emptied module cache; and the
# same through tail.
chmod -R u+w "$GOMODCACHE"
rm -rf "$GOMODCACHE"
capture go_mod download_x moddeps 'go mod download -x'
chmod -R u+w "$GOMODCACHE"
rm -rf "$GOMODCACHE"
capture go_mod piped_download_tail moddeps 'go mod download -x 2>&1 | tail -20'

chmod -R u+w "$ROOT"
