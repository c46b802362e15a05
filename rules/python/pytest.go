package python

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchPytest recognizes pytest and python -m pytest (matchPytest).
func MatchPytest(argv []string) classify.Answer { return matchTool(argv, "pytest", matchPytest) }

// pytestListings are the pytest options that print something other than a
// test run (help, listings, a plan), start a debugger on the terminal, or
// write JSON reports through plugins: the summary would have nothing to
// read, or would hold back what must be seen live.
var pytestListings = map[string]bool{
	"--help": true, "--version": true, "--collect-only": true, "--co": true,
	"--collectonly": true, "--fixtures": true, "--funcargs": true,
	"--fixtures-per-test": true, "--markers": true, "--setup-plan": true,
	"--setup-only": true, "--pdb": true, "--trace": true,
}

// pytestValues are pytest's short options that take a value, glued
// (-kfoo) or as the next word; in a cluster (-vx) they end it.
const pytestValues = "kmpcorWnr"

// matchPytest accepts a pytest run with any options except those that
// replace the terminal report the summarizer reads (pytestScan), read
// with the options an "-o addopts=..." adds before the command line's, as
// pytest adds them.
func matchPytest(argv []string, from int) classify.Answer {
	args := argv[from:]
	at, reason, addopts, addoptsAt := pytestScan(args)
	if addopts != "" {
		// The scan read every word: only the verbosity, which addopts
		// may change, was left to tell.
		words, ok := shlexSplit(addopts)
		if !ok {
			return classify.Refuse(from+addoptsAt, "unreadable addopts %q", addopts)
		}
		if at, reason, _, _ = pytestScan(append(words, args...)); at >= 0 {
			return classify.Refuse(from+addoptsAt, "%s (through addopts)", reason)
		}
		return classify.Accept()
	}
	if at >= 0 {
		return classify.Refuse(from+at, "%s", reason)
	}
	return classify.Accept()
}

// pytestScan reads pytest's arguments and returns the index of the first
// that replaces the terminal report and why, or -1: listings and help
// (pytestListings, or a word that abbreviates one: pytest 7 rejects
// abbreviations as a usage error, a pytest that took them would list),
// --color=yes, --tb=native, -p no:terminal, JSON report plugins, and a
// verbosity of -qq or less, which drops the final summary line. It also
// returns the value of the last -o addopts=VALUE and the index of its
// option, unless it stopped at a word before the end.
func pytestScan(args []string) (at int, reason, addopts string, addoptsAt int) {
	verbosity, quietAt := 0, -1
	for j := 0; j < len(args); j++ {
		a := args[j]
		if a == "--" {
			break
		}
		// value returns an option's value: after "=", or the next word.
		value := func(v string, glued bool) string {
			if glued || j+1 >= len(args) {
				return v
			}
			j++
			return args[j]
		}
		if strings.HasPrefix(a, "--") {
			name, v, eq := strings.Cut(a, "=")
			switch {
			case pytestListings[name] || pytestAbbrev(name):
				return j, fmt.Sprintf("option %q prints no test run", a), "", 0
			case strings.HasPrefix(name, "--json"):
				return j, fmt.Sprintf("option %q changes the output format", a), "", 0
			case name == "--verbose":
				verbosity++
			case name == "--quiet":
				verbosity--
				quietAt = j
			case name == "--verbosity":
				n, err := strconv.Atoi(value(v, eq))
				if err != nil {
					return j, fmt.Sprintf("unreadable verbosity %q", args[j]), "", 0
				}
				verbosity += n
				quietAt = j
			case name == "--tb":
				if at := j; value(v, eq) == "native" {
					return at, fmt.Sprintf("option %q changes the output format", a), "", 0
				}
			case name == "--color":
				if at := j; value(v, eq) == "yes" {
					return at, fmt.Sprintf("option %q changes the output format", a), "", 0
				}
			case name == "--override-ini":
				if at := j; strings.HasPrefix(value(v, eq), "addopts=") {
					addopts, addoptsAt = strings.TrimPrefix(args[j], "addopts="), at
					if eq {
						addopts = strings.TrimPrefix(v, "addopts=")
					}
				}
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue // a path or node id
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			switch {
			case c == 'h' || c == 'V':
				return j, fmt.Sprintf("help or version requested (%s)", a), "", 0
			case c == 'v':
				verbosity++
			case c == 'q':
				verbosity--
				quietAt = j
			case strings.IndexByte(pytestValues, c) >= 0:
				at := j
				v := value(a[k+1:], k+1 < len(a))
				switch {
				case c == 'p' && v == "no:terminal":
					return at, fmt.Sprintf("option %q turns the terminal report off", a), "", 0
				case c == 'o' && strings.HasPrefix(v, "addopts="):
					addopts, addoptsAt = strings.TrimPrefix(v, "addopts="), at
				}
				k = len(a)
			}
		}
	}
	if verbosity <= -2 {
		return quietAt, "pytest -qq prints no summary line", addopts, addoptsAt
	}
	return -1, "", addopts, addoptsAt
}

// pytestAbbrev reports whether name is a strict prefix of a listing's
// long option, "--collect-o" of "--collect-only".
func pytestAbbrev(name string) bool {
	if len(name) < 4 {
		return false
	}
	for l := range pytestListings {
		if strings.HasPrefix(l, name) {
			return true
		}
	}
	return false
}

// PytestOutput is pytest's signature: its session header, the "test
// session starts" banner and the "platform ... -- Python ..., pytest-..."
// line under it; or its final line ("3 failed, 5 passed in 0.12s") among
// the last pyCloseLines lines of a stream, padded with "=" as pytest draws
// it, or, under -q, unpadded after a progress line ("..F.s   [100%]"), a
// short summary entry ("FAILED tests/x.py::test_y - ...") or the warnings'
// "-- Docs: " line. The banner names pytest's session and the line under
// it pytest's version; a line of counts "in 0.12s" framed with "=" or
// after those lines is pytest's: other runners end on "test result:"
// (libtest), "Tests:" (jest, vitest) or "Ran N tests" (unittest).
func PytestOutput(r *summarize.Run) bool {
	header := r.HasLine("test session starts", func(l string, rest []byte) bool {
		t, ok := pyBanner(l)
		next, _ := summarize.FirstLine(rest)
		return ok && t == "test session starts" && strings.HasPrefix(next, "platform ") &&
			strings.Contains(next, " -- Python ") && strings.Contains(next, ", pytest-")
	})
	if header {
		return true
	}
	for _, b := range [][]byte{r.Stdout, r.Stderr} {
		prev := ""
		for _, l := range summarize.LastLines(b, pyCloseLines) {
			if _, ok := pySummaryLine(l); ok && (l[0] == '=' || isPyProgressLine(prev) ||
				strings.HasPrefix(prev, "-- Docs: ") || isPyShortEntry(prev)) {
				return true
			}
			if strings.TrimSpace(l) != "" {
				prev = l
			}
		}
	}
	return false
}

// pyCloseLines is how many of a stream's last lines PytestOutput reads
// for the final line: what a make, npm, tox or script run prints after
// pytest's own last line.
const pyCloseLines = 30

func isPyShortEntry(l string) bool {
	_, _, ok := pyShortEntry(l)
	return ok
}

// isPyProgressLine reports whether l is a line of pytest's progress without
// -v: a letter or dot per test (".", "F", "E", "s", "x", "X"), blanks, and
// the share of tests run in brackets, "[ 45%]".
func isPyProgressLine(l string) bool {
	t := strings.TrimRight(l, " ")
	i := strings.LastIndexByte(t, '[')
	if i < 0 || !strings.HasSuffix(t, "%]") || !isPyProgress(t[i+1:len(t)-1]) {
		return false
	}
	return onlyOf(strings.TrimRight(t[:i], " "), ".FEsxX")
}

// Caps of bash.pytest. Failing node ids are short and each one matters, so
// at least a hundred are always listed; failure contexts take what the
// budget leaves after them.
const (
	pyMaxFailedTests = 100
	pyMaxErrorTests  = 100
	// pyMaxFailures bounds the failure contexts: an agent fixes a few
	// failures at a time, the ids of the others are listed, and the raw
	// output is kept on disk.
	pyMaxFailures = 30
	// pyMaxELines is the fewest "E   " lines a failure keeps when the
	// budget is short: the exception or assertion and the start of its
	// diff. While the failures fit, each keeps all of its E lines, up to
	// pyKeepELines (issue 21: the verdict of a long LineMatcher report,
	// "E   remains unmatched: ...", came after ten).
	pyMaxELines  = 10
	pyKeepELines = 200
	// pyMaxReports bounds the lines of a traceback Python printed itself
	// (its "Traceback (most recent call last):" header and the exception
	// line that ends it) kept per failure, and those printed before the
	// test session started.
	pyMaxReports = 20
	// pyMaxLastLines bounds what is copied of a failure section that has
	// neither E lines nor a location: a strict xpass prints one line, a
	// native traceback ends with the exception and its explanation.
	pyMaxLastLines = 3
	pyMaxWarnings  = 10
	// pyMaxBanners bounds the "!!! ... !!!" lines (stopping after N
	// failures, Interrupted: N errors during collection).
	pyMaxBanners = 5
	// pyTailLines is how many of the last lines of stderr, and of pytest's
	// INTERNALERROR traceback, are copied: the exception comes last.
	pyTailLines = 10
	// pyMaxMustKeep bounds the lines of an excerpt kept because they
	// report an error on their own ("ERROR: ", "error: ").
	pyMaxMustKeep = 20
)

// pyCounts are the categories of the final line, in the order the block
// prints them. pytest leaves out those that are zero.
var pyCounts = []struct{ key, singular, plural string }{
	{"passed", "passed", "passed"},
	{"failed", "failed", "failed"},
	{"errors", "error", "errors"},
	{"skipped", "skipped", "skipped"},
	{"xfailed", "xfailed", "xfailed"},
	{"xpassed", "xpassed", "xpassed"},
	{"deselected", "deselected", "deselected"},
	{"warnings", "warning", "warnings"},
}

// Where a line of pytest output is: sections are announced by "=== TITLE
// ===" banners.
const (
	pyModeUnknown  = iota // before any banner, or in output cut by a pipe
	pyModeFailures        // FAILURES or ERRORS: "___ name ___" sections
	pyModeWarnings        // warnings summary
	pyModeOther           // any other section
)

// pySection is one failure or error section ("___ test_name ___", "___
// ERROR collecting tests/x.py ___"), or one --tb=line location line.
type pySection struct {
	head   string   // the title between the underscores; "" for --tb=line
	eLines []string // the first pyKeepELines "E   " lines
	eCount int      // every E line of the section
	loc    string   // the last location line ("tests/x.py:12: AssertionError")
	// terminals are the locations where a traceback ends with its
	// exception ("/usr/lib/python3.11/json/decoder.py:353: JSONDecodeError"),
	// one per exception of a chain; nTerminals counts them all.
	terminals  []pyLoc
	nTerminals int
	// nLocs numbers the location lines read; the *At fields are the
	// numbers of loc, relLoc and relLoc1, so the locations are shown in
	// the order printed.
	nLocs, locAt, relLocAt, relLoc1At int
	// reports are the lines of the tracebacks Python printed itself (a
	// --tb=native section): each "Traceback (most recent call last):"
	// and the exception line that ends it; nReports counts them all.
	reports  []string
	nReports int
	tb       pyTraceback
	relLoc   string // the last location with a relative path: the project's code
	relLoc1  string // the first one: the line of the test that failed
	// For sections without E lines or location (--tb=native, strict xpass):
	last    [pyMaxLastLines]string // the last non-blank lines, nLast of them
	nLast   int
	frame   string // the last 'File "path", line N' line: the innermost frame
	stopped bool   // a "--- Captured ... ---" banner was seen: the rest is the test's output
	// terminal tells that loc is where the traceback ends, with the
	// exception ("x.py:9: KeyError"), not a frame between ("x.py:21: ",
	// "x.py:4: in f"): in a section without a head, or in output a
	// filter cut (where the banner that ends a section may be gone), an E
	// line or a location after it is the next failure's.
	terminal bool
}

// pyLoc is a location line and its number among the section's.
type pyLoc struct {
	at   int
	text string
}

// pyWarning is one entry of the warnings summary: its first line (a node id
// or "path: N warnings") and the first line of its message.
type pyWarning struct {
	head, message string
}

// pytestLog reads pytest's terminal output one line at a time, so it is
// linear in the output. Both streams go through it (stdout first): an
// agent's 2>&1 or a pipe gives the same body. Of each list it keeps the
// items the block can show and counts the others: a big suite fails by
// the thousand.
type pytestLog struct {
	summary   string // the final line, without its "=" padding
	collected string // what follows "collected " on the collection line
	banners   summarize.Capped
	failed    pyIDs
	errored   pyIDs
	sections  []*pySection // the first pyMaxFailures
	nSections int          // every section
	// failLines counts the lines of every section a block keeps or counts:
	// E lines, locations where a traceback ends, Python's own traceback
	// lines; the kept sections hold some of them.
	failLines int
	// startup holds the lines of an error Python reported before the test
	// session started (site.py's "Error processing line 1 of X.pth"
	// and its traceback), in a whole stdout; nStartup counts them all.
	startup   []string
	nStartup  int
	tb        pyTraceback
	messages  summarize.Capped // short-summary entries with a message: "FAILED id - msg"
	warnings  []*pyWarning     // the first pyMaxWarnings
	nWarnings int              // every warning
	internal  tailLines        // INTERNALERROR> lines

	mode int
	sec  *pySection
	warn *pyWarning
	// stream is 0 while stdout is read, 1 for stderr. phase is the place
	// of the last section banner in pytest's order (pyPhase); captured
	// tells that the lines read are a test's captured output, from a
	// "--- Captured ... ---" banner to the next section head, where a
	// banner no later than phase, a final line, a short-summary entry or a
	// -v result line is the test's own text (a test that runs pytest).
	stream int
	phase  int
	// lacksLines tells that a filter may have left lines out of stdout
	// before or between those read (Run.MayLackStart): a failure
	// section's head among them.
	lacksLines bool
	captured   bool
	// lastCaptured is the last final line read inside captured output:
	// on a whole output, pytest's own when no later one comes (-rN ends
	// on a failure's captured output).
	lastCaptured string
	afterFinal   bool // summary came after lastCaptured
	// The section and the warning being read once as many as are shown
	// are kept: they are read the same way, and forgotten.
	spareSec  pySection
	spareWarn pyWarning
}

// newPytestLog returns an empty log whose lists have their caps.
func newPytestLog() *pytestLog {
	return &pytestLog{
		banners:  summarize.NewCapped(pyMaxBanners),
		failed:   pyIDs{max: pyMaxFailedTests},
		errored:  pyIDs{max: pyMaxErrorTests},
		messages: summarize.NewCapped(pyMaxFailures),
	}
}

// pyIDs is an ordered set of node ids, of which the first max are kept.
type pyIDs struct {
	ids  []string
	seen map[string]bool
	max  int
}

func (p *pyIDs) add(id string) {
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	if !p.seen[id] {
		p.seen[id] = true
		if len(p.ids) < p.max {
			p.ids = append(p.ids, id)
		}
	}
}

// list appends the ids as a list with the count of those not kept.
func (p *pyIDs) list(b *summarize.Body, key string) {
	b.ListHead(key, p.ids, len(p.seen))
}

// Pytest summarizes bash.pytest: the final summary line and its counts,
// every failing and erroring node id, each failure's location and E lines,
// the warnings summary, and what pytest wrote to stderr (usage errors,
// conftest import errors).
func Pytest(r *summarize.Run) *summarize.Body {
	p := newPytestLog()
	p.lacksLines = r.MayLackStart()
	stdout, stderr := r.Lines(r.Stdout), r.Lines(r.Stderr)
	summarize.ReadLines(p, stdout, stderr)
	if !p.afterFinal && p.lastCaptured != "" && !r.MayLackEnd() {
		p.summary = p.lastCaptured
	}

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	if p.summary != "" {
		b.Field("summary", p.summary)
		counts := pySummaryCounts(p.summary)
		for _, c := range pyCounts {
			b.Count(c.key, counts[c.key])
		}
	}
	if p.collected != "" {
		b.Field("collected", p.collected)
	}
	b.ListCapped("interrupted", p.banners)
	p.failed.list(b, "failed_tests")
	p.errored.list(b, "error_tests")

	// What is left of the budget goes first to the stderr and internal
	// error excerpts (short, and the only account of a usage error or a
	// crash), then to the failure contexts, then to the warnings.
	room := r.BodyRoom() - len(b.Render())
	tail := 0
	if p.summary == "" && (!r.Exited || r.ExitCode != 0) {
		tail = pyTailLines // no summary: how the run ended is in its last lines
	}
	output, outputLost := pyExcerpt(stdout, isPyMustKeep, pyMaxMustKeep, tail)
	var tb pyTraceback
	errs, errsLost := pyExcerpt(stderr, func(l string) bool { return tb.report(l) || isPyMustKeep(l) }, pyMaxMustKeep, pyTailLines)
	internal, internalLost := p.internal.lines, p.internal.lost
	room -= pyExcerptSize("output_excerpt", output, outputLost) +
		pyExcerptSize("internal_error", internal, internalLost) +
		pyExcerptSize("stderr", errs, errsLost)

	startup := p.startup
	room -= pyExcerptSize("startup_errors", startup, p.nStartup-len(startup))

	// Every E line of every failure while they fit; else as many as fit
	// for each, at least pyMaxELines.
	room -= len("failure_lines_omitted: 0000000000\n")
	eCap := pyKeepELines
	failures, nTotal, lead := p.failureItems(eCap)
	nFailures, size := summarize.FitHead("failures", failures, nTotal, pyMaxFailures, room)
	if nFailures < min(len(failures), pyMaxFailures) || size > room {
		lo, hi := pyMaxELines, pyKeepELines
		for lo < hi {
			mid := (lo + hi + 1) / 2
			items, _, _ := p.failureItems(mid)
			if n, sz := summarize.FitHead("failures", items, nTotal, pyMaxFailures, room); n == min(len(items), pyMaxFailures) && sz <= room {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		eCap = lo
		failures, nTotal, lead = p.failureItems(eCap)
		nFailures, size = summarize.FitHead("failures", failures, nTotal, pyMaxFailures, room)
	}
	room -= size
	warnings := p.warningItems()
	nWarnings, _ := summarize.FitHead("warnings_summary", warnings, p.nWarnings, pyMaxWarnings, room)

	addPyExcerpt(b, "startup_errors", startup, p.nStartup-len(startup))
	summarize.AddHead(b, "failures", failures, nTotal, nFailures)
	if l := p.shownLost(nFailures-lead, eCap); l > 0 {
		b.Count("failure_lines_omitted", l)
	}
	summarize.AddHead(b, "warnings_summary", warnings, p.nWarnings, nWarnings)
	addPyExcerpt(b, "output_excerpt", output, outputLost)
	addPyExcerpt(b, "internal_error", internal, internalLost)
	addPyExcerpt(b, "stderr", errs, errsLost)
	return b
}

// Feed reads one line of either stream.
func (p *pytestLog) Feed(l string) {
	if rest, ok := strings.CutPrefix(l, "INTERNALERROR> "); ok || l == "INTERNALERROR>" {
		p.internal.add(strings.TrimRight(rest, " "))
		return
	}
	if s, ok := pySummaryLine(l); ok {
		if p.captured {
			p.lastCaptured, p.afterFinal = s, false
			return
		}
		p.summary, p.afterFinal = s, true
		p.endSection()
		if p.mode != pyModeUnknown {
			// Before any banner, the start of the output is cut: the
			// line may be a test's output, and the failures may go on.
			p.mode = pyModeOther
		}
		return
	}
	if title, ok := pyBanner(l); ok {
		ph := pyPhase(title)
		if p.captured && ph <= p.phase {
			return
		}
		p.phase, p.captured = ph, false
		// pytest prints its final line last: one that a section follows
		// was a test's (pytest -s leaves a test's output uncaptured).
		p.summary, p.lastCaptured = "", ""
		p.endSection()
		switch {
		case title == "FAILURES" || title == "ERRORS":
			p.mode = pyModeFailures
		case title == "warnings summary":
			p.mode = pyModeWarnings
		default:
			p.mode = pyModeOther
		}
		return
	}
	if p.captured {
		if _, ok := pySectionHead(l); !ok {
			return
		}
		p.captured = false
	}
	if isPyCaptured(l) {
		p.captured = true
		if p.sec != nil {
			p.sec.stopped = true
		}
		return
	}
	if kind, id, ok := pyShortEntry(l); ok {
		p.addResult(kind, id)
		if len(id)+len(kind)+1 < len(l) {
			p.messages.Add(l)
		}
		return
	}
	if id, kind, ok := pyVerboseResult(l); ok {
		p.addResult(kind, id)
		return
	}
	if inner, ok := pyBang(l); ok {
		p.banners.Add(inner)
		return
	}
	if rest, ok := pyCollected(l); ok {
		if p.collected == "" { // a test that runs pytest prints its own
			p.collected = rest
		}
		return
	}

	if p.stream == 0 && p.phase == 0 && p.mode == pyModeUnknown && !p.lacksLines && p.sec == nil && p.tb.report(l) {
		// Before the session starts, Python's own error report.
		p.nStartup++
		if len(p.startup) < pyMaxReports {
			p.startup = append(p.startup, strings.TrimRight(l, " "))
		}
		return
	}
	switch p.mode {
	case pyModeUnknown, pyModeFailures:
		p.failureLine(l)
	case pyModeWarnings:
		p.warningLine(l)
	}
}

// EndStream closes what was open at the end of a stream: stderr never
// continues a section of stdout.
func (p *pytestLog) EndStream() {
	p.endSection()
	p.mode, p.phase, p.captured = pyModeUnknown, 0, false
	p.stream++
}

// pyPhase orders pytest's section banners as it prints them, each once
// per session; a banner it does not know is placed after the warnings.
func pyPhase(title string) int {
	switch title {
	case "test session starts":
		return 1
	case "ERRORS":
		return 2
	case "FAILURES":
		return 3
	case "warnings summary":
		return 4
	case "PASSES":
		return 5
	case "short test summary info":
		return 7
	}
	return 6
}

func (p *pytestLog) endSection() {
	p.sec, p.warn = nil, nil
}

func (p *pytestLog) addResult(kind, id string) {
	if kind == "FAILED" {
		p.failed.add(id)
	} else {
		p.errored.add(id)
	}
}

// failureLine reads a line in a FAILURES or ERRORS section, or in output
// whose banners a pipe cut off.
func (p *pytestLog) failureLine(l string) {
	if head, ok := pySectionHead(l); ok {
		p.sec = p.addSection(head, "")
		return
	}
	s := p.sec
	if s == nil || s.terminal && (s.head == "" || p.lacksLines) && (isPyELine(l) || isPyLocation(l)) {
		switch {
		case p.mode == pyModeFailures && s == nil && !p.lacksLines:
			// --tb=line: one location line per failure, no section heads.
			if isPyLocation(l) {
				p.addSection("", l)
			}
			return
		case p.stream == 0 && (p.mode == pyModeUnknown || p.lacksLines) && (isPyELine(l) || isPyLocation(l)):
			// A pipe cut the start of stdout inside a failure section,
			// or a grep kept its E lines and locations without its head:
			// what is left of each failure is a section without a head,
			// which ends at its terminal location ("x.py:9: KeyError").
			s = p.addSection("", "")
			p.sec = s
		default:
			return
		}
	}
	if s.stopped {
		return
	}
	switch {
	case isPyELine(l):
		s.eCount++
		p.failLines++
		if len(s.eLines) < pyKeepELines {
			s.eLines = append(s.eLines, strings.TrimRight(l, " "))
		}
	case isPyLocation(l):
		s.nLocs++
		s.loc, s.locAt = strings.TrimRight(l, " "), s.nLocs
		s.terminal = isPyTerminal(s.loc)
		if s.terminal {
			s.nTerminals++
			p.failLines++
			if len(s.terminals) < pyMaxReports {
				s.terminals = append(s.terminals, pyLoc{s.nLocs, s.loc})
			}
		}
		if l[0] != '/' {
			s.relLoc, s.relLocAt = s.loc, s.nLocs
			if s.relLoc1 == "" {
				s.relLoc1, s.relLoc1At = s.loc, s.nLocs
			}
		}
	default:
		t := strings.TrimSpace(l)
		if t == "" {
			return
		}
		if s.tb.report(l) {
			s.nReports++
			p.failLines++
			if len(s.reports) < pyMaxReports {
				s.reports = append(s.reports, strings.TrimRight(l, " "))
			}
		}
		if strings.HasPrefix(t, `File "`) {
			s.frame = l
		}
		if s.nLast == len(s.last) {
			copy(s.last[:], s.last[1:])
			s.nLast--
		}
		s.last[s.nLast] = l
		s.nLast++
	}
}

// addSection counts a new section and returns where it is read: kept
// while fewer than pyMaxFailures are, else in the spare section, whose E
// lines' array is reused.
func (p *pytestLog) addSection(head, loc string) *pySection {
	p.nSections++
	s := &p.spareSec
	if len(p.sections) < pyMaxFailures {
		s = new(pySection)
		p.sections = append(p.sections, s)
	}
	*s = pySection{head: head, loc: loc, eLines: s.eLines[:0], terminals: s.terminals[:0], reports: s.reports[:0]}
	return s
}

// warningLine reads a line of the warnings summary: entries are separated
// by blank lines; each starts with unindented lines (node ids, or "path: N
// warnings") followed by the message indented by two spaces and the source
// line indented by four.
func (p *pytestLog) warningLine(l string) {
	switch {
	case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "-- Docs: "):
		p.warn = nil
	case l[0] != ' ':
		if p.warn == nil {
			p.nWarnings++
			p.warn = &p.spareWarn
			if len(p.warnings) < pyMaxWarnings {
				p.warn = new(pyWarning)
				p.warnings = append(p.warnings, p.warn)
			}
			*p.warn = pyWarning{head: l}
		}
	case p.warn != nil && p.warn.message == "" && strings.HasPrefix(l, "  ") && l[2] != ' ':
		p.warn.message = strings.TrimSpace(l)
	}
}

// failureItems returns one item per kept failure context, in output
// order, and the number of contexts: an item holds the context's head,
// then its locations (the first in the project's own code, every one
// where a traceback ends with its exception, the last in the project's
// own code, and the last of all), then its first eCap E lines; or, when
// it has neither, the lines of the tracebacks Python printed itself, its
// innermost 'File "..."' frame and its last lines. Without any section
// (--tb=no, or a pipe that cut them off) the short-summary entries that
// carry a message are the contexts; when the only sections are what a
// pipe left of them without their heads, those entries come first, then
// the sections. lead is the number of entries before the sections.
func (p *pytestLog) failureItems(eCap int) (items []string, total, lead int) {
	headless := true
	for _, s := range p.sections {
		headless = headless && s.head == ""
	}
	if headless && p.messages.Total > 0 {
		if p.messages.Total > len(p.messages.Items) {
			// The entries left out come before the sections: a head
			// of the items would leave them out first.
			return p.messages.Items, p.messages.Total + p.nSections, len(p.messages.Items)
		}
		items = slices.Clone(p.messages.Items)
		total, lead = p.messages.Total, len(items)
	}
	for _, s := range p.sections {
		var it []string
		if s.head != "" {
			it = append(it, s.head)
		}
		locs := append([]pyLoc{{s.relLoc1At, s.relLoc1}, {s.relLocAt, s.relLoc}, {s.locAt, s.loc}}, s.terminals...)
		slices.SortStableFunc(locs, func(a, b pyLoc) int { return a.at - b.at })
		shown := len(it)
		for _, l := range locs {
			if l.text != "" && !slices.Contains(it[shown:], l.text) {
				it = append(it, l.text)
			}
		}
		it = append(it, s.eLines[:min(len(s.eLines), eCap)]...)
		if s.loc == "" && s.eCount == 0 {
			// In the order printed, roughly: the tracebacks' headers,
			// the innermost frame, the exceptions, the last lines.
			last := s.last[:s.nLast]
			var headers, exceptions []string
			for _, r := range s.reports {
				switch {
				case slices.Contains(last, r):
				case strings.TrimSpace(r) == pyTracebackHeader:
					headers = append(headers, r)
				default:
					exceptions = append(exceptions, r)
				}
			}
			it = append(it, headers...)
			if s.frame != "" && !slices.Contains(last, s.frame) {
				it = append(it, s.frame)
			}
			it = append(it, exceptions...)
			it = append(it, last...)
		}
		items = append(items, strings.Join(it, "\n"))
	}
	return items, total + p.nSections, lead
}

// shownLost counts the lines the block leaves out when it shows the first
// n failure contexts with at most eCap E lines each: of every section, the
// E lines, the locations where a traceback ended and Python's own
// traceback lines that are not shown.
func (p *pytestLog) shownLost(n, eCap int) int {
	lost := p.failLines
	for _, s := range p.sections[:max(0, min(n, len(p.sections)))] {
		lost -= min(len(s.eLines), eCap) + len(s.terminals)
		if s.loc == "" && s.eCount == 0 {
			lost -= len(s.reports)
		}
	}
	return lost
}

func (p *pytestLog) warningItems() []string {
	items := make([]string, 0, len(p.warnings))
	for _, w := range p.warnings {
		if w.message == "" {
			items = append(items, w.head)
		} else {
			items = append(items, w.head+"\n"+w.message)
		}
	}
	return items
}

// pyCollected returns what follows "collected " on the collection line,
// "collected 22 items" or, with -v, "collecting ... collected 22 items".
func pyCollected(l string) (string, bool) {
	if rest, ok := strings.CutPrefix(l, "collected "); ok {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(l, "collecting ... collected "); ok {
		return rest, true
	}
	return "", false
}

// pySummaryLine recognizes the final line, with or without its "="
// padding, and returns it without the padding.
func pySummaryLine(l string) (string, bool) {
	if l == "" || (l[0] != '=' && (l[0] < '0' || l[0] > '9') && l[0] != 'n') {
		return "", false
	}
	if !strings.Contains(l, " in ") {
		return "", false // most lines, before the padding is trimmed
	}
	i, j := 0, len(l)
	for i < j && (l[i] == '=' || l[i] == ' ') {
		i++
	}
	for j > i && (l[j-1] == '=' || l[j-1] == ' ') {
		j--
	}
	if t := l[i:j]; isPySummary(t) {
		return t, true
	}
	return "", false
}

// isPySummary reports whether t is pytest's final line once its "="
// padding is gone: "12 failed, 6 passed, 1 warning, 2 errors in 0.11s",
// "no tests ran in 0.00s", "3 passed in 61.20s (0:01:01)". Plugins may add
// categories of several words ("2 subtests passed"). It is what the regexp
//
//	^(?:no tests ran|\d+ [a-z]+(?: [a-z]+)*(?:, \d+ [a-z]+(?: [a-z]+)*)*) in \d+(?:\.\d+)?s(?: \([\d:]+\))?$
//
// matches (FuzzHandParsers holds it to it). The duration holds no " in ",
// so the counts end at the last one.
func isPySummary(t string) bool {
	i := strings.LastIndex(t, " in ")
	if i < 0 || !isPyDuration(t[i+len(" in "):]) {
		return false
	}
	counts := t[:i]
	if counts == "no tests ran" {
		return true
	}
	for part := range strings.SplitSeq(counts, ", ") {
		if !isPyCount(part) {
			return false
		}
	}
	return true
}

// isPyCount matches one count of the final line: a number, then one or
// more lower-case words, each after one space.
func isPyCount(s string) bool {
	n := len(summarize.DigitsPrefix(s))
	if n == 0 || n == len(s) {
		return false // no number, or no word
	}
	for s = s[n:]; s != ""; {
		if s[0] != ' ' {
			return false
		}
		w := 1
		for w < len(s) && 'a' <= s[w] && s[w] <= 'z' {
			w++
		}
		if w == 1 {
			return false
		}
		s = s[w:]
	}
	return true
}

// isPyDuration matches the duration that ends the final line, "0.11s" or
// "61.20s (0:01:01)".
func isPyDuration(s string) bool {
	n := len(summarize.DigitsPrefix(s))
	if n == 0 {
		return false
	}
	s = s[n:]
	if frac, ok := strings.CutPrefix(s, "."); ok {
		n := len(summarize.DigitsPrefix(frac))
		if n == 0 {
			return false
		}
		s = frac[n:]
	}
	s, ok := strings.CutPrefix(s, "s")
	if !ok {
		return false
	}
	if s == "" {
		return true
	}
	clock, ok := strings.CutPrefix(s, " (")
	if !ok {
		return false
	}
	clock, ok = strings.CutSuffix(clock, ")")
	if !ok || clock == "" {
		return false
	}
	for i := 0; i < len(clock); i++ {
		if c := clock[i]; c != ':' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// pySummaryCounts reads the counts of a final line; categories pytest
// left out are zero.
func pySummaryCounts(s string) map[string]int {
	counts := map[string]int{}
	s = s[:strings.LastIndex(s, " in ")]
	for part := range strings.SplitSeq(s, ", ") {
		n, word, ok := strings.Cut(part, " ")
		if !ok {
			continue
		}
		for _, c := range pyCounts {
			if word == c.singular || word == c.plural {
				counts[c.key] += summarize.NumberBefore(n+" ", " ")
			}
		}
	}
	return counts
}

// pyBanner returns the title of a "==== TITLE ====" line.
func pyBanner(l string) (string, bool) {
	return pyFramed(l, '=')
}

// pySectionHead returns the title of a "____ test_name ____" line; the
// "_ _ _ _" lines between traceback frames are not heads.
func pySectionHead(l string) (string, bool) {
	t, ok := pyFramed(l, '_')
	if !ok || onlyUnderscores(t) {
		return "", false
	}
	return t, true
}

// onlyUnderscores reports whether s holds nothing but '_' and ' ', as
// the "_ _ _" line between traceback frames does.
func onlyUnderscores(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '_' && s[i] != ' ' {
			return false
		}
	}
	return true
}

// pyBang returns the text of a "!!!! stopping after 1 failures !!!!" line.
func pyBang(l string) (string, bool) {
	return pyFramed(l, '!')
}

// isPyCaptured matches "---- Captured stdout call ----" and the other
// captured-output banners inside a failure section.
func isPyCaptured(l string) bool {
	t, ok := pyFramed(l, '-')
	return ok && strings.HasPrefix(t, "Captured ")
}

// pyFramed returns T from a line "ccc T ccc": pytest's separators, at
// least one c on each side (long titles leave room for no more).
func pyFramed(l string, c byte) (string, bool) {
	if len(l) < 5 || l[0] != c || l[len(l)-1] != c {
		return "", false
	}
	i, j := 0, len(l)
	for i < j && l[i] == c {
		i++
	}
	for j > i && l[j-1] == c {
		j--
	}
	t := l[i:j]
	if len(t) < 3 || t[0] != ' ' || t[len(t)-1] != ' ' {
		return "", false
	}
	return t[1 : len(t)-1], true
}

// isPyELine matches the "E   " lines of a traceback: the exception, the
// assertion and its explanation.
func isPyELine(l string) bool {
	return l == "E" || strings.HasPrefix(l, "E ")
}

// isPyLocation matches a traceback location: "tests/x.py:12: AssertionError",
// "tests/x.py:21: " between frames, "shop/cart.py:104: in apply_discount"
// (--tb=short), "/abs/tests/x.py:6: AssertionError: msg" (--tb=line) and
// the bare "/abs/tests/x.py:10" of a missing fixture.
func isPyLocation(l string) bool {
	if l == "" || l[0] == ' ' || l[0] == '\t' {
		return false
	}
	path, rest, ok := strings.Cut(l, ":")
	if !ok || path == "" || hasBlank(path) {
		return false
	}
	digits := rest
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		digits = rest[:i]
		if i+1 < len(rest) && rest[i+1] != ' ' {
			return false
		}
	}
	return summarize.IsDigits(digits)
}

// isPyTerminal reports whether the location loc ends a traceback: its
// text after "path:N: " names the exception rather than being empty or
// "in function".
func isPyTerminal(loc string) bool {
	_, rest, _ := strings.Cut(loc, ": ")
	return rest != "" && !strings.HasPrefix(rest, "in ")
}

// hasBlank reports whether s holds a space or a tab: strings.ContainsAny
// would build its set of two bytes again on every line.
func hasBlank(s string) bool {
	return strings.IndexByte(s, ' ') >= 0 || strings.IndexByte(s, '\t') >= 0
}

// pyShortEntry reads a "FAILED id - message" or "ERROR id - message" line
// of the short test summary: the kind and the node id. A FAILED id always
// names a test ("path::name"); an ERROR id may be a module that could not
// be collected ("tests/test_x.py").
func pyShortEntry(l string) (kind, id string, ok bool) {
	if rest, found := strings.CutPrefix(l, "FAILED "); found {
		if id := pyNodeID(rest); isPyTestID(id) {
			return "FAILED", id, true
		}
	} else if rest, found := strings.CutPrefix(l, "ERROR "); found {
		if id := pyNodeID(rest); isPyTestID(id) || (strings.HasSuffix(id, ".py") && !strings.Contains(id, " ")) {
			return "ERROR", id, true
		}
	}
	return "", "", false
}

// pyVerboseResult reads a -v result line, "tests/x.py::test_y FAILED
// [ 45%]", for the FAILED and ERROR outcomes. The outcome at its end rules
// out most lines before the node id is looked at.
func pyVerboseResult(l string) (id, kind string, ok bool) {
	if l == "" || l[0] == ' ' {
		return "", "", false
	}
	t := strings.TrimRight(l, " ")
	if strings.HasSuffix(t, "]") {
		i := strings.LastIndexByte(t, '[')
		if i < 0 || !isPyProgress(t[i+1:len(t)-1]) {
			return "", "", false
		}
		t = strings.TrimRight(t[:i], " ")
	}
	if id, ok := strings.CutSuffix(t, " FAILED"); ok && isPyTestID(id) {
		return id, "FAILED", true
	}
	if id, ok := strings.CutSuffix(t, " ERROR"); ok && isPyTestID(id) {
		return id, "ERROR", true
	}
	return "", "", false
}

// isPyProgress reports whether s, between the brackets of a -v result
// line, holds only a percentage or a count: spaces, digits, '/' and '%'.
func isPyProgress(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '/' && c != '%' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// isPyTestID reports whether id names a test as pytest does: a file path
// with its extension ("tests/test_x.py", a doctest's "README.rst"), then
// "::" and the test. libtest's "tests::adds --- FAILED" (cargo test -q)
// has no file there.
func isPyTestID(id string) bool {
	path, name, ok := strings.Cut(id, "::")
	return ok && name != "" && strings.IndexByte(path, '.') >= 0 && !hasBlank(path)
}

// pyNodeID cuts the node id off a short-summary entry: it ends at the
// first " - " outside the brackets of a parametrized id, so that
// "test_x[a - b] - assert ..." keeps its whole id. Brackets are counted
// from the first one, when it comes before the first " - ": the path and
// the test's name are not read byte by byte.
func pyNodeID(s string) string {
	first := strings.Index(s, " - ")
	if first < 0 {
		return s
	}
	open := strings.IndexByte(s[:first], '[')
	if open < 0 {
		return s[:first]
	}
	return nodeIDFrom(s, open)
}

// nodeIDFrom cuts s at the first " - " outside brackets, reading it from
// s[from] on; from 0 it is pyNodeID the long way.
func nodeIDFrom(s string, from int) string {
	depth := 0
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		case ' ':
			if depth == 0 && strings.HasPrefix(s[i:], " - ") {
				return s[:i]
			}
		}
	}
	return s
}
