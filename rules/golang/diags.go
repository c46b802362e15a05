package golang

import (
	"strings"
)

// This file reads what the go command and the compiler print about packages
// that do not build: go_build, go_vet and the build step of go_test.
// Patterns come from real go 1.26 output (testdata/go.sh).

// Caps of the go rules' diagnostics.
const (
	// maxGoDiags bounds the build diagnostics listed; the compiler stops
	// at ten errors a package, so fifty covers several broken packages.
	maxGoDiags = 50
	// maxGoDiagLines bounds the continuation lines of one diagnostic
	// (have/want, import chains, vet -c context).
	maxGoDiagLines = 8
)

// goDiags collects build diagnostics: each is a message line at column 0
// with the tab-indented lines under it, and the "# pkg" header lines that
// go prints before the first message of each package stay with that
// message, so the list reads grouped by package as the raw output does.
// Only the items a list can show are kept: past maxGoDiags they are
// counted, and their lines let go.
type goDiags struct {
	items    [][]string // the first maxGoDiags items
	total    int        // every item, kept or not
	body     int        // the last item's lines but its headers
	errors   int        // items whose message has a file.go:line location
	messages int        // items whose message has none
	headers  int        // runs of "# " header lines: one per package reported
	pending  []string
	open     bool // the last item takes continuation lines
	lost     int  // continuation lines left out of their item
	// cutStart tells that the output may lack its start (tail, grep): the
	// continuation lines it begins with are an item of their own whose
	// message was cut, counted neither as an error nor as a message.
	cutStart bool
}

// header records a "# pkg" line (vet prints two: "# pkg" and "# [pkg]").
func (d *goDiags) header(l string) {
	if len(d.pending) == 0 {
		d.headers++
	}
	d.pending = append(d.pending, l)
	d.open = false
}

// message starts a new item with l.
func (d *goDiags) message(l string) {
	if d.keeps() {
		d.items = append(d.items, append(d.pending, l))
		d.pending = nil
	}
	d.endItem()
	d.body = 1
	d.open = true
	// The compiler's "too many errors" notice carries the location of the
	// last error it reported; it is not an error of its own.
	if goLocation(l) != "" && !strings.HasSuffix(l, ": too many errors") {
		d.errors++
	} else {
		d.messages++
	}
}

// keeps reports whether the next item is kept.
func (d *goDiags) keeps() bool {
	return len(d.items) < maxGoDiags
}

// endItem counts an item and empties pending, which a kept item took.
func (d *goDiags) endItem() {
	d.total++
	d.pending = d.pending[:0]
}

// continues reports whether l continues the last item: a tab-indented line,
// or a "12\tsource" context line of go vet -c.
func (d *goDiags) continues(l string) bool {
	if !d.open || l == "" {
		return false
	}
	if l[0] == '\t' {
		return true
	}
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && i < len(l) && l[i] == '\t'
}

// cont appends a continuation line to the last item, within its cap.
// Headers and messages start with neither a tab nor a digit, so the last
// item's lines are its headers, its message and its continuation lines.
func (d *goDiags) cont(l string) {
	if d.body > maxGoDiagLines {
		d.lost++
		return
	}
	d.body++
	if d.total == len(d.items) {
		last := &d.items[len(d.items)-1]
		*last = append(*last, l)
	}
}

// list renders the kept items, the first maxGoDiags of d.total, as list
// items.
func (d *goDiags) list() []string {
	items := make([]string, len(d.items))
	for i, it := range d.items {
		items[i] = strings.Join(it, "\n")
	}
	return items
}

// Feed reads one line of go build or go vet output.
func (d *goDiags) Feed(l string) {
	switch {
	case l == "":
		d.open = false
	case strings.HasPrefix(l, "# "):
		d.header(l)
	case d.continues(l):
		d.cont(l)
	case isGoProgress(l):
	case d.cutStart && d.total == 0 && len(d.pending) == 0 && l[0] == '\t':
		d.items = append(d.items, []string{l})
		d.endItem()
		d.body, d.open = 1, true
	default:
		d.message(l)
	}
}

// EndStream makes a header that no message followed an item of its own.
func (d *goDiags) EndStream() {
	if len(d.pending) > 0 {
		if d.keeps() {
			d.items = append(d.items, d.pending)
			d.pending = nil
		}
		d.endItem()
	}
	d.open = false
}

// isGoProgress matches the go command's download progress, which says
// nothing about the result.
func isGoProgress(l string) bool {
	return strings.HasPrefix(l, "go: downloading ") || strings.HasPrefix(l, "go: extracting ") ||
		strings.HasPrefix(l, "go: finding ")
}

// goLocation returns the "file.go:line[:col]" a compiler or vet message
// starts with ("vet: " may come first), or "".
func goLocation(l string) string {
	s := strings.TrimPrefix(l, "vet: ")
	i := strings.Index(s, ".go:")
	if i <= 0 || hasGoBlank(s[:i]) {
		return ""
	}
	end := i + 3
	for part := 0; part < 2; part++ {
		j := end + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == end+1 || j >= len(s) || s[j] != ':' {
			break
		}
		end = j
	}
	if end == i+3 || !strings.HasPrefix(s[end:], ": ") {
		return ""
	}
	return s[:end]
}

// goIndentOf returns the length of the spaces and tabs l starts with.
// strings.TrimLeft with a cutset of two builds the set on every call.
func goIndentOf(l string) int {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	return i
}

// hasGoBlank reports whether s holds a space or a tab, as
// strings.ContainsAny(s, " \t") does without building a set per call.
func hasGoBlank(s string) bool {
	return strings.IndexByte(s, ' ') >= 0 || strings.IndexByte(s, '\t') >= 0
}
