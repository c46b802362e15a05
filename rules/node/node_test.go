package node

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// TestNodeFailures: what the node finder requires, on lines shaped like
// the corpus's (testdata/{vitest,jest,tsc,eslint,npm_test}).
func TestNodeFailures(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		// The first location, and the first frame in the test's own file
		// (issue 21).
		{"vitest failure and its first location",
			" FAIL  src/a.test.js > add > adds\nAssertionError: expected 4 to be 5\n ❯ helper src/h.js:3:9\n ❯ src/a.test.js:16:23\n",
			[]string{"src/a.test.js > add > adds", "src/h.js:3:9", "src/a.test.js:16:23"}},
		{"vitest failure deep in the project",
			" FAIL  src/t/c.test.js > compile > directive\nTypeError: no\n ❯ a src/a.js:2:33\n ❯ b src/b.js:3:10\n ❯ c src/c.js:3:28\n ❯ d src/d.js:4:20\n ❯ src/t/c.test.js:28:17\n ❯ src/t/c.test.js:40:3\n",
			[]string{"src/t/c.test.js > compile > directive", "src/a.js:2:33", "src/t/c.test.js:28:17"}},
		{"jest failure deep in the project",
			"FAIL src/t/c.test.js\n  ● compile › directive\n\n    TypeError: no\n\n      at a (src/a.js:2:33)\n      at b (src/b.js:3:10)\n          at Array.map (<anonymous>)\n      at d (src/d.js:4:20)\n      at Object.compile (src/t/c.test.js:27:17)\n",
			[]string{"src/t/c.test.js", "compile › directive", "at a (src/a.js:2:33)", "at Object.compile (src/t/c.test.js:27:17)"}},
		{"vitest colored",
			"\x1b[41m\x1b[1m FAIL \x1b[22m\x1b[49m src/a.test.js\x1b[2m > \x1b[22madds\n\x1b[36m \x1b[2m❯\x1b[22m src/a.test.js:\x1b[2m9:23\x1b[22m\x1b[39m\n",
			[]string{"src/a.test.js > adds", "src/a.test.js:9:23"}},
		{"vitest counts and passing listing lines are not failures",
			" ❯ src/a.test.js (3 tests | 1 failed) 5ms\n     ✓ adds 2ms\n     ↓ skips\n      Tests  1 failed | 2 passed (3)\n",
			nil},
		{"vitest listing without its reports (a pipe into head)",
			" ❯ src/a.test.js (3 tests | 2 failed | 1 skipped) 5ms\n     × adds 2ms\n       × case 0 > rejects 1ms (retry x2)\n   × throws 12ms 31 MB heap used\n   ↓ skips\n",
			[]string{"adds", "case 0 > rejects", "throws"}},
		{"vitest listing and its reports",
			" ❯ src/a.test.js (2 tests | 2 failed) 5ms\n     × adds 2ms\n       × case 0 > rejects 1ms\n\n FAIL  src/a.test.js > d > adds\n FAIL  src/a.test.js > d > e > case 0 > rejects\nError: x\n",
			[]string{"src/a.test.js > d > adds", "src/a.test.js > d > e > case 0 > rejects"}},
		{"vitest listing with some of its reports",
			" ❯ src/a.test.js (3 tests | 3 failed) 5ms\n     × adds 2ms\n     × adds 1ms\n     × subs 1ms\n\n FAIL  src/a.test.js > d > adds\n FAIL  src/b.test.js > subs\n",
			[]string{"src/a.test.js > d > adds", "adds", "subs", "src/b.test.js > subs"}},
		{"vitest verbose listing without its reports",
			" × src/a.test.js > d > adds 3ms\n   → expected 4 to be 5\n × src/a.test.js > subs 1ms\n ✓ src/a.test.js > ok 1ms\n\n FAIL  src/a.test.js > subs\n",
			[]string{"src/a.test.js > d > adds", "src/a.test.js > subs"}},
		{"× lines with no vitest file above them are not read",
			"   × adds 2ms\n  × x\n × no separator\n",
			nil},
		{"vitest unhandled error location",
			"⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯\n\n⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯⎯\nError: reset\n ❯ later src/t.test.js:4:25\n ❯ src/t.test.js:8:3\n",
			[]string{"src/t.test.js:4:25"}},
		{"vitest location after the failure's end is not required",
			" FAIL  src/a.test.js > x\nError: boom\n⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯\n ❯ src/b.js:1:1\n",
			[]string{"src/a.test.js > x"}},
		{"jest suite, test and first project frame",
			"FAIL src/a.test.js (5.2 s)\n  ● add › adds\n\n    expect(received).toBe(expected)\n\n      at Resolver.x (../node_modules/jest-resolve/build/index.js:1:2)\n      at Object.toBe (src/a.test.js:8:23)\n      at later (src/b.js:1:1)\n",
			[]string{"src/a.test.js", "add › adds", "at Object.toBe (src/a.test.js:8:23)"}},
		{"jest frame only in node_modules",
			"FAIL src/a.test.js\n  ● x\n\n      at f (../node_modules/m/i.js:1:2)\n\nPASS src/b.test.js\n",
			[]string{"src/a.test.js", "x", "at f (../node_modules/m/i.js:1:2)"}},
		{"jest console block is no test",
			"FAIL src/a.test.js\n  ● Console\n\n    console.log\n      hi\n\n      at Object.log (src/a.test.js:3:11)\n\n  ● fails\n\n      at Object.toBe (src/a.test.js:9:1)\n",
			[]string{"src/a.test.js", "fails", "at Object.toBe (src/a.test.js:9:1)"}},
		{"jest test named Console",
			"FAIL src/a.test.js\n  ● Console\n\n    expect(received).toBe(expected)\n",
			[]string{"src/a.test.js", "Console"}},
		{"jest passing suite and summary are not failures",
			"PASS src/a.test.js\n  ● Console\n\n    console.log\n\nTests:       0 failed, 3 passed, 3 total\n",
			nil},
		{"jest listing without its reports (a pipe into head)",
			"FAIL src/a.test.js\n  ✕ top (1 ms)\n  ✓ passes\n  ○ skipped skipped\n  d\n    ✕ inner (12 ms)\n    e › f\n      ✕ deep\n  g\n    ✕ other\n\n  ● d › inner\n\n    Error: x\n",
			[]string{"src/a.test.js", "d › inner", "top", "deep", "other"}},
		{"jest listing cut at its top (a pipe into tail)",
			"      ✕ deep (3 ms)\n    ✕ inner\n  ✕ top\n\n  ● d › e › deep\n\n  ● d › inner\n\n",
			[]string{"d › e › deep", "d › inner", "top"}},
		{"jest ✕ after the listing is not read",
			"FAIL src/a.test.js\n  ✓ passes\n\n  ● x\n\n    ✕ not a test\n",
			[]string{"src/a.test.js", "x"}},
		{"jest ● outside a FAIL suite is not required",
			"● Validation Warning:\n  ● x\n",
			nil},
		{"tsc plain, pretty and global",
			"src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n  Types of property 'a' are incompatible.\n\x1b[96msrc/b.ts\x1b[0m:\x1b[93m1\x1b[0m:\x1b[93m2\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2304: \x1b[0mCannot find name 'x'.\nerror TS5023: Unknown compiler option 'y'.\n",
			[]string{"src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.", "src/b.ts:1:2 - error TS2304: Cannot find name 'x'.", "error TS5023: Unknown compiler option 'y'."}},
		{"tsc Errors  Files table",
			"Found 30 errors in 3 files.\n\nErrors  Files\n    10  src/a.ts:1\n    10  src/b ü.ts:3\n\n    10  src/c.ts:1\n",
			[]string{"src/a.ts:1", "src/b ü.ts:3"}},
		{"tsc inside a jest failure is the failure's text",
			"    src/a.test.ts:3:7 - error TS2322: Type 'string' is not assignable.\n",
			nil},
		{"eslint error rows, not warnings",
			"/p/src/a.js\n   1:7   error    'x' is never reassigned  prefer-const\n  13:1   warning  Unexpected console statement  no-console\n\n✖ 2 problems (1 error, 1 warning)\n",
			[]string{"1:7   error    'x' is never reassigned  prefer-const"}},
		{"TAP not ok, not TODO or SKIP",
			"ok 1 - adds\nnot ok 2 - adds wrong\n    not ok 1 - sub\nnot ok 3 - later # TODO\nnot ok 4 - off # skip for now\n# fail 2\n",
			[]string{"adds wrong", "sub"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ruletest.EqualRequired(t, nodeRequired(tt.in), tt.want)
		})
	}
}

// nodeRequired runs the node finder over streams, stdout and then stderr,
// as the check does, in a run that failed.
func nodeRequired(streams ...string) []string {
	r := &summarize.Run{ExitCode: 1, Exited: true}
	if len(streams) > 0 {
		r.Stdout = []byte(streams[0])
	}
	if len(streams) > 1 {
		r.Stderr = []byte(streams[1])
	}
	return ruletest.Required(r, Finder)
}

// TestNodeListingAcrossStreams: vitest lists the failing tests on stdout
// and reports them on stderr; a listed test reported on the other stream
// is not required twice (with every family's finder: block_test.go).
func TestNodeListingAcrossStreams(t *testing.T) {
	out, errs := listingAcrossStreams()
	ruletest.EqualRequired(t, nodeRequired(out, errs), []string{"src/a.test.js > d > adds", "subs"})
}

func TestParseCounts(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want testCounts
	}{
		{"5 failed | 4 passed | 1 skipped | 1 todo (11)", testCounts{5, 4, 1, 1, 11}},
		{"18 passed (18)", testCounts{passed: 18, total: 18}},
		{" 5 failed, 1 skipped, 1 todo, 4 passed, 11 total", testCounts{5, 4, 1, 1, 11}},
		{" 2 passed, 2 of 3 total", testCounts{passed: 2, total: 3}},
		{"1 error", testCounts{}},
		{"", testCounts{}},
	} {
		if got := parseCounts(tt.in); got != tt.want {
			t.Errorf("parseCounts(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestIsCodeFrame(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"16|     expect(add(2, 2)).toBe(5)", true},
		{"4|", true},
		{"|                       ^", true},
		{"> 15 |     expect(add(2, 2)).toBe(5)", true},
		{">  7 |   it('case 6 matches', () => {", true},
		{"13 |   })", true},
		{"- Expected", false},
		{"AssertionError: expected 4 to be 5", false},
		{"❯ src/a.test.js:9:23", false},
		{"12 tests failed", false},
	} {
		if got := isCodeFrame(tt.in); got != tt.want {
			t.Errorf("isCodeFrame(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIsTscFrame(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"11 export const count: number = \"seven\";", true},
		{"~~~~~", true},
		{"10", true},
		{"'name' is declared here.", false},
		{"src/user.ts:10:37", false},
		{"Type 'string' is not assignable to type 'number'.", false},
	} {
		if got := isTscFrame(tt.in); got != tt.want {
			t.Errorf("isTscFrame(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestTestFailureCaps: a long diff cannot push out the first location, and
// every line left out is counted.
func TestTestFailureCaps(t *testing.T) {
	f := &testFailure{heads: []string{"a > b"}}
	for range maxNodeFailureText + 5 {
		f.addText("+ x")
	}
	f.addLoc("❯ ../node_modules/v/r.js:1:1")
	f.addLoc("❯ ../node_modules/v/r.js:2:1")
	f.addLoc("❯ src/a.test.js:3:1")
	f.addLoc("❯ src/b.js:4:1")
	f.addLoc("❯ src/c.js:5:1")
	item := f.item()
	for _, want := range []string{"❯ ../node_modules/v/r.js:1:1", "❯ src/a.test.js:3:1", "❯ src/b.js:4:1"} {
		if !strings.Contains(item, want) {
			t.Errorf("item lost %q:\n%s", want, item)
		}
	}
	if f.lost != 5+2 {
		t.Errorf("lost = %d, want 7", f.lost)
	}
}

// TestNpmWarnings: npm's multi-line warnings are one item each, a
// deprecation is its own list, and pnpm's thin-spaced badges are read.
func TestNpmWarnings(t *testing.T) {
	in := strings.Join([]string{
		"npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory.",
		"npm warn EBADENGINE Unsupported engine {",
		"npm warn EBADENGINE   package: 'a@1.0.0',",
		"npm warn EBADENGINE }",
		"npm warn EBADENGINE Unsupported engine {",
		"npm warn EBADENGINE }",
		"\u2009WARN\u2009 deprecated har-validator@5.1.5: this library is no longer supported",
		"\u2009WARN\u2009 2 deprecated subdependencies found: glob@7.2.3, inflight@1.0.6",
		"\u2009WARN\u2009 Issues with peer dependencies found",
		"Progress: resolved 10, reused 0, downloaded 1, added 0",
		"++++++",
		"added 3 packages in 2s",
	}, "\n")
	var n installLog
	for _, l := range summarize.Lines([]byte(in)) {
		n.Feed(l)
	}
	n.EndStream()
	if len(n.warnings) != 3 || len(n.deprecated) != 3 || !slices.Equal(n.summary, []string{"added 3 packages in 2s"}) {
		t.Errorf("warnings %q\ndeprecated %q\nsummary %q", n.warnings, n.deprecated, n.summary)
	}
	if len(n.messages) != 0 {
		t.Errorf("messages %q", n.messages)
	}
}

// TestNpmTestRunner: the runner is recognized by the shape of its output,
// and the package manager's lines are set apart.
func TestNpmTestRunner(t *testing.T) {
	for _, tt := range []struct {
		out, err string
		want     string
	}{
		{"\n> p@1.0.0 test\n> vitest run\n\n RUN  v4.1.12 /p\n", "", "vitest"},
		{"", "PASS src/a.test.js\nTests:       1 passed, 1 total\n", "jest"},
		{" RUN  v4.1.12 /p\n", "Test Suites: 1 passed, 1 total\n", ""},
		{"TAP version 13\nok 1 - a\n", "", ""},
		{"> p@1.0.0 test\n> vitest run\n", "", ""},
	} {
		var pm scriptLines
		pm.split(summarize.EachLine([]byte(tt.out)), 0)
		pm.split(summarize.EachLine([]byte(tt.err)), 0)
		if got := pm.runner(); got != tt.want {
			t.Errorf("runner of (%q, %q) = %q, want %q", tt.out, tt.err, got, tt.want)
		}
	}
}

func TestTail(t *testing.T) {
	got := tail([]string{"a", "", "b  ", "c", ""}, 2)
	if !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("tail = %q", got)
	}
}

// TestVitestCut: output cut by a pipe (tail) after the section's title
// still gives its FAIL reports as failures, without code excerpts.
func TestVitestCut(t *testing.T) {
	in := "     30|   it('x', () => {\n       |          ^\n\n⎯⎯⎯[27/28]⎯\n\n FAIL  src/a.test.js > a > x\nAssertionError: expected 1 to be 2\n ❯ src/a.test.js:3:9\n     3|   expect(1).toBe(2)\n\n Test Files  1 failed (1)\n      Tests  28 failed (28)\n"
	tr := readVitestLines([2]streamCut{{start: true}}, summarize.Lines([]byte(in)))
	if !slices.Equal(tr.failedTests, []string{"src/a.test.js > a > x"}) || len(tr.failures) != 1 || len(tr.messages) != 0 {
		t.Fatalf("failed %q, failures %d, messages %q", tr.failedTests, len(tr.failures), tr.messages)
	}
	if got := tr.failures[0].item(); got != "src/a.test.js > a > x\nAssertionError: expected 1 to be 2\n❯ src/a.test.js:3:9" {
		t.Errorf("item %q", got)
	}
	if g := tr.summary; g == nil || g.tests.failed != 28 || g.files.total != 1 {
		t.Errorf("summary %+v", g)
	}
}

// TestJestCut: output cut by a pipe (tail) inside a FAIL suite keeps the
// failures it still shows, named without their suite's path, and the end
// of the failure whose header was cut off.
func TestJestCut(t *testing.T) {
	in := "      at Object.toEqual (src/m01.test.js:6:49)\n\n  ● module 01 › case 6 matches\n\n    expect(received).toEqual(expected) // deep equality\n\n      at Object.toEqual (src/m01.test.js:7:49)\n\nTest Suites: 24 failed, 24 total\nTests:       144 failed, 24 passed, 168 total\n"
	tr := readJestLines([2]streamCut{{start: true}}, summarize.Lines([]byte(in)))
	if !slices.Equal(tr.failedTests, []string{"module 01 › case 6 matches"}) || len(tr.failures) != 1 {
		t.Fatalf("failed %q, failures %d", tr.failedTests, len(tr.failures))
	}
	if tr.cut == nil || tr.cut.item() != "at Object.toEqual (src/m01.test.js:6:49)" {
		t.Errorf("cut failure %+v", tr.cut)
	}
	required := nodeRequired(in)
	for _, want := range []string{"module 01 › case 6 matches", "at Object.toEqual (src/m01.test.js:7:49)"} {
		if !slices.Contains(required, want) {
			t.Errorf("%q not required: %v", want, required)
		}
	}
}

// nodeBody renders rule's body for output on stdout and stderr.
func nodeBody(rule summarize.Func, stdout, stderr string) string {
	r := &summarize.Run{Stdout: []byte(stdout), Stderr: []byte(stderr), Exited: true}
	return string(rule(r).Render())
}

// checkBody reports the lines of want missing from body, and the lines of
// unwanted found in it.
func checkBody(t *testing.T, body string, want, unwanted []string) {
	t.Helper()
	ls := summarize.Lines([]byte(body))
	for _, w := range want {
		if !slices.Contains(ls, w) {
			t.Errorf("no line %q in:\n%s", w, body)
		}
	}
	for _, u := range unwanted {
		if slices.Contains(ls, u) {
			t.Errorf("line %q in:\n%s", u, body)
		}
	}
}

// TestESLintRowsWithoutFile: rows that no file path precedes (a pipe into
// grep kept the rows only) are counted by severity and listed, errors
// first; files counts the paths seen.
func TestESLintRowsWithoutFile(t *testing.T) {
	var rows []string
	for i := 1; i <= 30; i++ {
		rows = append(rows, fmt.Sprintf("  %d:1  warning  Unexpected console statement  no-console", i))
		rows = append(rows, fmt.Sprintf("  %d:19  error  'helper%d' is not defined  no-undef", i, i))
	}
	body := nodeBody(ESLint, strings.Join(rows, "\n")+"\n", "")
	checkBody(t, body,
		[]string{"errors: 30", "warnings: 30", "files: 0", "unfiled_rows:", "- 1:19  error  'helper1' is not defined  no-undef",
			"- 30:19  error  'helper30' is not defined  no-undef", "- 1:1  warning  Unexpected console statement  no-console"},
		[]string{"messages:", "errors: 0"})
	if strings.Index(body, "- 30:19  error") > strings.Index(body, "- 1:1  warning") {
		t.Errorf("warnings before errors:\n%s", body)
	}

	// A file's rows stay the file's; rows after a blank line have none.
	body = nodeBody(ESLint, "/p/a.js\n  1:1  error  x  no-undef\n\n  2:2  error  y  no-undef\n", "")
	checkBody(t, body, []string{"errors: 2", "files: 1", "- /p/a.js", "  1:1  error  x  no-undef", "unfiled_rows:", "- 2:2  error  y  no-undef"}, nil)
}

// TestTscCut: tsc --pretty into tail leaves the end of the diagnostics,
// the Found line and the Errors  Files table: the counts are tsc's, every
// file of the table is listed, and code excerpts are not messages.
func TestTscCut(t *testing.T) {
	in := strings.Join([]string{
		"7 function h6(a, b) { return a + b }",
		"                  ~",
		"",
		"  src/c.ts:2:29 - 'name' is declared here.",
		"    2 export function g(u: { name: string }) {}",
		"                             ~~~~",
		"",
		"src/c.ts:8:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
		"",
		"8 const a7: number = 'x7';",
		"        ~~",
		"",
		"",
		"Found 30 errors in 3 files.",
		"",
		"Errors  Files",
		"    10  src/a.ts:1",
		"    10  src/b ü.ts:3",
		"    10  src/c.ts:1",
		"",
	}, "\n")
	checkBody(t, nodeBody(Tsc, in, ""),
		[]string{"errors: 30", "files: 3", "error_files:", "- 10  src/a.ts:1", "- 10  src/b ü.ts:3", "- 10  src/c.ts:1",
			"- src/c.ts:8:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
			"messages:", "- src/c.ts:2:29 - 'name' is declared here."},
		[]string{"errors: 1", "files: 1", "- 7 function h6(a, b) { return a + b }", "- ~", "- 2 export function g(u: { name: string }) {}", "- ~~~~"})
	for _, tt := range []struct{ found, errors, files string }{
		{"Found 1 error in src/a.ts:3", "errors: 1", "files: 1"},
		{"Found 11 errors in the same file, starting at: src/a.ts:3", "errors: 11", "files: 1"},
		{"Found 4 errors.", "errors: 4", "files: 1"}, // no file count: the files read
	} {
		body := nodeBody(Tsc, "src/a.ts(3,7): error TS2322: x\n\n"+tt.found+"\n", "")
		checkBody(t, body, []string{tt.errors, tt.files, "found: " + tt.found}, nil)
	}
}

// TestVitestListing: a failing test the listing names but no report does
// (a pipe into head cut the reports off) is listed by its file and the
// name the listing gives, without the timings after it.
func TestVitestListing(t *testing.T) {
	for _, tt := range []struct {
		name        string
		out, err    string
		want, unwnt []string
	}{
		{"no reports",
			"\n RUN  v4.1.12 /p\n\n ❯ src/a.test.js (4 tests | 3 failed) 5ms\n       × case 0 > rejects 12ms\n     × adds 1ms (retry x1)\n   × throws 0ms\n   ✓ passes 1ms\n", "",
			[]string{"failed_tests:", "- src/a.test.js > case 0 > rejects", "- src/a.test.js > adds", "- src/a.test.js > throws"},
			[]string{"- src/a.test.js > passes", "messages:"}},
		{"some reports",
			" ❯ src/a.test.js (2 tests | 2 failed) 5ms\n     × adds 2ms\n     × subs 2ms\n\n⎯⎯⎯ Failed Tests 2 ⎯⎯⎯\n\n FAIL  src/a.test.js > d > adds\nError: x\n ❯ src/a.test.js:3:1\n", "",
			[]string{"- src/a.test.js > d > adds", "- src/a.test.js > subs"},
			[]string{"- src/a.test.js > adds"}},
		{"reports on the other stream",
			" ❯ src/a.test.js (2 tests | 2 failed) 5ms\n     × adds 2ms\n     × subs 2ms\n",
			" FAIL  src/a.test.js > d > adds\nError: x\n FAIL  src/a.test.js > subs\nError: y\n",
			[]string{"- src/a.test.js > d > adds", "- src/a.test.js > subs"},
			[]string{"- src/a.test.js > adds"}},
		{"verbose",
			" × src/a.test.js > d > adds 3ms\n   → expected 4 to be 5\n ✓ src/a.test.js > ok 1ms\n", "",
			[]string{"- src/a.test.js > d > adds"},
			[]string{"- src/a.test.js > ok"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkBody(t, nodeBody(Vitest, tt.out, tt.err), tt.want, tt.unwnt)
		})
	}
}

// TestJestListing: jest's listing of a suite names a failing test under
// its describe blocks; one that no ● report follows is listed with its
// suite's path and describe blocks joined as jest joins them.
func TestJestListing(t *testing.T) {
	in := "FAIL src/a.test.js\n  ✕ top (1 ms)\n  ✓ passes\n  d\n    ✕ inner (12 ms)\n    e\n      ✕ deep\n\n  ● d › inner\n\n    Error: x\n\n      at Object.x (src/a.test.js:3:1)\n"
	checkBody(t, nodeBody(Jest, "", in),
		[]string{"failed_tests:", "- src/a.test.js › d › inner", "- src/a.test.js › top", "- src/a.test.js › d › e › deep"},
		[]string{"- src/a.test.js › inner", "- src/a.test.js › passes"})
}

// TestNodeListingAgrees: the rules and the node finder read the listings
// and the reports apart (vitest.go, jest.go, nodeScan). On any mix of their
// lines, over both streams, the body a rule makes lists every listed test of
// its runner that the finder requires: the check never has to fall back
// for one.
func TestNodeListingAgrees(t *testing.T) {
	pieces := []string{
		" ❯ src/a.test.js (3 tests | 2 failed) 5ms", " ✓ src/b.test.js (2 tests) 1ms", " ❯ src/c.test.js (0 test)",
		"   × adds 2ms", "     × adds 1ms", "       × case 0 > rejects 3ms", "   × d > x", "   ✓ ok 1ms", " × src/a.test.js > d > adds 3ms",
		" × src/a.test.js > adds", "   → expected", "⎯⎯⎯ Failed Tests 3 ⎯⎯⎯", "⎯⎯⎯[1/3]⎯", " FAIL  src/a.test.js > d > adds",
		" FAIL  src/a.test.js > adds", " FAIL  src/a.test.js > q > case 0 > rejects", " FAIL  src/c.test.js [ src/c.test.js ]",
		"AssertionError: x", " ❯ src/a.test.js:3:1", "", "stdout | src/a.test.js > adds", "hello", "      Tests  2 failed (3)",
		"FAIL src/j.test.js", "PASS src/k.test.js", "  ✕ top (1 ms)", "  d", "    ✕ inner (2 ms)", "    e", "      ✕ deep",
		"  ✓ passes", "  ● d › inner", "  ● top", "  ● d › e › deep", "  ● Console", "    console.log", "      at Object.x (src/j.test.js:1:1)",
		"    Error: y", "Tests:       3 failed, 3 total", "\x1b[31m   × adds\x1b[39m 2ms", "\x1b[31m  ✕ top\x1b[39m", "> p@1.0.0 test",
		"npm error x", "  ✕ ", "   ×  ", "  ✕ top (1 ms)  ",
	}
	rules := []string{"bash.vitest", "bash.jest", "bash.npm_test"}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var streams [2][]string
		for range rnd.IntN(25) {
			s := rnd.IntN(2)
			streams[s] = append(streams[s], pieces[rnd.IntN(len(pieces))])
		}
		r := &summarize.Run{
			Rule: rules[rnd.IntN(len(rules))], Command: "x",
			Stdout: summarize.Readable([]byte(strings.Join(streams[0], "\n"))), Stderr: summarize.Readable([]byte(strings.Join(streams[1], "\n"))),
			Exited: true, ExitCode: 1,
		}
		body := string(byID[r.Rule](r).Render())
		sep := map[string]string{"bash.vitest": " > ", "bash.jest": " › "}[r.Rule]
		switch {
		case strings.Contains(body, "runner: vitest\n"):
			sep = " > "
		case strings.Contains(body, "runner: jest\n"):
			sep = " › "
		}
		var n nodeScan
		for _, b := range [][]byte{r.Stdout, r.Stderr} {
			n.scan(b, summarize.Lines(b), func(string, string, int) {})
		}
		for _, lt := range n.listing.unreported() {
			if lt.sep == sep && !strings.Contains(body, lt.req) {
				t.Fatalf("%s: listed %q required, not in the body\nstdout:\n%s\nstderr:\n%s\nbody:\n%s", r.Rule, lt.req, r.Stdout, r.Stderr, body)
			}
		}
	}
}

// listingAcrossStreams is vitest's listing on stdout and a report of one of
// its tests on stderr.
func listingAcrossStreams() (stdout, stderr string) {
	return " ❯ src/a.test.js (2 tests | 2 failed) 5ms\n     × adds 2ms\n     × subs 2ms\n", " FAIL  src/a.test.js > d > adds\nError: x\n"
}

// byID are the family's rules by id, as the table has them.
var byID = map[string]summarize.Func{
	"bash.vitest": Vitest, "bash.jest": Jest, "bash.npm_test": NpmTest,
	"bash.tsc": Tsc, "bash.eslint": ESLint, "bash.npm_install": NpmInstall,
}
