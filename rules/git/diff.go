package git

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchDiff recognizes git diff with any arguments but the options that
// change the output format (diffFormats).
func MatchDiff(argv []string) classify.Answer {
	return matchSub(argv, "diff", func(argv []string, sub int) classify.Answer {
		if j := classify.FormatFlag(argv, sub+1, diffFormats, diffShort); j >= 0 {
			return classify.Refuse(j, "option %q changes the output format", argv[j])
		}
		return classify.Accept()
	})
}

// Fixed caps of the git_diff lists. The excerpt has no item cap: it is
// bounded by the budget instead.
const (
	diffFilesCap = 100
	diffStatCap  = 100
)

// Diff summarizes bash.git_diff: exact counts from the patch, every file
// with its counts and git's own markers (new, deleted, renamed, binary,
// mode), the --stat lines when present, and then an excerpt of the changes
// that fills what the budget leaves. The excerpt keeps every changed line
// it can, verbatim, and cuts unchanged context; whatever it leaves out is
// counted, per file and in total.
func Diff(r *summarize.Run) *summarize.Body {
	d := parseDiff(r.Stdout)
	b := &summarize.Body{}
	switch {
	case len(d.files) > 0:
		b.Count("files_changed", len(d.files))
		b.Count("hunks", d.hunks)
		b.Count("insertions", d.ins)
		b.Count("deletions", d.del)
	case d.summary != "":
		// --stat or --shortstat alone: git's own totals. There are no hunks
		// to count, so that field is left out rather than reported as 0.
		b.Count("files_changed", d.sumFiles)
		b.Count("insertions", d.sumIns)
		b.Count("deletions", d.sumDel)
	case showCounts(r, false):
		b.Count("files_changed", 0)
		b.Count("hunks", 0)
		b.Count("insertions", 0)
		b.Count("deletions", 0)
	}
	files := make([]string, len(d.files))
	for i := range d.files {
		files[i] = d.files[i].describe()
	}
	b.List("files", files, diffFilesCap)
	if d.summary != "" {
		b.Field("stat_summary", d.summary)
	}
	b.ListCapped("stat", d.stat)

	tail := func(b *summarize.Body) {
		b.List("other_lines", d.other, otherCap)
		addStderr(b, r.Stderr)
	}
	if d.hunks > 0 {
		// The fields that follow the excerpt, each count at its largest, so
		// that the room left for the excerpt is never overstated.
		var rest summarize.Body
		rest.Count("excerpt_changed_lines_omitted", d.ins+d.del)
		rest.Count("excerpt_context_lines_omitted", d.context)
		rest.Count("excerpt_files_omitted", len(d.files))
		tail(&rest)
		x := buildExcerpt(r.Stdout, d.files, r.BodyRoom()-len(b.Render())-len("excerpt:\n")-len(rest.Render()))
		b.List("excerpt", x.items, 0)
		b.Count("excerpt_changed_lines_omitted", x.changedOmitted)
		b.Count("excerpt_context_lines_omitted", x.contextOmitted)
		b.Count("excerpt_files_omitted", x.filesOmitted)
	}
	tail(b)
	return b
}

// diffFile is one file of a patch.
type diffFile struct {
	head    string   // "diff --git a/x b/x" or "diff --cc x", as printed
	path    string   // the file's (new) path
	markers []string // git's lines that say what happened to the file
	noLines bool     // binary or unmerged: git printed no lines to count
	cols    int      // width of the line prefix: 1, or the parents of a combined diff
	hunks   int
	ins     int
	del     int
	context int
	start   int // byte range of the file's hunks in the output
	end     int
}

// describe renders the file for the files list: its path, its +/- counts
// and its markers copied from git's extended header lines.
func (f *diffFile) describe() string {
	s := f.path
	if !f.noLines {
		s += " +" + strconv.Itoa(f.ins) + " -" + strconv.Itoa(f.del)
	}
	if len(f.markers) > 0 {
		s += " (" + strings.Join(f.markers, ", ") + ")"
	}
	return s
}

// diffParse is what parseDiff understood.
type diffParse struct {
	files                    []diffFile
	hunks                    int
	ins                      int
	del                      int
	context                  int
	stat                     summarize.Capped // --stat and --summary lines, their leading space removed
	summary                  string           // "N files changed, ..." from --stat or --shortstat
	sumFiles, sumIns, sumDel int
	other                    []string // non-blank lines outside any known structure
}

// newDiffParse returns an empty parse. Of the --stat lines it keeps
// those the block shows and counts the others: a pull's merge or a diff
// --stat has one per file.
func newDiffParse() *diffParse {
	return &diffParse{stat: summarize.NewCapped(diffStatCap)}
}

// markerPrefixes start the extended header lines copied into the files
// list: they say the file is new, deleted, renamed, copied, binary or had
// its mode changed.
var markerPrefixes = []string{
	"new file mode ", "deleted file mode ", "old mode ", "new mode ",
	"similarity index ", "dissimilarity index ", "rename from ", "copy from ",
	"Binary files ",
}

// skippedPrefixes start extended header lines that add nothing for an agent
// (blob ids, the ---/+++ names already in the diff line) or that the path
// already says ("rename to").
var skippedPrefixes = []string{"index ", "--- ", "+++ ", "mode "}

// Parser states.
const (
	diffOutside = iota // before any file, or after stat or unknown lines
	diffHeader         // after a "diff" line, before its first hunk
	diffHunk           // inside a hunk
	diffBinary         // inside a "GIT binary patch" payload
)

// parseDiff walks the output once and counts. Lines are only converted to
// strings when they are kept, so a huge patch costs little beyond one pass.
func parseDiff(out []byte) *diffParse {
	d := newDiffParse()
	var f *diffFile
	state := diffOutside
	for off, l := range byteLines(out) {
		switch {
		case state == diffHunk && f.hunkLine(l):
			// First: nearly every line of a big patch is one.
			f.end = off + len(l)
		case bytes.HasPrefix(l, []byte("diff --git ")),
			bytes.HasPrefix(l, []byte("diff --cc ")),
			bytes.HasPrefix(l, []byte("diff --combined ")):
			d.files = append(d.files, newDiffFile(string(l)))
			f = &d.files[len(d.files)-1]
			state = diffHeader
		case (state == diffHeader || state == diffHunk) && hunkCols(l) > 0:
			if f.hunks == 0 {
				f.cols = hunkCols(l)
				f.start = off
			}
			f.hunks++
			f.end = off + len(l)
			state = diffHunk
		case state == diffBinary:
			// The base85 payload of "GIT binary patch".
		case state == diffHeader:
			state = f.headerLine(string(l), d)
		default:
			state = diffOutside
			d.outsideLine(string(l))
		}
	}
	for i := range d.files {
		f := &d.files[i]
		d.hunks += f.hunks
		d.ins += f.ins
		d.del += f.del
		d.context += f.context
	}
	return d
}

// newDiffFile starts a file from its "diff" line. The path comes from that
// line; a rename or copy replaces it with its "rename to" / "copy to" path.
func newDiffFile(head string) diffFile {
	f := diffFile{head: head, cols: 1}
	if p, ok := strings.CutPrefix(head, "diff --git "); ok {
		f.path = gitDiffPath(p)
	} else {
		_, f.path, _ = strings.Cut(strings.TrimPrefix(head, "diff --"), " ")
	}
	return f
}

// gitDiffPath finds the path in the "a/x b/x" part of a "diff --git" line.
// When the file was not renamed both halves name the same path, so the
// line splits in its middle; the one-letter prefixes (a/ b/, or i/ w/ and
// the like) are removed when both halves carry one. Otherwise the part is
// kept whole rather than guessed at.
func gitDiffPath(s string) string {
	n := len(s) / 2
	if len(s)%2 == 0 || s[n] != ' ' {
		return s
	}
	a, b := s[:n], s[n+1:]
	if a == b {
		return b // --no-prefix
	}
	strip := func(p string) string {
		if len(p) > 3 && p[0] == '"' && p[2] == '/' {
			return `"` + p[3:]
		}
		if len(p) > 2 && p[1] == '/' {
			return p[2:]
		}
		return ""
	}
	if pa, pb := strip(a), strip(b); pb != "" && pa == pb {
		return pb
	}
	return s
}

// hunkCols returns the prefix width of the hunk that l opens ("@@ -" opens a
// plain hunk, "@@@ -" a combined one of two parents), or 0 when l opens none.
func hunkCols(l []byte) int {
	n := 0
	for n < len(l) && l[n] == '@' {
		n++
	}
	if n < 2 || !bytes.HasPrefix(l[n:], []byte(" -")) {
		return 0
	}
	return n - 1
}

// hunkLine counts l when it belongs to the current hunk. A line is changed
// when its prefix holds a '+' (an insertion) or a '-' (a deletion); in a
// combined diff one column per parent, and a line never holds both. An
// empty line is read as an empty context line, as git apply does.
func (f *diffFile) hunkLine(l []byte) bool {
	if len(l) > 0 && l[0] == '\\' { // "\ No newline at end of file"
		return true
	}
	if len(l) < f.cols {
		if len(l) == 0 {
			f.context++
			return true
		}
		return false
	}
	prefix := l[:f.cols]
	for _, c := range prefix {
		if c != ' ' && c != '+' && c != '-' {
			return false
		}
	}
	switch {
	case bytes.IndexByte(prefix, '+') >= 0:
		f.ins++
	case bytes.IndexByte(prefix, '-') >= 0:
		f.del++
	default:
		f.context++
	}
	return true
}

// headerLine reads an extended header line of f and returns the next state.
func (f *diffFile) headerLine(l string, d *diffParse) int {
	switch {
	case l == "GIT binary patch":
		f.markers = append(f.markers, l)
		f.noLines = true
		return diffBinary
	case hasAnyPrefix(l, markerPrefixes):
		f.markers = append(f.markers, l)
		f.noLines = f.noLines || strings.HasPrefix(l, "Binary files ")
	case strings.HasPrefix(l, "rename to "):
		f.path = strings.TrimPrefix(l, "rename to ")
	case strings.HasPrefix(l, "copy to "):
		f.path = strings.TrimPrefix(l, "copy to ")
	case hasAnyPrefix(l, skippedPrefixes):
	default:
		d.outsideLine(l)
		return diffOutside
	}
	return diffHeader
}

// summaryPrefixes start the lines of --summary (and of --stat with
// --summary), which describe file creations, deletions, renames and modes.
var summaryPrefixes = []string{" create mode ", " delete mode ", " rename ", " copy ", " mode change "}

// outsideLine reads a line outside any file's patch: --stat output, the
// "* Unmerged path" lines of a conflicted diff, or something else, which is
// kept as an other line.
func (d *diffParse) outsideLine(l string) {
	if !d.knownOutsideLine(l) {
		d.other = append(d.other, l)
	}
}

// knownOutsideLine takes l when it is blank, an unmerged path or --stat
// output, and reports whether it did; git pull hands it the lines of its
// merge, which has a diffstat.
func (d *diffParse) knownOutsideLine(l string) bool {
	switch {
	case strings.TrimSpace(l) == "":
	case strings.HasPrefix(l, "* Unmerged path "):
		d.files = append(d.files, diffFile{
			head:    l,
			path:    strings.TrimPrefix(l, "* Unmerged path "),
			markers: []string{"Unmerged path"},
			noLines: true,
		})
	case d.statSummary(l):
	case strings.HasPrefix(l, " ") && strings.Contains(l, " | "), hasAnyPrefix(l, summaryPrefixes):
		d.stat.Add(l[1:])
	default:
		return false
	}
	return true
}

// statSummary reads the closing line of --stat and --shortstat,
// " N files changed, X insertions(+), Y deletions(-)"; git leaves out a part
// whose count is zero.
func (d *diffParse) statSummary(l string) bool {
	// The count's first digit rules out each file's diffstat line, which
	// starts with a space too, before the line is searched or split.
	if len(l) < 2 || l[0] != ' ' || l[1] < '0' || l[1] > '9' {
		return false
	}
	return d.readStatSummary(l[1:])
}

// readStatSummary reads the closing line of --stat without its leading
// space.
func (d *diffParse) readStatSummary(s string) bool {
	first, _, _ := strings.Cut(s, ", ")
	files, ok := countOf(first, "file changed", "files changed")
	if !ok {
		return false
	}
	var ins, del int
	for _, p := range strings.Split(s, ", ")[1:] {
		if n, ok := countOf(p, "insertion(+)", "insertions(+)"); ok {
			ins = n
		} else if n, ok := countOf(p, "deletion(-)", "deletions(-)"); ok {
			del = n
		} else {
			return false
		}
	}
	d.summary, d.sumFiles, d.sumIns, d.sumDel = s, files, ins, del
	return true
}

// countOf reads "N WORDS" where WORDS is one of the given spellings.
func countOf(s string, words ...string) (int, bool) {
	num, rest, ok := strings.Cut(s, " ")
	if !ok || !summarize.IsDigits(num) {
		return 0, false
	}
	for _, w := range words {
		if rest == w {
			n, err := strconv.Atoi(num)
			return n, err == nil
		}
	}
	return 0, false
}
