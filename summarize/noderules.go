package summarize

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

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

// onlyOf reports whether every byte of s is a or b, as strings.Trim(s,
// string([]byte{a, b})) == "" does for ASCII a and b, without building the
// cutset's ASCII set on each call.
func onlyOf(s string, a, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != a && s[i] != b {
			return false
		}
	}
	return true
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
	if n := len(DigitsPrefix(t)); n > 0 {
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
func (t *testRun) body(r *Run, b *Body) {
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
	nFailures, size := FitHead("failures", failures, t.nFailures, maxNodeFailures, room)
	room -= size
	nUnhandled, size := FitList("unhandled_errors", unhandled, maxNodeFailures, room)
	room -= size
	nMessages, _ := FitList("messages", t.messages, maxNodeMessages, room)

	AddHead(b, "failures", failures, t.nFailures, nFailures)
	AddList(b, "unhandled_errors", unhandled, nUnhandled)
	if lost := lostLines(t.failures, nFailures) + lostLines(t.unhandled, nUnhandled); lost > 0 {
		b.Count("failure_lines_omitted", lost)
	}
	AddList(b, "messages", t.messages, nMessages)
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

// The node family's failures, for the boundary check, are read from the
// line with terminal escapes removed. Its lines are parsed by hand: the
// finder runs on every line of every rule's output, where a regexp call
// cost more than all the rest of its work. FuzzHandParsers holds each
// parser to the regexp it stands for.

// jestSuite reads a jest suite line, "FAIL src/a.test.js" or "PASS
// src/a.test.js (5.2 s)", and returns the suite's path: what the regexp
// ^(FAIL|PASS) +(\S.*?)(?: \(\d[^)]*\))?$ captures as its second group.
func jestSuite(l string) (string, bool) {
	if !strings.HasPrefix(l, "FAIL ") && !strings.HasPrefix(l, "PASS ") {
		return "", false
	}
	start := len("FAIL ")
	for start < len(l) && l[start] == ' ' {
		start++
	}
	r, w := utf8.DecodeRuneInString(l[start:])
	if start == len(l) || IsRESpace(r) {
		return "", false
	}
	// The lazy name ends at the first " (DIGIT" whose rest holds no ")"
	// but the last byte; neither it nor the end of the line may come after
	// a newline, which the name cannot cross.
	q, end := start+w, len(l)
	if i := strings.IndexByte(l[q:], '\n'); i >= 0 {
		end = q + i
	}
	if strings.HasSuffix(l, ")") {
		p := max(q, strings.LastIndexByte(l[:len(l)-1], ')')+1)
		for p < end {
			i := strings.Index(l[p:end], " (")
			if i < 0 {
				break
			}
			p += i
			if p+2 < len(l)-1 && '0' <= l[p+2] && l[p+2] <= '9' {
				return l[start:p], true
			}
			p++
		}
	}
	if end < len(l) {
		return "", false
	}
	return l[start:], true
}

// isJestSuite reports whether l is a jest suite line.
func isJestSuite(l string) bool {
	_, ok := jestSuite(l)
	return ok
}

// nodeLocation returns the location a stack frame ends with, vitest's "❯
// fn src/a.js:1:2" or jest's "at fn (src/a.js:1:2)": what the regexp
// \S+:\d+:\d+\)?$ finds, from the start of the line's last word.
func nodeLocation(l string) (string, bool) {
	start := nodeLocPath(l)
	if start < 0 {
		return "", false
	}
	for start > 0 && strings.IndexByte(RESpace, l[start-1]) < 0 {
		start--
	}
	return l[start:], true
}

// hasNodeLocation reports whether nodeLocation finds a location in l.
func hasNodeLocation(l string) bool {
	return nodeLocPath(l) >= 0
}

// nodeLocPath returns the end of the path of the location l ends with,
// "PATH:LINE:COL" or "PATH:LINE:COL)", or -1 when l ends with none or the
// path's last byte is white space.
func nodeLocPath(l string) int {
	loc := strings.TrimSuffix(l, ")")
	loc, ok := cutDigitsSuffix(loc, ':')
	if ok {
		loc, ok = cutDigitsSuffix(loc, ':')
	}
	if !ok || loc == "" || strings.IndexByte(RESpace, loc[len(loc)-1]) >= 0 {
		return -1
	}
	return len(loc)
}

// tapNotOK reads a TAP failure as node --test prints it into a pipe, "not
// ok 2 - adds wrong", indented for subtests, and returns the test's name:
// what the regexp ^ *not ok \d+ - (.+)$ captures.
func tapNotOK(l string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(l, " "), "not ok ")
	d := DigitsPrefix(rest)
	if !ok || d == "" {
		return "", false
	}
	name, ok := strings.CutPrefix(rest[len(d):], " - ")
	if !ok || name == "" || strings.IndexByte(name, '\n') >= 0 {
		return "", false
	}
	return name, true
}

// nodeScan is the node family's failure finder. It finds every failing
// test (vitest's "FAIL  FILE > NAME" lines, jest's "FAIL FILE" lines and the
// "● NAME" headers under them) and the first location of each failure
// (vitest's first "❯ FILE:LINE:COL" frame, jest's first "at" frame outside
// node_modules), every tsc "error TS" line and the location in each row of
// tsc's "Errors  Files" table, every ESLint error row and every TAP "not
// ok" line of node --test. Test runners name a failing test in their
// listings (×, ✕) too: a listed test is required only when no report
// names it (a pipe into head cut the reports off; see testListing). The
// runners' counts ("0 failed", "5 passed") are never read.
//
// scan reads each stream of a run in turn, and finish ends the run: the
// listing and the reports may be on different streams.
type nodeScan struct {
	listing testListing
	stream  int // the index of the stream scan reads next
}

// nodeFinder is the node family's Finder: nodeScan over both streams.
type nodeFinder struct{}

func (nodeFinder) Find(_ *Run, streams []Stream) {
	var n nodeScan
	for _, s := range streams {
		n.scan(s.Raw, s.Lines, s.Require)
	}
	n.finish(func(stream int, req, line string, at int) {
		streams[stream].Require(req, line, at)
	})
}

// vitestListed notes a failing test of vitest's listing: l is its line, at
// its index, and file the file whose listing it is in.
func (n *nodeScan) vitestListed(l, file string, at int) {
	name, full, ok := vitestListed(l)
	if !ok {
		return
	}
	if t, ok := vitestTest(name, full, file); ok {
		t.line, t.stream, t.at = l, n.stream, at
		n.listing.list(t)
	}
}

// finish gives found the listed failing tests that no report names, with
// the stream and the index of their line.
func (n *nodeScan) finish(found func(stream int, req, line string, at int)) {
	for _, t := range n.listing.unreported() {
		found(t.stream, t.req, t.line, t.at)
	}
}

// scan reads the failures of a run's next stream, and gives each to found
// with the line it came from and that line's index in ls. ls may be a part
// of raw's lines (npm_test's without the package manager's): raw only
// tells whether any line is worth reading.
func (n *nodeScan) scan(raw []byte, ls []string, found func(req, line string, at int)) {
	defer func() { n.stream++ }()
	if len(raw) > 0 && !mayHaveNodeFailures(raw) {
		return
	}
	var (
		wantLoc  bool   // a vitest failure's first location is still to come
		jestFail bool   // inside a jest FAIL suite
		lead     = true // no line at the margin yet: a pipe may have cut the FAIL line off
		jestAt   string // a jest failure's first frame, until a project frame is seen
		jestAtI  int    // the index of jestAt's line
		jestWant bool   // a jest failure's project frame is still to come
		cur      int    // the index of the line being read
		tscTable bool   // inside tsc's "Errors  Files" table
		vtFile   string // the file of vitest's listing being read
		vtDone   bool   // past vitest's listing: a "⎯⎯" rule opened its reports
		suite    string // the jest FAIL suite being read; "" when a pipe cut it off
		jl       = jestListing{on: true}
	)
	add := func(req, line string) { found(req, line, cur) }
	endJest := func() {
		if jestWant && jestAt != "" {
			found(jestAt, jestAt, jestAtI)
		}
		jestWant, jestAt = false, ""
	}
	for i, l := range ls {
		if l == "" {
			tscTable, jl.on = false, false
			continue
		}
		cur = i
		if tscTable {
			// A row names a file with errors and the line of its
			// first: with a pipe into tail, maybe the only mention of
			// the file left.
			if loc, ok := tscTableRow(l); ok {
				add(loc, l)
				continue
			}
			tscTable = false
		}
		c := l[0]
		tscTable = c == 'E' && l == "Errors  Files"
		t := l // l after its indentation
		if c == ' ' {
			t = strings.TrimLeft(l, " ")
		}
		var failSuite string
		var isFail bool
		if c == 'F' {
			failSuite, isFail = jestSuite(l)
		}
		if !vtDone {
			switch {
			case c == '\xe2' && strings.HasPrefix(l, "⎯"):
				vtDone = true
			case c == ' ' && len(l) > 1 && l[1] == '\xe2':
				if file, ok := vitestFileLine(l); ok {
					vtFile = file
				}
			case c == ' ' && strings.HasPrefix(t, "× "):
				n.vitestListed(l, vtFile, i)
			}
		}
		if c == ' ' && jl.on {
			if full, name, ok := jl.line(l); ok {
				n.listing.list(listedTest{file: suite, name: full, sep: " › ", req: name, line: l, stream: n.stream, at: i})
			}
		}
		switch {
		case c == ' ' && strings.HasPrefix(l, " FAIL  "):
			name := strings.TrimSpace(l[len(" FAIL  "):])
			add(name, l)
			if file, rest, ok := strings.Cut(name, " > "); ok && n.listing.listed != nil {
				n.listing.report(file, rest, " > ")
			}
			wantLoc = true
		case c == ' ' && wantLoc && strings.HasPrefix(t, "❯ "):
			if loc, ok := nodeLocation(l); ok {
				add(loc, l)
				wantLoc = false
			}
		case c == '\xe2' && strings.HasPrefix(l, "⎯"):
			// A separator: the end of a vitest failure, or the title of
			// an unhandled error whose location comes next.
			wantLoc = strings.Contains(l, " Unhandled ") && !strings.Contains(l, " Unhandled Errors ")
		case isFail:
			endJest()
			add(failSuite, l)
			suite, jestFail = failSuite, true
			jl.start()
		case c == ' ' && (jestFail || lead) && strings.HasPrefix(l, "  ● "):
			endJest()
			jl.on = false
			if !isJestConsole(ls, i) {
				name := strings.TrimPrefix(l, "  ● ")
				found(name, l, i)
				n.listing.report(suite, name, " › ")
				jestWant = true
			}
		case c == ' ' && jestWant && strings.HasPrefix(t, "at "):
			at := strings.TrimSpace(l)
			if jestAt == "" {
				jestAt, jestAtI = at, i
			}
			if isProjectFrame(at) {
				add(at, l)
				jestWant, jestAt = false, ""
			}
		case (c == 'n' || c == ' ') && strings.HasPrefix(t, "not ok "):
			if name, ok := tapNotOK(l); ok && !isTAPDirective(name) {
				add(name, l)
			}
		case c == ' ' && t != "" && '0' <= t[0] && t[0] <= '9' && isESLintError(l):
			add(strings.TrimSpace(l), l)
		case c != ' ' && isTscError(l):
			add(strings.TrimSpace(l), l)
		case c != ' ' && jestFail && !strings.HasPrefix(l, "PASS "):
			// A line of jest's own at the margin ends the suite.
			endJest()
			suite, jestFail = "", false
		}
		if c != ' ' && !isFail {
			jl.on = false
		}
		lead = lead && c == ' '
	}
	endJest()
}

// nodeMarkers are texts of which every line scan takes holds one: the
// runners' FAIL (and PASS) lines, TAP's "not ok", tsc's "error TS" and
// table, an ESLint error row, and the last two bytes of the runners' ❯, ●,
// ⎯, ✕ and × (their first byte, 0xe2, also begins the box drawing that
// npm and others print, which made a search for the whole rune slow).
var nodeMarkers = [][]byte{[]byte("FAIL "), []byte("PASS "), []byte("not ok "), []byte("error TS"),
	[]byte(" error  "), []byte("Errors  Files"),
	[]byte("❯")[1:], []byte("●")[1:], []byte("⎯")[1:], []byte("✕")[1:], []byte("×")}

// mayHaveNodeFailures reports whether a stream without escapes holds any
// of nodeMarkers: without one, scan would find nothing in it, and most
// streams the check reads are not the node family's.
func mayHaveNodeFailures(b []byte) bool { return ContainsAny(b, nodeMarkers) }

// isTscError reports whether l is the header line of a tsc error,
// "src/a.ts(3,7): error TS2322: ...", "src/a.ts:3:7 - error TS2322: ..."
// (--pretty) or "error TS5023: ..." (no location): what the regexp
// ^(?:\S.*(?:\(\d+,\d+\): |:\d+:\d+ - ))?error TS\d+: matches. It is
// parsed by hand: the regexp's \S.* backtracked over the whole line, and
// tsc's output is little else. Each "error TS" is tested in place, its
// location read backwards.
func isTscError(l string) bool {
	if tscCode(l) {
		return true
	}
	r, w := utf8.DecodeRuneInString(l)
	if l == "" || IsRESpace(r) {
		return false
	}
	for from := w; ; {
		i := strings.Index(l[from:], "error TS")
		if i < 0 {
			return false
		}
		at := from + i
		if tscCode(l[at:]) && tscLocation(l[w:at]) {
			// Nothing in the pattern crosses a newline.
			return strings.IndexByte(l[:at], '\n') < 0
		}
		from = at + 1
	}
}

// tscCode reports whether s starts with "error TS", a code and ": ".
func tscCode(s string) bool {
	rest, ok := strings.CutPrefix(s, "error TS")
	d := DigitsPrefix(rest)
	return ok && d != "" && strings.HasPrefix(rest[len(d):], ": ")
}

// tscLocation reports whether s ends with the location of a tsc error,
// "(LINE,COL): " or, under --pretty, ":LINE:COL - ".
func tscLocation(s string) bool {
	open, mid := byte('('), byte(',')
	rest, ok := strings.CutSuffix(s, "): ")
	if !ok {
		open, mid = ':', ':'
		if rest, ok = strings.CutSuffix(s, " - "); !ok {
			return false
		}
	}
	if rest, ok = cutDigitsSuffix(rest, mid); ok {
		_, ok = cutDigitsSuffix(rest, open)
	}
	return ok
}

// cutDigitsSuffix cuts one or more ASCII digits and, before them, sep off
// the end of s.
func cutDigitsSuffix(s string, sep byte) (string, bool) {
	i := len(s)
	for i > 0 && '0' <= s[i-1] && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || i == 0 || s[i-1] != sep {
		return s, false
	}
	return s[:i-1], true
}

// isESLintError reports whether l is an error row of ESLint's stylish
// format: what the regexp ^ +\d+:\d+ +error  matches.
func isESLintError(l string) bool {
	sev, ok := eslintSeverity(l)
	return ok && sev == "error"
}

// eslintSeverity reads a row of ESLint's stylish format, "  12:5  error  'x'
// is not defined  no-undef", and returns its severity: what the regexp
// ^ +\d+:\d+ +(error|warning)  captures.
func eslintSeverity(l string) (severity string, ok bool) {
	rest := strings.TrimLeft(l, " ")
	if len(rest) == len(l) {
		return "", false
	}
	line := DigitsPrefix(rest)
	rest, ok = strings.CutPrefix(rest[len(line):], ":")
	col := DigitsPrefix(rest)
	if !ok || line == "" || col == "" {
		return "", false
	}
	rest = rest[len(col):]
	sev := strings.TrimLeft(rest, " ")
	if len(sev) == len(rest) {
		return "", false
	}
	for _, s := range [...]string{"error", "warning"} {
		if rest, ok := strings.CutPrefix(sev, s); ok && strings.HasPrefix(rest, "  ") {
			return s, true
		}
	}
	return "", false
}

// isTAPDirective reports whether a TAP test name ends in a TODO or SKIP
// directive, which makes "not ok" no failure.
func isTAPDirective(name string) bool {
	_, dir, ok := strings.Cut(name, " # ")
	dir = strings.ToUpper(dir)
	return ok && (strings.HasPrefix(dir, "TODO") || strings.HasPrefix(dir, "SKIP"))
}

// isJestConsole reports whether the "● Console" header at ls[i] opens the
// block where jest prints a suite's console output, not a test named
// Console: the block's first line is a "console.log" (or .warn, ...) line.
func isJestConsole(ls []string, i int) bool {
	if ls[i] != "  ● Console" {
		return false
	}
	for _, l := range ls[i+1:] {
		if t := strings.TrimSpace(l); t != "" {
			return strings.HasPrefix(t, "console.")
		}
	}
	return false
}

// isProjectFrame reports whether a stack line (jest's "at fn (file:1:2)",
// vitest's "❯ fn file:1:2") points into the project rather than into
// node_modules or node itself.
func isProjectFrame(at string) bool {
	return hasNodeLocation(at) && !strings.Contains(at, "node_modules/") && !strings.Contains(at, "(node:")
}
