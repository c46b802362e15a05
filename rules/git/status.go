package git

import (
	"cmp"
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchStatus recognizes git status with no arguments or only the ones in
// statusArgs.
func MatchStatus(argv []string) classify.Answer {
	return matchSub(argv, "status", func(argv []string, sub int) classify.Answer {
		for j := sub + 1; j < len(argv); j++ {
			if !statusArgs[argv[j]] {
				return classify.Refuse(j, "unsupported git status argument %q", argv[j])
			}
		}
		return classify.Accept()
	})
}

// statusArgs are the only arguments git_status accepts (docs/classify.md):
// each keeps the short or long format the summarizer reads.
var statusArgs = map[string]bool{
	"--short": true, "--porcelain": true, "--porcelain=v1": true, "-sb": true,
	"--branch": true, "-s": true, "-b": true, "--long": true,
}

// statusLinesCap bounds status_lines. It is high on purpose: a status is a
// list an agent acts on, and a 200-entry list is still a few KB.
const statusLinesCap = 200

// stateCap bounds the state lines; git prints a handful.
const stateCap = 20

// Status summarizes bash.git_status. Both layouts git can print under the
// recognized flags are read: the short/porcelain v1 layout ("XY path", an
// optional "## branch" line) is copied line by line; the long layout is
// mapped to the same XY lines, so that an agent sees one shape whichever
// form was typed.
func Status(r *summarize.Run) *summarize.Body {
	st := parseStatus(r.Lines(r.Stdout), r.MayLackStart())
	b := &summarize.Body{}
	if showCounts(r, st.recognized) {
		b.Tally("changed_files", st.counts.changed)
		b.Tally("untracked_files", st.counts.untracked)
		b.Tally("staged_files", st.counts.staged)
		b.Tally("unstaged_files", st.counts.unstaged)
		b.Tally("unmerged_files", st.counts.unmerged)
	}
	if st.branch != "" {
		b.Field("branch", st.branch)
	}
	if st.detached != "" {
		b.Field("detached_head", st.detached)
	}
	b.List("state", st.state, stateCap)
	items := make([]string, len(st.entries))
	for i := range items {
		items[i] = st.entries[i].line()
	}
	b.ListHead("status_lines", items, st.counts.changed)
	if r.Partial() && st.closing != "" {
		// On a whole output the counts say what it says; on a cut one
		// they are counts of what was seen, and it is git's own word.
		b.Field("closing_line", st.closing)
	}
	b.List("other_lines", st.other, otherCap)
	addStderr(b, r.Stderr)
	return b
}

// statusEntry is one path of a status, as git's short format shows it.
type statusEntry struct {
	xy   [2]byte // the two status columns, e.g. "M ", " D", "??", "UU"
	rest string  // what follows "XY ": the path, or "old -> new" for a rename
	key  string  // the path the entry is about (a rename's new path)
}

// line is the entry as git's short format prints it.
func (e statusEntry) line() string {
	return string(e.xy[:]) + " " + e.rest
}

// statusCounts are the counts the body starts with, of every entry.
type statusCounts struct {
	changed, untracked, staged, unstaged, unmerged int
}

func (c *statusCounts) add(xy [2]byte) {
	c.changed++
	switch {
	case xy == [2]byte{'?', '?'}:
		c.untracked++
	case isUnmerged(xy):
		c.unmerged++
	default:
		if changedColumn(xy[0]) {
			c.staged++
		}
		if changedColumn(xy[1]) {
			c.unstaged++
		}
	}
}

// status is what parseStatus understood.
type status struct {
	// entries are the first statusLinesCap, in the order git's short
	// format prints them: no more are ever shown. counts counts them all.
	entries    []statusEntry
	counts     statusCounts
	branch     string   // in the "## ..." form; "" when the output has none
	detached   string   // the long form's "HEAD detached at X" line
	state      []string // copied lines about a merge, rebase, etc. in progress
	other      []string // non-blank lines not understood
	closing    string   // the long form's closing sentence ("nothing to commit, ...")
	recognized bool     // at least one line was understood
}

// parseStatus reads either layout. The first non-blank line decides which:
// git prints one or the other, never both. lacksStart tells that lines
// before the first may be missing (Run.MayLackStart).
func parseStatus(ls []string, lacksStart bool) status {
	for _, l := range ls {
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "## ") || shortEntry(l) {
			return parseShortStatus(ls)
		}
		break
	}
	return parseLongStatus(ls, lacksStart)
}

// shortEntry reports whether l has the "XY path" shape of the short and
// porcelain v1 formats. Y may also be 'm' or '?' for a submodule. XY is
// never two blanks: a line indented by three is the long form's (the
// sequencer's "   pick abc1234 subject", first in a tail).
func shortEntry(l string) bool {
	return len(l) >= 4 && l[2] == ' ' && l[:2] != "  " &&
		strings.IndexByte(" MTADRCU?!", l[0]) >= 0 &&
		strings.IndexByte(" MTADRCU?!m", l[1]) >= 0
}

// parseShortStatus reads the short and porcelain v1 layouts, where every
// line already is what the body shows.
func parseShortStatus(ls []string) status {
	var st status
	for _, l := range ls {
		switch {
		case l == "":
		case strings.HasPrefix(l, "## "):
			st.branch = l
			st.recognized = true
		case shortEntry(l):
			xy := [2]byte{l[0], l[1]}
			if len(st.entries) < statusLinesCap {
				rest := l[3:]
				st.entries = append(st.entries, statusEntry{xy: xy, rest: rest, key: renameTarget(rest)})
			}
			st.counts.add(xy)
			st.recognized = true
		default:
			st.other = append(st.other, l)
		}
	}
	return st
}

// renameTarget returns the new path of "old -> new", or s itself.
func renameTarget(s string) string {
	if _, to, ok := strings.Cut(s, " -> "); ok {
		return to
	}
	return s
}

// changedColumn reports whether a status column records a change.
func changedColumn(c byte) bool {
	return c != ' ' && c != '?' && c != '!'
}

// isUnmerged reports whether xy is one of git's unmerged codes.
func isUnmerged(xy [2]byte) bool {
	for _, u := range unmergedLabels {
		if xy == u.xy {
			return true
		}
	}
	return false
}

// statusSection is the long form's section an entry line belongs to; it
// decides the status column (or the code) the entry gets.
type statusSection int

const (
	secNone statusSection = iota
	secStaged
	secUnstaged
	secUnmerged
	secUntracked
	secIgnored
)

var statusSections = map[string]statusSection{
	"Changes to be committed:":       secStaged,
	"Changes not staged for commit:": secUnstaged,
	"Unmerged paths:":                secUnmerged,
	"Untracked files:":               secUntracked,
	"Ignored files:":                 secIgnored,
}

// changeLabels maps the long form's labels for staged and unstaged entries
// to the letter the short form prints. git pads every label to the width of
// the longest ("typechange:") plus one space.
var changeLabels = []struct {
	label string
	code  byte
}{
	{"new file:", 'A'},
	{"modified:", 'M'},
	{"deleted:", 'D'},
	{"renamed:", 'R'},
	{"copied:", 'C'},
	{"typechange:", 'T'},
}

const changeLabelWidth = len("typechange:") + 1

// unmergedLabels maps the long form's "Unmerged paths" labels to the XY pair
// the short form prints (git's wt-status.c, same order).
var unmergedLabels = []struct {
	label string
	xy    [2]byte
}{
	{"both deleted:", [2]byte{'D', 'D'}},
	{"added by us:", [2]byte{'A', 'U'}},
	{"deleted by them:", [2]byte{'U', 'D'}},
	{"added by them:", [2]byte{'U', 'A'}},
	{"deleted by us:", [2]byte{'D', 'U'}},
	{"both added:", [2]byte{'A', 'A'}},
	{"both modified:", [2]byte{'U', 'U'}},
}

const unmergedLabelWidth = len("deleted by them:") + 1

// statePrefixes start the long form's lines about an operation in progress
// (git's wt-status.c). They are copied as they are.
var statePrefixes = []string{
	"You have unmerged paths.",
	"All conflicts fixed but you are still merging.",
	"You are in the middle of an am session.",
	"The current patch is empty.",
	"interactive rebase in progress;",
	"rebase in progress;",
	"You are currently ",
	"Cherry-pick currently in progress.",
	"Revert currently in progress.",
	"Last command done",
	"Last commands done",
	"Next command to do",
	"Next commands to do",
	"No commands done.",
	"No commands remaining.",
	"You are in a sparse checkout",
}

// parseLongStatus maps the long layout to short-format entries. An entry in
// "Changes to be committed" fills the X column, one in "Changes not staged
// for commit" the Y column, and a path in both gets both (git's "MM");
// "Unmerged paths" labels map to their XY pair and "Untracked files" to "??".
// Tracked entries are then ordered by path and untracked ones follow in
// their printed order, which is the order git's short format uses.
//
// When lines before the first may be missing (a tail), entries can come
// before any section header. An entry without a label is then an
// untracked path: every other section labels its entries, and the
// "Ignored files" one needs --ignored, which the matcher does not accept.
// A labeled one could be staged or not, and is kept as an other line.
func parseLongStatus(ls []string, lacksStart bool) status {
	var st status
	var tracked, untracked []statusEntry
	index := map[string]int{} // key -> position in tracked, to merge X and Y
	var onBranch, initial, upstream, track string
	sec := secNone
	headed := false // a section header was read
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		known := true
		switch {
		case l == "":
			sec = secNone
		case strings.HasPrefix(l, "\t"):
			entrySec := sec
			if lacksStart && !headed && sec == secNone && !hasLabel(l[1:]) {
				entrySec = secUntracked
			}
			e, ok := longEntry(entrySec, l[1:])
			if !ok {
				known = false
				break
			}
			if entrySec == secUntracked || entrySec == secIgnored {
				if len(untracked) < statusLinesCap {
					untracked = append(untracked, e)
				}
				st.counts.add(e.xy)
				break
			}
			if j, seen := index[e.key]; seen && sec == secUnstaged {
				t := &tracked[j]
				t.xy[1] = e.xy[1]
				if t.xy[0] != 'R' && t.xy[0] != 'C' {
					t.rest = e.rest // keeps a submodule's "(new commits)" note
				}
				break
			}
			index[e.key] = len(tracked)
			tracked = append(tracked, e)
		case strings.HasPrefix(l, "  ("):
			// git's hints: "(use "git add <file>..." ...)".
		case statusSections[l] != secNone:
			sec, headed = statusSections[l], true
		case strings.HasPrefix(l, "On branch "):
			onBranch = strings.TrimPrefix(l, "On branch ")
		case l == "No commits yet" || l == "Initial commit":
			initial = l
		case strings.HasPrefix(l, "HEAD detached "), l == "Not currently on any branch.":
			st.detached = l
		case strings.HasPrefix(l, "Your branch "):
			var next string
			if i+1 < len(ls) {
				next = ls[i+1]
			}
			u, t, used, ok := trackingLine(l, next)
			if !ok {
				known = false
				break
			}
			upstream, track = u, t
			i += used
		case hasAnyPrefix(l, statePrefixes), strings.HasPrefix(l, "   "):
			// "   pick abc1234 subject": the sequencer's todo lines.
			st.state = append(st.state, l)
		case strings.HasPrefix(l, "nothing to commit"),
			strings.HasPrefix(l, "nothing added to commit"),
			strings.HasPrefix(l, "no changes added to commit"):
			st.closing = l
		default:
			known = false
		}
		if known {
			st.recognized = st.recognized || l != ""
		} else {
			st.other = append(st.other, l)
		}
	}
	slices.SortStableFunc(tracked, func(a, b statusEntry) int { return cmp.Compare(a.key, b.key) })
	for _, e := range tracked {
		st.counts.add(e.xy)
	}
	st.entries = append(tracked, untracked...)
	st.entries = st.entries[:min(len(st.entries), statusLinesCap)]
	if onBranch != "" {
		st.branch = branchLine(onBranch, initial, upstream, track)
	}
	return st
}

// branchLine composes the "## ..." line git's short format prints for the
// same state (wt-status.c wt_shortstatus_print_tracking). It is the one
// place the rule composes a line; every component is copied from the long
// form.
func branchLine(branch, initial, upstream, track string) string {
	s := "## "
	if initial != "" {
		s += initial + " on "
	}
	s += branch
	if upstream != "" {
		s += "..." + upstream
	}
	if track != "" {
		s += " [" + track + "]"
	}
	return s
}

// trackingLine reads the long form's "Your branch ..." sentence (git's
// remote.c format_tracking_info); when it spans two lines (diverged), next is
// the second and used is 1. It returns the upstream name and the text the
// short form prints in brackets.
func trackingLine(l, next string) (upstream, track string, used int, ok bool) {
	if u, ok := between(l, "Your branch is up to date with '", "'."); ok {
		return u, "", 0, true
	}
	if u, n, ok := commitsBy(l, "Your branch is ahead of '", "."); ok {
		return u, "ahead " + n, 0, true
	}
	if u, n, ok := commitsBy(l, "Your branch is behind '", ", and can be fast-forwarded."); ok {
		return u, "behind " + n, 0, true
	}
	if u, ok := between(l, "Your branch is based on '", "', but the upstream is gone."); ok {
		return u, "gone", 0, true
	}
	if u, ok := between(l, "Your branch and '", "' refer to different commits."); ok {
		return u, "different", 0, true
	}
	if u, ok := between(l, "Your branch and '", "' have diverged,"); ok {
		f := strings.Fields(next)
		if len(f) == 9 && f[0] == "and" && f[1] == "have" && summarize.IsDigits(f[2]) && f[3] == "and" && summarize.IsDigits(f[4]) &&
			strings.Join(f[5:], " ") == "different commits each, respectively." {
			return u, "ahead " + f[2] + ", behind " + f[4], 1, true
		}
	}
	return "", "", 0, false
}

// commitsBy reads "PREFIX<upstream>' by N commit(s)SUFFIX".
func commitsBy(l, prefix, suffix string) (upstream, n string, ok bool) {
	s, ok := between(l, prefix, suffix)
	if !ok {
		return "", "", false
	}
	if t, found := strings.CutSuffix(s, " commits"); found {
		s = t
	} else if s, ok = strings.CutSuffix(s, " commit"); !ok {
		return "", "", false
	}
	i := strings.LastIndex(s, "' by ")
	if i < 0 || !summarize.IsDigits(s[i+len("' by "):]) {
		return "", "", false
	}
	return s[:i], s[i+len("' by "):], true
}

// between returns what s holds between prefix and suffix.
func between(s, prefix, suffix string) (string, bool) {
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) || len(s) < len(prefix)+len(suffix) {
		return "", false
	}
	return s[len(prefix) : len(s)-len(suffix)], true
}

// longEntry reads an entry line of section sec, its leading tab removed.
func longEntry(sec statusSection, s string) (statusEntry, bool) {
	switch sec {
	case secStaged, secUnstaged:
		for _, c := range changeLabels {
			rest, ok := cutLabel(s, c.label, changeLabelWidth)
			if !ok {
				continue
			}
			xy := [2]byte{c.code, ' '}
			if sec == secUnstaged {
				xy = [2]byte{' ', c.code}
			}
			key := renameTarget(rest)
			if sec == secUnstaged {
				key = trimSubmoduleNote(key)
			}
			return statusEntry{xy: xy, rest: rest, key: key}, true
		}
	case secUnmerged:
		for _, u := range unmergedLabels {
			if rest, ok := cutLabel(s, u.label, unmergedLabelWidth); ok {
				return statusEntry{xy: u.xy, rest: rest, key: rest}, true
			}
		}
	case secUntracked:
		return statusEntry{xy: [2]byte{'?', '?'}, rest: s, key: s}, s != ""
	case secIgnored:
		return statusEntry{xy: [2]byte{'!', '!'}, rest: s, key: s}, s != ""
	}
	return statusEntry{}, false
}

// hasLabel reports whether an entry line, its tab removed, starts with
// one of the long form's labels.
func hasLabel(s string) bool {
	for _, c := range changeLabels {
		if _, ok := cutLabel(s, c.label, changeLabelWidth); ok {
			return true
		}
	}
	for _, u := range unmergedLabels {
		if _, ok := cutLabel(s, u.label, unmergedLabelWidth); ok {
			return true
		}
	}
	return false
}

// cutLabel removes label and the padding git put after it (up to width
// columns in all), so that a path that itself starts with a space survives.
func cutLabel(s, label string, width int) (string, bool) {
	rest, ok := strings.CutPrefix(s, label)
	if !ok || rest == "" || rest[0] != ' ' {
		return "", false
	}
	for pad := width - len(label); pad > 0 && strings.HasPrefix(rest, " "); pad-- {
		rest = rest[1:]
	}
	return rest, rest != ""
}

// trimSubmoduleNote removes the note git appends to a modified submodule
// in the unstaged section ("sub (new commits, modified content)"), so that
// the entry merges with the same path in the staged section.
func trimSubmoduleNote(p string) string {
	if !strings.HasSuffix(p, ")") {
		return p
	}
	i := strings.LastIndex(p, " (")
	if i < 0 {
		return p
	}
	for note := range strings.SplitSeq(p[i+2:len(p)-1], ", ") {
		switch note {
		case "new commits", "modified content", "untracked content":
		default:
			return p
		}
	}
	return p[:i]
}

// hasAnyPrefix reports whether s starts with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
