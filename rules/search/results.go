package search

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The parser of search results. It reads stdout a line at a time, with
// the layout the command's options give, and sorts each line into one of:
//
//   - a result: a matching line (or, with -o, a match), or a context line,
//     of a file it names, or of the one file searched when lines carry no
//     name;
//   - a file name (-l, -L), a count (-c);
//   - a notice that a binary file matches, which has no lines;
//   - a message of the tool (an error such as "Permission denied", a
//     warning), which 2>&1 or a terminal puts among the results;
//   - a line it cannot place: a context line whose group's match a filter
//     cut away, or a line of no shape it knows.
//
// Nothing is dropped: every line is counted in one of these, and the lines
// of the last two kinds are kept in the block (capped, with the count of
// the rest).

// fileResult is one file's results.
type fileResult struct {
	path string
	// matches and context count its result lines; lines holds the first
	// keepPerFile of them (both kinds, and the "--" between groups of a
	// file, in order), each as the block shows it.
	matches, context int
	lines            []string
	max              int    // how many lines it keeps: no block shows more
	count            string // the count it printed (-c): digits as printed
}

// results is what the parser found in a run's output.
type results struct {
	layout layout
	files  []*fileResult
	index  map[string]*fileResult
	// lone collects the results of a search whose lines carry no file name.
	lone *fileResult

	matchLines, contextLines int
	binary                   summarize.Capped
	messages                 summarize.Capped
	unplaced                 summarize.Capped
	other                    summarize.Capped
	// paths holds -l and -L's file names; zeroCounts the -c lines of files
	// without a match.
	paths      summarize.Capped
	zeroCounts int
	countSum   int

	// group is the file of the current group of lines (between "--"
	// separators, or a file's lines under its heading), and pending the
	// context lines read before the group's first match named it.
	group   *fileResult
	pending []string
}

// Caps of the lists the block shows besides the files.
const (
	maxBinary   = 20
	maxMessages = 30
	maxUnplaced = 20
	maxOther    = 20
	maxPaths    = 2000
)

func newResults(l layout) *results {
	return &results{
		layout:   l,
		index:    map[string]*fileResult{},
		binary:   summarize.NewCapped(maxBinary),
		messages: summarize.NewCapped(maxMessages),
		unplaced: summarize.NewCapped(maxUnplaced),
		other:    summarize.NewCapped(maxOther),
		paths:    summarize.NewCapped(maxPaths),
	}
}

// parse reads a run's streams: stdout's results, then stderr, which holds
// only the tool's messages and binary notices.
func parse(r *summarize.Run, l layout) *results {
	if l.names == guessNames {
		l.names = guess(r.Stdout, l)
	}
	res := newResults(l)
	for line := range summarize.EachLine(r.Stdout) {
		res.feed(line)
	}
	res.endGroup()
	for line := range summarize.EachLine(r.Stderr) {
		if line == "" {
			continue
		}
		if !res.notice(line) {
			res.messages.Add(line)
		}
	}
	return res
}

// guess decides whether the lines of a search of one path, root, carry
// file names: they do when root is a directory, and then every result line
// starts with root's prefix; a file's lines carry no name, and a line of
// text that starts with "root/" is not seen in practice.
func guess(stdout []byte, l layout) nameMode {
	prefix := rootPrefix(l.root)
	seen := false
	for line := range summarize.EachLine(stdout) {
		if line == "" || l.context && line == "--" || isMessage(line, l.tool) || binaryNotice(line, l.tool) {
			continue
		}
		if l.heading && seen && !strings.HasPrefix(line, prefix) {
			// Under headings only the names start with the prefix; the
			// first line decides.
			return withNames
		}
		if !strings.HasPrefix(line, prefix) {
			return noNames
		}
		seen = true
	}
	return withNames
}

// feed reads one line of stdout.
func (res *results) feed(line string) {
	l := &res.layout
	if res.notice(line) {
		return
	}
	if isMessage(line, l.tool) {
		res.messages.Add(line)
		return
	}
	switch l.mode {
	case filesMode, withoutMode:
		if line != "" {
			res.paths.Add(line)
		}
		return
	case countMode:
		res.countLine(line)
		return
	}
	if l.context && line == "--" {
		res.endGroup()
		return
	}
	switch {
	case l.names == noNames:
		res.loneLine(line)
	case l.heading:
		res.headingLine(line)
	default:
		res.namedLine(line)
	}
}

// notice takes a binary file's notice: grep's "grep: FILE: binary file
// matches" (3.5 and later, on stderr) and "Binary file FILE matches"
// (git grep, older grep), rg's "FILE: binary file matches (found "\0"
// byte around offset N)".
func (res *results) notice(line string) bool {
	if !binaryNotice(line, res.layout.tool) {
		return false
	}
	res.binary.Add(line)
	return true
}

func binaryNotice(line, tool string) bool {
	switch tool {
	case "rg":
		return strings.Contains(line, "binary file matches (found ") && strings.HasSuffix(line, ")")
	case "grep":
		return strings.HasPrefix(line, "grep: ") && strings.HasSuffix(line, ": binary file matches") ||
			strings.HasPrefix(line, "Binary file ") && strings.HasSuffix(line, " matches")
	default:
		return strings.HasPrefix(line, "Binary file ") && strings.HasSuffix(line, " matches")
	}
}

// isMessage reports whether a line of stdout is one of the tool's own
// messages rather than a result: 2>&1 and a terminal put its stderr there.
func isMessage(line, tool string) bool {
	switch tool {
	case "rg":
		return strings.HasPrefix(line, "rg: ") || isOSError(line)
	case "grep":
		return strings.HasPrefix(line, "grep: ")
	default:
		return strings.HasPrefix(line, "fatal: ") || strings.HasPrefix(line, "error: ") || strings.HasPrefix(line, "warning: ")
	}
}

// isOSError matches ripgrep 13's errors about a file, which carry no "rg:"
// (14 adds it): "PATH: Permission denied (os error 13)". The line starts
// with the path, not with white space.
func isOSError(line string) bool {
	if line == "" || line[0] == ' ' || line[0] == '\t' || !strings.HasSuffix(line, ")") {
		return false
	}
	i := strings.LastIndex(line, " (os error ")
	return i > 0 && isDigits(line[i+len(" (os error "):len(line)-1]) && strings.Contains(line[:i], ": ")
}

// file returns path's results, added in the order files come.
func (res *results) file(path string) *fileResult {
	if f := res.index[path]; f != nil {
		return f
	}
	f := &fileResult{path: path, max: maxPerFileContext}
	res.index[path] = f
	res.files = append(res.files, f)
	return f
}

func (f *fileResult) keep(line string) {
	if len(f.lines) < f.max {
		f.lines = append(f.lines, shown(line))
	}
}

func (res *results) match(f *fileResult, line string) {
	f.matches++
	res.matchLines++
	f.keep(line)
}

func (res *results) contextLine(f *fileResult, line string) {
	f.context++
	res.contextLines++
	f.keep(line)
}

// endGroup closes the current group at a "--" line or the end of the
// output: context lines that no match placed are kept as lines the parser
// could not place. Under headings a group ends, but the file goes on until
// the empty line after it.
func (res *results) endGroup() {
	for _, p := range res.pending {
		res.unplaced.Add(p)
	}
	res.pending = res.pending[:0]
	if !res.layout.heading {
		res.group = nil
	}
}

// loneLine reads a result of a search whose lines carry no file name:
// "12:text" and "12-text" with line numbers, the text alone without.
func (res *results) loneLine(line string) {
	if res.lone == nil {
		res.lone = &fileResult{path: res.layout.only1, max: maxLone}
	}
	f := res.lone
	if !res.layout.numbers {
		if res.layout.context {
			// A context line cannot be told from a match.
			res.unplaced.Add(line)
			return
		}
		res.match(f, line)
		return
	}
	switch sep := numbered(line, res.layout.column); sep {
	case ':':
		res.match(f, line)
	case '-':
		res.contextLine(f, line)
	default:
		res.other.Add(line)
	}
}

// numbered returns the separator after the line number (and, with column,
// the column) a line starts with: ':' for a match, '-' for a context line,
// 0 for neither.
func numbered(line string, column bool) byte {
	n := digits(line)
	if n == 0 || n == len(line) {
		return 0
	}
	sep := line[n]
	if sep != ':' && sep != '-' {
		return 0
	}
	if column && sep == ':' {
		rest := line[n+1:]
		if m := digits(rest); m == 0 || m == len(rest) || rest[m] != ':' {
			return 0
		}
	}
	return sep
}

func digits(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// namedLine reads a result that starts with its file's name: a match
// "FILE:12:text" (":text" without line numbers), or, with context, a
// context line "FILE-12-text". A context line names its file with "-",
// which a name may hold too, so it is read against the file of its group:
// the file of the match before it, or of the match after it, for the
// context before a group's first match, which waits in pending until then.
func (res *results) namedLine(line string) {
	l := &res.layout
	if g := res.group; g != nil {
		if rest, ok := strings.CutPrefix(line, g.path); ok {
			switch resultSep(rest, l) {
			case ':':
				res.match(g, line)
				return
			case '-':
				res.contextLine(g, line)
				return
			}
		}
	}
	if path, ok := splitNamed(line, l); ok {
		f := res.file(path)
		if l.context {
			res.place(f)
			res.group = f
		}
		res.match(f, line)
		return
	}
	if l.context {
		res.pending = append(res.pending, line)
		return
	}
	res.other.Add(line)
}

// place gives f the context lines waiting for a match: those that name
// f; the others the parser cannot place.
func (res *results) place(f *fileResult) {
	for _, p := range res.pending {
		if rest, ok := strings.CutPrefix(p, f.path); ok && resultSep(rest, &res.layout) == '-' {
			res.contextLine(f, p)
		} else {
			res.unplaced.Add(p)
		}
	}
	res.pending = res.pending[:0]
}

// resultSep reads what follows a file's name on a result line: ':' for a
// match, '-' for a context line, 0 for neither. With line numbers the
// separator comes before and after the number, "-12-" or ":12:" (and a
// column, ":12:3:", with --column, on matches only).
func resultSep(rest string, l *layout) byte {
	if rest == "" || rest[0] != ':' && rest[0] != '-' {
		return 0
	}
	sep := rest[0]
	if !l.numbers {
		return sep
	}
	n := digits(rest[1:])
	if n == 0 || 1+n == len(rest) || rest[1+n] != sep {
		return 0
	}
	return sep
}

// splitNamed reads a match line's file name: what comes before the first
// ":LINE:" with line numbers, before the first ':' without, after the
// "REV:" of a git grep revision. A name holding ":12:" (or a ':', without
// line numbers) is read short: the line is still counted and kept as
// printed, under that shorter name.
func splitNamed(line string, l *layout) (string, bool) {
	start := 0
	for _, rev := range l.revs {
		if len(line) > len(rev) && line[len(rev)] == ':' && strings.HasPrefix(line, rev) {
			start = len(rev) + 1
			break
		}
	}
	for i := start; i < len(line); i++ {
		j := strings.IndexByte(line[i:], ':')
		if j < 0 {
			return "", false
		}
		i += j
		if !l.numbers {
			return line[:i], i > start
		}
		if n := digits(line[i+1:]); n > 0 && i+1+n < len(line) && line[i+1+n] == ':' && i > start {
			return line[:i], true
		}
	}
	return "", false
}

// headingLine reads rg's heading layout (a terminal, --heading, --pretty):
// a file's name on its own line, then its lines "12:text" and "12-text"
// ("--" between groups), then an empty line.
func (res *results) headingLine(line string) {
	l := &res.layout
	if line == "" {
		res.endGroup()
		res.group = nil
		return
	}
	sep := byte(0)
	if l.numbers {
		sep = numbered(line, l.column)
	}
	if res.group == nil {
		if sep != 0 {
			// The heading was cut away (a tail, a grep of the lines).
			res.unplaced.Add(line)
			return
		}
		res.group = res.file(line)
		return
	}
	switch {
	case !l.numbers && l.context:
		// Without numbers a context line cannot be told from a match.
		res.unplaced.Add(line)
	case !l.numbers || sep == ':':
		res.match(res.group, line)
	case sep == '-':
		res.contextLine(res.group, line)
	default:
		res.other.Add(line)
	}
}

// countLine reads -c's "FILE:N", or "N" alone for one file. The count is
// the line's last field, so the name may hold ':'.
func (res *results) countLine(line string) {
	if res.layout.names == noNames {
		if n, ok := atoi(line); ok {
			if res.lone == nil {
				res.lone = &fileResult{path: res.layout.only1, max: 1}
			}
			res.lone.count = line
			res.countSum += n
			return
		}
		res.other.Add(line)
		return
	}
	i := strings.LastIndexByte(line, ':')
	if i <= 0 {
		res.other.Add(line)
		return
	}
	n, ok := atoi(line[i+1:])
	if !ok {
		res.other.Add(line)
		return
	}
	res.countSum += n
	if n == 0 {
		res.zeroCounts++
		return
	}
	f := res.file(line[:i])
	f.count = line[i+1:]
	f.lines = append(f.lines[:0], shown(line))
}

// atoi reads a count: ASCII digits, not too many for an int.
func atoi(s string) (int, bool) {
	if !isDigits(s) || len(s) > 15 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// maxLineBytes is the longest result line the block copies whole: a
// longer one (minified code, data) is cut at a character boundary and
// followed by " [... N more bytes]".
const maxLineBytes = 200

// shown is a result line as the block copies it.
func shown(line string) string {
	line = summarize.Clean(line)
	if len(line) <= maxLineBytes {
		return line
	}
	cut := maxLineBytes
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return line[:cut] + " [... " + strconv.Itoa(len(line)-cut) + " more bytes]"
}
