package python

import (
	"strings"
	"unicode"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// isPyMustKeep matches the lines that report a failure on their own in
// the python tools' output, which every python rule keeps from stderr:
// pip's and pytest's "ERROR: ", mypy's "mypy: " fatal errors, and the
// "error: " and "fatal: " lines (IsErrorLine) the cargo and git finders
// require.
func isPyMustKeep(l string) bool {
	if l == "" {
		return false
	}
	switch l[0] { // most lines are ruled out by their first byte
	case 'E':
		return strings.HasPrefix(l, "ERROR: ")
	case 'm':
		return strings.HasPrefix(l, "mypy: ")
	case 'e', 'f':
		return summarize.IsErrorLine(l)
	}
	return false
}

// pyExcerpt copies from the non-blank lines ls those that keep matches (at
// most maxKeep) and the last tail ones, in order. It is for streams a rule
// does not otherwise parse: the end of a traceback or of a usage error says
// what went wrong, and lines that report a failure on their own must
// survive wherever they are. lost counts the lines left out: every other
// non-blank line when there is a tail, else the matching lines past
// maxKeep.
func pyExcerpt(ls []string, keep func(string) bool, maxKeep, tail int) (kept []string, lost int) {
	if tail == 0 {
		// Only the matching lines count: the others need not be read
		// twice, nor told blank.
		for _, l := range ls {
			if keep(l) && strings.TrimSpace(l) != "" {
				if len(kept) < maxKeep {
					kept = append(kept, l)
				} else {
					lost++
				}
			}
		}
		return kept, lost
	}
	return pyExcerptAll(ls, keep, maxKeep, tail)
}

// pyExcerptAll is pyExcerpt reading every line, for any tail.
func pyExcerptAll(ls []string, keep func(string) bool, maxKeep, tail int) (kept []string, lost int) {
	nonBlank := 0
	for _, l := range ls {
		if strings.TrimSpace(l) != "" {
			nonBlank++
		}
	}
	i, matched := 0, 0
	for _, l := range ls {
		if strings.TrimSpace(l) == "" {
			continue
		}
		i++
		switch {
		case i > nonBlank-tail:
			kept = append(kept, l)
		case keep(l):
			matched++
			if matched <= maxKeep {
				kept = append(kept, l)
			} else if tail == 0 {
				lost++
			}
		}
	}
	if tail > 0 {
		lost = nonBlank - len(kept)
	}
	return kept, lost
}

// pyExcerptSize is the rendered size of addPyExcerpt's fields.
func pyExcerptSize(key string, items []string, lost int) int {
	if len(items) == 0 {
		return 0
	}
	n := len(key) + 2
	for _, it := range items {
		n += summarize.ItemSize(it)
	}
	if lost > 0 {
		n += summarize.OmittedSize(key+"_lines", lost)
	}
	return n
}

// addPyExcerpt adds an excerpt as a list, one line per item, and the number
// of lines it left out as KEY_lines_omitted.
func addPyExcerpt(b *summarize.Body, key string, items []string, lost int) {
	if len(items) == 0 {
		return
	}
	b.List(key, items, 0)
	if lost > 0 {
		b.Count(key+"_lines_omitted", lost)
	}
}

// tailLines keeps the last pyTailLines lines it is given and counts the
// others, in constant memory.
type tailLines struct {
	lines []string
	lost  int
}

func (t *tailLines) add(l string) {
	if len(t.lines) == pyTailLines {
		copy(t.lines, t.lines[1:])
		t.lines[len(t.lines)-1] = l
		t.lost++
		return
	}
	t.lines = append(t.lines, l)
}

const pyTracebackHeader = "Traceback (most recent call last):"

// pyTraceback follows the tracebacks Python prints itself: a "Traceback
// (most recent call last):" line, its frames indented under it, and the
// exception line that ends it at the header's indentation; and the "Error
// processing line N of F.pth:" line site.py prints before one at start-up.
// Those lines say what failed: a block keeps them (issue 21: a .pth error
// printed before pytest's session started was dropped under a summary
// that said the tests passed).
type pyTraceback struct {
	open   bool
	indent int // the open header's
}

// report reads the next line and reports whether it is one to keep: a
// header, the exception line that ends the traceback, or site.py's line.
func (t *pyTraceback) report(l string) bool {
	trimmed := strings.TrimLeft(l, " ")
	indent := len(l) - len(trimmed)
	trimmed = strings.TrimRight(trimmed, " ")
	switch {
	case trimmed == pyTracebackHeader:
		t.open, t.indent = true, indent
		return true
	case strings.HasPrefix(l, "Error processing line "):
		return true
	case t.open && trimmed != "" && indent <= t.indent:
		t.open = false
		return isPyException(trimmed)
	}
	return false
}

// candidate reports whether report could act on l, from checks that cost a
// few bytes: a header or site.py's line, or, in a traceback, a line no
// deeper than its header.
func (t *pyTraceback) candidate(l string) bool {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	if i == len(l) {
		return false
	}
	return l[i] == 'T' && strings.HasPrefix(l[i:], pyTracebackHeader) || l[0] == 'E' && strings.HasPrefix(l, "Error processing line ") ||
		t.open && i <= t.indent
}

// isPyException reports whether t is an exception line: a dotted name,
// then nothing or ": " and the message ("ModuleNotFoundError: No module
// named 'x'", "json.decoder.JSONDecodeError: ...", "KeyboardInterrupt").
func isPyException(t string) bool {
	name, _, _ := strings.Cut(t, ": ")
	if name == "" || strings.HasSuffix(name, ".") {
		return false
	}
	for i, c := range name {
		if c != '_' && c != '.' && !unicode.IsLetter(c) && (i == 0 || !unicode.IsDigit(c)) {
			return false
		}
	}
	return name[0] != '.'
}
