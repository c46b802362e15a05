package node

import (
	"slices"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// What vitest's and jest's readers find in a test run (testRun), and the
// body both give it; npm_test gives it too when it knows the runner.

// Caps of the test runner bodies (vitest, jest, and npm_test when it knows
// the runner). Failing names are short and each one matters, so at least a
// hundred are listed; failure contexts take what the budget leaves.
const (
	maxNodeFailedTests  = 100
	maxNodeFailedSuites = 50
	maxNodeFailures     = 30
	// maxNodeFailureText bounds the copied message and diff lines of one
	// failure; maxNodeFailureLocs its stack locations. The first location
	// is always kept, so a long diff cannot push it out.
	maxNodeFailureText = 16
	maxNodeFailureLocs = 3
	// maxNodeOwnLocs bounds the frames kept in the test's own file, which
	// are kept beyond maxNodeFailureLocs (issue 21).
	maxNodeOwnLocs = 3
	// maxNodeMessages bounds the lines that belong to no test: a missing
	// config, "No test files found", a runner's own warnings.
	maxNodeMessages = 20
)

// testCounts are the totals of a test runner's summary lines.
type testCounts struct {
	failed, passed, skipped, todo, total int
}

// streamCut says what a stream a runner's reader reads may lack: lines
// before its first (a pipe into tail, a grep, the capture limit) or after
// its last (a pipe into head, the capture limit). A grep keeps the lines
// it keeps in order, so the stream's last summary is still the last one
// printed among those it kept.
//
// gaps tells that lines may be missing anywhere (a grep): a block's blank
// line that ends it may be one of them.
type streamCut struct{ start, end, gaps bool }

// streamCuts returns what the run's stdout and stderr may lack. Only
// stdout passes a filter (Run.Cut); the capture limit cuts either.
func streamCuts(r *summarize.Run) (out, errs streamCut) {
	return streamCut{start: r.MayLackStart(), end: r.Cut.End || r.StdoutTruncated, gaps: r.Cut.Any},
		streamCut{start: r.StderrTruncated, end: r.StderrTruncated}
}

// parseCounts reads the counts of a summary line's value, in vitest's form
// ("5 failed | 4 passed | 1 skipped | 1 todo (11)") or jest's ("5 failed,
// 1 skipped, 4 passed, 10 total", "2 passed, 2 of 3 total"). Words it does
// not know are left to the copied line.
func parseCounts(s string) (c testCounts) {
	for part := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '|' || r == ',' }) {
		part = strings.TrimSpace(part)
		if i := strings.LastIndex(part, " ("); i >= 0 && strings.HasSuffix(part, ")") {
			if n, err := strconv.Atoi(part[i+2 : len(part)-1]); err == nil {
				c.total = n
			}
			part = part[:i]
		}
		num, word, _ := strings.Cut(part, " ")
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		switch {
		case word == "failed":
			c.failed = n
		case word == "passed":
			c.passed = n
		case word == "skipped":
			c.skipped = n
		case word == "todo":
			c.todo = n
		case word == "total":
			c.total = n
		case strings.HasPrefix(word, "of ") && strings.HasSuffix(word, " total"):
			c.total, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(word, "of "), " total"))
		}
	}
	return c
}

// testFailure is one failure context: the lines naming the test (or the
// suite, or the unhandled error), then the copied message, diff and stack
// location lines in the order printed, each kind within its cap, and the
// number of lines the caps left out.
type testFailure struct {
	heads      []string
	lines      []string
	text, locs int
	located    bool // a location with file:line:col is among the lines
	lost       int
	// file is the test's own file, when its report names it; own counts
	// the frames kept in it.
	file string
	own  int
	// spare are the indexes in lines of the frames a frame of the test's
	// own file may take the place of: project frames after the first
	// location.
	spare []int
}

func (f *testFailure) addText(l string) {
	if f.text < maxNodeFailureText {
		f.lines = append(f.lines, l)
		f.text++
	} else {
		f.lost++
	}
}

// addLoc keeps a stack frame: every one up to the first with a
// file:line:col (that is where the failure was reported, and what the
// boundary check requires), the frames in the test's own file (where the
// test called into what failed, which the check requires too), and other
// frames that point into the project, not into node_modules or node
// itself, while fewer than maxNodeFailureLocs are kept. A frame of the
// test's own file past that cap takes the place of the last other project
// frame kept: a failure deep in the project's code had its test's own
// line dropped (issue 21).
func (f *testFailure) addLoc(l string) {
	switch {
	case !f.located:
		f.keepLoc(l, false)
		f.located = hasNodeLocation(l)
	case f.file != "" && framePath(l) == f.file && f.own < maxNodeOwnLocs:
		if f.locs >= maxNodeFailureLocs && len(f.spare) > 0 {
			i := f.spare[len(f.spare)-1]
			f.spare = f.spare[:len(f.spare)-1]
			f.lines = slices.Delete(f.lines, i, i+1)
			f.locs--
			f.lost++
		}
		f.keepLoc(l, false)
		f.own++
	case f.locs < maxNodeFailureLocs && isProjectFrame(l):
		f.keepLoc(l, true)
	default:
		f.lost++
	}
}

func (f *testFailure) keepLoc(l string, spare bool) {
	if spare {
		f.spare = append(f.spare, len(f.lines))
	}
	f.lines = append(f.lines, l)
	f.locs++
}

// testFile returns the file a failure's name starts with, "FILE > test"
// (vitest) or "FILE › test" (jest), or "".
func testFile(name string) string {
	for _, sep := range []string{" > ", " › "} {
		if file, _, ok := strings.Cut(name, sep); ok {
			return file
		}
	}
	return ""
}

// isCodeFrame reports whether t, a trimmed line, belongs to the source
// excerpt vitest and jest print under a failure ("16|   expect(x)",
// "> 15 |   expect(x)", ">  7 |   expect(x)", "|   ^"): the location line
// says where it is.
func isCodeFrame(t string) bool {
	t = strings.TrimLeft(strings.TrimPrefix(t, ">"), " ")
	if n := len(summarize.DigitsPrefix(t)); n > 0 {
		t = strings.TrimLeft(t[n:], " ")
	}
	return strings.HasPrefix(t, "|")
}

func (f *testFailure) item() string {
	return strings.Join(append(f.heads[:len(f.heads):len(f.heads)], f.lines...), "\n")
}

// summaryGroup is one run of consecutive summary lines, as a runner ends
// its report with them (vitest's "Test Files", "Tests", ..., "Duration";
// jest's "Test Suites:", "Tests:", "Snapshots:", "Time:").
type summaryGroup struct {
	lines              []string // copied, trimmed
	files, tests       testCounts
	hasFiles, hasTests bool
	// closed tells that the runner's last summary line (vitest's
	// Duration, jest's Time:) is in the group.
	closed bool
	// reported tells that a suite's result or a failure report started
	// after the group: the runner prints its summary after every one, so
	// the group is a test's imitation of one.
	reported bool
	at       int // where the group's lines go among the messages when it is not the runner's
}

// testRun is what the vitest and jest readers find in a run.
type testRun struct {
	runner string
	// summary is the group of summary lines that is the runner's own
	// (settle): the last one of the stream the runner writes its
	// summary to, read as that runner's totals.
	summary     *summaryGroup
	groups      [2][]*summaryGroup // every group, by the index of the stream it was read on
	open        *summaryGroup      // the group being read
	failedFiles []string           // jest's FAIL lines: the files with a failure
	// listedFiles are the files vitest's listing marks failed (" ❯ FILE
	// (N tests | K failed)"), in the order listed.
	listedFiles  []string
	failedSuites []string // files that failed as a whole (did not load or run)
	failedTests  []string
	failures     []*testFailure // the first maxNodeFailures, the most the block shows
	nFailures    int            // every failure
	spare        testFailure    // the failure being read past maxNodeFailures: only counted
	unhandled    []*testFailure // vitest's unhandled errors
	// cut is the end of a failure report whose start a pipe (tail) or the
	// capture limit cut off, with its heading: the lines before the first
	// thing the reader can place (a FAIL line, a report's header).
	cut      *testFailure
	messages []string    // lines that belong to no test
	listing  testListing // the failing tests the listing and the reports name
}

// summaryLine reads a summary line on stream into the group being read,
// or a new one, and returns the group; closes tells that it is the
// runner's last summary line. The caller copies the line into the group's
// lines when the block shows it.
func (t *testRun) summaryLine(stream int, closes bool) *summaryGroup {
	if t.open == nil {
		t.open = &summaryGroup{at: len(t.messages)}
		t.groups[stream] = append(t.groups[stream], t.open)
	}
	t.open.closed = t.open.closed || closes
	return t.open
}

// reportStarts tells that a suite's result or a failure report starts on
// stream: the last group read there is not the runner's summary.
func (t *testRun) reportStarts(stream int) {
	if gs := t.groups[stream]; len(gs) > 0 {
		gs[len(gs)-1].reported = true
	}
}

// endSummary ends the group being read: a line that is not a summary line
// came, or the stream ended.
func (t *testRun) endSummary() { t.open = nil }

// settle decides which summary group is the runner's own, and reads its
// counts as the run's: the last group of the stream the runner writes its
// summary to (report), or of the other stream when that one has none (a
// run with 2>&1 has all on stdout). A test's own output can print lines
// like a summary (console.log, process.stdout.write), but before the
// runner's, which is the last thing it prints: only the last group counts,
// and the others are kept as messages, so they add no passes. When the
// stream may lack its end (a pipe into head, the capture limit), the
// runner's own summary may be the part cut off, and the last group left is
// taken only when it holds the runner's last summary line (closed). The
// group is not taken either when the failures the output names are more
// than it counts: it is then another run's (a script that runs the runner
// twice) or a test's imitation, and the block gives no counts rather than
// ones the output contradicts; nor when a failure report starts after it
// (reportStarts).
func (t *testRun) settle(report int, cuts [2]streamCut) {
	t.endSummary()
	pick := func(s int) *summaryGroup {
		gs := t.groups[s]
		if len(gs) == 0 {
			return nil
		}
		if g := gs[len(gs)-1]; g.closed || !cuts[s].end {
			return g
		}
		return nil
	}
	g := pick(report)
	if len(t.groups[report]) == 0 {
		g = pick(1 - report)
	}
	if g != nil && g.reported {
		g = nil
	}
	if g != nil && g.hasTests && g.tests.failed < len(t.failedTests)+len(t.listing.unreported()) {
		g = nil
	}
	if g != nil && g.hasFiles && g.files.failed < max(len(t.failedFiles), len(t.failedSuites)) {
		g = nil
	}
	t.summary = g
	t.unsettled()
}

// unsettled puts the lines of every summary group but the runner's among
// the messages, where they were printed.
func (t *testRun) unsettled() {
	var others []*summaryGroup
	for _, gs := range t.groups {
		for _, g := range gs {
			if g != t.summary {
				others = append(others, g)
			}
		}
	}
	if len(others) == 0 {
		return
	}
	slices.SortStableFunc(others, func(a, b *summaryGroup) int { return a.at - b.at })
	n := len(t.messages)
	for _, g := range others {
		n += len(g.lines)
	}
	msgs := make([]string, 0, n)
	i := 0
	for _, g := range others {
		msgs = append(msgs, t.messages[i:g.at]...)
		msgs = append(msgs, g.lines...)
		i = g.at
	}
	t.messages = append(msgs, t.messages[i:]...)
}

// newFailure starts a failure report headed by name. Past the
// maxNodeFailures the block shows, the report is read into a spare and
// only counted.
func (t *testRun) newFailure(name string) *testFailure {
	t.nFailures++
	if len(t.failures) < maxNodeFailures {
		f := &testFailure{heads: []string{name}, file: testFile(name)}
		t.failures = append(t.failures, f)
		return f
	}
	t.spare = testFailure{heads: append(t.spare.heads[:0], name), lines: t.spare.lines[:0], file: testFile(name), spare: t.spare.spare[:0]}
	return &t.spare
}

func (t *testRun) message(l string) {
	t.messages = append(t.messages, strings.TrimSpace(l))
}

// body renders a test run. The scalars and the failing names always go in;
// the failure contexts, unhandled errors and messages take the room the
// budget leaves, in that order.
func (t *testRun) body(r *summarize.Run, b *summarize.Body) {
	if g := t.summary; g != nil {
		if g.hasTests {
			b.Count("failed", g.tests.failed)
			b.Count("passed", g.tests.passed)
			b.Count("skipped", g.tests.skipped)
			b.Count("todo", g.tests.todo)
			b.Count("total", g.tests.total)
		}
		if g.hasFiles {
			b.Count("files_failed", g.files.failed)
			b.Count("files_passed", g.files.passed)
			b.Count("files_total", g.files.total)
		}
		b.List("summary", g.lines, 0)
	}
	b.List("failed_files", t.failedFilesShown(), maxNodeFailedTests)
	b.List("failed_suites", t.failedSuites, maxNodeFailedSuites)
	failed := t.failedTests
	if listed := t.listing.unreported(); len(listed) > 0 {
		// A pipe into head cut their reports off: the listing is all
		// the output shows of them.
		failed = slices.Clip(failed)
		for _, lt := range listed {
			failed = append(failed, lt.shown())
		}
	}
	b.List("failed_tests", failed, maxNodeFailedTests)
	cutLost := 0
	if t.cut != nil && len(t.cut.lines) > 0 {
		b.List("cut_failure", []string{t.cut.item()}, 0)
		cutLost = t.cut.lost
	}

	room := r.BodyRoom() - len(b.Render())
	unhandled := failureItems(t.unhandled, maxNodeFailures)
	failures := failureItems(t.failures, maxNodeFailures)
	lostLines := func(fs []*testFailure, n int) int {
		lost := 0
		for _, f := range fs[:n] {
			lost += f.lost
		}
		return lost
	}
	room -= len("failure_lines_omitted: 0000000000\n")
	nFailures, size := summarize.FitHead("failures", failures, t.nFailures, maxNodeFailures, room)
	room -= size
	nUnhandled, size := summarize.FitList("unhandled_errors", unhandled, maxNodeFailures, room)
	room -= size
	nMessages, _ := summarize.FitList("messages", t.messages, maxNodeMessages, room)

	summarize.AddHead(b, "failures", failures, t.nFailures, nFailures)
	summarize.AddList(b, "unhandled_errors", unhandled, nUnhandled)
	if lost := cutLost + lostLines(t.failures, nFailures) + lostLines(t.unhandled, nUnhandled); lost > 0 {
		b.Count("failure_lines_omitted", lost)
	}
	summarize.AddList(b, "messages", t.messages, nMessages)
}

// failedFilesShown is jest's failed files, or the files vitest's listing
// marks failed that nothing else in the block names (no failure report
// and no listed test of theirs): a pipe into head kept the file's line of
// the listing and cut the rest.
func (t *testRun) failedFilesShown() []string {
	if len(t.listedFiles) == 0 {
		return t.failedFiles
	}
	named := map[string]bool{}
	for _, names := range [][]string{t.failedTests, t.failedSuites} {
		for _, n := range names {
			file, _, _ := strings.Cut(n, " > ")
			file, _, _ = strings.Cut(file, " [ ")
			named[file] = true
		}
	}
	for _, lt := range t.listing.listed {
		named[lt.file] = true
	}
	files := slices.Clip(t.failedFiles)
	for _, f := range t.listedFiles {
		if !named[f] {
			named[f] = true
			files = append(files, f)
		}
	}
	return files
}

// failureItems renders the first limit failures whole; the rest are left as
// their first line, since they will only be counted.
func failureItems(fs []*testFailure, limit int) []string {
	items := make([]string, len(fs))
	for i, f := range fs {
		if i < limit {
			items[i] = f.item()
		} else {
			items[i] = f.heads[0]
		}
	}
	return items
}
