package cargo

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestTestTotals(t *testing.T) {
	var tt testTotals
	tt.add("test result: FAILED. 1 passed; 9 failed; 2 ignored; 0 measured; 3 filtered out; finished in 0.00s")
	tt.add("test result: ok. 30 passed; 0 failed; 0 ignored; 4 measured; 0 filtered out; finished in 1.25s")
	tt.add("not a result")
	want := testTotals{passed: 31, failed: 9, ignored: 2, measured: 4, filteredOut: 3}
	if tt != want {
		t.Errorf("totals = %+v, want %+v", tt, want)
	}
}

func TestIsRunningTests(t *testing.T) {
	for l, want := range map[string]bool{
		"running 3 tests":     true,
		"running 1 test":      true,
		"running 0 tests":     true,
		"running  tests":      false,
		"running x tests":     false,
		"running 3 tests now": false,
		"     Running tests/api.rs (target/debug/deps/api-1)": false,
	} {
		if got := isRunningTests(l); got != want {
			t.Errorf("isRunningTests(%q) = %v", l, got)
		}
	}
}

func TestFailedMark(t *testing.T) {
	for l, want := range map[string]string{
		"test tests::add ... FAILED":                         "tests::add",
		"test tests::peek - should panic ... FAILED":         "tests::peek",
		"test src/lib.rs - add (line 5) ... FAILED":          "src/lib.rs - add (line 5)",
		"edge_tests::parse_underscore --- FAILED":            "edge_tests::parse_underscore",
		"test tests::add ... ok":                             "",
		"test result: FAILED. 0 passed; 1 failed; 0 ignored": "",
	} {
		got, ok := failedMark(l)
		if got != want || ok != (want != "") {
			t.Errorf("failedMark(%q) = %q, %v", l, got, ok)
		}
	}
}

func TestFailureLines(t *testing.T) {
	note := "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
	tests := []struct {
		name string
		in   []string
		kept []string
		lost int
	}{
		{
			"panic after captured prints",
			[]string{"step 1", "step 2", "", "thread 't' (9) panicked at src/lib.rs:18:9:", "assertion `left == right` failed", "  left: 4", " right: 0", note, ""},
			[]string{"thread 't' (9) panicked at src/lib.rs:18:9:", "assertion `left == right` failed", "  left: 4", " right: 0"},
			3,
		},
		{
			"no panic: from the start",
			[]string{"note: test did not panic as expected at src/lib.rs:37:8"},
			[]string{"note: test did not panic as expected at src/lib.rs:37:8"},
			0,
		},
		{
			"old panic form",
			[]string{"", "thread 't' panicked at src/lib.rs:7:5:", "boom"},
			[]string{"thread 't' panicked at src/lib.rs:7:5:", "boom"},
			0,
		},
	}
	for _, tt := range tests {
		kept, lost := failureLines(tt.in)
		if !slices.Equal(kept, tt.kept) || lost != tt.lost {
			t.Errorf("%s: kept %q lost %d; want %q lost %d", tt.name, kept, lost, tt.kept, tt.lost)
		}
	}

	long := []string{"thread 't' (1) panicked at src/lib.rs:1:1:"}
	for i := range 30 {
		long = append(long, fmt.Sprintf("line %d", i))
	}
	kept, lost := failureLines(long)
	if len(kept) != maxFailureLines || lost != 31-maxFailureLines {
		t.Errorf("long section: kept %d lost %d", len(kept), lost)
	}
}

func cargoBody(r *summarize.Run) string {
	return string(byID[r.Rule](r).Render())
}

// byID are the family's rules by id, as the table has them.
var byID = map[string]summarize.Func{
	"bash.cargo_check": Check, "bash.cargo_test": Test, "bash.cargo_build": Build, "bash.cargo_clippy": Clippy,
}

// TestShouldPanicNocapture: with --nocapture the panic of a should_panic
// test that passes lands on stderr too; only failing tests' panics are
// failures.
func TestShouldPanicNocapture(t *testing.T) {
	r := &summarize.Run{Rule: "bash.cargo_test", Exited: true, ExitCode: 101,
		Stderr: []byte(`     Running unittests src/lib.rs (target/debug/deps/demo-1)

thread 'tests::pop_empty' (11) panicked at src/lib.rs:11:22:
pop on an empty stack

thread 'tests::sum' (12) panicked at src/lib.rs:30:9:
assertion failed: sum(&[]) == 1
error: test failed, to rerun pass ` + "`--lib`" + `
`),
		Stdout: []byte(`
running 2 tests
test tests::pop_empty - should panic ... ok
test tests::sum ... FAILED

failures:

failures:
    tests::sum

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

`)}
	got := cargoBody(r)
	if strings.Contains(got, "pop_empty") {
		t.Errorf("a passing should_panic test's panic was reported:\n%s", got)
	}
	if !strings.Contains(got, "failures:\n- thread 'tests::sum' (12) panicked at src/lib.rs:30:9:\n  assertion failed: sum(&[]) == 1\n") {
		t.Errorf("the failing test's panic is missing:\n%s", got)
	}
}

// TestUnpairedResults: results are paired with Running lines only when
// there is one per binary.
func TestUnpairedResults(t *testing.T) {
	r := &summarize.Run{Rule: "bash.cargo_test", Exited: true,
		Stderr: []byte("     Running unittests src/lib.rs (target/debug/deps/demo-1)\n"),
		Stdout: []byte("running 1 test\ntest a ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n" +
			"running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n")}
	got := cargoBody(r)
	if strings.Contains(got, "Running") || strings.Count(got, "- test result: ok.") != 2 {
		t.Errorf("results paired with the wrong headers:\n%s", got)
	}
}

// TestFailedTestsCap: at least a hundred failing names, then the count of
// the rest; the failure contexts are capped separately.
func TestFailedTestsCap(t *testing.T) {
	var out strings.Builder
	out.WriteString("running 150 tests\n\nfailures:\n\n")
	for i := range 150 {
		fmt.Fprintf(&out, "---- t%03d stdout ----\n\nthread 't%03d' (%d) panicked at tests/a.rs:%d:5:\nboom\n\n", i, i, i, 5*i+3)
	}
	out.WriteString("\nfailures:\n")
	for i := range 150 {
		fmt.Fprintf(&out, "    t%03d\n", i)
	}
	out.WriteString("\ntest result: FAILED. 0 passed; 150 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n")
	r := &summarize.Run{Rule: "bash.cargo_test", Exited: true, ExitCode: 101, Stdout: []byte(out.String())}
	got := cargoBody(r)
	for _, want := range []string{
		"failed: 150\n",
		"- t099\nfailed_tests_omitted: 50\n",
		"- thread 't029' (29) panicked at tests/a.rs:148:5:\n  boom\nfailures_omitted: 120\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestCargoBudget: every corpus block stays within a small budget, and the
// counts, names and statuses survive it.
func TestCargoBudget(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		if !strings.HasPrefix(c.Name, "cargo_") {
			continue
		}
		r := *c.Run
		r.Budget = 2048
		r.RawOutput = "shrinkrun show 0123456789abcdef"
		b := byID[r.Rule](&r).Render()
		// The header and the raw_output line take what BodyRoom leaves.
		if n := r.BlockBudget() - r.BodyRoom() + len(b); n > r.Budget && !strings.Contains(c.Name, "many_failures") {
			// many_failures lists 100 names, which a 2 KiB budget cannot
			// hold; names are never dropped for the budget.
			t.Errorf("%s: %d bytes over a budget of %d:\n%s", c.Name, n, r.Budget, b)
		}
		full := cargoBody(c.Run)
		for _, key := range []string{"exit_code:", "errors:", "final_status:", "failed:"} {
			if strings.Contains(full, key) && !strings.Contains(string(b), key) {
				t.Errorf("%s: %s lost to the budget", c.Name, key)
			}
		}
	}
}

// TestCargoTestNames: the failing names of every whole corpus case are
// exactly the names libtest lists, and as many as the results count as
// failed. (ui_nocapture's test prints a FAILED line of its own under
// --nocapture; a cut case shows only part of either.)
func TestCargoTestNames(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		if c.Run.Rule != "bash.cargo_test" || len(c.Run.Cut.By) > 0 || c.Name == "cargo_test/ui_nocapture" {
			continue
		}
		var tl testLog
		for _, l := range summarize.Lines(c.Run.Stderr) {
			tl.Feed(l)
		}
		tl.EndStream()
		for _, l := range summarize.Lines(c.Run.Stdout) {
			tl.Feed(l)
		}
		var tot testTotals
		var names []string
		for _, bin := range tl.bins {
			tot.add(bin.result)
			names = append(names, bin.failed...)
			marks := slices.Clone(bin.failedMarks)
			slices.Sort(marks)
			if bin.result != "" && !slices.Equal(marks, bin.failed) && len(marks) > 0 {
				t.Errorf("%s: FAILED lines %q, failures list %q", c.Name, marks, bin.failed)
			}
		}
		if len(names) != tot.failed {
			t.Errorf("%s: %d names, %d failed", c.Name, len(names), tot.failed)
		}
	}
}

// TestResultsCap: past the cap, results are counted, a binary that died
// without a result and without a pairing header counting for nothing.
func TestResultsCap(t *testing.T) {
	var out strings.Builder
	for i := range 45 {
		out.WriteString("running 1 test\n")
		if i == 42 {
			continue // died: no result line
		}
		fmt.Fprintf(&out, "\ntest result: ok. %d passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n", i)
	}
	r := &summarize.Run{Rule: "bash.cargo_test", Exited: true, Stdout: []byte(out.String())}
	got := cargoBody(r)
	if !strings.Contains(got, "- test result: ok. 39 passed;") || strings.Contains(got, "- test result: ok. 40 passed;") ||
		!strings.Contains(got, "test_results_omitted: 4\n") {
		t.Errorf("results cap:\n%s", got)
	}
}

// TestCapturedLibtestLines: what a failing test printed is its section's,
// however much it looks like libtest's or rustc's lines: a "test result:"
// line in it neither ends the binary nor adds to the counts, and rustc's
// errors in it are no build errors.
func TestCapturedLibtestLines(t *testing.T) {
	r := &summarize.Run{Rule: "bash.cargo_test", Exited: true, ExitCode: 101, Stdout: []byte(`
running 2 tests
test ok_one ... ok
test ui ... FAILED

failures:

---- ui stdout ----
test result: ok. 50 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
running 3 tests
error[E0425]: cannot find value ` + "`x`" + ` in this scope
 --> tests/ui/bad.rs:3:13

thread 'ui' (7) panicked at tests/ui.rs:10:5:
ui test produced unexpected output


failures:
    ui

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.05s

`)}
	got := cargoBody(r)
	for _, want := range []string{"passed: 1\nfailed: 1\n", "errors: 0\n", "failed_tests:\n- ui\n",
		"- thread 'ui' (7) panicked at tests/ui.rs:10:5:\n  ui test produced unexpected output\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestDeadBinary: a test binary killed by a stack overflow, an abort or an
// exit prints no result. The test it was running is named when libtest
// printed its "test NAME ... " start line (one test thread), the
// runtime's fatal lines are copied, and the next binary is a binary of its
// own, in separate streams or merged.
func TestDeadBinary(t *testing.T) {
	const overflow = "\nthread 'tests::depth' (5436) has overflowed its stack\nfatal runtime error: stack overflow, aborting\n"
	const died = "error: test failed, to rerun pass `--lib`\n\nCaused by:\n" +
		"  process didn't exit successfully: `target/debug/deps/demo-1 --test-threads=1` (signal: 6, SIGABRT: process abort signal)\n"
	const other = "\nrunning 1 test\ntest other_passes ... ok\n\n" +
		"test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n"
	const fatal = "fatal_runtime_errors:\n- thread 'tests::depth' (5436) has overflowed its stack\n  fatal runtime error: stack overflow, aborting\n"
	const results = "test_results:\n- Running unittests src/lib.rs (target/debug/deps/demo-1)\n" +
		"- Running tests/other.rs (target/debug/deps/other-2)\n  test result: ok. 1 passed;"
	for _, c := range []struct {
		name           string
		stdout, stderr string
		want, not      []string
	}{
		{"one thread",
			"\nrunning 3 tests\ntest tests::adds ... ok\ntest tests::depth ... " + other,
			"     Running unittests src/lib.rs (target/debug/deps/demo-1)\n" + overflow + died +
				"     Running tests/other.rs (target/debug/deps/other-2)\nerror: 1 target failed:\n    `--lib`\n",
			[]string{"passed: 1\nfailed: 0\n", "errors: 0\nfinal_status: error: 1 target failed:\n",
				"unfinished_tests:\n- tests::depth\n" + fatal, results}, nil},
		{"one thread, merged",
			"     Running unittests src/lib.rs (target/debug/deps/demo-1)\n\nrunning 3 tests\ntest tests::adds ... ok\ntest tests::depth ... " +
				overflow + died + "     Running tests/other.rs (target/debug/deps/other-2)\n" + other +
				"error: 1 target failed:\n    `--lib`\n", "",
			[]string{"passed: 1\nfailed: 0\n", "errors: 0\nfinal_status: error: 1 target failed:\n",
				"caused_by:\n- process didn't exit successfully:", "unfinished_tests:\n- tests::depth\n" + fatal, results}, nil},
		{"several threads",
			"\nrunning 3 tests\ntest tests::adds ... ok\n" + other,
			"     Running unittests src/lib.rs (target/debug/deps/demo-1)\n" + overflow + died +
				"     Running tests/other.rs (target/debug/deps/other-2)\n",
			[]string{"failed: 0\n", "\n" + fatal, results}, []string{"unfinished_tests"}},
		{"exit with --nocapture",
			"\nrunning 2 tests\ntest tests::loads_manifest ... loading Cargo.toml\nok\ntest tests::loads_missing ... cannot read missing.toml\n",
			"     Running unittests src/lib.rs (target/debug/deps/demo-1)\n" + died,
			[]string{"unfinished_tests:\n- tests::loads_missing\n"}, []string{"loads_manifest", "fatal_runtime_errors"}},
		{"a test that finished with --nocapture",
			"\nrunning 1 test\ntest tests::a ... loading\nok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n", "",
			nil, []string{"unfinished_tests"}},
	} {
		r := &summarize.Run{Rule: "bash.cargo_test", Exited: true, ExitCode: 101, Stdout: []byte(c.stdout), Stderr: []byte(c.stderr)}
		got := cargoBody(r)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: missing %q in:\n%s", c.name, w, got)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q in:\n%s", c.name, w, got)
			}
		}
	}
}
