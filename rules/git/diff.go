package git

import (
	"bytes"
	"slices"
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
//
// The counts of the patch are counts of lines (Tally): behind a filter or
// past the capture limit they are counts of what was seen. A --stat
// summary line is git's own total (Count), printed only when it is there.
func Diff(r *summarize.Run) *summarize.Body {
	d := parseDiff(r.Stdout, cutOf(r))
	b := &summarize.Body{}
	switch {
	case len(d.files) > 0:
		b.Tally("files_changed", d.headers())
		b.Tally("hunks", d.hunks)
		b.Tally("insertions", d.ins)
		b.Tally("deletions", d.del)
	case d.summary != "":
		// --stat or --shortstat alone: git's own totals. There are no hunks
		// to count, so that field is left out rather than reported as 0.
		b.Count("files_changed", d.sumFiles)
		b.Count("insertions", d.sumIns)
		b.Count("deletions", d.sumDel)
	case showCounts(r, false):
		b.Tally("files_changed", 0)
		b.Tally("hunks", 0)
		b.Tally("insertions", 0)
		b.Tally("deletions", 0)
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
	if d.hasBody() {
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

// diffFile is one file of a patch, or a section of one whose "diff" line
// the output lacks (headless): the end of a file's patch that a tail
// starts in, or changes a grep kept without their file's header.
type diffFile struct {
	head     string   // "diff --git a/x b/x" or "diff --cc x", as printed; "" when headless
	path     string   // the file's (new) path; for a headless section, the one its "+++" line names, if any
	headless bool     // the output has no "diff" line for it
	markers  []string // git's lines that say what happened to the file
	noLines  bool     // binary or unmerged: git printed no lines to count
	cols     int      // width of the line prefix: 1, or the parents of a combined diff
	hunks    int
	ins      int
	del      int
	context  int
	segs     []span   // byte ranges of the file's hunk lines in the output
	open     bool     // the last line read extended the last of segs
	header   []string // a headless section's header lines, for closeHeadless
}

// span is a byte range of the output.
type span struct{ start, end int }

// headlessMark starts the files item and the excerpt item of a headless
// section: shrinkrun's words, in brackets as the excerpt's other markers.
const headlessMark = "[no diff --git line]"

// describe renders the file for the files list: its path, its +/- counts
// and its markers copied from git's extended header lines.
func (f *diffFile) describe() string {
	s := f.path
	if f.headless {
		s = strings.TrimSpace(headlessMark + " " + f.path)
	}
	if !f.noLines {
		s += " +" + strconv.Itoa(f.ins) + " -" + strconv.Itoa(f.del)
	}
	if len(f.markers) > 0 {
		s += " (" + strings.Join(f.markers, ", ") + ")"
	}
	return s
}

// excerptHead is the first line of the file's excerpt item: its "diff"
// line, or for a headless section the mark and the path if known.
func (f *diffFile) excerptHead() string {
	if f.headless {
		return strings.TrimSpace(headlessMark + " " + f.path)
	}
	return f.head
}

// body extends the file's hunk lines with the line at off.
func (f *diffFile) body(off, n int) {
	if f.open {
		f.segs[len(f.segs)-1].end = off + n
		return
	}
	f.segs = append(f.segs, span{off, off + n})
	f.open = true
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

// headers counts the files whose header the output shows.
func (d *diffParse) headers() int {
	n := 0
	for i := range d.files {
		if !d.files[i].headless {
			n++
		}
	}
	return n
}

// hasBody reports whether a file has hunk lines, for the excerpt.
func (d *diffParse) hasBody() bool {
	for i := range d.files {
		if len(d.files[i].segs) > 0 {
			return true
		}
	}
	return false
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

// diffCut is what a cut may have left out of the patch: lines before its
// first one (a tail, a grep, the capture limit: Run.MayLackStart), and
// lines anywhere (gaps: a grep, or the middle the capture limit dropped).
type diffCut struct{ start, gaps bool }

// cutOf is what r's cut may have left out of its patch.
func cutOf(r *summarize.Run) diffCut {
	return diffCut{start: r.MayLackStart(), gaps: r.Cut.Any || r.StdoutTruncated}
}

// parseDiff walks the output once and counts. Lines are only converted to
// strings when they are kept, so a huge patch costs little beyond one pass.
//
// On a cut output it places what it can. When the start may be missing,
// the hunk lines (and extended header lines) before the first "diff" line
// are a headless section: the end of a file whose header was cut. When
// lines may be missing anywhere, hunk lines count without their hunk
// header, and a "--- a/x" or "+++ b/x" line where a hunk line could be
// starts a new headless section: the file header a grep kept without its
// "diff" line (a deleted line reading "-- a/x" is far less likely). A
// headless section without a change, a hunk header or a marker (the end of
// a commit message before git show's patch) is not a section: its lines
// are other lines.
func parseDiff(out []byte, cut diffCut) *diffParse {
	d := newDiffParse()
	p := diffParser{d: d, out: out, cut: cut, cur: -1, guess: -1}
	for off, l := range byteLines(out) {
		p.line(off, l)
	}
	p.closeHeadless()
	for i := range d.files {
		f := &d.files[i]
		d.hunks += f.hunks
		d.ins += f.ins
		d.del += f.del
		d.context += f.context
	}
	return d
}

// diffParser is parseDiff's walk.
type diffParser struct {
	d     *diffParse
	out   []byte
	cut   diffCut
	state int
	cur   int // the index in d.files of the file being read, or -1
	guess int // firstHunkCols(out), once needed; -1 before
}

func (p *diffParser) file() *diffFile {
	if p.cur < 0 {
		return nil
	}
	return &p.d.files[p.cur]
}

// line reads the line l at offset off.
func (p *diffParser) line(off int, l []byte) {
	p.place(l)
	f, inBody := p.file(), false
	switch {
	case p.state == diffHunk && f.hunkLine(l):
		// First: nearly every line of a big patch is one.
		f.body(off, len(l))
		inBody = true
	case bytes.HasPrefix(l, []byte("diff --git ")),
		bytes.HasPrefix(l, []byte("diff --cc ")),
		bytes.HasPrefix(l, []byte("diff --combined ")):
		p.start(newDiffFile(string(l)), diffHeader)
	case (p.state == diffHeader || p.state == diffHunk) && hunkCols(l) > 0:
		if len(f.segs) == 0 {
			f.cols = hunkCols(l)
		}
		f.hunks++
		f.body(off, len(l))
		inBody = true
		p.state = diffHunk
	case p.state == diffBinary:
		// The base85 payload of "GIT binary patch".
	case p.state == diffHeader:
		p.state = f.headerLine(string(l), p.d)
	default:
		p.state = diffOutside
		p.d.outsideLine(string(l))
	}
	if f := p.file(); f != nil && !inBody {
		f.open = false
	}
}

// place decides, on a cut output, where a line goes that a whole patch
// would not have there: the start of a headless section, or hunk lines
// whose hunk header (or file header) the cut removed. Where lines may be
// missing anywhere, a file header's line or a hunk header after the lines
// of another file (an index line, a lone "--- a/x", an "@@" line a grep
// kept without their "diff" line) starts a headless section, so that the
// changes after it are not counted in the file before.
func (p *diffParser) place(l []byte) {
	f := p.file()
	switch {
	case !p.cut.start && !p.cut.gaps:
	case f == nil:
		if !p.cut.start {
			return
		}
		if isHeaderShape(l) {
			p.headless(diffHeader)
		} else if isBodyShape(l) {
			p.headless(diffHunk)
		}
	case !p.cut.gaps:
	case p.state != diffHeader && p.state != diffBinary && isNameLine(l),
		p.state == diffOutside && isHeaderShape(l),
		p.state == diffHunk && !isBodyShape(l) && hunkCols(l) == 0 && isHeaderShape(l):
		p.headless(diffHeader)
	case (p.state == diffOutside || p.state == diffHeader) && isBodyShape(l) && !isNameLine(l):
		if len(f.segs) == 0 && !strings.HasPrefix(f.head, "diff --git ") {
			f.cols = p.cols()
		}
		p.state = diffHunk
	}
}

// start makes f the file being read, in state st.
func (p *diffParser) start(f diffFile, st int) {
	p.closeHeadless()
	p.d.files = append(p.d.files, f)
	p.cur, p.state = len(p.d.files)-1, st
}

// headless starts a headless section.
func (p *diffParser) headless(st int) {
	p.start(diffFile{headless: true, cols: p.cols()}, st)
}

// cols is the prefix width a section's lines have before any hunk header.
func (p *diffParser) cols() int {
	if p.guess < 0 {
		p.guess = firstHunkCols(p.out)
	}
	return p.guess
}

// closeHeadless ends the file being read. A headless section that holds
// no change, hunk header or marker is taken back, and its lines become
// other lines.
func (p *diffParser) closeHeadless() {
	f := p.file()
	if f == nil || !f.headless || f.ins+f.del+f.hunks+len(f.markers) > 0 {
		return
	}
	f = new(*f)
	// Only this section: an unmerged path read after it is a file of its own.
	p.d.files = slices.Delete(p.d.files, p.cur, p.cur+1)
	p.cur = -1
	for _, l := range f.header {
		p.d.outsideLine(l)
	}
	for _, s := range f.segs {
		for _, l := range byteLines(p.out[s.start:s.end]) {
			p.d.outsideLine(string(l))
		}
	}
}

// firstHunkCols is the prefix width of the first hunk header in out, for
// the lines of a headless section that come before any: 1 when there is
// none (a plain diff).
func firstHunkCols(out []byte) int {
	for _, l := range byteLines(out) {
		if n := hunkCols(l); n > 0 {
			return n
		}
	}
	return 1
}

// isBodyShape reports whether l can be a line of a hunk: a change,
// context, or git's "\ No newline" note. An empty line is not taken: it
// would read as context anywhere. A --stat line, which starts with a
// space too, is not one.
func isBodyShape(l []byte) bool {
	return len(l) > 0 && bytes.IndexByte([]byte(" +-\\"), l[0]) >= 0 && !isStatLine(l)
}

// isHeaderShape reports whether l is one of the lines of a file's header
// after its "diff" line, or a hunk header.
func isHeaderShape(l []byte) bool {
	s := string(l)
	return hunkCols(l) > 0 || isNameLine(l) || hasAnyPrefix(s, markerPrefixes) || s == "GIT binary patch" ||
		strings.HasPrefix(s, "index ") || strings.HasPrefix(s, "rename to ") || strings.HasPrefix(s, "copy to ")
}

// isNameLine reports whether l is a "--- a/x" or "+++ b/x" line of a file
// header: the path has git's one-letter prefix (a/, b/, or i/, w/, c/, o/
// with diff.mnemonicPrefix), quoted or not, or is /dev/null. A hunk line
// can look the same only if its content starts with "-- a/" or "++ b/".
func isNameLine(l []byte) bool {
	if !bytes.HasPrefix(l, []byte("--- ")) && !bytes.HasPrefix(l, []byte("+++ ")) {
		return false
	}
	p := bytes.TrimPrefix(l[4:], []byte(`"`))
	return string(p) == "/dev/null" || len(p) > 2 && p[0] >= 'a' && p[0] <= 'z' && p[1] == '/'
}

// isStatLine reports whether l is a --stat line, " PATH | N +-" or
// " PATH | Bin A -> B bytes".
func isStatLine(l []byte) bool {
	i := bytes.LastIndex(l, []byte(" | "))
	if len(l) == 0 || l[0] != ' ' || i < 0 {
		return false
	}
	rest := bytes.TrimLeft(l[i+3:], " ")
	if bytes.HasPrefix(rest, []byte("Bin")) {
		return true
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && len(bytes.Trim(rest[n:], " +-")) == 0
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
	case f.headless && isNameLine([]byte(l)):
		f.header = append(f.header, l)
		if p := headlessPath(l); p != "" && (f.path == "" || strings.HasPrefix(l, "+++ ")) {
			f.path = p
		}
	case hasAnyPrefix(l, skippedPrefixes):
		if f.headless {
			f.header = append(f.header, l)
		}
	default:
		d.outsideLine(l)
		return diffOutside
	}
	return diffHeader
}

// headlessPath is the path a name line of a headless section gives, ""
// for /dev/null. The "+++ b/x" line's wins over the "--- a/x" line's (a
// rename's new path); a deleted file's "+++" is /dev/null.
func headlessPath(l string) string {
	p := l[4:]
	if p == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(p, `"`) {
		return `"` + p[3:]
	}
	return p[2:]
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
