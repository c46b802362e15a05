package git_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The reference reader: what a (possibly cut) git output shows, read
// apart from the rules and written without their code, as plainly as a
// person reading the text would. It knows where it cannot be sure: a line
// before the first file header of a tail may be a change or a header line
// of a file whose start was cut, so such lines only widen the bounds a
// block's counts must fall in. It is held to git's machine-readable output
// on the uncut corpus (TestReferenceMatchesGit), and the blocks are held to
// it on every case (TestCountsAreStatements) and on random cuts (FuzzCut).

// bound is a count the text shows: at least min and at most max.
type bound struct{ min, max int }

func (b *bound) sure()  { b.min++; b.max++ }
func (b *bound) maybe() { b.max++ }

func (b bound) holds(n int) bool { return b.min <= n && n <= b.max }

// refFile is one "diff --git" (or "diff --cc") section the text shows.
type refFile struct {
	path     string // the new path, as the header line names it
	ins, del int    // its changed lines after one of its hunk headers
	binary   bool
}

// refDiff is what the text of a patch (git diff, git show) shows.
type refDiff struct {
	files       []refFile
	unmerged    []string // "* Unmerged path X" lines
	hunks       int      // hunk header lines
	ins, del    bound
	statSummary []string // "N files changed, ..." lines, without the leading space
	commits     []string // "commit HASH" lines (git show)
}

var (
	hunkHeader = regexp.MustCompile(`^(@{2,}) -`)
	nameLine   = regexp.MustCompile(`^(--- |\+\+\+ )("?[a-z]/|/dev/null$)`)
)

// readDiff reads a patch. A hunk line is known once its hunk header is
// visible: its prefix (one column per parent) tells a change from context.
// Lines before any hunk header of their section (a tail's start, a grep
// that dropped the header) may be changes or not: they only raise max.
func readDiff(text string) refDiff {
	var d refDiff
	var f *refFile
	cols := 0           // prefix columns of the hunk being read; 0 outside a hunk
	fileHeader := false // between a file's header line and its first hunk
	for _, l := range lines(text) {
		switch {
		case strings.HasPrefix(l, "diff --git "), strings.HasPrefix(l, "diff --cc "), strings.HasPrefix(l, "diff --combined "):
			path := l[strings.LastIndex(l, " ")+1:]
			if i := strings.LastIndex(l, " b/"); strings.HasPrefix(l, "diff --git ") && i >= 0 {
				path = l[i+len(" b/"):]
			}
			d.files = append(d.files, refFile{path: path})
			f = &d.files[len(d.files)-1]
			cols, fileHeader = 0, true
			continue
		case strings.HasPrefix(l, "* Unmerged path "):
			d.unmerged = append(d.unmerged, strings.TrimPrefix(l, "* Unmerged path "))
			cols, fileHeader = 0, false
			continue
		case strings.HasPrefix(l, "commit ") && len(l) >= len("commit ")+7:
			d.commits = append(d.commits, l)
			cols, fileHeader = 0, false
			continue
		}
		if m := hunkHeader.FindStringSubmatch(l); m != nil {
			d.hunks++
			cols, fileHeader = len(m[1])-1, false
			continue
		}
		if cols > 0 {
			if l == "" || strings.HasPrefix(l, `\`) {
				continue
			}
			if nameLine.MatchString(l) {
				// A change reading "++ b/x", or the next file's header
				// with its "diff" line cut: either.
				if l[0] == '+' {
					d.ins.maybe()
				} else {
					d.del.maybe()
				}
				continue
			}
			if len(l) >= cols && strings.Trim(l[:cols], " +-") == "" {
				switch {
				case strings.Contains(l[:cols], "+"):
					d.ins.sure()
					if f != nil {
						f.ins++
					}
				case strings.Contains(l[:cols], "-"):
					d.del.sure()
					if f != nil {
						f.del++
					}
				}
				continue
			}
			cols = 0
		}
		switch {
		case f != nil && (strings.HasPrefix(l, "Binary files ") || l == "GIT binary patch"):
			f.binary = true
		case fileHeader && (strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ")):
			// The file's names, before its first hunk.
		case strings.HasPrefix(l, "+"), strings.HasPrefix(l, " +"):
			// A change of a plain diff or, one column in, of a combined
			// diff (--cc), whichever this hunk was.
			d.ins.maybe()
		case strings.HasPrefix(l, "-"), strings.HasPrefix(l, " -"):
			d.del.maybe()
		case statLine.MatchString(l):
			d.statSummary = append(d.statSummary, l[1:])
		}
	}
	return d
}

var statLine = regexp.MustCompile(`^ \d+ files? changed(, \d+ insertions?\(\+\))?(, \d+ deletions?\(-\))?$`)

// statTotals returns the numbers of a --stat summary line.
func statTotals(s string) (files, ins, del int) {
	for _, part := range strings.Split(s, ", ") {
		n, _ := strconv.Atoi(strings.Fields(part)[0])
		switch {
		case strings.Contains(part, "changed"):
			files = n
		case strings.Contains(part, "insertion"):
			ins = n
		case strings.Contains(part, "deletion"):
			del = n
		}
	}
	return
}

// refEntry is one path a status shows, with the columns the text gives
// it: X (the index) and Y (the work tree), '?' for untracked, or both
// letters of an unmerged pair.
type refEntry struct {
	path string
	x, y byte
}

// refStatus is what the text of a git status shows.
type refStatus struct {
	entries map[string]*refEntry // by path (a rename's new path)
	order   []string
	// unplaced are entry lines of the long layout whose section header
	// is not visible (a tail), so their column is unknown.
	unplaced []string
}

var (
	shortEntryLine = regexp.MustCompile(`^([ MTADRCU?!])([ MTADRCU?!m]) (.+)$`)
	longLabel      = regexp.MustCompile(`^(new file|modified|deleted|renamed|copied|typechange|both deleted|added by us|deleted by them|added by them|deleted by us|both added|both modified): +(.+)$`)
)

// readStatus reads either layout; the long one is told by its tab-indented
// entries or its sentences.
func readStatus(text string) refStatus {
	st := refStatus{entries: map[string]*refEntry{}}
	ls := lines(text)
	long := false
	for _, l := range ls {
		if strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "On branch ") || strings.HasPrefix(l, "HEAD detached") ||
			strings.HasSuffix(l, ":") && !strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "nothing ") || strings.HasPrefix(l, "no changes") {
			long = true
			break
		}
	}
	add := func(path string, x, y byte) {
		e, ok := st.entries[path]
		if !ok {
			e = &refEntry{path: path, x: ' ', y: ' '}
			st.entries[path] = e
			st.order = append(st.order, path)
		}
		if x != 0 {
			e.x = x
		}
		if y != 0 {
			e.y = y
		}
	}
	if !long {
		for _, l := range ls {
			// git never prints XY as two blanks: "   pick ..." is the
			// sequencer's todo line of a long status cut above it.
			if m := shortEntryLine.FindStringSubmatch(l); m != nil && m[1]+m[2] != "  " {
				add(newPath(m[3]), m[1][0], m[2][0])
			}
		}
		return st
	}
	section := ""
	for _, l := range ls {
		switch {
		case l == "":
			section = ""
		case !strings.HasPrefix(l, "\t"):
			if strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " ") {
				section = l
			}
		case section == "":
			st.unplaced = append(st.unplaced, l[1:])
		case section == "Untracked files:":
			add(l[1:], '?', '?')
		case section == "Ignored files:":
			add(l[1:], '!', '!')
		default:
			m := longLabel.FindStringSubmatch(l[1:])
			if m == nil {
				continue
			}
			letter := map[string]byte{"new file": 'A', "modified": 'M', "deleted": 'D', "renamed": 'R', "copied": 'C', "typechange": 'T'}[m[1]]
			switch section {
			case "Changes to be committed:":
				add(newPath(m[2]), letter, 0)
			case "Changes not staged for commit:":
				add(newPath(m[2]), 0, letter)
			case "Unmerged paths:":
				xy := map[string]string{"both deleted": "DD", "added by us": "AU", "deleted by them": "UD",
					"added by them": "UA", "deleted by us": "DU", "both added": "AA", "both modified": "UU"}[m[1]]
				if xy != "" {
					add(m[2], xy[0], xy[1])
				}
			}
		}
	}
	return st
}

// newPath is the path an entry is about: the new one of "old -> new".
func newPath(s string) string {
	if _, to, ok := strings.Cut(s, " -> "); ok {
		return to
	}
	return s
}

// counts are the status counts the entries give.
func (st refStatus) counts() (changed, untracked, staged, unstaged, unmerged int) {
	for _, e := range st.entries {
		changed++
		xy := string([]byte{e.x, e.y})
		switch {
		case xy == "??":
			untracked++
		case slices.Contains(strings.Fields("DD AU UD UA DU AA UU"), xy):
			unmerged++
		default:
			if e.x != ' ' && e.x != '?' && e.x != '!' {
				staged++
			}
			if e.y != ' ' && e.y != '?' && e.y != '!' {
				unstaged++
			}
		}
	}
	return
}

// refLog is what the text of git log --oneline shows.
type refLog struct {
	hashes  []string // the abbreviated hash of each commit line, in order
	merges  int      // commit lines whose subject starts with "Merge "
	lines   []string // the commit lines
	unknown int      // lines that are neither commit lines nor graph drawing
}

var onelineCommit = regexp.MustCompile(`^([*|/\\_. -]*?)([0-9a-f]{4,40})( (\([^)]*\) )?(.*))?$`)

func readLog(text string) refLog {
	var lg refLog
	for _, l := range lines(text) {
		m := onelineCommit.FindStringSubmatch(l)
		if m == nil || m[1] != "" && !strings.Contains(m[1], "*") {
			if strings.Trim(l, `*|/\_. -`) != "" {
				lg.unknown++
			}
			continue
		}
		lg.hashes = append(lg.hashes, m[2])
		lg.lines = append(lg.lines, l)
		if strings.HasPrefix(m[5], "Merge ") {
			lg.merges++
		}
	}
	return lg
}

// lines splits text into lines without their "\n" (and "\r").
func lines(text string) []string {
	if text == "" {
		return nil
	}
	ls := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}
