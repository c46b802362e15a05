package summarize

import (
	"slices"
	"strings"
)

// Caps of bash.tsc. Every error is something to fix, so the list is long;
// the budget decides how many fit. An error's elaboration ("Type 'x' is not
// assignable...", related locations) is bounded so one deep type mismatch
// cannot crowd out the others.
const (
	maxTscDiags = 100
	maxTscLines = 8
)

// tsc summarizes bash.tsc: the number of errors and of files with errors,
// the distinct error codes, the "Found N errors" line of --pretty, and every
// diagnostic with its elaboration and related locations. Code excerpts, the
// "Errors  Files" table of --pretty and blank lines are left out. Both the
// plain form ("src/a.ts(3,7): error TS2322: ...") and the --pretty form
// ("src/a.ts:3:7 - error TS2322: ...") are read, colored or not.
func tsc(r *Run) *Body {
	c := tscLog{messages: newCapped(maxNodeMessages)}
	for _, stream := range [][]byte{r.Stdout, r.Stderr} {
		for l := range r.eachPlainLine(stream) {
			c.feed(l)
		}
		c.cur, c.table = nil, false
	}
	b := &Body{}
	b.Field("exit_code", exitCodeValue(r))
	b.Count("errors", c.total)
	b.Count("files", len(c.files))
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

	room := r.bodyRoom() - len(b.render()) - len("diagnostic_lines_omitted: 0000000000\n")
	items := make([]string, len(c.diags))
	for i, d := range c.diags {
		items[i] = strings.Join(append([]string{d.head}, d.lines...), "\n")
	}
	n, size := fitHead("diagnostics", items, c.total, maxTscDiags, room)
	nMessages, _ := fitHead("messages", c.messages.items, c.messages.total, maxNodeMessages, room-size)
	addHead(b, "diagnostics", items, c.total, n)
	lost := 0
	for _, d := range c.diags[:n] {
		lost += d.lost
	}
	if lost > 0 {
		b.Count("diagnostic_lines_omitted", lost)
	}
	addHead(b, "messages", c.messages.items, c.messages.total, nMessages)
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
	messages capped
	cur      *tscDiag
	table    bool // inside the "Errors  Files" table of --pretty
}

func (c *tscLog) feed(l string) {
	t := strings.TrimSpace(l)
	switch {
	case l != "" && l[0] != ' ' && isTscError(l):
		c.diag(l)
	case strings.HasPrefix(l, "Found ") && strings.Contains(l, " error"):
		c.found, c.cur = l, nil
	case t == "Errors  Files":
		c.table, c.cur = true, nil
	case c.table && t != "" && l[0] == ' ':
		// "     3  src/a.ts:1": a count per file, already in the body.
	case t == "":
		if c.cur != nil {
			c.cur.blank = true
		}
	case c.cur != nil && (l[0] == ' ' || c.cur.blank && isTscFrame(t)):
		switch {
		case c.cur.blank && isTscFrame(t):
		case len(c.cur.lines) < maxTscLines:
			c.cur.lines = append(c.cur.lines, strings.TrimRight(l, " "))
		default:
			c.cur.lost++
		}
	default:
		c.cur, c.table = nil, false
		c.messages.add(t)
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
	c.table = false
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
	if n := len(digitsPrefix(t)); n > 0 {
		return n == len(t) || t[n] == ' '
	}
	return onlyOf(t, '~', ' ')
}
