package golang

import (
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchTest recognizes go test but with the flags of testFormats or the
// test binary's own.
func MatchTest(argv []string) classify.Answer {
	if a, ok := matchSub(argv, "test"); !ok {
		return a
	}
	return matchFlags(argv, 2, testFormats, true)
}

// testFormats: benchmarks, fuzzing and listings print no test run.
var testFormats = slices.Concat([]string{"-bench", "-fuzz", "-list"}, buildFlags)

// TestOutput is go test's signature: a package's result line as cmd/go
// prints it, "ok  \tPKG\t0.012s" (or "(cached)"), "FAIL\tPKG\t0.012s",
// "FAIL\tPKG [build failed]" or "?   \tPKG\t[no test files]"; or, under
// -json, test2json's event that ends a package ({"Time":...,"Action":"pass"
// or "fail","Package":...} without a "Test"). A word padded to four
// characters, a tab, an import path and a tab before a duration is
// cmd/go's layout, which no other runner shares.
func TestOutput(r *summarize.Run) bool {
	return r.HasLine("ok  \t", isGoPackageLine) || r.HasLine("FAIL\t", isGoPackageLine) || r.HasLine("?   \t", isGoPackageLine) ||
		r.HasLine(`","Package":"`, isGoPackageEnd)
}

// isGoPackageEnd reports whether l is test2json's event that ends a
// package's run: "pass" or "fail", a package, no test.
func isGoPackageEnd(l string, _ []byte) bool {
	e, ok := decodeGoEvent(l)
	return ok && e.Test == "" && e.Package != "" && (e.Action == "pass" || e.Action == "fail")
}

// isGoPackageLine reports whether l is a package's result line in full:
// goPackageResult's kinds, the import path without blanks, and after it a
// tab and a duration or "(cached)", " [build failed]", " [setup failed]",
// or a tab and "[no test files]".
func isGoPackageLine(l string, _ []byte) bool {
	kind, pkg, ok := goPackageResult(l)
	if !ok || l[0] == '\t' {
		return false
	}
	rest := l[len("ok  \t")+len(pkg):]
	switch {
	case kind == '?':
		return strings.HasPrefix(rest, "\t[no test files]")
	case kind == 'F' && (rest == " [build failed]" || rest == " [setup failed]"):
		return true
	}
	d, ok := strings.CutPrefix(rest, "\t")
	if !ok {
		return false
	}
	if i := strings.IndexAny(d, "\t "); i >= 0 {
		d = d[:i] // "\tcoverage: ...", " [no tests to run]"
	}
	secs, ok := strings.CutSuffix(d, "s")
	return d == "(cached)" || ok && secs != "" && isGoDuration(secs)
}

// Caps of bash.go_test. As for cargo_test, failing names matter most and
// at least a hundred are listed; contexts and traces take what the budget
// leaves.
const (
	maxGoFailedTests    = 100
	maxGoFailedPackages = 100
	maxGoFailures       = 30
	maxGoPanics         = 20
	maxGoRaces          = 10
	maxGoPassedPackages = 20
	// maxGoFailureLines bounds the lines of one failing test: its first
	// lines and its last ones, where t.Fatal and late t.Error land.
	maxGoFailureLines = 10
	goFailureHead     = 3
	// maxGoPackageOutput bounds the lines shown for a package that failed
	// without a failing test, a panic or a build error (a test that
	// called os.Exit): its last lines.
	maxGoPackageOutput = 10
)

// Test summarizes bash.go_test: package results counted by kind, test
// results counted from the "--- PASS/FAIL/SKIP:" lines, every failing
// test's name, each failure's reason lines with their file:line, panics and
// data races with the frames of the user's code, and the build diagnostics
// of packages that did not build. go test -json is read through the text
// its events carry, so it gives the same body as -v.
//
// go test writes test output to stdout and build output to stderr; both
// streams are read with the same reader, so 2>&1 gives the same body.
func Test(r *summarize.Run) *summarize.Body {
	var g goTestLog
	g.testsOK = goTestsOK(r.Lines(r.Stdout))
	g.gaps = r.Cut.Any || r.StdoutTruncated
	summarize.ReadLines(&g, goTextOf(r, r.Stderr), goTextOf(r, r.Stdout))
	g.settle()

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	b.Tally("packages_ok", g.pkgOK)
	b.Tally("packages_failed", g.pkgFailed)
	b.Tally("packages_no_test_files", g.pkgNoFiles)
	if g.verbose {
		b.Tally("tests_passed", g.passed)
	}
	b.Tally("tests_failed", len(g.failed))
	if g.verbose {
		b.Tally("tests_skipped", g.skipped)
	}
	b.Tally("build_errors", g.diags.errors)
	if g.final != "" {
		b.Field("final_status", g.final)
	}
	b.List("failed_packages", g.failedPkgs, maxGoFailedPackages)
	names := make([]string, len(g.failed))
	for i, t := range g.failed {
		names[i] = t.name
	}
	b.List("failed_tests", permute(names, goSpread(names, maxGoFailedTests)), maxGoFailedTests)

	// The long lists share what the budget leaves, most important first:
	// build diagnostics, panics, races, failure contexts, then the
	// passing packages.
	room := r.BodyRoom() - len(b.Render())
	diags := g.diags.list()
	nDiags, size := summarize.FitHead("build_diagnostics", diags, g.diags.total, maxGoDiags, room)
	room -= size
	if g.diags.lost > 0 {
		room -= len("build_diagnostic_lines_omitted: 0000000000\n")
	}

	panics, panicLost := traceItems(g.panics)
	races, raceLost := traceItems(g.races)
	if len(panics)+len(races) > 0 {
		room -= len("trace_lines_omitted: 0000000000\n")
	}
	nPanics, size := summarize.FitList("panics", panics, maxGoPanics, room)
	room -= size
	nRaces, size := summarize.FitList("races", races, maxGoRaces, room)
	room -= size

	fails := g.failures(!r.Exited || r.ExitCode != 0)
	keys := make([]string, len(fails))
	for i, f := range fails {
		keys[i] = f.key
	}
	failures, lost, breaks := goFailureItems(fails, goSpread(keys, maxGoFailures))
	if len(failures) > 0 {
		room -= len("failure_lines_omitted: 0000000000\n")
	}
	nFailures, size := summarize.FitList("failures", failures, maxGoFailures, room)
	room -= size
	var unplaced []string
	if r.MayLackStart() {
		unplaced = goUnplacedOf(r.Lines(r.Stdout))
	}
	unplaced = append(unplaced, g.stray...)
	nUnplaced, size := summarize.FitList("unplaced_lines", unplaced, maxGoPackageOutput, room)
	room -= size
	nPassed, _ := summarize.FitList("passed_packages", g.passedPkgs, maxGoPassedPackages, room)

	summarize.AddHead(b, "build_diagnostics", diags, g.diags.total, nDiags)
	if g.diags.lost > 0 {
		b.Count("build_diagnostic_lines_omitted", g.diags.lost)
	}
	summarize.AddList(b, "failures", failures, nFailures)
	if n := goLinesOmitted(breaks, lost, nFailures); n > 0 {
		b.Count("failure_lines_omitted", n)
	}
	summarize.AddList(b, "panics", panics, nPanics)
	summarize.AddList(b, "races", races, nRaces)
	if n := goLinesOmitted(lineBreaks(panics), panicLost, nPanics) + goLinesOmitted(lineBreaks(races), raceLost, nRaces); n > 0 {
		b.Count("trace_lines_omitted", n)
	}
	summarize.AddList(b, "unplaced_lines", unplaced, nUnplaced)
	summarize.AddList(b, "passed_packages", g.passedPkgs, nPassed)
	return b
}

// goUnplacedOf returns goUnplaced of a stream: of the text of each
// package's test2json events, whose first events a filter may have cut as
// well, and of the lines that are not events.
func goUnplacedOf(ls []string) []string {
	if !hasGoEvents(ls) {
		return goUnplaced(goText(ls))
	}
	groups := map[string][]string{}
	var order []string
	for _, l := range ls {
		key := "\x00"
		if e, ok := decodeGoEvent(l); ok && e.Action != "" {
			key = e.Package
			if key == "" {
				key = "build " + e.ImportPath
			}
		}
		if groups[key] == nil {
			order = append(order, key)
		}
		groups[key] = append(groups[key], l)
	}
	var out []string
	for _, key := range order {
		out = append(out, goUnplaced(goText(groups[key]))...)
	}
	return out
}

// goUnplaced returns the lines an output cut at its start (tail, grep)
// begins with before the first line that says whose lines follow: a
// package result, a test's result or run marker, a trace, a build header
// or diagnostic. Their test or package was cut off, so the body keeps
// them as they are (blank lines aside).
func goUnplaced(ls []string) []string {
	var out []string
	for _, l := range ls {
		if _, _, ok := goPackageResult(l); ok || isGoTestResult(l) || strings.HasPrefix(l, "=== ") ||
			strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") || l == goRaceHead ||
			strings.HasPrefix(l, "# ") || goLocation(l) != "" {
			break
		}
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// goSpread orders the indices of a list so that its first limit items are
// the ones to show: the first item of each top-level test (the part of
// its key before the first "/"), then the others, each part in the
// list's order. A test with 150 failing subtests then leaves room for the
// other failing tests.
func goSpread(keys []string, limit int) []int {
	chosen := make([]bool, len(keys))
	seen := map[string]bool{}
	n := 0
	for i, k := range keys {
		top, _, _ := strings.Cut(k, "/")
		if n < limit && !seen[top] {
			seen[top] = true
			chosen[i] = true
			n++
		}
	}
	for i := range keys {
		if n < limit && !chosen[i] {
			chosen[i] = true
			n++
		}
	}
	order := make([]int, 0, len(keys))
	for _, want := range []bool{true, false} {
		for i, c := range chosen {
			if c == want {
				order = append(order, i)
			}
		}
	}
	return order
}

func permute[T any](xs []T, order []int) []T {
	out := make([]T, len(order))
	for i, j := range order {
		out[i] = xs[j]
	}
	return out
}

// goLinesOmitted counts the lines a list of failures or traces leaves out
// when only its first n items are shown: what each shown item left out,
// and every line of the others but their first (each item's line breaks
// in breaks), which the list's _omitted count stands for. So an item too
// big for the budget still has each of its lines counted.
func goLinesOmitted(breaks, lost []int, n int) int {
	t := 0
	for i, l := range lost {
		t += l
		if i >= n {
			t += breaks[i]
		}
	}
	return t
}

// lineBreaks returns the number of line breaks of each item.
func lineBreaks(items []string) []int {
	breaks := make([]int, len(items))
	for i, it := range items {
		breaks[i] = strings.Count(it, "\n")
	}
	return breaks
}

// traceItems renders traces as list items, with the lines each leaves out.
func traceItems(ts []*goTrace) (items []string, lost []int) {
	for _, t := range ts {
		it, n := t.item()
		items = append(items, it)
		lost = append(lost, n)
	}
	return items, lost
}

// goTestRecord is one run of one test: its output lines and its result.
type goTestRecord struct {
	name   string
	head   string   // the "--- FAIL: name (0.00s)" line, trimmed
	lines  []string // the lines it printed: t.Log, t.Error and the like
	result byte     // 'F', 'P' or 'S' once its "--- " line was read
	indent int      // the indentation of its "--- " line
}

// goTestLog reads go test's output one line at a time. Test output is
// attributed by go's two layouts: with -v every test's lines follow its
// "=== RUN/CONT/NAME" line and come before its "--- FAIL:" line; without
// -v they follow the "--- FAIL:" line, indented one level deeper, and a
// parent's lines printed after its subtests' are back at the parent's
// depth. So an indented line goes to the innermost test whose "--- " line
// since the last "=== " line is less indented, or else to the test the
// "=== " line named. A package's output ends at its result line ("ok",
// "FAIL", "?"), which closes the scope of test names.
type goTestLog struct {
	diags goDiags

	verbose bool // "=== RUN" lines were seen
	// results holds every package result line and go's closing "FAIL"
	// line, in order; settle makes the counts and lists of them.
	results                      []goResult
	pkgOK, pkgFailed, pkgNoFiles int
	failedPkgs, passedPkgs       []string
	passed, skipped              int
	failed                       []*goTestRecord
	panics, races                []*goTrace
	final                        string // the last FAIL line, or the last ok line
	unexplained                  []goPackageOutput
	leftover                     []goPackageOutput

	// The package being read.
	tests     map[string]*goTestRecord
	cur       *goTestRecord   // the test the last "=== " or "--- " line named
	nested    []*goTestRecord // tests of the "--- " lines since the last "===", by depth
	trace     *goTrace
	explained bool     // a failing test, a trace or a build error was read
	other     []string // its last unattributed lines
	otherLost int      // unattributed lines before those
	build     bool     // after a "# pkg" header: build output until a test line

	// prev is the test the output was in when a package result closed
	// the scope, while it had not failed: a test's own output can print a
	// line of a result's shape, so its lines and its real result may
	// follow.
	prev *goTestRecord
	// passing is the last test that passed or was skipped: its lines are
	// let go when another test's line comes, as its "--- PASS:" line may
	// have been its own output.
	passing *goTestRecord
	last    string // the line read before
	// testsOK holds the ok lines test2json gives as tests' output.
	testsOK map[string]bool
	// gaps tells that lines may be missing anywhere (grep, the capture
	// limit), so a line may follow the result of a test it is not of:
	// such lines are kept in stray.
	gaps  bool
	stray []string

	records []goTestRecord // the block new records are cut from
	spare   [][]string     // line buffers of tests that passed, for new records
}

// goResult is a package result line ("ok  \tpkg", "FAIL\tpkg", "?   \tpkg",
// kind 'o', 'F', '?') or go's closing "FAIL" (kind 'f', no pkg), with the
// output of a package that failed with nothing else to show for it.
type goResult struct {
	kind     byte
	pkg      string
	line     string
	output   *goPackageOutput
	imitated bool // another result line of its package overrules it
}

// goPackageOutput is a package that failed with nothing to show for it but
// what it printed.
type goPackageOutput struct {
	result string
	lines  []string
	lost   int
}

// Feed reads one line of either stream.
func (g *goTestLog) Feed(l string) {
	g.feed(l)
	g.last = l
}

// feed reads a line.
func (g *goTestLog) feed(l string) {
	if g.trace != nil {
		// A trace's end may be cut (grep, head): a package or test result,
		// a run marker or a test's reason line, never a trace's line,
		// ends it.
		if _, _, ok := goPackageResult(l); !ok && !isGoTestResult(l) && !strings.HasPrefix(l, "=== ") &&
			!isGoReason(l) && g.trace.feed(l) {
			return
		}
		g.trace = nil
	}
	if kind, pkg, ok := goPackageResult(l); ok && !g.ownOK(kind, l) {
		g.packageResult(kind, pkg, l)
		return
	}
	indented := l != "" && (l[0] == ' ' || l[0] == '\t')
	switch {
	case l == "":
		g.diags.open = false
	case strings.HasPrefix(l, "=== "):
		g.marker(l)
	case isGoTestResult(l):
		g.testResult(l)
	case strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") ||
		strings.HasPrefix(l, "runtime: ") || l == goRaceHead:
		// The runtime explains some fatal errors on "runtime: " lines
		// before the "fatal error:" line, which then joins the message.
		g.build = false
		g.trace = newGoTrace(l)
		if l == goRaceHead {
			g.races = append(g.races, g.trace)
		} else {
			g.panics = append(g.panics, g.trace)
		}
		g.explained = true
	case strings.HasPrefix(l, "# "):
		g.build = true
		g.diags.header(l)
	case g.diags.continues(l):
		g.diags.cont(l)
	case isGoProgress(l):
	case indented && g.owner(l) != nil:
		t := g.owner(l)
		if g.gaps && g.verbose && (t.result == 'P' || t.result == 'S') {
			// With -v a test's lines come before its result: this one's
			// test may have lost its marker to the filter.
			g.stray = append(g.stray, l)
		}
		t.lines = append(t.lines, l)
	case indented:
	case g.build || goLocation(l) != "" || strings.HasPrefix(l, "go: "):
		g.diags.message(l)
		g.explained = true
	case l == "FAIL" || l == "PASS" || strings.HasPrefix(l, "exit status ") ||
		l == "==================" || strings.HasPrefix(l, "coverage: ") ||
		l == "testing: warning: no tests to run":
		// go test's own closing lines, and the race report's delimiter.
		if l == "FAIL" {
			g.results = append(g.results, goResult{kind: 'f', line: l})
		}
	case g.cur != nil && g.cur.result == 'F' && strings.HasPrefix(g.cur.name, "Example"):
		// A failing example prints its got:/want: lines unindented.
		g.cur.lines = append(g.cur.lines, l)
	default:
		g.other = append(g.other, l)
		if len(g.other) > 2*maxGoPackageOutput {
			// Keep the last lines only, in amortized constant time.
			n := len(g.other) - maxGoPackageOutput
			copy(g.other, g.other[n:])
			g.other = g.other[:maxGoPackageOutput]
			g.otherLost += n
		}
	}
}

// ownOK reports whether a package result line l of kind is a test's own
// output: with -v, go prints a package's ok line right after its "PASS"
// line (and the coverage line of -cover), so an ok line after anything
// else is text a test printed; and test2json's events say whose a line
// is (testsOK). Only ok lines are judged: a FAIL line is always read, so
// that no failure can be hidden.
func (g *goTestLog) ownOK(kind byte, l string) bool {
	return kind == 'o' && (g.testsOK[l] || g.verbose && g.last != "PASS" && !strings.HasPrefix(g.last, "coverage: "))
}

// goTestsOK returns the package ok lines that test2json's events give as
// a test's output (an event with a Test), not as a package's.
func goTestsOK(ls []string) map[string]bool {
	var set map[string]bool
	for _, l := range ls {
		if !strings.Contains(l, `"Output":"ok  \t`) || !strings.Contains(l, `"Test":"`) {
			continue
		}
		e, ok := decodeGoEvent(l)
		if !ok || e.Test == "" || e.Action != "output" {
			continue
		}
		out := e.Output
		if e.quoted {
			var arena textArena
			out = arena.unquote(out)
		}
		if set == nil {
			set = map[string]bool{}
		}
		set[strings.TrimSuffix(out, "\n")] = true
	}
	return set
}

// marker reads "=== RUN   name", "=== PAUSE name", "=== CONT  name" and
// "=== NAME  name": the lines after it are that test's.
func (g *goTestLog) marker(l string) {
	g.build = false
	action, name, _ := strings.Cut(strings.TrimPrefix(l, "=== "), " ")
	name = strings.TrimSpace(name)
	t := g.tests[name]
	g.prev = nil
	g.letGo(t)
	if action == "RUN" || t == nil || t.result != 0 {
		// A new run: -count=N runs a test again under the same name.
		t = g.newRecord(name)
	}
	if action == "RUN" {
		g.verbose = true
	}
	g.cur, g.nested = t, g.nested[:0]
}

// owner returns the test an indented line belongs to: the innermost test
// of the "--- " lines read since the last "=== " line whose line is less
// indented, or else the current test.
func (g *goTestLog) owner(l string) *goTestRecord {
	depth := goIndentOf(l)
	for len(g.nested) > 0 && g.nested[len(g.nested)-1].indent >= depth {
		g.nested = g.nested[:len(g.nested)-1]
	}
	if len(g.nested) > 0 {
		return g.nested[len(g.nested)-1]
	}
	if g.cur == nil {
		return g.prev
	}
	return g.cur
}

// isGoReason matches a test's "    file.go:12: message" line, indented by
// spaces, which a trace's frames ("\t/path/file.go:12 +0x1d") never are.
func isGoReason(l string) bool {
	t := strings.TrimLeft(l, " ")
	return len(t) < len(l) && goLocation(t) != ""
}

// isGoTestResult matches "--- FAIL: name (0.00s)" and its PASS and SKIP
// forms, indented four spaces per subtest level. The " (" before the
// duration must follow the prefix: in "--- FAIL: (0.00s)" the only one is
// the prefix's own space, and there is no name to cut out.
func isGoTestResult(l string) bool {
	t := strings.TrimLeft(l, " ")
	return (len(l)-len(t))%4 == 0 && (strings.HasPrefix(t, "--- FAIL: ") ||
		strings.HasPrefix(t, "--- PASS: ") || strings.HasPrefix(t, "--- SKIP: ")) &&
		strings.HasSuffix(t, "s)") && strings.LastIndex(t, " (") >= len("--- FAIL: ")
}

// testResult reads a "--- RESULT: name (d)" line. Without -v the lines
// after a failing test's line are its reasons, so it becomes the current
// test.
func (g *goTestLog) testResult(l string) {
	g.build = false
	head := strings.TrimLeft(l, " ")
	result := head[4]
	name := head[len("--- FAIL: "):strings.LastIndex(head, " (")]
	t := g.tests[name]
	if t == nil && g.prev != nil && g.prev.name == name {
		t = g.prev
	}
	g.prev = nil
	g.letGo(t)
	switch {
	case t != nil && result == 'F' && (t.result == 'P' || t.result == 'S') && (t == g.cur || t == g.passing):
		// The test's own output printed its PASS or SKIP line: the
		// real result comes last.
		if t.result == 'P' {
			g.passed--
		} else {
			g.skipped--
		}
		g.passing = nil
	case t == nil || t.result != 0:
		t = g.newRecord(name)
	}
	t.result = result
	t.indent = len(l) - len(head)
	for len(g.nested) > 0 && g.nested[len(g.nested)-1].indent >= t.indent {
		g.nested = g.nested[:len(g.nested)-1]
	}
	g.cur, g.nested = t, append(g.nested, t)
	switch result {
	case 'F':
		t.head = head
		g.failed = append(g.failed, t)
		g.explained = true
	case 'P':
		g.passed++
		g.passing = t
	case 'S':
		g.skipped++
		g.passing = t
	}
}

// letGo drops the lines of the last test that passed, unless t is that
// test.
func (g *goTestLog) letGo(t *goTestRecord) {
	if g.passing != nil && g.passing != t {
		g.dropLines(g.passing)
		g.passing = nil
	}
}

// newRecord starts a record of a test and names it in the package's
// scope. Records are cut from blocks, and take the line buffers of tests
// that passed: a verbose log runs thousands of tests, each printing a few
// lines.
func (g *goTestLog) newRecord(name string) *goTestRecord {
	if len(g.records) == cap(g.records) {
		g.records = make([]goTestRecord, 0, 64)
	}
	g.records = append(g.records, goTestRecord{name: name})
	t := &g.records[len(g.records)-1]
	if n := len(g.spare); n > 0 {
		t.lines, g.spare = g.spare[n-1], g.spare[:n-1]
	}
	if g.tests == nil {
		g.tests = map[string]*goTestRecord{}
	}
	g.tests[name] = t
	return t
}

// dropLines lets go of the lines of a test that passed or was skipped,
// which are never shown, and keeps their buffer for a new record. Lines
// read after its result line start a new buffer.
func (g *goTestLog) dropLines(t *goTestRecord) {
	if cap(t.lines) > 0 {
		g.spare = append(g.spare, t.lines[:0])
	}
	t.lines = nil
}

// closeScope forgets the package's test names. A map that never held more
// than 64 is cleared for the next package, in time bounded by that size;
// a larger one is dropped, as clearing it would cost every later package
// its whole size.
func (g *goTestLog) closeScope() {
	if len(g.tests) <= 64 {
		clear(g.tests)
	} else {
		g.tests = nil
	}
	g.cur, g.nested = nil, g.nested[:0]
}

// packageResult reads a package's result line and closes its scope. The
// test the output was in stays prev: the line may be its own output.
func (g *goTestLog) packageResult(kind byte, pkg, l string) {
	res := goResult{kind: kind, pkg: pkg, line: l}
	if kind == 'F' && !g.explained && !strings.HasSuffix(l, " failed]") {
		n := max(0, len(g.other)-maxGoPackageOutput)
		res.output = &goPackageOutput{l, g.other[n:], g.otherLost + n}
		g.other = nil
	}
	g.results = append(g.results, res)
	prev := g.cur
	if prev == nil {
		prev = g.prev
	}
	if prev == nil || prev.result == 'F' {
		prev = nil
	}
	g.closeScope()
	g.prev = prev
	g.explained, g.build = false, false
	g.other, g.otherLost = g.other[:0], 0
}

// settle makes the package counts and lists of the result lines. A test
// can print a line of a result's shape, its own package's or another's,
// but go prints a package's real result after everything its test binary
// printed, and a package that failed never prints ok: so of a package's
// result lines the worst (FAIL, then ok, then no test files) is its
// result, and the last of those is the line shown.
func (g *goTestLog) settle() {
	rank := map[byte]int{'F': 3, 'o': 2, '?': 1}
	chosen := map[string]int{}
	for i, r := range g.results {
		if r.pkg == "" {
			continue
		}
		if j, ok := chosen[r.pkg]; ok && rank[g.results[j].kind] > rank[r.kind] {
			g.results[i].imitated = true
			continue
		} else if ok {
			g.results[j].imitated = true
		}
		chosen[r.pkg] = i
	}
	failed := false
	for _, r := range g.results {
		if r.imitated {
			continue
		}
		switch r.kind {
		case 'o':
			g.pkgOK++
			g.passedPkgs = append(g.passedPkgs, r.line)
		case 'F':
			g.pkgFailed++
			g.failedPkgs = append(g.failedPkgs, r.line)
			if r.output != nil {
				g.unexplained = append(g.unexplained, *r.output)
			}
		case '?':
			g.pkgNoFiles++
		}
		if r.kind == 'F' || r.kind == 'f' || r.kind == 'o' && !failed {
			g.final, failed = r.line, r.kind != 'o'
		}
	}
}

// EndStream resets what must not carry from one stream to the other. Lines
// that no package result closed (a go command error, output cut by a
// pipe) are kept as leftover.
func (g *goTestLog) EndStream() {
	g.diags.EndStream()
	if len(g.other) > 0 && !g.explained {
		n := max(0, len(g.other)-maxGoPackageOutput)
		g.leftover = append(g.leftover, goPackageOutput{lines: g.other[n:], lost: g.otherLost + n})
	}
	g.closeScope()
	g.trace = nil
	g.explained, g.build = false, false
	g.other, g.otherLost = nil, 0
}

// goFailure is an item of the failures list before it is rendered: a
// failing test's "--- FAIL:" line and its lines, or a package's result
// line and its last lines. Only the items that may be shown are
// rendered; the others are counted, and a run with thousands of failing
// tests shows thirty.
type goFailure struct {
	key   string // the test's name; never a test name for a package
	head  string // the first line; "" for lines no package result closed
	lines []string
	test  bool // lines are a test's, cut and dedented by goFailureLines
	lost  int  // lines left out
}

// failures returns one item per failing test that printed something:
// its "--- FAIL:" line, then its lines with the indentation they share
// removed (a parent that failed only through its subtests printed
// nothing and is in failed_tests alone). Then one item per package that
// failed with no failing test, trace or build error: its result line and
// its last unattributed lines; and when a failed run shows nothing else,
// the last lines no package result closed.
func (g *goTestLog) failures(failed bool) []goFailure {
	fs := make([]goFailure, 0, len(g.failed)+len(g.unexplained)+len(g.leftover))
	for _, t := range g.failed {
		if len(t.lines) == 0 {
			continue
		}
		lost := max(0, len(t.lines)-maxGoFailureLines)
		fs = append(fs, goFailure{key: t.name, head: t.head, lines: t.lines, test: true, lost: lost})
	}
	outputs := g.unexplained
	if failed && len(fs)+len(outputs)+len(g.panics)+len(g.races)+len(g.diags.items) == 0 {
		outputs = g.leftover
	}
	for _, p := range outputs {
		fs = append(fs, goFailure{key: "\x00" + p.result, head: p.result, lines: p.lines, lost: p.lost})
	}
	return fs
}

// goFailureItems lists the items in the given order. It renders the first
// maxGoFailures, the most the list shows, and leaves the others empty:
// FitList and AddList, capped at maxGoFailures, only count them. It
// returns what each item leaves out and its line breaks for
// goLinesOmitted.
func goFailureItems(fs []goFailure, order []int) (items []string, lost, breaks []int) {
	items, lost, breaks = make([]string, len(fs)), make([]int, len(fs)), make([]int, len(fs))
	for i, j := range order {
		f := fs[j]
		ls := f.lines
		if f.test {
			ls = ls[:min(len(ls), maxGoFailureLines)]
		}
		if f.test || f.head != "" {
			breaks[i]++
		}
		breaks[i] += len(ls) - 1
		lost[i] = f.lost
		if i < maxGoFailures {
			items[i] = f.render()
		}
	}
	return items, lost, breaks
}

// render joins the item's lines.
func (f goFailure) render() string {
	ls := f.lines
	if f.test {
		ls, _ = goFailureLines(ls)
	}
	if f.test || f.head != "" {
		ls = append([]string{f.head}, ls...)
	}
	return strings.Join(ls, "\n")
}

// goFailureLines keeps at most maxGoFailureLines of a test's lines, the
// first goFailureHead and the last ones, dedented by the indentation of
// the first line, and returns how many it left out.
func goFailureLines(ls []string) (kept []string, lost int) {
	indent := goIndentOf(ls[0])
	if len(ls) > maxGoFailureLines {
		tail := maxGoFailureLines - goFailureHead
		lost = len(ls) - maxGoFailureLines
		ls = slices.Concat(ls[:goFailureHead], ls[len(ls)-tail:])
	}
	kept = make([]string, len(ls))
	for i, l := range ls {
		n := 0
		for n < indent && n < len(l) && (l[n] == ' ' || l[n] == '\t') {
			n++
		}
		kept[i] = l[n:]
	}
	return kept, lost
}

// goPackageResult parses go test's line for one package: "ok  \tpkg\t0.01s",
// "FAIL\tpkg\t0.01s", "FAIL\tpkg [build failed]", "?   \tpkg\t[no test
// files]" and, under -cover, "\tpkg\t\tcoverage: 0.0% of statements" for a
// package without tests. kind is 'o', 'F' or '?'.
func goPackageResult(l string) (kind byte, pkg string, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(l, "ok  \t"):
		kind, rest = 'o', l[5:]
	case strings.HasPrefix(l, "FAIL\t"):
		kind, rest = 'F', l[5:]
	case strings.HasPrefix(l, "?   \t"):
		kind, rest = '?', l[5:]
	case strings.HasPrefix(l, "\t") && strings.Contains(l, "\t\tcoverage: "):
		kind, rest = '?', l[1:]
	default:
		return 0, "", false
	}
	pkg, _, _ = strings.Cut(rest, "\t")
	pkg, _, _ = strings.Cut(pkg, " ")
	return kind, pkg, pkg != ""
}
