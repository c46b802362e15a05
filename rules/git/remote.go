package git

import (
	"bytes"
	"iter"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchPush, MatchPull, MatchFetch and MatchClone recognize git push,
// pull, fetch and clone with any arguments but the format options
// (remoteFormats). Their output is progress meters, ref lines and messages
// in any combination, and -q, -v, --progress, --dry-run, --rebase or
// --depth only change which of them appear.
func MatchPush(argv []string) classify.Answer { return matchSub(argv, "push", matchRemote) }

// MatchPull recognizes git pull, as MatchPush does git push.
func MatchPull(argv []string) classify.Answer { return matchSub(argv, "pull", matchRemote) }

// MatchFetch recognizes git fetch, as MatchPush does git push.
func MatchFetch(argv []string) classify.Answer { return matchSub(argv, "fetch", matchRemote) }

// MatchClone recognizes git clone, as MatchPush does git push.
func MatchClone(argv []string) classify.Answer { return matchSub(argv, "clone", matchRemote) }

func matchRemote(argv []string, sub int) classify.Answer {
	if j := classify.FormatFlag(argv, sub+1, remoteFormats, ""); j >= 0 {
		return classify.Refuse(j, "option %q changes the output format", argv[j])
	}
	return classify.Accept()
}

// remoteFormats are the options of push, pull, fetch and clone that
// replace the human-readable ref lines the summarizer reads: --porcelain
// (push, and fetch from git 2.41) prints tab-separated machine lines, and
// fetch --negotiate-only prints object ids.
var remoteFormats = []string{"--porcelain", "--negotiate-only"}

// The rules of git's network verbs: bash.git_push, bash.git_pull,
// bash.git_fetch and bash.git_clone. All four print the same kinds of
// lines, mostly on stderr: progress meters, the "To URL" / "From URL" line
// of each remote, one line per ref updated or rejected, and messages
// (errors, hints, the remote's own lines); pull adds the merge's result
// and its diffstat on stdout. One parser reads them all, and each rule
// says only whether a diffstat can appear.

// Push summarizes bash.git_push.
func Push(r *summarize.Run) *summarize.Body { return parseRemote(r, false).body() }

// Fetch summarizes bash.git_fetch.
func Fetch(r *summarize.Run) *summarize.Body { return parseRemote(r, false).body() }

// Clone summarizes bash.git_clone.
func Clone(r *summarize.Run) *summarize.Body { return parseRemote(r, false).body() }

// Pull summarizes bash.git_pull: the fetch's lines as for git fetch,
// then the merge or rebase: its messages and its diffstat, read with
// git_diff's --stat parser.
func Pull(r *summarize.Run) *summarize.Body { return parseRemote(r, true).body() }

// Caps of the remote rules. New refs can run into the thousands (a first
// fetch of a big repository), so they have a list of their own, apart from
// the changes to refs that existed, and new tags one apart from new
// branches: a tag sorts after every branch and would be past the cap.
// Rejected refs, conflicts and failure lines are what an agent must act
// on, so they get the most room.
const (
	remotesCap       = 20
	refUpdatesCap    = 100
	newRefsCap       = 50
	rejectedCap      = 200
	conflictsCap     = 200
	keyMessagesCap   = 200
	otherMessagesCap = 20
)

// remoteLog is what parseRemote understood. Its lists keep only the items
// the block can show and count the others: a first fetch of a big
// repository prints a line per ref.
type remoteLog struct {
	progress   int              // progress meter lines left out
	remotes    summarize.Capped // "To URL" and "From URL" lines
	refs       summarize.Capped // ref lines of existing refs: updated, forced, deleted
	newTags    summarize.Capped // ref lines of new tags
	newRefs    summarize.Capped // ref lines of other new refs: branches, FETCH_HEAD
	rejected   summarize.Capped // ref lines flagged "!": rejected by git or by the remote
	upToDate   int              // ref lines flagged "=" (-v): nothing changed
	autoMerged int              // "Auto-merging PATH" lines of a merge
	conflicts  summarize.Capped // "CONFLICT (KIND): ..." lines of a merge or rebase

	stat     *diffParse // the merge's diffstat (pull only), or nil
	messages messages   // every other non-blank line, in order
}

// messages are the lines the rule copies as they are. Key lines
// (failures, conflicts, the outcome of a merge or a clone) have a much
// higher cap than the others (hints, warnings, the remote's own lines), so
// that noise cannot push them out. Only the lines within their cap are
// kept; the others are counted.
type messages struct {
	kept         []string
	keys, others int
	dropped      int
	lastKey      bool // the last line, kept or not, was a key line
}

// add takes the next line and whether it is a key line.
func (m *messages) add(l string, key bool) {
	m.lastKey = key
	switch {
	case key && m.keys < keyMessagesCap:
		m.keys++
		m.kept = append(m.kept, l)
	case !key && m.others < otherMessagesCap:
		m.others++
		m.kept = append(m.kept, l)
	default:
		m.dropped++
	}
}

// parseRemote reads both streams. Each line is taken as a terminal shows
// it: escape sequences removed, and of a line that rewrites itself with
// "\r" only its last state. For push, fetch and clone stderr comes first:
// git writes nearly everything there, and stdout gets only a line or two
// (push -u's "branch 'x' set up to track"). For pull (pull is true) stdout
// comes first: the merge writes its progress and conflicts there before
// the errors it ends with on stderr ("error: Your local changes ... would
// be overwritten"; a rebase's "error: could not apply"); pull also has a
// diffstat to read.
func parseRemote(r *summarize.Run, pull bool) *remoteLog {
	g := &remoteLog{
		remotes:   summarize.NewCapped(remotesCap),
		refs:      summarize.NewCapped(refUpdatesCap),
		newTags:   summarize.NewCapped(newRefsCap),
		newRefs:   summarize.NewCapped(newRefsCap),
		rejected:  summarize.NewCapped(rejectedCap),
		conflicts: summarize.NewCapped(conflictsCap),
	}
	streams := [][]byte{r.Stderr, r.Stdout}
	if pull {
		g.stat = newDiffParse()
		streams[0], streams[1] = r.Stdout, r.Stderr
	}
	for _, stream := range streams {
		for l := range shownLines(stream) {
			g.line(l)
		}
	}
	return g
}

// shownLines yields shownLine of each line of StripTerminal(b), without
// copying b: only the lines around an escape sequence are stripped, and
// the others are read in place. Stripping also turns "\r\n" into "\n",
// which for a line read in place leaves one more trailing "\r": shownLine
// drops it, as it drops any blank last state. StripTerminal is a scan
// whose state outside an escape sequence is empty, so stripping the lines
// from the one an escape starts on to the end of the line it ends on gives
// what stripping the whole stream gives there (an escape sequence may run
// over several lines).
func shownLines(b []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		for len(b) > 0 {
			plain := b
			esc := bytes.IndexByte(b, 0x1b)
			if esc >= 0 {
				plain = b[:bytes.LastIndexByte(b[:esc], '\n')+1]
			}
			for l := range summarize.EachLine(plain) {
				if !yield(shownLine(l)) {
					return
				}
			}
			if esc < 0 {
				return
			}
			end := escapedLinesEnd(b, esc)
			for l := range summarize.EachLine(summarize.StripTerminal(b[len(plain):end])) {
				if !yield(shownLine(l)) {
					return
				}
			}
			b = b[end:]
		}
	}
}

// escapedLinesEnd returns the end, past its "\n", of the line on which the
// escape sequence at b[i] ends, or of the line a later sequence on that
// line ends on, and so on; or len(b) when no "\n" follows.
func escapedLinesEnd(b []byte, i int) int {
	for {
		last := i // a lone ESC at the very end is dropped alone
		if i+1 < len(b) {
			last = summarize.SkipEscape(b, i)
		}
		nl := bytes.IndexByte(b[last+1:], '\n')
		if nl < 0 {
			return len(b)
		}
		end := last + 1 + nl + 1
		next := bytes.IndexByte(b[last+1:end], 0x1b)
		if next < 0 {
			return end
		}
		i = last + 1 + next
	}
}

// shownLine returns what a terminal shows of l: the last non-blank state
// of a line that rewrites itself with "\r", without trailing blanks (the
// remote pads its lines with spaces to clear what they overwrite).
func shownLine(l string) string {
	if strings.IndexByte(l, '\r') < 0 {
		return trimBlanksRight(l) // most lines; IndexByte is the faster scan
	}
	for {
		i := strings.LastIndexByte(l, '\r')
		if i < 0 || strings.TrimSpace(l[i+1:]) != "" {
			return trimBlanksRight(l[i+1:])
		}
		l = l[:i]
	}
}

// trimBlanksRight is strings.TrimRight(s, " \t"), which would build its
// set of two bytes again on every line.
func trimBlanksRight(s string) string {
	i := len(s)
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	return s[:i]
}

func (g *remoteLog) line(l string) {
	content := strings.TrimPrefix(l, "remote: ")
	switch {
	case strings.TrimSpace(content) == "" || l == "remote:":
	case isProgressLine(content):
		g.progress++
	case isRemoteLine(l):
		g.remotes.Add(l)
	case isRefLine(l):
		ref := strings.TrimLeft(l, " ")
		switch l[1] {
		case '!':
			g.rejected.Add(ref)
		case '=':
			g.upToDate++
		case '*':
			if strings.HasPrefix(l[3:], "[new tag]") {
				g.newTags.Add(ref)
			} else {
				g.newRefs.Add(ref)
			}
		default:
			g.refs.Add(ref)
		}
	case strings.HasPrefix(l, "Auto-merging "):
		g.autoMerged++
	case strings.HasPrefix(l, "CONFLICT ("):
		g.conflicts.Add(l)
	case g.stat != nil && g.stat.knownOutsideLine(l):
	default:
		g.messages.add(l, g.isKey(l))
	}
}

// progressPrefixes start git's progress meters and transfer statistics,
// on the local side and (after "remote: ") on the remote side. Each is a
// fixed title of git's own; a line that merely resembles them is kept.
var progressPrefixes = []string{
	"Enumerating objects: ", "Counting objects: ", "Compressing objects: ",
	"Writing objects: ", "Receiving objects: ", "Resolving deltas: ",
	"Unpacking objects: ", "Updating files: ", "Checking out files: ",
	"Checking connectivity", "Checking objects: ", "Finding sources: ",
	"Filtering content: ", "Indexing objects: ", "Delta compression using up to ",
}

// isProgressLine reports whether l (without its "remote: ") is a progress
// meter, the "Total N (delta M), reused ..." statistics, or the
// "Rebasing (N/M)" counter of a rebase. Its first byte rules out most
// lines, and most titles, before any prefix is compared.
func isProgressLine(l string) bool {
	if l == "" || !isProgressFirst(l[0]) {
		return false
	}
	for _, p := range progressPrefixes {
		if p[0] == l[0] && strings.HasPrefix(l, p) {
			return true
		}
	}
	switch {
	case strings.HasPrefix(l, "Total "):
		return strings.Contains(l, " (delta ")
	case strings.HasPrefix(l, "Rebasing ("):
		return strings.HasSuffix(l, ")")
	}
	return false
}

// isProgressFirst reports whether c is the first byte of one of
// progressPrefixes, "Total " or "Rebasing (" (TestProgressFirst holds it to
// them).
func isProgressFirst(c byte) bool {
	switch c {
	case 'C', 'D', 'E', 'F', 'I', 'R', 'T', 'U', 'W':
		return true
	}
	return false
}

// isRemoteLine reports whether l is "To URL" (push) or "From URL" (fetch,
// pull): one word after the keyword, which a sentence ("To push the
// current branch ...") never is.
func isRemoteLine(l string) bool {
	url, ok := strings.CutPrefix(l, "To ")
	if !ok {
		url, ok = strings.CutPrefix(l, "From ")
	}
	return ok && url != "" && !strings.ContainsAny(url, " \t")
}

// isRefLine reports whether l is one of git's ref status lines,
// " F SUMMARY FROM -> TO (REASON)": a space, a flag (' ' updated, '+'
// forced, '-' deleted, '*' new, '!' rejected, '=' up to date, 't' tag
// updated), a space, then a summary ("[new branch]", "[rejected]",
// "a1b2c3d..e4f5a6b", "branch") and the refs. Only a deleted ref may lack
// the arrow ("- [deleted]  name" when pushing a deletion).
func isRefLine(l string) bool {
	if len(l) < 4 || l[0] != ' ' || l[2] != ' ' || !strings.ContainsRune(" +-*!=t", rune(l[1])) {
		return false
	}
	rest := l[3:]
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return false
		}
		return strings.Contains(rest[end:], " -> ") || rest[:end+1] == "[deleted]"
	}
	summary, _, _ := strings.Cut(rest, " ")
	return summary != "" && strings.Contains(rest, " -> ")
}

// outcomePrefixes start the lines that say how a merge, a rebase, a clone
// or a push ended: they are key messages.
var outcomePrefixes = []string{
	"Automatic merge failed", "Updating ", "Fast-forward",
	"Already up to date", "Merge made by ", "Successfully rebased ",
	"Current branch ", "Could not apply ", "Cloning into ", "Everything up-to-date",
}

// isKey reports whether l is a key message: a failure (fatal: or error:,
// also from the remote), the outcome of the command, or a tab-indented
// line that continues a key message (the files of "error: Your local
// changes to the following files would be overwritten").
func (g *remoteLog) isKey(l string) bool {
	content := strings.TrimPrefix(l, "remote: ")
	if isGitFailure(content) || hasAnyPrefix(l, outcomePrefixes) {
		return true
	}
	return strings.HasPrefix(l, "\t") && g.messages.lastKey
}

// body renders the parse: the counts, the diffstat, then the lists.
func (g *remoteLog) body() *summarize.Body {
	b := &summarize.Body{}
	if g.progress > 0 {
		b.Tally("progress_lines", g.progress)
	}
	if g.upToDate > 0 {
		b.Tally("up_to_date_refs", g.upToDate)
	}
	if g.autoMerged > 0 {
		b.Tally("auto_merging_lines", g.autoMerged)
	}
	if d := g.stat; d != nil && d.summary != "" {
		b.Count("files_changed", d.sumFiles)
		b.Count("insertions", d.sumIns)
		b.Count("deletions", d.sumDel)
		b.Field("stat_summary", d.summary)
	}
	b.ListCapped("remotes", g.remotes)
	b.ListCapped("ref_updates", g.refs)
	b.ListCapped("new_tags", g.newTags)
	b.ListCapped("new_refs", g.newRefs)
	b.ListCapped("rejected", g.rejected)
	b.ListCapped("conflicts", g.conflicts)
	// As in addStderr, messages_omitted counts the lines past their cap
	// together with any the budget takes later.
	m := g.messages
	b.ListHead("messages", m.kept, len(m.kept)+m.dropped)
	if g.stat != nil {
		b.ListCapped("stat", g.stat.stat)
	}
	return b
}
