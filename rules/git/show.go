package git

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchShow recognizes git show of commits and tags. Besides the format
// options (showFormats), a revision word with a colon passes through:
// HEAD:src/x.go names a file, HEAD: a tree, :0:x the index, and git show
// prints the file's content or the tree's listing, which the agent asked to
// read.
func MatchShow(argv []string) classify.Answer {
	return matchSub(argv, "show", func(argv []string, sub int) classify.Answer {
		if j := classify.FormatFlag(argv, sub+1, showFormats, diffShort); j >= 0 {
			return classify.Refuse(j, "option %q changes the output format", argv[j])
		}
		for j := sub + 1; j < len(argv); j++ {
			if !strings.HasPrefix(argv[j], "-") && strings.Contains(argv[j], ":") {
				return classify.Refuse(j, "%q names a file or tree, whose content git show prints", argv[j])
			}
		}
		return classify.Accept()
	})
}

// showFormats are the git show options, besides git diff's, that replace
// the commit header the summarizer reads (--format, --pretty, --oneline),
// draw a graph in front of every line, or add lines it does not know
// (signatures, log sizes). They match as prefixes, as for git diff.
var showFormats = slices.Concat(diffFormats, []string{
	"--format", "--pretty", "--oneline", "--graph", "--show-signature", "--log-size",
})

// Caps of git_show's headers. A git show of a range prints a header per
// commit; the patch after each is counted and excerpted by git_diff.
const (
	showObjectsCap      = 20 // commit and tag headers
	showMessageLinesCap = 20 // message lines per header
)

// Show summarizes bash.git_show: each commit's (and an annotated tag's)
// header as git prints it, its message included, then the patch exactly as
// git_diff reports it. The headers are taken out of the output and the
// rest, the patch or --stat lines of every commit in order, is handed to
// Diff with the budget the headers leave, so the excerpt is sized and
// counted by the same code as for git diff.
func Show(r *summarize.Run) *summarize.Body {
	s := splitShow(r.Stdout, cutOf(r).gaps)
	b := &summarize.Body{}
	room := r.BodyRoom() / 2 // the patch keeps at least half
	for _, key := range []string{"tags", "commits"} {
		items, total := s.tags, s.nTags
		if key == "commits" {
			items, total = s.commits, s.nCommits
		}
		n, size := summarize.FitHead(key, items, total, showObjectsCap, room)
		summarize.AddHead(b, key, items, total, n)
		room -= size
	}
	if s.messageOmitted > 0 {
		b.Count("message_lines_omitted", s.messageOmitted)
	}
	patch := *r
	patch.Stdout = s.patch
	patch.Budget = r.BlockBudget() - len(b.Render())
	b.Append(Diff(&patch))
	return b
}

// showParse is git show's output taken apart.
type showParse struct {
	// One item per header, its lines joined by '\n', for the first
	// showObjectsCap headers of each kind (all the block can show); the
	// others are counted.
	tags, commits   []string
	nTags, nCommits int
	messageOmitted  int    // message lines left out of the headers
	patch           []byte // every line that is not a header, in order
}

// Where a line of git show's output is.
const (
	showPatch     = iota // in a patch or --stat lines, or before any header
	showCommit           // a commit's "Key: value" lines
	showMessage          // a commit's indented message (or notes)
	showAfterMsg         // the blank line after a message: notes or a patch follow
	showTagHeader        // an annotated tag's "Tagger:" and "Date:" lines
	showTag              // an annotated tag's message
)

// splitShow walks the output once. A header starts at a "commit HASH"
// line or at a "tag NAME" line, which a patch line never is (those start
// with a space, '+', '-', '@', '\' or a keyword such as "diff" or
// "index"). A commit's "Key: value" lines run to a blank line, then its
// message lines, indented by four spaces, run to the next blank line;
// "Notes:" sections continue it. A line that is neither (endsHeader) ends
// the header early: a grep removed the blank lines. A tag's message is not indented and runs
// to the "commit" line of the object it tags. Blank lines of headers are
// not copied. Every other line goes to the patch, which stays a view of
// the output when it is one piece (one commit) and is copied otherwise.
// Lines are read as bytes and only the lines of a kept header become
// strings: nearly all of a big show is patch.
//
// gaps tells that lines may be missing anywhere (a grep): a tag's message
// then also ends at a "diff" line, the patch of a commit whose "commit"
// line was left out.
func splitShow(out []byte, gaps bool) *showParse {
	s := &showParse{}
	var cur []string // the lines of the header being read, when it is kept
	open, curTag, keep, shown := false, false, false, 0
	flush := func() {
		if !open {
			return
		}
		omitted := shown - showMessageLinesCap
		if omitted > 0 {
			s.messageOmitted += omitted
		}
		if keep {
			if omitted > 0 {
				cur = append(cur, "["+strconv.Itoa(omitted)+" message lines not shown]")
			}
			if curTag {
				s.tags = append(s.tags, strings.Join(cur, "\n"))
			} else {
				s.commits = append(s.commits, strings.Join(cur, "\n"))
			}
		}
		open, cur, shown = false, nil, 0
	}
	add := func(l []byte) {
		if keep {
			cur = append(cur, string(l))
		}
	}
	begin := func(l []byte, tag bool) {
		flush()
		open, curTag = true, tag
		if tag {
			s.nTags++
			keep = s.nTags <= showObjectsCap
		} else {
			s.nCommits++
			keep = s.nCommits <= showObjectsCap
		}
		add(l)
	}
	// message keeps a message line within the cap and counts it.
	message := func(l []byte) {
		shown++
		if shown <= showMessageLinesCap {
			add(l)
		}
	}
	var pieces [][]byte // the patch's runs of lines
	patchStart := -1
	state := showPatch
	for off, l := range byteLines(out) {
		if endsHeader(state, l) || gaps && state == showTag && isDiffLine(l) {
			state = showPatch
		}
		header := true
		switch {
		case isCommitLine(l):
			begin(l, false)
			state = showCommit
		case state == showCommit || state == showTagHeader:
			switch {
			case !isBlank(l):
				add(l)
			case state == showCommit:
				state = showMessage
			default:
				state = showTag
			}
		case state == showMessage:
			switch blank := isBlank(l); {
			case blank && !bytes.HasPrefix(l, []byte("    ")):
				state = showAfterMsg
			case !blank:
				message(l)
			}
		case state == showAfterMsg && (string(l) == "Notes:" || bytes.HasPrefix(l, []byte("Notes ("))):
			add(l)
			state = showMessage
		case state == showTag:
			if !isBlank(l) {
				message(l)
			}
		case (state == showPatch || state == showAfterMsg) && bytes.HasPrefix(l, []byte("tag ")) && len(l) > 4:
			begin(l, true)
			state = showTagHeader
		default:
			header = false
			flush()
			state = showPatch
			if patchStart < 0 {
				patchStart = off
			}
		}
		if header && patchStart >= 0 {
			pieces = append(pieces, out[patchStart:off])
			patchStart = -1
		}
	}
	flush()
	if patchStart >= 0 {
		pieces = append(pieces, out[patchStart:])
	}
	switch len(pieces) {
	case 0:
	case 1:
		s.patch = pieces[0]
	default:
		s.patch = bytes.Join(pieces, nil) // sized once, not zeroed first
	}
	return s
}

// isDiffLine reports whether l is the "diff" line that starts a file's
// patch.
func isDiffLine(l []byte) bool {
	return bytes.HasPrefix(l, []byte("diff --git ")) || bytes.HasPrefix(l, []byte("diff --cc ")) ||
		bytes.HasPrefix(l, []byte("diff --combined "))
}

// endsHeader reports whether l, read in state, is not part of the header
// being read: a line of a commit's "Key: value" fields that is not one, or
// a message line without git's four-space indent. A whole header never has
// one; a header a grep left lines out of does ("commit X" followed by "diff
// --git ..."), and the line then belongs to the patch.
func endsHeader(state int, l []byte) bool {
	switch {
	case isBlank(l):
		return false
	case state == showCommit || state == showTagHeader:
		return !isHeaderField(l)
	case state == showMessage:
		return !bytes.HasPrefix(l, []byte("    "))
	}
	return false
}

// isHeaderField reports whether l is a "Key: value" line of a commit's or a
// tag's header (Author:, Date:, Merge:, Tagger:, CommitDate:).
func isHeaderField(l []byte) bool {
	i := bytes.IndexByte(l, ':')
	if i < 1 || l[0] < 'A' || l[0] > 'Z' || i+1 < len(l) && l[i+1] != ' ' {
		return false
	}
	for _, c := range l[1:i] {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// isBlank reports whether l holds only white space.
func isBlank(l []byte) bool {
	return len(bytes.TrimSpace(l)) == 0
}

// isCommitLine reports whether l starts a commit header: "commit HASH",
// the hash full or abbreviated (--abbrev-commit), maybe followed by
// parents (--parents), decorations or "(from HASH)" (-m).
func isCommitLine(l []byte) bool {
	rest, ok := bytes.CutPrefix(l, []byte("commit "))
	if !ok {
		return false
	}
	hash, _, _ := bytes.Cut(rest, []byte(" "))
	hash, _, _ = bytes.Cut(hash, []byte("\t")) // --source
	if len(hash) < 7 || len(hash) > 64 {
		return false
	}
	for _, c := range hash {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
