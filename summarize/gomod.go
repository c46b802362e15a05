package summarize

import "strings"

// Caps of bash.go_mod.
const (
	maxGoModules     = 100
	maxGoModMessages = 50
	maxGoModOther    = 20
)

// goMod summarizes bash.go_mod (go get, go mod download): the version
// changes go reports, its warnings and errors with their continuation
// lines, and counts of what it fetched. "go: downloading" lines and the
// "# get URL" lines of -x are progress: counted, not listed.
func goMod(r *Run) *Body {
	var m goModLog
	ReadStreams(&m, r.Stderr, r.Stdout)
	b := &Body{}
	b.Field("exit_code", r.ExitCodeValue())
	b.Count("downloads", m.downloads)
	b.Count("fetches", m.fetches)
	b.Count("warnings", len(m.warnings))
	b.Count("errors", len(m.errors))

	room := r.BodyRoom() - len(b.Render())
	errs := joinItems(m.errors)
	nErrs, size := FitList("error_messages", errs, maxGoModMessages, room)
	room -= size
	warns := joinItems(m.warnings)
	nWarns, size := FitList("warning_messages", warns, maxGoModMessages, room)
	room -= size
	mods := joinItems(m.modules)
	nMods, size := FitList("modules", mods, maxGoModules, room)
	room -= size
	other := joinItems(m.other)
	nOther, _ := FitList("other_lines", other, maxGoModOther, room)

	AddList(b, "modules", mods, nMods)
	AddList(b, "warning_messages", warns, nWarns)
	AddList(b, "error_messages", errs, nErrs)
	AddList(b, "other_lines", other, nOther)
	if m.lost > 0 {
		b.Count("continuation_lines_omitted", m.lost)
	}
	return b
}

// goModLog sorts the go command's module lines.
type goModLog struct {
	downloads, fetches int
	modules            [][]string // go: added/upgraded/downgraded/removed/found
	warnings           [][]string // go: warning: ..., go: module ... is deprecated
	errors             [][]string // every other "go: " message
	other              [][]string // lines that are none of these
	last               *[][]string
	lost               int // continuation lines past the cap
}

// EndStream ends a stream: a message never continues on the other.
func (m *goModLog) EndStream() { m.last = nil }

// Feed reads one line: a "go: " message starts an item in its list,
// a tab-indented line continues the last item.
func (m *goModLog) Feed(l string) {
	switch {
	case l == "":
		m.last = nil
		return
	case strings.HasPrefix(l, "# get "):
		m.fetches++
		m.last = nil
		return
	case strings.HasPrefix(l, "go: downloading "):
		m.downloads++
		m.last = nil
		return
	case isGoProgress(l):
		m.last = nil
		return
	case l[0] == '\t' && m.last != nil:
		items := *m.last
		it := &items[len(items)-1]
		if len(*it) > maxGoDiagLines {
			m.lost++
		} else {
			*it = append(*it, l)
		}
		return
	}
	list := &m.other
	if msg, ok := strings.CutPrefix(l, "go: "); ok {
		switch {
		case goHasPrefix(msg, "added ", "upgraded ", "downgraded ", "removed ", "found "):
			list = &m.modules
		case strings.HasPrefix(msg, "warning: ") || strings.Contains(msg, " is deprecated"):
			list = &m.warnings
		default:
			list = &m.errors
		}
	}
	*list = append(*list, []string{l})
	m.last = list
}

func goHasPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// joinItems renders multi-line items as list items.
func joinItems(items [][]string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = strings.Join(it, "\n")
	}
	return out
}
