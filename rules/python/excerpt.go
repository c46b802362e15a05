package python

import (
	"strings"

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
