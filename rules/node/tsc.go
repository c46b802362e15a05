package node

import (
	"slices"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// TscOutput is tsc's signature: an error line with tsc's code,
// "src/a.ts(3,7): error TS2322: ...", "src/a.ts:3:7 - error TS2322: ..."
// (--pretty) or "error TS5023: ..." (isTscError). "error TS" and a number
// are TypeScript's diagnostic codes; vue-tsc, which prints them the same
// way, is read the same. A test runner whose output quotes them (ts-jest)
// comes first in the table, and claims its output itself.
func TscOutput(r *summarize.Run) bool {
	return r.HasLine("error TS", func(l string, _ []byte) bool { return isTscError(l) })
}

// MatchTsc recognizes tsc and npx tsc with any arguments but help,
// version and tscFormats.
func MatchTsc(argv []string) classify.Answer {
	return matchRunner(argv, "tsc", func(tool []string) classify.Answer { return matchTool(tool, tscFormats) })
}

// tscFormats are the tsc options that print something other than
// diagnostics (listings, configuration, traces, timing tables) or never end.
var tscFormats = []string{
	"--watch", "-w", "--listFiles", "--listEmittedFiles", "--explainFiles", "--showConfig",
	"--traceResolution", "--extendedDiagnostics", "--diagnostics", "--init",
	"--generateTrace", "-?",
}

// Caps of bash.tsc. Every error is something to fix, so the list is long;
// the budget decides how many fit. An error's elaboration ("Type 'x' is not
// assignable...", related locations) is bounded so one deep type mismatch
// cannot crowd out the others.
const (
	maxTscDiags     = 100
	maxTscLines     = 8
	maxTscTableRows = 100
)

// Tsc summarizes bash.tsc: the number of errors and of files with errors,
// the distinct error codes, the "Found N errors" line of --pretty, the rows
// of its "Errors  Files" table, and every diagnostic with its elaboration
// and related locations. Code excerpts and blank lines are left out. Both
// the plain form ("src/a.ts(3,7): error TS2322: ...") and the --pretty form
// ("src/a.ts:3:7 - error TS2322: ...") are read, colored or not.
//
// The counts are tsc's own, from the Found line, when there is one: a pipe
// into tail leaves the last diagnostics, the Found line and the table, and
// the diagnostics read are then only some of the errors. The table's rows
// are kept for that case: they name every file with an error.
func Tsc(r *summarize.Run) *summarize.Body {
	out, errs := streamCuts(r)
	c := tscLog{messages: summarize.NewCapped(maxNodeMessages), table: summarize.NewCapped(maxTscTableRows), lead: true,
		cuts: [2]streamCut{out, errs}}
	c.cutStart = c.cuts[0].start
	summarize.ReadStreams(&c, r.Stdout, r.Stderr)
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	switch {
	case !r.Partial():
		// The whole output: tsc's own counts, or what was read when it
		// is more (a run without --pretty prints no Found line; a script
		// may run tsc twice, once without).
		b.Count("errors", max(c.total, c.foundErrors))
		b.Count("files", max(len(c.files), c.foundFiles))
	case c.found != "":
		// A Found line is visible: its counts are tsc's totals of the
		// run; the diagnostics read are some of them.
		b.Count("errors", c.foundErrors)
		if c.foundFiles >= 0 {
			b.Count("files", c.foundFiles)
		} else {
			b.Tally("files", max(len(c.files), c.table.Total))
		}
	default:
		// Only what was seen: the diagnostics read, or the rows of the
		// Errors  Files table, each a file and its errors.
		b.Tally("errors", max(c.total, c.rowErrors))
		b.Tally("files", max(len(c.files), c.table.Total))
	}
	if len(c.codes) > 0 {
		codes := make([]string, 0, len(c.codes))
		for code := range c.codes {
			codes = append(codes, code)
		}
		slices.Sort(codes)
		b.Field("error_codes", strings.Join(codes, " "))
	}
	if c.found != "" {
		b.Field("found", c.found)
	}

	room := r.BodyRoom() - len(b.Render()) - len("diagnostic_lines_omitted: 0000000000\n")
	nTable, size := summarize.FitHead("error_files", c.table.Items, c.table.Total, maxTscTableRows, room)
	room -= size
	summarize.AddHead(b, "error_files", c.table.Items, c.table.Total, nTable)
	items := make([]string, len(c.diags))
	for i, d := range c.diags {
		items[i] = strings.Join(append([]string{d.head}, d.lines...), "\n")
	}
	n, size := summarize.FitHead("diagnostics", items, c.total, maxTscDiags, room)
	nMessages, _ := summarize.FitHead("messages", c.messages.Items, c.messages.Total, maxNodeMessages, room-size)
	summarize.AddHead(b, "diagnostics", items, c.total, n)
	lost := 0
	for _, d := range c.diags[:n] {
		lost += d.lost
	}
	if lost > 0 {
		b.Count("diagnostic_lines_omitted", lost)
	}
	summarize.AddHead(b, "messages", c.messages.Items, c.messages.Total, nMessages)
	return b
}

// tscDiag is one error: its header line and the lines that elaborate it.
type tscDiag struct {
	head  string
	lines []string
	lost  int
	blank bool // a blank line was read: what follows is a code excerpt or related information
}

// tscLog reads tsc's output one line at a time.
type tscLog struct {
	diags    []*tscDiag // the first maxTscDiags, the most the block shows
	total    int        // every diagnostic
	spare    tscDiag    // the diagnostic being read past maxTscDiags: only counted
	files    map[string]bool
	codes    map[string]bool
	found    string
	messages summarize.Capped
	cur      *tscDiag
	table    summarize.Capped // the rows of the "Errors  Files" tables, trimmed
	inTable  bool             // inside the "Errors  Files" table of --pretty
	lead     bool             // no diagnostic, Found line or table yet in the stream: a pipe (tail) may have cut into a code excerpt
	// rowErrors sums the error counts of the table's rows, capped at
	// maxCount.
	rowErrors int
	// cuts says what each stream may lack, stream is the index of the
	// one being read, and cutStart tells that it may lack its start: a
	// row of the table in its lead is then one whose title was cut off.
	cuts     [2]streamCut
	stream   int
	cutStart bool

	// The counts of the Found lines: foundErrors errors in foundFiles
	// files (-1 when a Found line does not say).
	foundErrors, foundFiles int
}

// maxCount bounds a count read from a Found line, so that a sum of them
// cannot overflow.
const maxCount = 1 << 40

// EndStream ends a stream: a diagnostic or table never continues on the
// other, which starts at the margin.
func (c *tscLog) EndStream() {
	c.cur, c.inTable, c.lead = nil, false, true
	c.stream++
	c.cutStart = c.stream < len(c.cuts) && c.cuts[c.stream].start
}

func (c *tscLog) Feed(l string) {
	t := strings.TrimSpace(l)
	switch {
	case l != "" && l[0] != ' ' && isTscError(l):
		c.diag(l)
		c.lead = false
	case strings.HasPrefix(l, "Found ") && strings.Contains(l, " error"):
		c.found, c.cur, c.lead = l, nil, false
		c.countFound(l)
	case t == "Errors  Files":
		c.inTable, c.cur, c.lead = true, nil, false
	case c.inTable && t != "" && l[0] == ' ', c.lead && c.cutStart && isTscTableRow(l):
		// "     3  src/a.ts:1": a file's errors and the line of its first.
		c.inTable, c.lead = true, false
		c.row(t)
	case t == "":
		if c.cur != nil {
			c.cur.blank = true
		}
		c.inTable = false
	case c.cur != nil && (l[0] == ' ' || c.cur.blank && isTscFrame(t)):
		switch {
		case c.cur.blank && isTscFrame(t):
		case len(c.cur.lines) < maxTscLines:
			c.cur.lines = append(c.cur.lines, strings.TrimRight(l, " "))
		default:
			c.cur.lost++
		}
	case c.lead && isTscFrame(t) && !isTscTableRow(l):
		// The rest of a code excerpt whose diagnostic a pipe cut off. A
		// line that could be a row of a table whose title was cut off
		// stays a message.
	default:
		c.cur, c.inTable = nil, false
		c.messages.Add(t)
	}
}

// row keeps a row of the Errors  Files table, t (trimmed), and adds its
// count.
func (c *tscLog) row(t string) {
	c.table.Add(t)
	if n, err := strconv.Atoi(summarize.DigitsPrefix(t)); err == nil && n <= maxCount {
		c.rowErrors = min(c.rowErrors+n, maxCount)
	}
}

// countFound adds the counts of a Found line: "Found 6 errors in 2
// files.", "Found 11 errors in the same file, starting at: src/a.ts:3",
// "Found 1 error in src/a.ts:3", or "Found 4 errors." with no file count.
func (c *tscLog) countFound(l string) {
	rest := strings.TrimPrefix(l, "Found ")
	d := summarize.DigitsPrefix(rest)
	n, err := strconv.Atoi(d)
	rest = rest[len(d):]
	if err != nil || n > maxCount || !strings.HasPrefix(rest, " error") {
		return
	}
	files := -1
	if _, where, ok := strings.Cut(rest, " in "); ok {
		switch f := summarize.DigitsPrefix(where); {
		case len(f) < 10 && f != "" && strings.HasPrefix(where[len(f):], " files"):
			files, _ = strconv.Atoi(f)
		case strings.HasPrefix(where, "the same file") || n == 1:
			files = 1
		}
	}
	c.foundErrors = min(c.foundErrors+n, maxCount)
	if files < 0 || c.foundFiles < 0 {
		c.foundFiles = -1
	} else {
		c.foundFiles += files
	}
}

// diag starts a diagnostic at its header line, noting its file and code.
func (c *tscLog) diag(l string) {
	c.total++
	if len(c.diags) < maxTscDiags {
		c.cur = &tscDiag{head: l}
		c.diags = append(c.diags, c.cur)
	} else {
		c.spare = tscDiag{head: l, lines: c.spare.lines[:0]}
		c.cur = &c.spare
	}
	c.inTable = false
	if c.files == nil {
		c.files, c.codes = map[string]bool{}, map[string]bool{}
	}
	at := strings.Index(l, "error TS")
	code, _, _ := strings.Cut(l[at+len("error "):], ":")
	c.codes[code] = true
	if at > 0 {
		loc := l[:at]
		if i := strings.LastIndexByte(loc, '('); i > 0 && strings.HasSuffix(loc, "): ") {
			c.files[loc[:i]] = true
		} else if i := strings.Index(loc, ":"); i > 0 {
			c.files[loc[:i]] = true
		}
	}
}

// isTscFrame reports whether t (trimmed) is part of a --pretty code
// excerpt: a source line after its line number, or the "~~~" under it.
func isTscFrame(t string) bool {
	if n := len(summarize.DigitsPrefix(t)); n > 0 {
		return n == len(t) || t[n] == ' '
	}
	return onlyOf(t, '~', ' ')
}

// tscTableRow reads a row of the "Errors  Files" table of --pretty, "    14
// src/a.ts:1", and returns its location, the file and the line of its first
// error: what the regexp ^ +\d+  (\S.*:\d+)$ captures.
func tscTableRow(l string) (string, bool) {
	rest := strings.TrimLeft(l, " ")
	d := summarize.DigitsPrefix(rest)
	loc, ok := strings.CutPrefix(rest[len(d):], "  ")
	if len(rest) == len(l) || d == "" || !ok || loc == "" || strings.IndexByte(summarize.RESpace, loc[0]) >= 0 ||
		strings.IndexByte(loc, '\n') >= 0 {
		return "", false
	}
	if path, ok := cutDigitsSuffix(loc, ':'); !ok || path == "" {
		return "", false
	}
	return loc, true
}

// isTscTableRow reports whether l is a row of the "Errors  Files" table.
func isTscTableRow(l string) bool {
	_, ok := tscTableRow(l)
	return ok
}
