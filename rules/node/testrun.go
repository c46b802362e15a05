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
	// maxNodeMessages bounds the lines that belong to no test: a missing
	// config, "No test files found", a runner's own warnings.
	maxNodeMessages = 20
)

// testCounts are the totals of a test runner's summary lines.
type testCounts struct {
	failed, passed, skipped, todo, total int
}

// add sums the counts of another summary line: a script that runs the
// runner twice prints two, and the counts are of the whole output.
func (c *testCounts) add(o testCounts) {
	c.failed += o.failed
	c.passed += o.passed
	c.skipped += o.skipped
	c.todo += o.todo
	c.total += o.total
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
// boundary check requires), and later ones only when they point into the
// project, not into node_modules or node itself.
func (f *testFailure) addLoc(l string) {
	if !f.located || f.locs < maxNodeFailureLocs && isProjectFrame(l) {
		f.lines = append(f.lines, l)
		f.locs++
		f.located = f.located || hasNodeLocation(l)
	} else {
		f.lost++
	}
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

// testRun is what the vitest and jest readers find in a run.
type testRun struct {
	runner       string
	summary      []string // the runner's summary lines, copied (trimmed)
	files, tests testCounts
	hasFiles     bool     // a files (vitest) or suites (jest) summary line was read
	hasTests     bool     // a tests summary line was read
	failedFiles  []string // jest's FAIL lines: the files with a failure
	failedSuites []string // files that failed as a whole (did not load or run)
	failedTests  []string
	failures     []*testFailure // the first maxNodeFailures, the most the block shows
	nFailures    int            // every failure
	spare        testFailure    // the failure being read past maxNodeFailures: only counted
	unhandled    []*testFailure // vitest's unhandled errors
	messages     []string       // lines that belong to no test
	listing      testListing    // the failing tests the listing and the reports name
}

// newFailure starts a failure report headed by name. Past the
// maxNodeFailures the block shows, the report is read into a spare and
// only counted.
func (t *testRun) newFailure(name string) *testFailure {
	t.nFailures++
	if len(t.failures) < maxNodeFailures {
		f := &testFailure{heads: []string{name}}
		t.failures = append(t.failures, f)
		return f
	}
	t.spare = testFailure{heads: append(t.spare.heads[:0], name), lines: t.spare.lines[:0]}
	return &t.spare
}

func (t *testRun) message(l string) {
	t.messages = append(t.messages, strings.TrimSpace(l))
}

// body renders a test run. The scalars and the failing names always go in;
// the failure contexts, unhandled errors and messages take the room the
// budget leaves, in that order.
func (t *testRun) body(r *summarize.Run, b *summarize.Body) {
	if t.hasTests {
		b.Count("failed", t.tests.failed)
		b.Count("passed", t.tests.passed)
		b.Count("skipped", t.tests.skipped)
		b.Count("todo", t.tests.todo)
		b.Count("total", t.tests.total)
	}
	if t.hasFiles {
		b.Count("files_failed", t.files.failed)
		b.Count("files_passed", t.files.passed)
		b.Count("files_total", t.files.total)
	}
	b.List("summary", t.summary, 0)
	b.List("failed_files", t.failedFiles, maxNodeFailedTests)
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
	if lost := lostLines(t.failures, nFailures) + lostLines(t.unhandled, nUnhandled); lost > 0 {
		b.Count("failure_lines_omitted", lost)
	}
	summarize.AddList(b, "messages", t.messages, nMessages)
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
