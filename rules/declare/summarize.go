package declare

import (
	"fmt"

	"github.com/shrinkrun/shrinkrun/classify"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Summarize is the rule's summarizer (rules.Rule.Summarize). Past MaxWork
// it gives up, as a rule that fails does (docs/rules.md, Cost). It reads every
// line of stdout, then of stderr, and gives each to the first [[lines]]
// entry whose pattern matches it, or to [other] when none does. A list
// keeps its first (or last) max lines and counts the rest in its _omitted
// line; a count is a tally (KEY_seen behind a cut, as every count of lines
// is); a field copies its first or last line; drop keeps nothing. A blank
// line goes to no list and no field. The fields come in the file's order,
// [other] last; what a line says is copied, never rewritten.
func (r *Rule) Summarize(run *summarize.Run) *summarize.Body {
	if err := r.compile(); err != nil {
		panic(err) // Match refused the command: never reached
	}
	entries := r.entries
	if r.other != nil {
		entries = append(entries[:len(entries):len(entries)], *r.other)
	}
	got := make([]collected, len(entries))
	w := &work{}
	for _, stream := range [][]byte{run.Stdout, run.Stderr} {
		for l := range summarize.EachLine(stream) {
			i := r.entryOf(l, w)
			if i < 0 {
				continue
			}
			got[i].add(l, &entries[i])
		}
	}
	b := &summarize.Body{}
	for i, e := range entries {
		g := &got[i]
		switch e.keep {
		case keepCount:
			b.Tally(e.name, g.n)
		case keepField:
			if g.field != "" {
				b.Field(e.name, strings.TrimSpace(g.field))
			}
		case keepList:
			items := g.items
			if len(items) > e.max && e.last {
				items = items[len(items)-e.max:]
			} else if len(items) > e.max {
				items = items[:e.max]
			}
			if e.tally != "" {
				b.Tally(e.tally, g.total)
			}
			b.ListHead(e.name, items, g.total)
		}
	}
	return b
}

// entryOf returns the index of the entry that takes line l: the first
// [[lines]] entry that matches it, or [other] (the last index) when none
// does; -1 when nothing takes it. w counts the work.
func (r *Rule) entryOf(l string, w *work) int {
	for i := range r.entries {
		if w.match(r.entries[i].pattern, l) {
			return i
		}
	}
	if r.other != nil {
		return len(r.entries)
	}
	return -1
}

// collected is what one entry took of the output.
type collected struct {
	n     int      // lines matched (blank ones too)
	total int      // a list's lines: those not blank, each once for a unique list
	items []string // the first max of them, or all for a list that keeps its last
	seen  map[string]bool
	field string
}

func (c *collected) add(l string, e *entry) {
	c.n++
	if e.keep == keepCount || e.keep == keepDrop || strings.TrimSpace(l) == "" {
		return
	}
	if e.keep == keepField {
		if c.field == "" || e.last {
			c.field = l
		}
		return
	}
	if e.unique {
		if c.seen[l] {
			return
		}
		if c.seen == nil {
			c.seen = map[string]bool{}
		}
		c.seen[l] = true
	}
	c.total++
	if e.last || len(c.items) < e.max {
		c.items = append(c.items, l)
	}
}

// Find is the finder of the rule's failures (summarize.Finder): every line
// one of its failure patterns matches is required in the block, whole and
// trimmed, or counted by an _omitted line; otherwise the boundary check
// replaces the body with the failure lines. Past MaxWork it gives up, and
// with it the block (the core prints the raw output).
func (r *Rule) Find(_ *summarize.Run, streams []summarize.Stream) {
	if r.compile() != nil || r.failures == nil {
		return
	}
	w := &work{}
	for _, s := range streams {
		for at, l := range s.Lines {
			if r.failing(l, w) {
				s.Require(l, l, at)
			}
		}
	}
}

// Env is the rule's rules.Rule.Env: a rule whose tool translates the
// messages it reads (translated = true) passes through in a locale that
// would translate them, as the git rules do.
func (r *Rule) Env(_ []string, getenv func(string) string) string {
	if !r.Translated {
		return ""
	}
	if name, value, translated := classify.Translated(getenv); translated {
		return fmt.Sprintf("%s=%s translates the messages rule %s reads", name, value, r.ID)
	}
	return ""
}

// failing reports whether one of the rule's failure patterns matches l.
func (r *Rule) failing(l string, w *work) bool {
	for _, p := range r.failures {
		if w.match(p, l) {
			return true
		}
	}
	return false
}
