package summarize

import (
	"strconv"
	"strings"
)

// Caps of git_show's headers. A git show of a range prints a header per
// commit; the patch after each is counted and excerpted by git_diff.
const (
	showObjectsCap      = 20 // commit and tag headers
	showMessageLinesCap = 20 // message lines per header
)

// gitShow summarizes bash.git_show: each commit's (and an annotated tag's)
// header as git prints it, its message included, then the patch exactly as
// git_diff reports it. The headers are taken out of the output and the
// rest, the patch or --stat lines of every commit in order, is handed to
// gitDiff with the budget the headers leave, so the excerpt is sized and
// counted by the same code as for git diff.
func gitShow(r *Run) *Body {
	s := splitShow(r.Stdout)
	b := &Body{}
	room := r.bodyRoom() / 2 // the patch keeps at least half
	for _, key := range []string{"tags", "commits"} {
		items := s.tags
		if key == "commits" {
			items = s.commits
		}
		n, size := fitList(key, items, showObjectsCap, room)
		addList(b, key, items, n)
		room -= size
	}
	if s.messageOmitted > 0 {
		b.Count("message_lines_omitted", s.messageOmitted)
	}
	patch := *r
	patch.Stdout = s.patch
	patch.Budget = r.budget() - len(b.render())
	b.fields = append(b.fields, gitDiff(&patch).fields...)
	return b
}

// showParse is git show's output taken apart.
type showParse struct {
	tags, commits  []string // one item per header: its lines, joined by '\n'
	messageOmitted int      // message lines left out of the items
	patch          []byte   // every line that is not a header, in order
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
// "Notes:" sections continue it. A tag's message is not indented and runs
// to the "commit" line of the object it tags. Blank lines of headers are
// not copied. Every other line goes to the patch, which stays a view of
// the output when it is one piece (one commit) and is copied otherwise.
func splitShow(out []byte) *showParse {
	s := &showParse{}
	var cur []string // the header being read
	curTag, shown := false, 0
	flush := func() {
		if cur == nil {
			return
		}
		if omitted := shown - showMessageLinesCap; omitted > 0 {
			cur = append(cur, "["+strconv.Itoa(omitted)+" message lines not shown]")
			s.messageOmitted += omitted
		}
		if curTag {
			s.tags = append(s.tags, strings.Join(cur, "\n"))
		} else {
			s.commits = append(s.commits, strings.Join(cur, "\n"))
		}
		cur, shown = nil, 0
	}
	// message keeps a message line within the cap and counts it.
	message := func(l string) {
		shown++
		if shown <= showMessageLinesCap {
			cur = append(cur, l)
		}
	}
	var pieces [][2]int // byte ranges of the patch
	patchStart := -1
	state := showPatch
	for off, lb := range byteLines(out) {
		l := string(lb)
		blank := strings.TrimSpace(l) == ""
		header := true
		switch {
		case isCommitLine(l):
			flush()
			cur, curTag, state = []string{l}, false, showCommit
		case state == showCommit || state == showTagHeader:
			switch {
			case !blank:
				cur = append(cur, l)
			case state == showCommit:
				state = showMessage
			default:
				state = showTag
			}
		case state == showMessage:
			switch {
			case blank && !strings.HasPrefix(l, "    "):
				state = showAfterMsg
			case !blank:
				message(l)
			}
		case state == showAfterMsg && (l == "Notes:" || strings.HasPrefix(l, "Notes (")):
			cur = append(cur, l)
			state = showMessage
		case state == showTag:
			if !blank {
				message(l)
			}
		case (state == showPatch || state == showAfterMsg) && strings.HasPrefix(l, "tag ") && len(l) > 4:
			flush()
			cur, curTag, state = []string{l}, true, showTagHeader
		default:
			header = false
			flush()
			state = showPatch
			if patchStart < 0 {
				patchStart = off
			}
		}
		if header && patchStart >= 0 {
			pieces = append(pieces, [2]int{patchStart, off})
			patchStart = -1
		}
	}
	flush()
	if patchStart >= 0 {
		pieces = append(pieces, [2]int{patchStart, len(out)})
	}
	switch len(pieces) {
	case 0:
	case 1:
		s.patch = out[pieces[0][0]:pieces[0][1]]
	default:
		for _, p := range pieces {
			s.patch = append(s.patch, out[p[0]:p[1]]...)
		}
	}
	return s
}

// isCommitLine reports whether l starts a commit header: "commit HASH",
// the hash full or abbreviated (--abbrev-commit), maybe followed by
// parents (--parents), decorations or "(from HASH)" (-m).
func isCommitLine(l string) bool {
	rest, ok := strings.CutPrefix(l, "commit ")
	if !ok {
		return false
	}
	hash, _, _ := strings.Cut(rest, " ")
	hash, _, _ = strings.Cut(hash, "\t") // --source
	return len(hash) >= 7 && len(hash) <= 64 && strings.Trim(hash, "0123456789abcdef") == ""
}
