package cargo

import (
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestParseDiagHead(t *testing.T) {
	tests := []struct {
		line    string
		ok      bool
		isError bool
		code    string
	}{
		{"error[E0425]: cannot find value `x` in this scope", true, true, "E0425"},
		{"error: expected `;`, found `println`", true, true, ""},
		{"warning: unused import: `std::fmt::Write`", true, false, ""},
		{"warning[E0170]: pattern binding named like a variant", true, false, "E0170"},
		{"error[E0425] cannot find", false, false, ""},
		{"errors: 3", false, false, ""},
		{"warnings are fine", false, false, ""},
		{"  error: indented is not a head", false, false, ""},
		{"error[]: empty code", false, false, ""},
	}
	for _, tt := range tests {
		d, ok := parseDiagHead(tt.line)
		if ok != tt.ok || (ok && (d.isError != tt.isError || d.code != tt.code || d.head != tt.line)) {
			t.Errorf("parseDiagHead(%q) = %+v, %v; want ok=%v error=%v code=%q", tt.line, d, ok, tt.ok, tt.isError, tt.code)
		}
	}
}

func feedAll(text string) *cargoLog {
	var c cargoLog
	for _, l := range summarize.Lines([]byte(text)) {
		c.Feed(l)
	}
	return &c
}

// TestCargoLogLocations: the primary location is the "-->" line that
// directly follows the message, whatever the width of the line-number
// gutter; a "-->" under a note belongs to the note.
func TestCargoLogLocations(t *testing.T) {
	c := feedAll(`    Checking demo v0.1.0 (/tmp/demo)
error[E0308]: mismatched types
   --> src/net.rs:106:21
    |
106 |     let port: u16 = LIMIT_080;
    |               ---   ^^^^^^^^^ expected ` + "`u16`" + `

error[E0599]: no method named ` + "`flush`" + `
 --> src/store.rs:9:7
  |
9 |     r.flush();

error[E0369]: cannot add
  --> src/lib.rs:48:28
   |
note: ` + "`Option<i32>`" + ` does not implement
  --> /rustc/abc/library/core/src/option.rs:600:0

error: linking with ` + "`cc`" + ` failed: exit status: 1
  |
  = note: "cc" "-m64"
note: some note
 --> src/other.rs:1:1

warning: a message that
goes on over two lines
  --> src/main.rs:12:5

warning: unused manifest key: package.foo
error: could not compile ` + "`demo`" + ` (lib) due to 4 previous errors; 2 warnings emitted
`)
	type dl struct{ head, loc string }
	var got []dl
	for _, d := range c.diags {
		got = append(got, dl{d.head, d.loc})
	}
	want := []dl{
		{"error[E0308]: mismatched types", "   --> src/net.rs:106:21"},
		{"error[E0599]: no method named `flush`", " --> src/store.rs:9:7"},
		{"error[E0369]: cannot add", "  --> src/lib.rs:48:28"},
		{"error: linking with `cc` failed: exit status: 1", ""},
		{"warning: a message that", "  --> src/main.rs:12:5"},
		{"warning: unused manifest key: package.foo", ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n got %q\nwant %q", got, want)
	}
	if w, e := c.counts(); w != 2 || e != 4 {
		t.Errorf("counts = %d warnings, %d errors; want 2, 4", w, e)
	}
	if got := c.errorCodes(); got != "E0308, E0599, E0369" {
		t.Errorf("errorCodes = %q", got)
	}
	if c.reportedErrors != 4 {
		t.Errorf("reportedErrors = %d, want 4", c.reportedErrors)
	}
}

func TestCargoLogStatus(t *testing.T) {
	c := feedAll(`   Compiling demo v0.1.0 (/tmp/demo)
warning: unused variable: ` + "`x`" + `
 --> src/lib.rs:2:9
warning: ` + "`demo`" + ` (lib) generated 1 warning (run ` + "`cargo fix --lib -p demo`" + ` to apply 1 suggestion)
warning: ` + "`demo`" + ` (lib test) generated 1 warning (1 duplicate)
    Finished ` + "`test`" + ` profile [unoptimized + debuginfo] target(s) in 0.50s
     Running unittests src/lib.rs (target/debug/deps/demo-1)
error: test failed, to rerun pass ` + "`--lib`" + `

Caused by:
  process didn't exit successfully: ` + "`/tmp/demo/target/debug/deps/demo-1`" + ` (signal: 6, SIGABRT: process abort signal)
     Running tests/api.rs (target/debug/deps/api-2)
error: test failed, to rerun pass ` + "`--test api`" + `
   Doc-tests demo
error: 2 targets failed:
    ` + "`--lib`" + `
    ` + "`--test api`" + `
`)
	if s, _ := c.finalStatus(); s != "error: 2 targets failed:" {
		t.Errorf("finalStatus = %q", s)
	}
	wantErrs := []string{"error: test failed, to rerun pass `--lib`", "error: test failed, to rerun pass `--test api`"}
	if !slices.Equal(c.cargoErrors(), wantErrs) {
		t.Errorf("cargoErrors = %q", c.cargoErrors())
	}
	wantHeaders := []string{"Running unittests src/lib.rs (target/debug/deps/demo-1)", "Running tests/api.rs (target/debug/deps/api-2)", "Doc-tests demo"}
	if !slices.Equal(c.headers, wantHeaders) {
		t.Errorf("headers = %q", c.headers)
	}
	if len(c.causedBy) != 1 || !strings.HasPrefix(c.causedBy[0], "process didn't exit successfully") {
		t.Errorf("causedBy = %q", c.causedBy)
	}
	if w, e := c.counts(); w != 1 || e != 0 || c.reportedWarnings != 1 {
		t.Errorf("counts = %d, %d; reported warnings %d", w, e, c.reportedWarnings)
	}
}

// TestCargoErrorsOnlyWhenNeeded: a single target error is already the
// final status and is not repeated.
func TestCargoErrorsOnlyWhenNeeded(t *testing.T) {
	c := feedAll("error[E0425]: x\nerror: could not compile `demo` (bin \"demo\") due to 1 previous error\n")
	if got := c.cargoErrors(); got != nil {
		t.Errorf("cargoErrors = %q, want none", got)
	}
	if s, _ := c.finalStatus(); s != "error: could not compile `demo` (bin \"demo\") due to 1 previous error" {
		t.Errorf("finalStatus = %q", s)
	}
	c = feedAll("error: could not find `Cargo.toml` in `/tmp/x` or any parent directory\n")
	if s, _ := c.finalStatus(); s != "error: could not find `Cargo.toml` in `/tmp/x` or any parent directory" {
		t.Errorf("finalStatus without a status line = %q", s)
	}
}

// TestDiagnosticItemsPrefix: errors come first and every error is shown
// before any warning, so the shown items are a prefix and the list's
// omitted count is exact.
func TestDiagnosticItemsPrefix(t *testing.T) {
	var sb strings.Builder
	for range 20 {
		sb.WriteString("warning: w\n --> src/a.rs:1:1\n")
	}
	sb.WriteString("error[E0425]: e\n --> src/b.rs:10:1\n")
	c := feedAll(sb.String())
	items, limit := c.diagnosticItems()
	if len(items) != 21 || limit != 1+maxWarningDiags {
		t.Fatalf("items %d, limit %d", len(items), limit)
	}
	if items[0] != "error[E0425]: e\n --> src/b.rs:10:1" {
		t.Errorf("first item %q", items[0])
	}

	sb.Reset()
	for range maxErrorDiags + 5 {
		sb.WriteString("error: e\n")
	}
	sb.WriteString("warning: w\n")
	items, limit = feedAll(sb.String()).diagnosticItems()
	if limit != maxErrorDiags || len(items) != maxErrorDiags+6 {
		t.Errorf("with too many errors: items %d, limit %d", len(items), limit)
	}
}

// TestCargoCrossCheck compares the counts taken from the diagnostics with
// cargo's own totals on every whole corpus case. They agree except where
// cargo is known to differ, each exception with its reason. (A cut case
// shows only some of either: TestReferenceOracle holds its block to what
// it shows.)
func TestCargoCrossCheck(t *testing.T) {
	errorExceptions := map[string]string{
		// The library's error is printed once, counted for lib and lib test.
		"cargo_test/lib_error": "shared error",
		// A cargo error, not a compilation: no "could not compile" line.
		"cargo_check/missing_manifest":   "cargo error",
		"cargo_build/missing_manifest":   "cargo error",
		"cargo_build/build_script":       "cargo error",
		"cargo_build/build_script_panic": "cargo error",
		// A UI test prints rustc's errors under --nocapture.
		"cargo_test/ui_nocapture": "a test's output",
	}
	warningExceptions := map[string]string{
		// A build script's cargo:warning is no compiler warning.
		"cargo_build/build_script": "build script warning",
		// -q prints no "generated N warnings" line.
		"cargo_build/errors_quiet": "quiet",
		"cargo_clippy/quiet":       "quiet",
	}
	for _, c := range ruletest.Corpus(t, "testdata") {
		if !strings.HasPrefix(c.Name, "cargo_") || len(c.Run.Cut.By) > 0 {
			continue
		}
		var lg *cargoLog
		if c.Run.Rule == "bash.cargo_test" {
			var tl testLog
			for _, l := range summarize.Lines(c.Run.Stderr) {
				tl.Feed(l)
			}
			tl.EndStream()
			for _, l := range summarize.Lines(c.Run.Stdout) {
				tl.Feed(l)
			}
			lg = &tl.cargo
		} else {
			lg = feedAll(string(c.Run.Stderr) + string(c.Run.Stdout))
		}
		w, e := lg.counts()
		if _, ok := warningExceptions[c.Name]; !ok && w != lg.reportedWarnings {
			t.Errorf("%s: %d warnings counted, cargo reports %d", c.Name, w, lg.reportedWarnings)
		}
		if _, ok := errorExceptions[c.Name]; !ok && e != lg.reportedErrors {
			t.Errorf("%s: %d errors counted, cargo reports %d", c.Name, e, lg.reportedErrors)
		}
		for _, d := range lg.diags {
			if d.isError && strings.HasPrefix(d.head, "error[") && d.loc == "" {
				t.Errorf("%s: %q has no location", c.Name, d.head)
			}
		}
	}
}

func TestNumbers(t *testing.T) {
	if n := numberAfter("error: could not compile `x` (lib) due to 12 previous errors", " due to "); n != 12 {
		t.Errorf("numberAfter = %d", n)
	}
	if n := numberAfter("no number", " due to "); n != 0 {
		t.Errorf("numberAfter without sep = %d", n)
	}
	if n := summarize.NumberBefore("generated 5 warnings (13 duplicates)", " duplicate"); n != 13 {
		t.Errorf("numberBefore = %d", n)
	}
	if n := summarize.NumberBefore("x duplicate", " duplicate"); n != 0 {
		t.Errorf("numberBefore without number = %d", n)
	}
}
