package listing

import (
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// A listing is read into its structure: the directories its entries are
// in, each with the number of its entries and the first of them, and the
// entries at its top level (the names a listing of one directory prints,
// the paths without a directory). The rules differ in how they read the
// lines (a path per line, ls's headings, tree's drawing); the body is the
// same for all (docs/format.md, listing rules).

// group is one directory of a listing and its entries.
type group struct {
	label   string   // the directory, as the listing names it
	entries int      // its entries
	first   []string // the first maxPerDir of them, as the block shows them
}

// listing is what a rule read of an output.
type listing struct {
	entries int
	top     summarize.Capped // the entries at the top level
	groups  []*group
	index   map[string]*group
	last    *group // the group of the previous entry: entries come in runs

	// kinds counts ls -l's entries by their type letter: directories,
	// files, links and the others.
	long                      bool
	dirs, files, links, other int

	// paths tells a listing of paths (find, fd, git ls-files), whose
	// directories are counted even when no entry has one.
	paths bool

	summary  string // tree's "3 directories, 7 files"
	messages summarize.Capped
	unread   summarize.Capped // lines of no shape the rule reads
}

// Caps of the lists; the budget may show fewer.
const (
	maxPerDir   = 10
	maxTop      = 500
	maxMessages = 30
	maxUnread   = 20
)

func newListing() *listing {
	return &listing{
		index:    map[string]*group{},
		top:      summarize.NewCapped(maxTop),
		messages: summarize.NewCapped(maxMessages),
		unread:   summarize.NewCapped(maxUnread),
	}
}

// add counts an entry of the directory dir, shown as name.
func (ls *listing) add(dir, name string) {
	ls.entries++
	g := ls.last
	if g == nil || g.label != dir {
		g = ls.index[dir]
		if g == nil {
			g = &group{label: dir}
			ls.index[dir] = g
			ls.groups = append(ls.groups, g)
		}
		ls.last = g
	}
	g.entries++
	if len(g.first) < maxPerDir {
		g.first = append(g.first, summarize.Clean(name))
	}
}

// addTop counts an entry of the top level.
func (ls *listing) addTop(name string) {
	ls.entries++
	ls.top.Add(name)
}

// body is the block's body for a listing. Every count is of lines
// shrinkrun saw (a Tally); tree's summary line is copied.
func (ls *listing) body(r *summarize.Run) *summarize.Body {
	b := &summarize.Body{}
	if ls.summary != "" {
		b.Field("summary", ls.summary)
	}
	b.Tally("entries", ls.entries)
	if len(ls.groups) > 0 || ls.paths {
		b.Tally("directories", len(ls.groups))
	}
	if ls.long {
		b.Tally("directory_entries", ls.dirs)
		b.Tally("file_entries", ls.files)
		b.Tally("link_entries", ls.links)
		if ls.other > 0 {
			b.Tally("other_entries", ls.other)
		}
	}
	var tail summarize.Body
	tail.ListCapped("messages", ls.messages)
	tail.ListCapped("unread_lines", ls.unread)
	room := r.BodyRoom() - len(b.Render()) - len(tail.Render()) - partialRoom(r)

	// The top level first, then the directories, each in the room the
	// other leaves: the top level takes at most half when there are
	// directories too.
	topRoom := room
	if len(ls.groups) > 0 {
		topRoom = room / 2
	}
	n, size := summarize.FitHead("top_level", ls.top.Items, ls.top.Total, maxTop, topRoom)
	summarize.AddHead(b, "top_level", ls.top.Items, ls.top.Total, n)
	key := "by_directory"
	if r.Partial() {
		key = "by_directory_seen"
	}
	addGroups(b, key, ls.groups, room-size)
	b.Append(&tail)
	return b
}

// partialRoom is what the core adds to a cut output's body (cut_by and
// lines_seen before it, "_seen" after each count's key).
func partialRoom(r *summarize.Run) int {
	if !r.Partial() {
		return 0
	}
	return len("cut_by: \nlines_seen: 0000000000\n") + len(strings.Join(r.Cut.By, " | ")) + 8*len("_seen")
}

// addGroups adds every directory that fits the room as an item: its name
// and number of entries ("src/api: 12"), then its first entries, each on
// a line of its own. The names come first: every directory is named while
// the room lasts, and the ones past it are counted. The room left then
// goes to the entries a round at a time, the first entry of each
// directory, then the second of each, so that each shows its first ones.
func addGroups(b *summarize.Body, key string, groups []*group, room int) {
	if len(groups) == 0 {
		return
	}
	heads := make([]string, len(groups))
	for i, g := range groups {
		heads[i] = summarize.Clean(g.label) + ": " + strconv.Itoa(g.entries)
	}
	n, used := summarize.FitHead(key, heads, len(groups), len(groups), room)
	if n == 0 {
		b.Count(key+"_omitted", len(groups))
		return
	}
	shown := make([]int, n)
	left := room - used
fill:
	for k := range maxPerDir {
		more := false
		for i, g := range groups[:n] {
			if k >= len(g.first) {
				continue
			}
			size := 3 + len(g.first[k])
			if size > left {
				break fill
			}
			left -= size
			shown[i]++
			more = true
		}
		if !more {
			break
		}
	}
	items := make([]string, n)
	for i, g := range groups[:n] {
		items[i] = heads[i]
		if shown[i] > 0 {
			items[i] += "\n" + strings.Join(g.first[:shown[i]], "\n")
		}
	}
	b.ListHead(key, items, len(groups))
}

// splitPath splits a listed path at its last '/' into the directory and
// the name, for the paths find, fd and git ls-files print. fd ends a
// directory's name with '/', which stays with the name. A path without a
// directory is at the top level; "/" alone is a directory of its own.
func splitPath(p string) (dir, name string, top bool) {
	trimmed := p
	if len(trimmed) > 1 {
		trimmed = strings.TrimSuffix(trimmed, "/")
	}
	i := strings.LastIndexByte(trimmed, '/')
	switch {
	case i < 0:
		return "", p, true
	case i == 0:
		return "/", p[1:], false
	}
	return p[:i], p[i+1:], false
}

// readPaths reads a listing of one path per line: find, fd, git ls-files.
// isMessage tells the tool's messages, which 2>&1 or a terminal puts among
// the paths.
func readPaths(r *summarize.Run, isMessage func(string) bool) *listing {
	ls := newListing()
	for line := range summarize.EachLine(r.Stdout) {
		switch {
		case line == "":
			ls.unread.Add(line)
		case isMessage(line):
			ls.messages.Add(line)
		default:
			ls.path(line)
		}
	}
	ls.stderr(r)
	return ls
}

// path counts one listed path.
func (ls *listing) path(line string) {
	p := line
	if len(p) > 1 && p[0] == '"' && p[len(p)-1] == '"' {
		// git's quoting of an unusual name ("dir/\303\251.txt"): its
		// directory is inside the quotes; the entry is shown as printed.
		p = p[1 : len(p)-1]
		if dir, _, top := splitPath(p); !top {
			ls.add(dir, line)
			return
		}
		ls.addTop(line)
		return
	}
	dir, name, top := splitPath(p)
	if top {
		ls.addTop(name)
		return
	}
	ls.add(dir, name)
}

// stderr keeps stderr's lines: the tools print only messages there.
func (ls *listing) stderr(r *summarize.Run) {
	for line := range summarize.EachLine(r.Stderr) {
		if line != "" {
			ls.messages.Add(line)
		}
	}
}
