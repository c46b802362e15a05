package lint

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// What the three linters share: a finding is a location, a rule and a
// message, and the body groups them by rule (with example locations) and
// by file, whatever tool printed them. Each rule reads its tool's lines
// into a report and adds the tool's own summary fields.

// Caps of the lint rules' bodies.
const (
	// maxRuleLocs is the most locations the item of a rule with
	// error-level findings lists, and maxExampleLocs that of the others:
	// an error's location is where the code cannot run, a style note's
	// are examples of one fix (by_file says where the rest are). The
	// budget may make them fewer, the same for every rule (fitRules).
	maxRuleLocs    = 50
	maxExampleLocs = 10
	maxFiles       = 100
	maxMessages    = 30 // lines of the tool's own: the first 10 and the last 20
	headMessages   = 10
	maxToolStats   = 100 // lines of the tool's own counts (--statistics, golangci-lint's per-linter counts)
	// locsWidth is the width past which a rule's locations in one file go
	// on a new line.
	locsWidth = 100
)

// finding is one problem a linter reported, read from its line.
type finding struct {
	file  string // the path, as printed
	loc   string // "PATH:LINE:COL" (or "PATH:LINE"), as printed
	rule  string // flake8's code, pylint's message id, golangci-lint's linter
	msg   string // the message, as printed
	line  string // the finding's (first) line, as printed
	error bool   // an error-level finding (docs/format.md, lint rules)
}

// ruleGroup is the findings of one rule.
type ruleGroup struct {
	key    string // the rule as findings name it (finding.rule)
	label  string // as the block names it: key, or pylint's "C0116 missing-function-docstring"
	count  int
	errors int      // error-level findings
	msg    string   // the first finding's message
	locs   []string // the first maxRuleLocs locations
	lines  []string // the line of each of locs, when the rule is error-level
	files  []string // the file of each of locs
	first  int      // the rule's rank by its first finding
}

// name sets the label the block shows the rule under to its key and
// name ("C0116 missing-function-docstring").
func (g *ruleGroup) name(name string) { g.label = g.key + " " + name }

// fileGroup is the findings in one file.
type fileGroup struct {
	path  string
	count int
}

// report gathers a linter's findings by rule and by file, and the lines
// of the tool's own that are neither (usage errors, a crash).
type report struct {
	findings, errors int
	rules            []*ruleGroup
	byRule           map[string]*ruleGroup
	lastRule         *ruleGroup
	lastKey          string
	files            []*fileGroup
	byFile           map[string]*fileGroup
	lastFile         *fileGroup
	messages         excerpt
}

func newReport() *report {
	return &report{byRule: map[string]*ruleGroup{}, byFile: map[string]*fileGroup{},
		messages: excerpt{head: headMessages, tail: maxMessages - headMessages}}
}

// add counts f and returns its rule's group. Linters print a file's
// findings together, often of one rule: a run of the same rule or file
// costs a comparison, not a hash.
func (rep *report) add(f finding) *ruleGroup {
	rep.findings++
	g := rep.lastRule
	if g == nil || f.rule != rep.lastKey {
		g = rep.byRule[f.rule]
		if g == nil {
			g = &ruleGroup{key: f.rule, label: f.rule, msg: f.msg, first: len(rep.rules)}
			rep.byRule[f.rule] = g
			rep.rules = append(rep.rules, g)
		}
		rep.lastRule, rep.lastKey = g, f.rule
	}
	g.count++
	if f.error {
		g.errors++
		rep.errors++
	}
	if len(g.locs) < maxRuleLocs {
		g.locs = append(g.locs, f.loc)
		g.files = append(g.files, f.file)
		if f.error {
			g.lines = append(g.lines, f.line)
		}
	}
	fg := rep.lastFile
	if fg == nil || fg.path != f.file {
		fg = rep.byFile[f.file]
		if fg == nil {
			fg = &fileGroup{path: f.file}
			rep.byFile[f.file] = fg
			rep.files = append(rep.files, fg)
		}
		rep.lastFile = fg
	}
	fg.count++
	return g
}

// other keeps a line that is no finding and none of the tool's framing.
func (rep *report) other(l string) { rep.messages.add(l) }

// render adds the report to b: the counts, the rules with their
// locations, the files, and the tool's other lines, fitted to what the
// budget leaves after b's fields.
func (rep *report) render(r *summarize.Run, b *summarize.Body) {
	b.Tally("findings", rep.findings)
	b.Tally("errors", rep.errors)
	b.Tally("files", len(rep.files))

	seen := ""
	if r.Partial() {
		seen = " seen"
	}
	room := r.BodyRoom() - len(b.Render()) - partialRoom(r) - len("locations_omitted: 0000000000\n")

	messages := rep.messages.items()
	nMessages, size := summarize.FitList("messages", messages, maxMessages, room/4)
	messagesLost := rep.messages.lost()
	if messagesLost > 0 {
		size += len("messages_lines_omitted: 0000000000\n")
	}
	room -= size

	files := make([]string, min(len(rep.files), maxFiles))
	for i := range files {
		f := rep.files[i]
		files[i] = f.path + ": " + strconv.Itoa(f.count) + seen
	}
	nFiles, size := summarize.FitHead("by_file", files, len(rep.files), maxFiles, room/4)
	room -= size

	items, nRules, lost := rep.fitRules(room, seen)
	summarize.AddList(b, "by_rule", items, nRules)
	if lost > 0 {
		b.Count("locations_omitted", lost)
	}
	summarize.AddHead(b, "by_file", files, len(rep.files), nFiles)
	summarize.AddHead(b, "messages", messages, len(messages), nMessages)
	if messagesLost > 0 {
		b.Count("messages_lines_omitted", messagesLost)
	}
}

// partialRoom is what Block adds to the body of a cut output: its
// cut_by and lines_seen lines, and "_seen" after each tally.
func partialRoom(r *summarize.Run) int {
	if !r.Partial() {
		return 0
	}
	n := 3 * len("_seen")
	if len(r.Cut.By) > 0 {
		n += len("cut_by: \n") + len(strings.Join(r.Cut.By, " | ")) + len("lines_seen: 0000000000\n")
	}
	return n
}

// fitRules renders the rules' items, rules with error-level findings
// first, then by count, then in the order of their first finding: each
// with as many locations as the room allows, the same number for every
// rule, at most maxExampleLocs (the rules with errors keep maxRuleLocs
// when that leaves the others at least one). It returns the items, how many of
// them fit (the rest are counted by by_rule_omitted), and the number of
// findings whose location no item shows.
func (rep *report) fitRules(room int, seen string) (items []string, n, lost int) {
	order := slices.Clone(rep.rules)
	slices.SortStableFunc(order, func(a, b *ruleGroup) int {
		if c := cmp.Compare(min(b.errors, 1), min(a.errors, 1)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.count, a.count); c != 0 {
			return c
		}
		return cmp.Compare(a.first, b.first)
	})
	// build renders every item with c locations at most, or
	// maxRuleLocs for the rules with errors when errorsFull, and says how
	// many each shows.
	build := func(c int, errorsFull bool) ([]string, []int) {
		out, ks := make([]string, len(order)), make([]int, len(order))
		for i, g := range order {
			k := c
			if errorsFull && g.errors > 0 {
				k = maxRuleLocs
			}
			ks[i] = min(k, len(g.locs))
			out[i] = g.item(ks[i], seen)
		}
		return out, ks
	}
	fits := func(items []string) bool {
		size := len("by_rule:\n")
		for _, it := range items {
			size += summarize.ItemSize(it)
		}
		return size <= room
	}
	// The largest c in [1, maxExampleLocs] for which every item fits.
	best := func(errorsFull bool) ([]string, []int) {
		lo, hi := 0, maxExampleLocs
		var found []string
		var shown []int
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if it, ks := build(mid, errorsFull); fits(it) {
				lo, found, shown = mid, it, ks
			} else {
				hi = mid - 1
			}
		}
		return found, shown
	}
	items, shown := best(true)
	if items == nil {
		items, shown = best(false)
	}
	if items == nil {
		items, shown = build(1, false)
	}
	n, _ = summarize.FitList("by_rule", items, len(items), room)
	for i, g := range order {
		if i < n {
			lost += g.count - shown[i]
		} else {
			lost += g.count
		}
	}
	return items, n, lost
}

// item renders the rule with its first k locations: "LABEL: COUNT", its
// first message, the locations (those in one file on a line, at most
// locsWidth wide), and "[N more locations]" for the findings it leaves
// out. An error-level rule's findings are each shown as the tool printed
// them, one a line: an undefined name is its own error, with its own
// message, not another instance of the first.
func (g *ruleGroup) item(k int, seen string) string {
	var sb strings.Builder
	sb.WriteString(g.label)
	sb.WriteString(": ")
	sb.WriteString(strconv.Itoa(g.count))
	sb.WriteString(seen)
	if g.errors > 0 {
		for i := range k {
			sb.WriteString("\n")
			sb.WriteString(g.lines[i])
		}
	} else {
		if g.msg != "" {
			sb.WriteString("\n")
			sb.WriteString(g.msg)
		}
		width := 0
		for i := range k {
			if i == 0 || g.files[i] != g.files[i-1] || width+1+len(g.locs[i]) > locsWidth {
				sb.WriteString("\n")
				width = 0
			} else {
				sb.WriteString(" ")
				width++
			}
			sb.WriteString(g.locs[i])
			width += len(g.locs[i])
		}
	}
	if rest := g.count - k; rest > 0 {
		sb.WriteString("\n[")
		sb.WriteString(strconv.Itoa(rest))
		sb.WriteString(" more locations]")
	}
	return sb.String()
}

// excerpt keeps the first head and the last tail lines of a sequence, and
// counts the others.
type excerpt struct {
	head, tail int
	first      []string
	last       []string // a ring of the last tail lines once first is full
	next       int      // where the ring writes next
	total      int
}

func (e *excerpt) add(l string) {
	e.total++
	switch {
	case len(e.first) < e.head:
		e.first = append(e.first, l)
	case len(e.last) < e.tail:
		e.last = append(e.last, l)
	default:
		e.last[e.next] = l
		e.next = (e.next + 1) % e.tail
	}
}

// items returns the lines kept, in the order they came.
func (e *excerpt) items() []string {
	out := append([]string(nil), e.first...)
	out = append(out, e.last[e.next:]...)
	return append(out, e.last[:e.next]...)
}

// lost is the number of lines between the first and the last ones kept.
func (e *excerpt) lost() int { return e.total - len(e.first) - len(e.last) }
