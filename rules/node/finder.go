package node

import (
	"strings"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The node family's finder, and the line shapes it reads. Its lines are
// parsed by hand: the finder runs on every line of every rule's output,
// where a regexp call cost more than all the rest of its work.
// FuzzHandParsers holds each parser to the regexp it stands for.

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
	if start == len(l) || summarize.IsRESpace(r) {
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
	for start > 0 && strings.IndexByte(summarize.RESpace, l[start-1]) < 0 {
		start--
	}
	return l[start:], true
}

// framePath returns the path of the location a stack frame ends with
// (vitest's "❯ fn src/a.js:3:9", jest's "at fn (src/a.js:3:9)"), or "".
func framePath(l string) string {
	loc, ok := nodeLocation(l)
	if !ok {
		return ""
	}
	loc = strings.TrimPrefix(loc, "(")
	return loc[:nodeLocPath(loc)]
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
	if !ok || loc == "" || strings.IndexByte(summarize.RESpace, loc[len(loc)-1]) >= 0 {
		return -1
	}
	return len(loc)
}

// tapNotOK reads a TAP failure as node --test prints it into a pipe, "not
// ok 2 - adds wrong", indented for subtests, and returns the test's name:
// what the regexp ^ *not ok \d+ - (.+)$ captures.
func tapNotOK(l string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(l, " "), "not ok ")
	d := summarize.DigitsPrefix(rest)
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
// "● NAME" headers under them), the first location of each failure
// (vitest's first "❯ FILE:LINE:COL" frame, jest's first "at" frame outside
// node_modules) and its first frame in the test's own file (where the test
// called into what failed, however deep that was: issue 21), every tsc "error TS" line and the location in each row of
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

// Finder is the node family's Finder: nodeScan over both streams.
var Finder summarize.Finder = finder{}

type finder struct{}

func (finder) Find(_ *summarize.Run, streams []summarize.Stream) {
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
		ownFile  string // the test file whose first frame is still to come
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
		jestWant, jestAt, ownFile = false, "", ""
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
			file, rest, ok := strings.Cut(name, " > ")
			if ok && n.listing.listed != nil {
				n.listing.report(file, rest, " > ")
			}
			wantLoc, ownFile = true, file
		case c == ' ' && (wantLoc || ownFile != "") && strings.HasPrefix(t, "❯ "):
			if loc, ok := nodeLocation(l); ok {
				if wantLoc || framePath(l) == ownFile {
					add(loc, l)
				}
				if framePath(l) == ownFile {
					ownFile = ""
				}
				wantLoc = false
			}
		case c == '\xe2' && strings.HasPrefix(l, "⎯"):
			// A separator: the end of a vitest failure, or the title of
			// an unhandled error whose location comes next.
			wantLoc = strings.Contains(l, " Unhandled ") && !strings.Contains(l, " Unhandled Errors ")
			ownFile = ""
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
				jestWant, ownFile = true, suite
			}
		case c == ' ' && (jestWant || ownFile != "") && strings.HasPrefix(t, "at "):
			at := strings.TrimSpace(l)
			if own := ownFile != "" && framePath(at) == ownFile; own {
				add(at, l)
				ownFile = ""
				if isProjectFrame(at) {
					jestWant, jestAt = false, ""
				}
				break
			}
			if !jestWant {
				break
			}
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
func mayHaveNodeFailures(b []byte) bool { return summarize.ContainsAny(b, nodeMarkers) }

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
	if l == "" || summarize.IsRESpace(r) {
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
	d := summarize.DigitsPrefix(rest)
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
	line := summarize.DigitsPrefix(rest)
	rest, ok = strings.CutPrefix(rest[len(line):], ":")
	col := summarize.DigitsPrefix(rest)
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
