package node

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// VitestOutput is vitest's signature: its summary's "Test Files  3
// failed | 1 passed (4)" line and the "Tests  5 failed | 4 passed (9)"
// line under it, each label followed by two spaces and the total in
// parentheses at the end. jest labels its summary "Test Suites:" and
// "Tests:" and ends each on "N total".
func VitestOutput(r *summarize.Run) bool {
	return r.HasLine("Test Files  ", func(l string, rest []byte) bool {
		next, _ := summarize.FirstLine(rest)
		return isVitestTotal(l, "Test Files  ") && isVitestTotal(next, "Tests  ")
	})
}

// isVitestTotal reports whether l, trimmed, is a summary line of vitest's
// with the label: counts, then the total in parentheses.
func isVitestTotal(l, label string) bool {
	v, ok := strings.CutPrefix(strings.TrimSpace(l), label)
	if !ok || !strings.HasSuffix(v, ")") {
		return false
	}
	i := strings.LastIndex(v, " (")
	return i > 0 && summarize.IsDigits(v[i+2:len(v)-1]) && summarize.DigitsPrefix(v) != ""
}

// MatchVitest recognizes vitest run, and npx vitest run (matchVitest).
func MatchVitest(argv []string) classify.Answer { return matchRunner(argv, "vitest", matchVitest) }

// vitestFormats are the vitest options whose output the summarizer does not
// read: watch mode and the UI never end, coverage adds a table that would be
// dropped, --outputFile sends a report elsewhere, and other reporters change
// the format (--reporter is handled apart: default and verbose are kept).
var vitestFormats = []string{
	"--watch", "-w", "--ui", "--coverage", "--outputFile", "--standalone", "--mergeReports",
	"--listTags", "--clearCache",
}

// matchVitest accepts vitest run, or vitest with the exact word --run:
// without either, vitest watches for changes and never ends on a terminal.
// The default and verbose reporters are the formats the summarizer reads.
func matchVitest(argv []string) classify.Answer {
	run := len(argv) > 1 && argv[1] == "run"
	for j := 1; j < len(argv); j++ {
		a := argv[j]
		switch {
		case a == "--run":
			run = true
		case a == "--reporter" && j+1 < len(argv) && isVitestReporter(argv[j+1]):
			j++
		case strings.HasPrefix(a, "--reporter=") && isVitestReporter(strings.TrimPrefix(a, "--reporter=")):
		case strings.HasPrefix(a, "--reporter"):
			return classify.Refuse(j, "option %q changes the output format", a)
		}
	}
	if len(argv) > 1 && vitestCommands[argv[1]] {
		return classify.Refuse(1, "vitest %s is not a test run", argv[1])
	}
	if a := matchTool(argv, vitestFormats); !a.Accepted {
		return a
	}
	if !run {
		return classify.Refuse(0, "vitest without run may watch for changes")
	}
	return classify.Accept()
}

// vitestCommands are the vitest subcommands other than run (and related,
// which runs the tests related to some files): benchmarks, listings, setup
// and the watch modes.
var vitestCommands = map[string]bool{"bench": true, "list": true, "init": true, "dev": true, "watch": true}

func isVitestReporter(name string) bool {
	return name == "default" || name == "verbose"
}

// Vitest summarizes bash.vitest: the counts of the "Tests" and "Test Files"
// summary lines, the summary lines themselves, every failing test and every
// file that failed to load, each failure's message, assertion diff and
// locations, vitest's unhandled errors, and the lines that belong to no test
// ("No test files found", a config error). The per-file listing is left
// out but for the failing tests no report names (a pipe into head cut the
// reports off), and so are console output, code excerpts and timings.
//
// Vitest writes the listing and summary to stdout and the failures to
// stderr; both are read with the same reader, so a run captured with 2>&1
// gives the same body.
func Vitest(r *summarize.Run) *summarize.Body {
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	out, errs := streamCuts(r)
	readVitestLines([2]streamCut{out, errs}, r.Lines(r.Stdout), r.Lines(r.Stderr)).body(r, b)
	return b
}

// readVitestLines reads the lines of each stream in turn, stdout's first:
// vitest writes its summary there. cuts says what each may lack.
func readVitestLines(cuts [2]streamCut, streams ...[]string) *testRun {
	v := vitestReader{t: &testRun{runner: "vitest"}, cuts: cuts, lead: cuts[0].start}
	summarize.ReadLines(&v, streams...)
	v.t.settle(0, cuts)
	return v.t
}

// The sections of vitest's error report, each opened by a "⎯⎯ TITLE ⎯⎯"
// separator.
const (
	vtNone = iota
	vtSuites
	vtTests
	vtUnhandled
)

// vitestReader reads vitest's default and verbose reporters one line at a
// time, so it is linear in the output.
type vitestReader struct {
	t       *testRun
	section int
	cur     *testFailure // the failure being read
	heads   bool         // cur has only its FAIL lines so far
	console bool         // inside a "stdout | test" block of console output
	file    string       // the file of the listing being read
	done    bool         // past the listing: a "⎯⎯" rule opened the reports
	// untitled tells that the FAIL lines being read came with no
	// section title: a pipe cut it off.
	untitled bool
	stream   int // the index of the stream being read
	cuts     [2]streamCut
	// lead tells that nothing the reader can place has come yet in a
	// stream that may lack its start: its lines may be the end of a
	// failure report whose FAIL line was cut off.
	lead bool
}

// EndStream ends a stream: no section continues on the other.
func (v *vitestReader) EndStream() {
	v.section, v.cur, v.console, v.file, v.done, v.untitled = vtNone, nil, false, "", false, false
	v.t.endSummary()
	v.stream++
	v.lead = v.stream < len(v.cuts) && v.cuts[v.stream].start
}

func (v *vitestReader) Feed(l string) {
	t := strings.TrimSpace(l)
	if !v.done {
		// The listing, read as the boundary check reads it (nodeScan):
		// a failing test it names may have no report below.
		switch {
		case strings.HasPrefix(l, "⎯"):
			v.done = true
		case strings.HasPrefix(l, " ") && strings.HasPrefix(t, "× "):
			if name, full, ok := vitestListed(l); ok {
				if lt, ok := vitestTest(name, full, v.file); ok || v.file == "" && !full && v.cuts[v.stream].start {
					// A filter may have cut the file's line off: the
					// test is listed with no file.
					v.t.listing.list(lt)
				}
			}
		case strings.HasPrefix(l, " "):
			if file, ok := vitestFileLine(l); ok {
				v.file = file
				if strings.HasPrefix(l, " ❯ ") {
					v.t.listedFiles = append(v.t.listedFiles, file)
				}
			}
		}
	}
	if v.console {
		// A blank line ends the console output; behind a grep, which
		// may have left it out, so does a line vitest prints itself.
		v.console = t != "" && !(v.cuts[v.stream].gaps && vitestOwnLine(l, t))
		if v.console && v.cuts[v.stream].gaps {
			v.t.reportStarts(v.stream)
		}
		if v.console || t == "" {
			return
		}
	}
	if v.summary(t) {
		v.cur, v.section, v.lead = nil, vtNone, false
		return
	}
	v.t.endSummary()
	if t != "" && v.cuts[v.stream].gaps {
		// Behind a grep the runner's own summary is the last thing
		// left of its stream: a group with a line after it is a test's.
		v.t.reportStarts(v.stream)
	}
	if v.lead && v.leadLine(l, t) {
		return
	}
	if strings.HasPrefix(t, "⎯") || strings.HasPrefix(l, " FAIL  ") || strings.HasPrefix(l, " ") && (isVitestListing(t) || isCodeFrame(t)) {
		v.t.reportStarts(v.stream)
	}
	switch {
	case strings.HasPrefix(t, "⎯"):
		v.separator(trimRule(t))
	case strings.HasPrefix(l, " FAIL  ") && v.section != vtUnhandled:
		if v.section == vtNone {
			// The section's title was cut off (a pipe into tail, a
			// grep): a FAIL line is a failed test's report all the
			// same, or a failed suite's, by its shape.
			v.section, v.untitled = vtTests, true
		}
		name := strings.TrimSpace(l[len(" FAIL  "):])
		if v.section == vtSuites || v.section == vtTests && v.untitled && isVitestSuite(name) {
			v.t.failedSuites = append(v.t.failedSuites, name)
		} else {
			v.t.failedTests = append(v.t.failedTests, name)
		}
		if file, rest, ok := strings.Cut(name, " > "); ok {
			v.t.listing.report(file, rest, " > ")
		}
		if v.cur != nil && v.heads {
			// Tests that failed with the same error share one report.
			v.cur.heads = append(v.cur.heads, name)
			return
		}
		v.cur, v.heads = v.t.newFailure(name), true
	case v.cur != nil:
		v.failureLine(l, t)
	case v.cuts[v.stream].start && strings.HasPrefix(t, "❯ ") && hasNodeLocation(t):
		// A failure's location whose report a filter cut off (a grep
		// kept the line, not its FAIL line).
		v.cutLine(l, t)
	case t == "" || strings.HasPrefix(t, "RUN  v") || isVitestListing(t) || isCodeFrame(t):
	case strings.HasPrefix(l, "stdout | ") || strings.HasPrefix(l, "stderr | "):
		v.console = true
	default:
		v.t.message(l)
	}
}

// failureLine reads a line of the failure report being read: its message,
// diff and locations; code excerpts are left out.
func (v *vitestReader) failureLine(l, t string) {
	switch {
	case t == "" || isCodeFrame(t):
	case strings.HasPrefix(t, "❯ "):
		v.cur.addLoc(t)
		v.heads = false
	default:
		v.cur.addText(strings.TrimRight(l, " "))
		v.heads = false
	}
}

// leadLine reads a line before anything the reader can place, in a stream
// whose start may be cut, and reports whether it took it: the end of a
// failure report (its message, diff and locations) is kept as the run's
// cut failure, up to the first FAIL line, section or separator. A line of
// the listing, the RUN line or a block of console output shows the cut
// was elsewhere. Lines it does not take are read as usual.
func (v *vitestReader) leadLine(l, t string) bool {
	switch {
	case strings.HasPrefix(t, "⎯") || strings.HasPrefix(l, " FAIL  ") || strings.HasPrefix(t, "RUN  v") ||
		strings.HasPrefix(l, "stdout | ") || strings.HasPrefix(l, "stderr | ") ||
		isVitestListing(t) && !(strings.HasPrefix(t, "❯ ") && hasNodeLocation(t)):
		v.lead = false
		return false
	case t == "" || isCodeFrame(t):
	default:
		v.cutLine(l, t)
	}
	return true
}

// cutLine adds a line to the run's cut failure.
func (v *vitestReader) cutLine(l, t string) {
	if v.t.cut == nil {
		v.t.cut = &testFailure{}
	}
	v.cur, v.heads = v.t.cut, false
	v.failureLine(l, t)
	v.cur = nil
}

// separator reads the title of a "⎯⎯ TITLE ⎯⎯" line: a section ("Failed
// Tests 5"), an unhandled error ("Unhandled Rejection"), the end of a
// failure ("[2/6]") or a plain rule, which inside a failure comes before
// its "Serialized Error" and after an unhandled error.
func (v *vitestReader) separator(title string) {
	switch {
	case strings.HasPrefix(title, "Failed Suites"):
		v.section, v.cur, v.untitled = vtSuites, nil, false
	case strings.HasPrefix(title, "Failed Tests"):
		v.section, v.cur, v.untitled = vtTests, nil, false
	case strings.HasPrefix(title, "Unhandled Errors"):
		v.section, v.cur, v.untitled = vtUnhandled, nil, false
	case v.section == vtUnhandled && title != "":
		v.cur, v.heads = &testFailure{heads: []string{title}}, true
		v.t.unhandled = append(v.t.unhandled, v.cur)
	case strings.HasPrefix(title, "[") || v.section == vtUnhandled:
		v.cur = nil
	}
}

// summary reads a summary line (" Test Files  3 failed | 1 passed (4)",
// "      Tests  5 failed | 4 passed (9)", "     Errors  1 error"), and
// reports whether t was one. Its label is followed by two spaces. The
// "Start at" and "Duration" lines are timings, read and left out.
func (v *vitestReader) summary(t string) bool {
	if t == "" || strings.IndexByte("TESD", t[0]) < 0 {
		return false // no label below starts otherwise
	}
	label, value, ok := strings.Cut(t, "  ")
	if !ok {
		return false
	}
	switch label {
	case "Test Files":
		g := v.t.summaryLine(v.stream, false)
		g.files, g.hasFiles = parseCounts(value), true
	case "Tests":
		g := v.t.summaryLine(v.stream, false)
		g.tests, g.hasTests = parseCounts(value), true
	case "Errors", "Type Errors", "Snapshots":
		v.t.summaryLine(v.stream, false)
	case "Start at", "Duration":
		v.t.summaryLine(v.stream, label == "Duration")
		return true
	default:
		return false
	}
	g := v.t.open
	g.lines = append(g.lines, t)
	return true
}

// isVitestSuite reports whether the name of a FAIL line is a file that
// failed as a whole, as vitest names it: "src/a.test.js [ src/a.test.js ]".
func isVitestSuite(name string) bool {
	file, rest, ok := strings.Cut(name, " [ ")
	return ok && file != "" && strings.HasSuffix(rest, " ]")
}

// isVitestListing reports whether t (trimmed) is a line of the per-file
// listing: a file or test marked passed, failed, skipped or todo, or the
// "→ message" line the verbose reporter prints under a failed test.
// vitestOwnLine reports whether l (t trimmed) is a line of vitest's
// own report that console output does not continue into: a separator, a
// FAIL line, a line of the listing, or the start of another console
// block.
func vitestOwnLine(l, t string) bool {
	return strings.HasPrefix(t, "⎯") || strings.HasPrefix(l, " FAIL  ") || strings.HasPrefix(l, " ") && isVitestListing(t) ||
		strings.HasPrefix(l, "stdout | ") || strings.HasPrefix(l, "stderr | ")
}

func isVitestListing(t string) bool {
	for _, m := range []string{"✓ ", "× ", "❯ ", "↓ ", "□ ", "→ ", "✗ "} {
		if strings.HasPrefix(t, m) {
			return true
		}
	}
	return false
}

// trimRule trims a vitest separator line, "⎯⎯ Failed Tests 1 ⎯⎯", to its
// title, as strings.Trim(t, "⎯ ") does: with a cutset that is not ASCII,
// Trim compares every rune of the long rule with each rune of the set.
func trimRule(t string) string {
	for {
		if rest, ok := strings.CutPrefix(t, "⎯"); ok {
			t = rest
		} else if rest, ok := strings.CutPrefix(t, " "); ok {
			t = rest
		} else {
			break
		}
	}
	for {
		if rest, ok := strings.CutSuffix(t, "⎯"); ok {
			t = rest
		} else if rest, ok := strings.CutSuffix(t, " "); ok {
			t = rest
		} else {
			return t
		}
	}
}
