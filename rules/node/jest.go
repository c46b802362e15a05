package node

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// JestOutput is jest's signature: its summary's first two lines, "Test
// Suites: 1 failed, 2 passed, 3 total" and "Tests:       4 failed, 9
// passed, 13 total" right under it. Those labels, the colon and the
// counts ending in a total are jest's; vitest labels its summary "Test
// Files" and "Tests" without a colon and puts the total in parentheses.
func JestOutput(r *summarize.Run) bool {
	return r.HasLine("Test Suites: ", func(l string, rest []byte) bool {
		next, _ := summarize.FirstLine(rest)
		return isJestTotal(l, "Test Suites: ") && isJestTotal(next, "Tests: ")
	})
}

// isJestTotal reports whether l is a summary line of jest's with the
// label: counts that end in "N total".
func isJestTotal(l, label string) bool {
	v, ok := strings.CutPrefix(l, label)
	v = strings.TrimLeft(v, " ")
	return ok && strings.HasSuffix(v, " total") && summarize.DigitsPrefix(v) != ""
}

// MatchJest recognizes jest and npx jest with any arguments but help,
// version and jestFormats.
func MatchJest(argv []string) classify.Answer {
	return matchRunner(argv, "jest", func(tool []string) classify.Answer { return matchTool(tool, jestFormats) })
}

// jestFormats are the jest options that replace the human-readable report:
// JSON and custom reporters, watch modes, coverage tables, listings and
// configuration dumps.
var jestFormats = []string{
	"--json", "--outputFile", "--watch", "--coverage", "--collectCoverage", "--listTests",
	"--showConfig", "--reporters", "--init", "--clearCache", "--debug",
}

// Jest summarizes bash.jest: the counts of the "Tests:" and "Test Suites:"
// lines, the summary lines themselves, every file with a failure, every
// failing test, every suite that failed to run, each failure's message, Expected/Received lines or diff and
// its locations, and the lines that belong to no test ("No tests found").
// Passing suites, the listing of --verbose (but for the failing tests no
// report names: a pipe into head cut the reports off), console output and
// code excerpts are left out.
//
// A failing test is named by the path of its "FAIL" line and the name of
// its "●" header, joined by " › " as jest joins describe blocks: jest prints
// the two on different lines. When jest repeats the failures under "Summary
// of all failing tests" (more than 20 suites), each is read once.
func Jest(r *summarize.Run) *summarize.Body {
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	out, errs := streamCuts(r)
	readJestLines([2]streamCut{errs, out}, r.Lines(r.Stderr), r.Lines(r.Stdout)).body(r, b)
	return b
}

// readJestLines reads the lines of each stream in turn: jest writes its
// report to stderr, read first, and console output under --verbose to
// stdout. cuts says what each may lack.
func readJestLines(cuts [2]streamCut, streams ...[]string) *testRun {
	j := jestReader{t: &testRun{runner: "jest"}, seen: map[string]bool{}}
	for s, ls := range streams {
		j.stream, j.lead, j.cutStart, j.gaps = s, true, cuts[s].start, cuts[s].gaps
		j.list.start()
		for i := range ls {
			j.feed(ls, i)
		}
		j.suite, j.cur, j.skip, j.note = "", nil, false, false
		j.t.endSummary()
	}
	j.t.settle(0, cuts)
	return j.t
}

// jestReader reads jest's default reporter one line at a time.
type jestReader struct {
	t     *testRun
	suite string // the path of the FAIL suite being read; "" elsewhere
	cur   *testFailure
	note  bool            // under a message of jest's own
	lead  bool            // no line at the margin yet: a pipe (tail) may have cut the FAIL line off
	skip  bool            // inside a "● Console" block or a repeated failure
	seen  map[string]bool // failures already read
	list  jestListing     // the listing of the suite's tests, read as the boundary check reads it
	// stream is the index of the stream being read; cutStart tells that
	// it may lack its start, so that its lead, up to the first "●"
	// header, may be the end of a failure whose header was cut off.
	stream   int
	cutStart bool
	gaps     bool // the stream may lack lines anywhere (a grep)
}

func (j *jestReader) feed(ls []string, i int) {
	l := ls[i]
	if j.summary(l) {
		j.suite, j.cur, j.skip, j.note, j.lead = "", nil, false, false, false
		j.list.on = false
		return
	}
	j.t.endSummary()
	if l == "" {
		j.list.on = false
		return
	}
	if t := strings.TrimSpace(l); l[0] == ' ' && (isCodeFrame(t) || strings.HasPrefix(t, "at ")) ||
		j.gaps && !strings.HasPrefix(l, "Ran all test suites") {
		// A failure's excerpt or frames; behind a grep, any line but
		// the runner's last: its summary is the last thing left.
		j.t.reportStarts(j.stream)
	}
	if l[0] != ' ' {
		j.margin(l)
		return
	}
	if t := strings.TrimSpace(l); j.gaps && j.cur == nil && !j.skip && strings.HasPrefix(t, "at ") && hasNodeLocation(t) {
		// A frame whose report a grep left out.
		j.leadLine(l)
		return
	}
	if j.suite == "" && !j.lead && j.cur == nil && !j.orphanHeader(ls, i) {
		if j.note {
			// The details under a message of jest's own ("No tests
			// found" and the patterns it tried).
			j.t.message(l)
		}
		return // a passing suite's listing or console output
	}
	if j.list.on {
		// A failing test the listing names may have no report below.
		if full, name, ok := j.list.line(l); ok {
			j.t.listing.list(listedTest{file: j.suite, name: full, sep: " › ", req: name})
		}
	}
	if name, ok := strings.CutPrefix(l, "  ● "); ok {
		j.list.on = false
		j.cur, j.skip = nil, isJestConsole(ls, i)
		if !j.skip {
			j.t.reportStarts(j.stream)
		}
		key := name
		if j.suite != "" {
			key = j.suite + " › " + name
		}
		if !j.skip {
			j.t.listing.report(j.suite, name, " › ")
		}
		if j.skip || j.seen[key] {
			j.skip = true
			return
		}
		j.seen[key] = true
		if name == "Test suite failed to run" && j.suite != "" {
			j.t.failedSuites = append(j.t.failedSuites, j.suite)
		} else {
			j.t.failedTests = append(j.t.failedTests, key)
		}
		j.cur = j.t.newFailure(key)
		return
	}
	if j.cur == nil && !j.skip && j.cutStart && (j.lead || j.suite != "") {
		// The end of a report whose header a filter cut off: before
		// anything placed (a tail), or in a FAIL suite (a grep).
		j.leadLine(l)
		return
	}
	if j.cur == nil || j.skip {
		return
	}
	j.failureLine(j.cur, l)
}

// orphanHeader reports whether ls[i], outside a FAIL suite, is a failing
// test's "●" header whose FAIL line a filter may have left out (a grep):
// it names a failure all the same, so the totals a test's own output
// printed above it cannot pass for the run's.
func (j *jestReader) orphanHeader(ls []string, i int) bool {
	return j.cutStart && strings.HasPrefix(ls[i], "  ● ") && !isJestConsole(ls, i)
}

// failureLine reads a line of a failure report into f: its message (with
// jest's four-space indent removed) and its "at" frames; code excerpts
// are left out.
func (j *jestReader) failureLine(f *testFailure, l string) {
	switch t := strings.TrimSpace(l); {
	case t == "" || isCodeFrame(t):
	case strings.HasPrefix(t, "at "):
		f.addLoc(t)
	default:
		f.addText(strings.TrimRight(strings.TrimPrefix(l, "    "), " "))
	}
}

// leadLine reads an indented line before the first "●" header and the
// first line at the margin of a stream whose start may be cut: the end of
// a failure report whose header was cut off, kept as the run's cut
// failure. A mark of the listing (✓, ✕) shows the cut was inside a
// suite's listing, whose headings were read as text: they are let go. A
// "console.log" line shows it was inside the suite's "● Console" block,
// which is left out as it is whole (in the lead of a tail: what came
// before it was console output too; behind a grep it may be a report's).
func (j *jestReader) leadLine(l string) {
	t := strings.TrimSpace(l)
	switch {
	case isJestMark(t):
		if j.t.cut != nil && !j.t.cut.located {
			j.t.cut = nil
		}
	case isJestConsoleCall(t):
		if j.lead && !j.gaps {
			j.t.cut = nil
		}
		j.skip = true
	default:
		if j.t.cut == nil {
			j.t.cut = &testFailure{}
		}
		j.failureLine(j.t.cut, l)
	}
}

// summary reads a line of jest's summary at the margin ("Test Suites: 4
// failed, 1 passed, 5 total", "Tests: ...", "Snapshots: ...", "Time: ...",
// "Ran all test suites.") and reports whether l was one. Time and the last
// line are not shown; Time is the runner's last summary line that counts.
func (j *jestReader) summary(l string) bool {
	if l == "" || strings.IndexByte("TSR", l[0]) < 0 {
		return false
	}
	switch {
	case strings.HasPrefix(l, "Test Suites:"):
		g := j.t.summaryLine(j.stream, false)
		g.files, g.hasFiles = parseCounts(strings.TrimPrefix(l, "Test Suites:")), true
		g.lines = append(g.lines, l)
	case strings.HasPrefix(l, "Tests:"):
		g := j.t.summaryLine(j.stream, false)
		g.tests, g.hasTests = parseCounts(strings.TrimPrefix(l, "Tests:")), true
		g.lines = append(g.lines, l)
	case strings.HasPrefix(l, "Snapshots:"):
		g := j.t.summaryLine(j.stream, false)
		g.lines = append(g.lines, l)
	case strings.HasPrefix(l, "Time:"):
		j.t.summaryLine(j.stream, true)
	case strings.HasPrefix(l, "Ran all test suites"):
		if j.t.open == nil {
			return false
		}
	default:
		return false
	}
	return true
}

// margin reads a line that starts at the left margin: a suite's PASS or
// FAIL line, a summary line, or a line of jest's own.
func (j *jestReader) margin(l string) {
	j.suite, j.cur, j.skip, j.note, j.lead = "", nil, false, false, false
	j.list.on = false
	switch {
	case strings.HasPrefix(l, "FAIL "):
		j.t.reportStarts(j.stream)
		if suite, ok := jestSuite(l); ok {
			j.suite = suite
			j.list.start()
			if !j.seen[j.suite] {
				// Jest repeats FAIL lines under "Summary of all
				// failing tests".
				j.seen[j.suite] = true
				j.t.failedFiles = append(j.t.failedFiles, j.suite)
			}
		}
	case strings.HasPrefix(l, "PASS "):
		j.t.reportStarts(j.stream)
	case strings.HasPrefix(l, "Ran all test suites"), l == "Summary of all failing tests":
	default:
		j.t.message(l)
		j.note = true
	}
}

// isJestConsoleCall reports whether t, a trimmed line, is the line that
// opens each message of jest's "● Console" block: the console method's
// name, "console.log", "console.warn", ...
func isJestConsoleCall(t string) bool {
	m, ok := strings.CutPrefix(t, "console.")
	if !ok || m == "" {
		return false
	}
	for i := 0; i < len(m); i++ {
		if m[i] < 'a' || m[i] > 'z' {
			return false
		}
	}
	return true
}
