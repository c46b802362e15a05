package golang

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchMod recognizes go get and go mod download but with -json, which
// prints the modules as JSON.
func MatchMod(argv []string) classify.Answer {
	switch {
	case len(argv) > 1 && argv[1] == "get":
		return matchFlags(argv, 2, modFormats, false)
	case len(argv) > 1 && argv[1] == "mod":
		if len(argv) < 3 || argv[2] != "download" {
			return classify.Refuse(min(2, len(argv)-1), "not a recognized command")
		}
		return matchFlags(argv, 3, modFormats, false)
	}
	a, _ := matchSub(argv, "mod")
	return a
}

var modFormats = []string{"-json"}

// Caps of bash.go_mod.
const (
	maxGoModules     = 100
	maxGoModMessages = 50
	maxGoModOther    = 20
)

// Mod summarizes bash.go_mod (go get, go mod download): the version
// changes go reports, its warnings and errors with their continuation
// lines, and counts of what it fetched. "go: downloading" lines and the
// "# get URL" lines of -x are progress: counted, not listed.
func Mod(r *summarize.Run) *summarize.Body {
	var m goModLog
	summarize.ReadStreams(&m, r.Stderr, r.Stdout)
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	b.Tally("downloads", m.downloads)
	b.Tally("fetches", m.fetches)
	b.Tally("warnings", len(m.warnings))
	b.Tally("errors", len(m.errors))

	room := r.BodyRoom() - len(b.Render())
	errs := joinItems(m.errors)
	nErrs, size := summarize.FitList("error_messages", errs, maxGoModMessages, room)
	room -= size
	warns := joinItems(m.warnings)
	nWarns, size := summarize.FitList("warning_messages", warns, maxGoModMessages, room)
	room -= size
	mods := joinItems(m.modules)
	nMods, size := summarize.FitList("modules", mods, maxGoModules, room)
	room -= size
	other := joinItems(m.other)
	nOther, _ := summarize.FitList("other_lines", other, maxGoModOther, room)

	summarize.AddList(b, "modules", mods, nMods)
	summarize.AddList(b, "warning_messages", warns, nWarns)
	summarize.AddList(b, "error_messages", errs, nErrs)
	summarize.AddList(b, "other_lines", other, nOther)
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
