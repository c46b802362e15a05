package cargo

import (
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchTest recognizes cargo test.
func MatchTest(argv []string) classify.Answer { return matchSub(argv, "test", formats) }

// TestOutput is libtest's signature: the "test result: ok. 3 passed; 0
// failed; ..." line that closes each test binary's run. Its words and
// layout are libtest's own; other runners end on "N passed in Xs"
// (pytest), "Tests:" (jest, vitest) or "ok  \tpkg" (go test).
func TestOutput(r *summarize.Run) bool { return r.HasLine("test result: ", isLibtestTotals) }

// isLibtestTotals reports whether l is "test result: ok. N passed; M
// failed; ..." or "test result: FAILED. ...".
func isLibtestTotals(l string, _ []byte) bool {
	rest, ok := strings.CutPrefix(l, "test result: ok. ")
	if !ok {
		rest, ok = strings.CutPrefix(l, "test result: FAILED. ")
	}
	passed := summarize.DigitsPrefix(rest)
	after, found := strings.CutPrefix(rest[len(passed):], " passed; ")
	failed := summarize.DigitsPrefix(after)
	return ok && found && passed != "" && failed != "" && strings.HasPrefix(after[len(failed):], " failed; ")
}

// Caps of bash.cargo_test. Failing names are short and each one matters, so
// at least a hundred are always listed; failure contexts and per-binary
// results take what the budget leaves.
const (
	maxFailedTests = 100
	maxTestResults = 40
	// maxFailures bounds the failure contexts: an agent fixes a few
	// failures at a time, the names of the others are listed, and the raw
	// output is kept on disk.
	maxFailures = 30
	// maxFailureLines bounds the copied lines of one failing test's
	// context: enough for a panic line, its message, assertion left/right
	// values and the first frames of a backtrace.
	maxFailureLines = 12
	// maxFatalErrors bounds the runtime's fatal errors: each one killed a
	// test binary, so there are few.
	maxFatalErrors = 10
)

// Test summarizes bash.cargo_test: exact totals summed over every test
// binary, the failing test names, each failure's panic line, message and
// location, every "test result:" line with the binary it belongs to, and,
// when the tests did not build, the compiler diagnostics exactly as
// cargo_check reports them.
//
// libtest writes to stdout and cargo to stderr; both are read with the same
// line reader, so a run captured with 2>&1 (everything on stdout) gives the
// same body.
func Test(r *summarize.Run) *summarize.Body {
	cut := cutOf(r)
	t := testLog{cut: cut, unplaced: newUnplaced(cut)}
	summarize.ReadStreams(&t, r.Stderr, r.Stdout)

	var tot testTotals
	var names []string
	results := 0
	for _, bin := range t.bins {
		if bin.result != "" {
			results++
			tot.add(bin.result)
		}
		names = append(names, bin.failedNames(t.cut.any)...)
	}

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	if results > 0 {
		// Totals libtest printed: without a result line in sight (the
		// build failed, a head cut them off) there are none to state.
		b.Count("passed", tot.passed)
		b.Count("failed", tot.failed)
		b.Count("ignored", tot.ignored)
		b.Count("measured", tot.measured)
		b.Count("filtered_out", tot.filteredOut)
	}
	t.cargo.addBuildFields(b, cut)
	b.List("failed_tests", names, maxFailedTests)
	b.List("unfinished_tests", t.unfinished, maxFailedTests)
	b.List("fatal_runtime_errors", t.fatal, maxFatalErrors)

	// The long lists share what the budget leaves, in order of importance:
	// compiler errors; the per-binary results, short but at most half of
	// what is left so that many binaries cannot crowd out the failures;
	// then the failure contexts.
	room := r.BodyRoom() - len(b.Render()) - t.unplaced.size()
	diags, diagLimit := t.cargo.diagnosticItems()
	nDiags, size := summarize.FitList("diagnostics", diags, diagLimit, room)
	room -= size

	resultItems := t.resultItems(maxTestResults)
	nResults, size := summarize.FitList("test_results", resultItems, maxTestResults, room/2)
	room -= size

	failures, lost := t.failureItems(names)
	if slices.ContainsFunc(lost, func(n int) bool { return n > 0 }) {
		room -= len("failure_lines_omitted: 0000000000\n")
	}
	nFailures, _ := summarize.FitList("failures", failures, maxFailures, room)
	lostLines := 0
	for _, n := range lost[:nFailures] {
		lostLines += n
	}

	summarize.AddList(b, "failures", failures, nFailures)
	if lostLines > 0 {
		b.Count("failure_lines_omitted", lostLines)
	}
	t.unplaced.add(b)
	summarize.AddList(b, "test_results", resultItems, nResults)
	summarize.AddList(b, "diagnostics", diags, nDiags)
	return b
}

// testTotals sums the counts of "test result:" lines.
type testTotals struct {
	passed, failed, ignored, measured, filteredOut int
}

// add adds the counts of one line such as "test result: FAILED. 1 passed;
// 2 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.00s".
func (tt *testTotals) add(result string) {
	_, counts, ok := strings.Cut(result, ". ")
	if !ok {
		return
	}
	for part := range strings.SplitSeq(counts, "; ") {
		switch {
		case strings.HasSuffix(part, " passed"):
			tt.passed += summarize.NumberBefore(part, " passed")
		case strings.HasSuffix(part, " failed"):
			tt.failed += summarize.NumberBefore(part, " failed")
		case strings.HasSuffix(part, " ignored"):
			tt.ignored += summarize.NumberBefore(part, " ignored")
		case strings.HasSuffix(part, " measured"):
			tt.measured += summarize.NumberBefore(part, " measured")
		case strings.HasSuffix(part, " filtered out"):
			tt.filteredOut += summarize.NumberBefore(part, " filtered out")
		}
	}
}

// testBinary is the output of one test executable, from "running N tests"
// to its "test result:" line.
type testBinary struct {
	result string   // the "test result:" line; "" when the binary died first
	failed []string // the names listed under the last "failures:"
	// failedMarks holds the names of "test NAME ... FAILED" lines (or
	// "NAME --- FAILED" with -q), used only when a binary that died never
	// printed its list.
	failedMarks []string
	// running is the name of the last "test NAME ... " line that no
	// result followed yet: with one test thread libtest prints it when the
	// test starts and the result when it ends.
	running string
	// tests is the N of "running N tests", or -1 when a cut left that line
	// out.
	tests int
}

// setResult reads a "test result:" line. libtest prints one per binary,
// after every test has finished, and nothing after it; a test's own
// output (with --nocapture) can print one too, always before. So the last
// one wins, unless "running N tests" said how many tests there were and
// only the one before adds up to N.
func (bin *testBinary) setResult(l string) {
	if bin.result == "" || bin.tests < 0 || resultTests(l) == bin.tests || resultTests(bin.result) != bin.tests {
		bin.result = l
	}
}

// resultTests is the number of tests a result line accounts for: every
// test libtest ran ends passed, failed, ignored or measured.
func resultTests(l string) int {
	var tt testTotals
	tt.add(l)
	return tt.passed + tt.failed + tt.ignored + tt.measured
}

// failedNames returns the binary's failing names: the list libtest prints
// before its result line when both are there; every name seen, once, when
// the binary died before the list, or a cut may have left part of it out
// (no result line in sight, or a grep).
func (bin *testBinary) failedNames(anyCut bool) []string {
	if bin.result != "" && !anyCut {
		if len(bin.failed) > 0 {
			return bin.failed
		}
		return bin.failedMarks
	}
	names := slices.Clone(bin.failed)
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		seen[n] = true
	}
	for _, n := range bin.failedMarks {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return names
}

// testBlock is a run of copied lines: a "---- name stdout ----" section with
// the lines under it, or a panic printed outside any section (with
// --nocapture the harness does not capture it and it lands on stderr).
type testBlock struct {
	head  string
	lines []string
	// skip is set on the sections whose lines are never shown: passing
	// tests' under --show-output, and failing ones past maxFailures.
	skip bool
	// cutOff marks a panic before the first binary of a stream that may
	// lack its start: its section's head may be what the cut left out
	// (a doc-test's panics in thread 'main' name no test).
	cutOff bool
}

// testLog reads libtest's output and hands every other line to a cargoLog.
// It is a line-at-a-time state machine, so it is linear in the output.
type testLog struct {
	cargo    cargoLog
	bins     []*testBinary
	sections []*testBlock // sections of failing tests, in order
	panics   []*testBlock // panics outside sections
	// unfinished holds the tests that binaries died running, as far as
	// the output names them; fatal, the runtime's fatal errors.
	unfinished, fatal []string
	overflowed        bool // the last line was a "has overflowed its stack" line

	bin *testBinary // the binary being read; nil between binaries
	// done is the binary whose result line came before a line of cargo
	// closed it: should one of libtest's lines follow, the cargo line was
	// what a test printed (--nocapture) and the binary goes on.
	done      *testBinary
	sec       *testBlock // the section being read
	panic     *testBlock // the loose panic being read
	names     bool       // the previous line was "failures:" or a name under it
	successes bool       // under "successes:" (--show-output): not failures

	// What a cut changes (cut.go): the stream being read, whether a
	// binary was opened in the cut stream, the lines before the first one
	// placed, and among them the names a tail kept of a failures list
	// whose "failures:" it cut off (cutNames, then a blank line: gap).
	cut       streamCut
	stream    int
	cutOpened bool
	unplaced  unplacedLines
	cutNames  []string
	gap       bool
}

// Feed reads one line of either stream.
func (t *testLog) Feed(l string) {
	t.place(l)
	t.feed(l)
}

// place notes l when it comes before the first line of a cut stream that
// the rule can place, and the names of a failures list among such lines.
func (t *testLog) place(l string) {
	anchor := isRunningTests(l) || isLibtestFrame(l) || isPanicLine(l) || isOverflowLine(l) ||
		strings.HasPrefix(l, "fatal runtime error: ") || isCargoAnchor(l)
	if !t.unplaced.see(l, anchor) {
		return
	}
	switch {
	case strings.TrimSpace(l) == "":
		t.gap = len(t.cutNames) > 0
	case len(l) > 4 && strings.HasPrefix(l, "    ") && l[4] != ' ' && !t.gap:
		t.cutNames = append(t.cutNames, strings.TrimSpace(l))
	case len(l) > 4 && strings.HasPrefix(l, "    ") && l[4] != ' ':
		t.cutNames, t.gap = []string{strings.TrimSpace(l)}, false
	default:
		t.cutNames, t.gap = nil, false
	}
}

func (t *testLog) feed(l string) {
	if t.sec == nil && t.fatalLine(l) {
		return
	}
	if t.panic != nil {
		if endsPanic(l) {
			t.panic = nil
		} else {
			t.panic.lines = append(t.panic.lines, l)
		}
	}
	if t.bin == nil {
		switch {
		case isRunningTests(l):
			t.open(numberAfter(l, "running "))
			t.successes, t.done = false, nil
			return
		case t.done != nil && isLibtestFrame(l):
			t.bin, t.done = t.done, nil
		case t.opensCutBinary(l):
			t.open(-1)
			if strings.HasPrefix(l, "test result: ") && t.gap {
				// A tail that began in the names listed under "failures:".
				t.bin.failed = t.cutNames
				t.unplaced.unsee(len(t.cutNames))
			}
		default:
			if diedBefore(l) {
				t.done = nil
			}
			t.cargo.Feed(l)
			t.startPanic(l)
			return
		}
	}

	if t.sec == nil {
		switch {
		case isRunningTests(l) || diedBefore(l):
			// The next binary starts, or (2>&1) cargo says how this one
			// ended.
			t.endBinary(t.stream != cutStream || !t.cut.any)
			t.feed(l)
			return
		case t.bin.result != "" && isCargoAnchor(l):
			// After its result line a binary prints nothing: this is
			// cargo's (2>&1), unless libtest goes on (done).
			t.done = t.bin
			t.endBinary(true)
			t.feed(l)
			return
		}
	}
	names := t.names
	t.names = false
	switch {
	case t.sec != nil && l != "failures:" && l != "successes:" && !isSectionHead(l):
		// What a test printed, however much it looks like libtest's or
		// cargo's lines ("test result: ok. 50 passed", rustc's errors):
		// a section ends at the next one or at the list of names.
		if !t.sec.skip {
			t.sec.lines = append(t.sec.lines, l)
		}
	case strings.HasPrefix(l, "test result: "):
		t.bin.setResult(l)
		t.sec = nil
		if t.stream == cutStream && t.cut.any {
			// A grep keeps result lines and drops the framing between
			// them: each one is a binary's.
			t.bin = nil
		}
	case l == "failures:" || l == "successes:":
		t.sec = nil
		t.successes = l == "successes:"
		t.names = true
	case names && strings.HasPrefix(l, "    "):
		t.names = true
		if !t.successes {
			t.bin.failed = append(t.bin.failed, strings.TrimSpace(l))
		}
	case isSectionHead(l):
		t.sec = &testBlock{head: l, skip: t.successes || len(t.sections) >= maxFailures}
		if !t.successes {
			t.sections = append(t.sections, t.sec)
		}
	default:
		if name, ok := failedMark(l); ok {
			t.bin.failedMarks = append(t.bin.failedMarks, name)
		}
		if strings.HasPrefix(l, "test ") {
			t.bin.running, _ = libtestStart(l)
		}
		t.startPanic(l)
	}
}

// open starts the output of a test binary that runs tests tests (-1:
// unknown).
func (t *testLog) open(tests int) {
	t.bin = &testBinary{tests: tests}
	t.bins = append(t.bins, t.bin)
	if t.stream == cutStream {
		t.cutOpened = true
	}
}

// opensCutBinary reports whether l, read while no binary is open, is a
// line of one whose start a cut left out: one of libtest's lines in the cut
// stream before any binary began there (a tail), or anywhere in it (a
// grep drops the "running N tests" lines).
func (t *testLog) opensCutBinary(l string) bool {
	return t.stream == cutStream && (t.cut.any || t.cut.start && !t.cutOpened) && isLibtestFrame(l)
}

// isLibtestFrame reports whether l is one of the lines libtest frames a
// binary's output with: a test's line, a section's head, "failures:",
// "successes:", a result line, or -q's "NAME --- FAILED".
func isLibtestFrame(l string) bool {
	if strings.HasPrefix(l, "test ") {
		_, _, ok := libtestLine(l)
		return ok || strings.HasPrefix(l, "test result: ")
	}
	if l == "failures:" || l == "successes:" || isSectionHead(l) {
		return true
	}
	_, ok := failedMark(l)
	return ok
}

// endBinary closes a binary. When it died before its result line, the test
// it was running, when libtest named it, is unfinished; unless the end of
// its output may be missing (seen says it is not), which is no death.
func (t *testLog) endBinary(seen bool) {
	if seen && t.bin.result == "" && t.bin.running != "" {
		t.unfinished = append(t.unfinished, t.bin.running)
	}
	t.bin, t.sec = nil, nil
}

// fatalLine reads the runtime's lines about a binary it kills: "thread
// 'NAME' (ID) has overflowed its stack" and "fatal runtime error: ...",
// which joins the overflow line before it. It reports whether l was one.
func (t *testLog) fatalLine(l string) bool {
	overflowed := t.overflowed
	t.overflowed = false
	switch {
	case strings.HasPrefix(l, "fatal runtime error: "):
		if overflowed && len(t.fatal) > 0 {
			t.fatal[len(t.fatal)-1] += "\n" + l
		} else {
			t.fatal = append(t.fatal, l)
		}
	case isOverflowLine(l):
		t.fatal = append(t.fatal, l)
		t.overflowed = true
	default:
		return false
	}
	return true
}

// isOverflowLine matches the runtime's "thread 'NAME' (ID) has overflowed
// its stack" (the ID since Rust 1.88).
func isOverflowLine(l string) bool {
	return strings.HasPrefix(l, "thread '") && strings.HasSuffix(l, " has overflowed its stack")
}

// diedBefore reports whether l, read while a binary's output is open, is
// one cargo prints only after the binary exited (with 2>&1 they share a
// stream): its error for the binary, or the header of the next one.
func diedBefore(l string) bool {
	return strings.HasPrefix(l, "error: test failed, to rerun pass ") ||
		strings.HasPrefix(l, "error: doctest failed, to rerun pass ") ||
		isProgress(l) && (strings.HasPrefix(strings.TrimSpace(l), "Running ") || strings.HasPrefix(strings.TrimSpace(l), "Doc-tests "))
}

// libtestLine reads libtest's "test NAME ... REST": a test's result line,
// or with one test thread its start line, where REST is empty or (with
// --nocapture) what the test printed first. A should_panic test's
// " - should panic" is cut off its name.
func libtestLine(l string) (name, rest string, ok bool) {
	after, ok := strings.CutPrefix(l, "test ")
	if !ok {
		return "", "", false
	}
	name, rest, ok = strings.Cut(after, " ...")
	if !ok || name == "" || rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	return strings.TrimSuffix(name, " - should panic"), strings.TrimPrefix(rest, " "), true
}

// libtestStart returns the name of a test libtest started, from a "test
// NAME ... " line without a result.
func libtestStart(l string) (string, bool) {
	if strings.HasSuffix(l, " ... ok") || strings.HasSuffix(l, " ... FAILED") {
		return "", false // most lines, told apart without a search
	}
	name, rest, ok := libtestLine(l)
	if !ok || isLibtestResult(rest) {
		return "", false
	}
	return name, true
}

// isLibtestResult reports whether rest, what follows "test NAME ... ", is a
// result: ok, FAILED, ignored (with its reason) or a benchmark's figures.
func isLibtestResult(rest string) bool {
	return rest == "ok" || rest == "FAILED" || rest == "ignored" ||
		strings.HasPrefix(rest, "ignored, ") || strings.HasPrefix(rest, "bench: ")
}

// EndStream resets the state at the end of a stream: a binary that died
// mid-output leaves nothing open for the other stream to continue.
func (t *testLog) EndStream() {
	if t.bin != nil {
		t.endBinary(t.stream != cutStream || !t.cut.end)
	}
	t.overflowed = false
	t.bin, t.sec, t.panic, t.done = nil, nil, nil, nil
	t.names, t.successes = false, false
	t.cargo.EndStream()
	t.unplaced.endStream()
	t.stream++
}

// startPanic begins a panic block outside any section when l is a panic
// line; the lines after it are collected until endsPanic.
func (t *testLog) startPanic(l string) {
	if isPanicLine(l) {
		t.panic = &testBlock{head: l, cutOff: t.stream == cutStream && t.cut.start && !t.cutOpened}
		t.panics = append(t.panics, t.panic)
	}
}

// isRunningTests matches libtest's "running 3 tests" / "running 1 test".
func isRunningTests(l string) bool {
	rest, ok := strings.CutPrefix(l, "running ")
	if !ok {
		return false
	}
	rest, ok = strings.CutSuffix(rest, " tests")
	if !ok {
		rest, ok = strings.CutSuffix(rest, " test")
	}
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

func isSectionHead(l string) bool {
	return strings.HasPrefix(l, "---- ") && strings.HasSuffix(l, " stdout ----")
}

// isPanicLine matches "thread 'NAME' panicked at FILE:LINE:COL:" and, since
// Rust 1.88, "thread 'NAME' (ID) panicked at ...".
func isPanicLine(l string) bool {
	return strings.HasPrefix(l, "thread '") && strings.Contains(l, " panicked at ")
}

// panicThread returns the thread name of a panic line, which libtest sets
// to the test's name.
func panicThread(l string) string {
	rest := strings.TrimPrefix(l, "thread '")
	name, _, _ := strings.Cut(rest, "' ")
	return name
}

// failedMark returns the name in "test NAME ... FAILED" (a should_panic
// test's " - should panic" suffix removed) or, with -q, "NAME --- FAILED".
func failedMark(l string) (string, bool) {
	if rest, ok := strings.CutPrefix(l, "test "); ok {
		if name, ok := strings.CutSuffix(rest, " ... FAILED"); ok {
			return strings.TrimSuffix(name, " - should panic"), true
		}
	}
	if name, ok := strings.CutSuffix(l, " --- FAILED"); ok && name != "" {
		return name, true
	}
	return "", false
}

// endsPanic reports whether l can no longer belong to the panic message
// being read: a blank line, or a line of the harness or of cargo.
func endsPanic(l string) bool {
	t := strings.TrimSpace(l)
	return t == "" || isPanicLine(l) || isSectionHead(l) || isRunningTests(l) ||
		strings.HasPrefix(l, "test ") || strings.HasPrefix(l, "error") ||
		strings.HasPrefix(l, "warning") || l == "failures:" || l == "successes:" || isProgress(l)
}

// failureItems returns one item per failing test context, with the number
// of non-blank lines each leaves out: the sections of failing tests, then
// the panics printed outside a section by a failing test's thread (a
// should_panic test that passes panics too, and its panic is not a
// failure). An item starts with the line that names the test: the panic
// line when the test's own thread panicked, else the section's
// "---- name stdout ----" line. Items past maxFailures are only counted, so
// they are left as that first line: building them would cost more than
// reading the output.
func (t *testLog) failureItems(failed []string) (items []string, lost []int) {
	for _, s := range t.sections {
		if len(items) >= maxFailures {
			items = append(items, s.head)
			continue
		}
		kept, n := failureLines(s.lines)
		name := strings.TrimSuffix(strings.TrimPrefix(s.head, "---- "), " stdout ----")
		if len(kept) == 0 || !isPanicLine(kept[0]) || panicThread(kept[0]) != name {
			kept = append([]string{s.head}, kept...)
		}
		items = append(items, strings.Join(kept, "\n"))
		lost = append(lost, n)
	}
	isFailed := make(map[string]bool, len(failed))
	for _, name := range failed {
		isFailed[name] = true
	}
	for _, p := range t.panics {
		if !isFailed[panicThread(p.head)] && !(p.cutOff && len(failed) > 0) {
			continue
		}
		if len(items) >= maxFailures {
			items = append(items, p.head)
			continue
		}
		kept, n := failureLines(append([]string{p.head}, p.lines...))
		items = append(items, strings.Join(kept, "\n"))
		lost = append(lost, n)
	}
	return items, lost
}

// failureLines picks what an agent needs from a failing test's output: from
// the first panic line on (the location, the message, assertion left/right,
// the first backtrace frames), at most maxFailureLines non-blank lines. The
// captured prints before the panic, blank lines and the RUST_BACKTRACE hint
// are left out; without a panic line (a should_panic test that did not
// panic, a doc-test that did not compile) the section is taken from its
// start. It returns the kept lines and how many non-blank lines it left out.
func failureLines(ls []string) (kept []string, lost int) {
	start := 0
	for i, l := range ls {
		if isPanicLine(l) {
			start = i
			break
		}
	}
	for i, l := range ls {
		switch {
		case strings.TrimSpace(l) == "":
		case i < start, len(kept) == maxFailureLines,
			strings.HasPrefix(l, "note: run with `RUST_BACKTRACE="):
			lost++
		default:
			kept = append(kept, l)
		}
	}
	return kept, lost
}

// resultItems returns one item per test binary: cargo's "Running ..." or
// "Doc-tests ..." line followed by the binary's "test result:" line. The two
// come from different streams, so they are paired by position, and only
// when there is exactly one header per binary (-q prints no headers); a
// binary that died before its result shows its header alone. In a stdout
// cut at one end only, the headers and the binaries seen are both the
// last ones (a tail) or both the first ones (a head): they are paired from
// that end. Items past limit are only counted and left unjoined.
func (t *testLog) resultItems(limit int) []string {
	headers := t.cargo.headers
	first := 0 // the index of the first binary with a header
	switch n := len(t.bins); {
	case len(headers) == n:
	case t.cut.any || t.cut.start == t.cut.end:
		headers = nil
	case t.cut.start && len(headers) > n:
		headers = headers[len(headers)-n:]
	case t.cut.start:
		first = n - len(headers)
	case len(headers) > n:
		headers = headers[:n]
	}
	var items []string
	for i, bin := range t.bins {
		var buf [2]string
		it := buf[:0]
		if j := i - first; len(headers) > 0 && j >= 0 && j < len(headers) {
			it = append(it, headers[j])
		}
		if bin.result != "" {
			it = append(it, bin.result)
		}
		switch {
		case len(it) == 0:
		case len(items) >= limit:
			items = append(items, it[0])
		default:
			items = append(items, strings.Join(it, "\n"))
		}
	}
	return items
}
