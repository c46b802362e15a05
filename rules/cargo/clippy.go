package cargo

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchClippy recognizes cargo clippy. --fix edits the sources and reports
// each file it fixed on status lines the lint summary does not keep;
// --timings as for cargo build. Lint options after "--" (-D warnings,
// -W clippy::pedantic) keep the format.
func MatchClippy(argv []string) classify.Answer { return matchSub(argv, "clippy", clippyFormats) }

var clippyFormats = slices.Concat(formats, []string{"--fix", "--timings"})

// Caps of cargo_clippy. A lint typically fires many times with the same
// message, so its diagnostics are grouped; an error group lists far more
// of them than a warning group, as cargo's own diagnostics list does.
const (
	maxErrorItems      = 50 // error items (lint groups and other errors)
	maxWarningItems    = 30 // warning items, shown only when every error item is
	maxErrorsPerLint   = 50
	maxWarningsPerLint = 10
	maxWarningSummary  = 20
)

// Clippy summarizes bash.cargo_clippy: the build fields of cargo check
// (cargoLog reads clippy's output as it reads rustc's: a lint is a warning
// or error diagnostic), cargo's "generated N warnings" lines, which carry
// the cargo clippy --fix command to run, and the diagnostics grouped by
// lint: one item per lint, errors (deny-level lints) first, with every
// message it printed and every location, up to a cap that is counted.
// Diagnostics that name no lint (compiler errors; a rustc lint after its
// first occurrence, which alone says its name) get one item each, as in
// cargo check.
func Clippy(r *summarize.Run) *summarize.Body {
	sc := cutOf(r)
	cr := clippyReader{unplaced: newUnplaced(sc)}
	summarize.ReadStreams(&cr, r.Stderr, r.Stdout)
	c := &cr.cargo

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	c.addBuildFields(b, sc)
	b.List("warning_summaries", cr.summaries, maxWarningSummary)
	cr.unplaced.add(b)

	items, limit, cut := lintItems(c, cr.names)
	n, _ := summarize.FitList("diagnostics", items, limit, r.BodyRoom()-len(b.Render())-summarize.OmittedSize("lint_diagnostics_omitted", cut.total))
	summarize.AddList(b, "diagnostics", items, n)
	if shown := cut.upTo(n); shown > 0 {
		b.Count("lint_diagnostics_omitted", shown)
	}
	return b
}

// clippyReader reads cargo clippy's output into the cargo log, with the
// lint each diagnostic is about and the "generated N warnings" summaries.
type clippyReader struct {
	cargo     cargoLog
	names     []string // per diagnostic of cargo: its lint's name, or ""
	summaries []string
	unplaced  unplacedLines
}

func (c *clippyReader) Feed(l string) {
	c.unplaced.see(l, isCargoAnchor(l))
	n := len(c.cargo.diags)
	c.cargo.Feed(l)
	switch {
	case len(c.cargo.diags) > n:
		c.names = append(c.names, "")
	case strings.HasPrefix(l, "warning: `") && strings.Contains(l, ") generated "):
		c.summaries = append(c.summaries, l)
	case len(c.names) > 0:
		if name := lintName(l); name != "" {
			c.names[len(c.names)-1] = betterLintName(c.names[len(c.names)-1], name)
		}
	}
}

func (c *clippyReader) EndStream() {
	c.cargo.EndStream()
	c.unplaced.endStream()
}

// lintName returns the lint named by one line of a diagnostic, or "":
// clippy's "= help: for further information visit .../index.html#NAME",
// and rustc's and clippy's level notes "= note: `#[warn(NAME)]` on by
// default" and "= help: to override `-D warnings` add `#[allow(NAME)]`".
// The names are copied from the output: "needless_return" from a link,
// "clippy::needless_return" from an attribute.
func lintName(l string) string {
	// Every such line is "= ..." after its indentation: most lines are
	// ruled out at their first byte past it.
	i := 0
	for i < len(l) && (l[i] == ' ' || '\t' <= l[i] && l[i] <= '\r') {
		i++
	}
	if i == len(l) || l[i] != '=' && l[i] < utf8.RuneSelf {
		return ""
	}
	t := strings.TrimSpace(l)
	switch {
	case strings.HasPrefix(t, "= help: for further information visit ") && strings.Contains(t, "rust-clippy"):
		if i := strings.LastIndexByte(t, '#'); i >= 0 && i+1 < len(t) {
			return t[i+1:]
		}
	case strings.HasPrefix(t, "= note: `#[") || strings.HasPrefix(t, "= help: to override "):
		if _, rest, ok := strings.Cut(t, "`#["); ok {
			if _, name, ok := strings.Cut(rest, "("); ok {
				if name, _, ok := strings.Cut(name, ")]`"); ok && !strings.ContainsAny(name, " ,()") {
					return name
				}
			}
		}
	}
	return ""
}

// betterLintName keeps the fuller of two names of one lint: an attribute's
// "clippy::x" over a link's "x".
func betterLintName(have, found string) string {
	if have == "" || strings.Contains(found, "::") && !strings.Contains(have, "::") {
		return found
	}
	return have
}

// lintKey is what groups diagnostics: the lint's name without its tool
// prefix, so that "clippy::ptr_arg" and "ptr_arg" are one lint.
func lintKey(name string) string {
	return strings.TrimPrefix(name, "clippy::")
}

// lintGroup is one item of the diagnostics list: a lint and the
// diagnostics it printed at one level, or a single diagnostic that names
// no lint.
type lintGroup struct {
	name    string // "" for a single diagnostic
	isError bool
	heads   []string            // distinct messages, in order
	locs    map[string][]string // each message's diagnostics: "-->" line, or "" without one
	count   int
}

// lintCut counts, per item of the list, the diagnostics its item leaves
// out (past the group's cap), so that the count of the items shown is
// exact whatever the budget keeps.
type lintCut struct {
	perItem []int
	total   int
}

// upTo returns the diagnostics left out by the first n items.
func (c lintCut) upTo(n int) int {
	sum := 0
	for _, k := range c.perItem[:n] {
		sum += k
	}
	return sum
}

// lintItems groups the diagnostics and renders the items, errors first,
// each level in the order of its first diagnostic. The limit is the
// cargo check rule's: every error item up to its cap, then warning items
// only when all error items are shown, so that what is left out is always
// the tail.
func lintItems(c *cargoLog, names []string) ([]string, int, lintCut) {
	var groups []*lintGroup
	type groupKey struct {
		lint    string
		isError bool
	}
	byKey := map[groupKey]*lintGroup{}
	for i, d := range c.diags {
		var g *lintGroup
		if names[i] != "" {
			key := groupKey{lintKey(names[i]), d.isError}
			g = byKey[key]
			if g == nil {
				g = &lintGroup{isError: d.isError, locs: map[string][]string{}}
				byKey[key] = g
				groups = append(groups, g)
			}
			g.name = betterLintName(g.name, names[i])
		} else {
			g = &lintGroup{isError: d.isError, locs: map[string][]string{}}
			groups = append(groups, g)
		}
		locs, ok := g.locs[d.head]
		if !ok {
			g.heads = append(g.heads, d.head)
		}
		if len(locs) < g.limit() {
			// A message's diagnostics past the group's cap are never
			// shown, whatever the other messages: only counted.
			g.locs[d.head] = append(locs, d.loc)
		}
		g.count++
	}
	var items []string
	var cut lintCut
	errors := 0
	for _, wantErrors := range []bool{true, false} {
		for _, g := range groups {
			if g.isError != wantErrors {
				continue
			}
			it, left := g.render()
			items = append(items, it)
			cut.perItem = append(cut.perItem, left)
			cut.total += left
			if g.isError {
				errors++
			}
		}
	}
	limit := min(errors, maxErrorItems)
	if limit == errors {
		limit += min(len(items)-errors, maxWarningItems)
	}
	return items, limit, cut
}

// limit is how many diagnostics the group's item shows.
func (g *lintGroup) limit() int {
	if g.isError {
		return maxErrorsPerLint
	}
	return maxWarningsPerLint
}

// render returns the group's item and how many of its diagnostics it
// leaves out. A lint's item is its name, then each message followed by
// the locations of the diagnostics that printed it, up to the group's
// cap, then "[N more diagnostics not shown]" when the cap bit. A single
// diagnostic's item is its message and location, as in cargo check.
func (g *lintGroup) render() (string, int) {
	limit := g.limit()
	var ls []string
	if g.name != "" {
		ls = append(ls, g.name)
	}
	shown := 0
	for _, h := range g.heads {
		if shown == limit {
			break
		}
		ls = append(ls, h)
		for _, loc := range g.locs[h] {
			if shown == limit {
				break
			}
			if loc != "" {
				ls = append(ls, loc)
			}
			shown++
		}
	}
	left := g.count - shown
	if left > 0 {
		ls = append(ls, "["+strconv.Itoa(left)+" more diagnostics not shown]")
	}
	return strings.Join(ls, "\n"), left
}
