package python

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchMypy recognizes mypy and python -m mypy (matchMypy).
func MatchMypy(argv []string) classify.Answer { return matchTool(argv, "mypy", matchMypy) }

// mypyFormats are the mypy options that change the shape of the report:
// JSON output, messages wrapped over several lines with source snippets,
// context lines between errors, and type-stub installation (pip output and
// a prompt). mypy accepts any unambiguous abbreviation of a long option,
// so a word that abbreviates one of these matches it too.
var mypyFormats = []string{
	"--output", "--pretty", "--show-error-context", "--install-types",
	"--help", "--version",
}

// matchMypy accepts mypy with any options except mypyFormats, -h, -V and
// -O (--output).
func matchMypy(argv []string, from int) classify.Answer {
	if j := longOrAbbrev(argv, from, mypyFormats, "hVO"); j >= 0 {
		return classify.Refuse(j, "option %q changes the output format", argv[j])
	}
	return classify.Accept()
}

// Caps of bash.mypy. Every error line is required by the boundary check,
// so the cap only decides which are shown whole and which are counted.
const (
	mypyMaxDiagnostics = 50
	// mypyMaxNotes bounds the notes kept under one error: an overload
	// mismatch lists every variant.
	mypyMaxNotes      = 5
	mypyMaxFiles      = 20
	mypyMaxLoneNotes  = 10
	mypyMaxErrorCodes = 30
)

// mypyDiagnostic is one error line and the note lines mypy printed right
// after it, before the next error.
type mypyDiagnostic struct {
	line      string
	notes     []string
	lostNotes int
}

// Mypy summarizes bash.mypy: mypy's closing line ("Found 8 errors in 3
// files (checked 4 source files)", "Success: no issues found ..."), exact
// counts of error and note lines, the error codes and files with their
// counts, and every error line with the notes that follow it. Diagnostics
// go to stdout and fatal errors to stderr; both are read, so 2>&1 gives
// the same lists. Of the diagnostics, only the first mypyMaxDiagnostics,
// which are all the block can show, are kept; the others are counted.
func Mypy(r *summarize.Run) *summarize.Body {
	var (
		summary   string
		diags     []*mypyDiagnostic // the first mypyMaxDiagnostics errors
		errors    int
		loneNotes = summarize.NewCapped(mypyMaxLoneNotes)
		notes     int
		// inError tells that the last diagnostic was an error, which owns
		// the notes that follow; curNotes counts those it keeps, and cur
		// is the error when it is one of diags.
		inError   bool
		curNotes  int
		cur       *mypyDiagnostic
		lostNotes bool // some error had more notes than it keeps
		files     = newRunCounter()
		codes     = newRunCounter()
		// other holds each stream's lines that are neither diagnostics
		// nor the closing line: what mypy prints when it cannot check.
		other [2][]string
	)
	for i, stream := range [][]byte{r.Stdout, r.Stderr} {
		inError = false
		for l := range summarize.EachLine(stream) {
			kind, path, ok := mypyDiag(l)
			switch {
			case ok && kind == "error":
				errors++
				inError, curNotes, cur = true, 0, nil
				if len(diags) < mypyMaxDiagnostics {
					cur = &mypyDiagnostic{line: l}
					diags = append(diags, cur)
				}
				files.add(path)
				if c := mypyCode(l); c != "" {
					codes.add(c)
				}
			case ok && kind == "note":
				notes++
				switch {
				case !inError:
					loneNotes.Add(l)
				case curNotes < mypyMaxNotes:
					curNotes++
					if cur != nil {
						cur.notes = append(cur.notes, l)
					}
				default:
					lostNotes = true
					if cur != nil {
						cur.lostNotes++
					}
				}
			case ok:
				inError = false // a warning: neither counted nor a note's owner
			case isMypySummary(l):
				inError, summary = false, l
			default:
				inError = false
				other[i] = append(other[i], l)
			}
		}
	}

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	if summary != "" {
		b.Field("summary", summary)
	}
	// On a whole output the lines counted are every diagnostic; on a cut
	// one they are those seen, and the totals are the closing line's
	// when it is visible.
	seen := ""
	if r.Partial() {
		seen = "_seen"
		if n, m, ok := mypyFound(summary); ok {
			b.Count("errors", n)
			b.Count("files_with_errors", m)
		}
	}
	b.Tally("errors", errors)
	b.Tally("notes", notes)
	b.Tally("files_with_errors", len(files.order))
	if len(codes.order) > 0 {
		s, lost := mypyCodes(codes.values())
		b.Field("error_codes"+seen, s)
		if lost > 0 {
			b.Count("error_codes_omitted", lost)
		}
	}
	if len(files.order) > 1 {
		items := make([]string, min(len(files.order), mypyMaxFiles))
		for i := range items {
			f := files.order[i]
			items[i] = f + ": " + strconv.Itoa(*files.counts[f])
		}
		b.ListHead("error_files"+seen, items, len(files.order))
	}
	b.ListCapped("notes_without_error", loneNotes)

	tail := 0
	if summary == "" && (!r.Exited || r.ExitCode != 0) {
		tail = pyTailLines // no closing line: a crash or a usage error, told last
	}
	output, outputLost := pyExcerpt(other[0], isPyMustKeep, pyMaxMustKeep, tail)
	stderr, stderrLost := pyExcerpt(other[1], isPyMustKeep, pyMaxMustKeep, pyTailLines)

	room := r.BodyRoom() - len(b.Render()) -
		pyExcerptSize("output_excerpt", output, outputLost) - pyExcerptSize("stderr", stderr, stderrLost)
	items := make([]string, len(diags))
	for i, d := range diags {
		items[i] = d.line
		if len(d.notes) > 0 {
			items[i] = strings.Join(append([]string{d.line}, d.notes...), "\n")
		}
	}
	if lostNotes {
		room -= len("note_lines_omitted: 0000000000\n")
	}
	n, _ := summarize.FitHead("diagnostics", items, errors, mypyMaxDiagnostics, room)
	shownLost := 0
	for _, d := range diags[:n] {
		shownLost += d.lostNotes
	}
	summarize.AddHead(b, "diagnostics", items, errors, n)
	if shownLost > 0 {
		b.Count("note_lines_omitted", shownLost)
	}
	addPyExcerpt(b, "output_excerpt", output, outputLost)
	addPyExcerpt(b, "stderr", stderr, stderrLost)
	return b
}

// mypyDiag reads a diagnostic line "path:LINE[:COL...]: error: message":
// its kind (error, note or warning) and path. The path may be any word
// with a line number, or a file name without one ("a.py: error: Duplicate
// module named"); "mypy: error: ..." from the command line is not a
// diagnostic. The location holds no blank, so its ": KIND: " is at the
// line's first blank: the line is not searched for each kind.
func mypyDiag(l string) (kind, path string, ok bool) {
	sp := 0
	for sp < len(l) && l[sp] != ' ' && l[sp] != '\t' {
		sp++
	}
	if sp < 2 || sp == len(l) || l[sp-1] != ':' || l[sp] != ' ' {
		return "", "", false
	}
	rest := l[sp+1:]
	for _, k := range [...]string{"error", "note", "warning"} {
		if len(rest) > len(k)+1 && rest[len(k)] == ':' && rest[len(k)+1] == ' ' && rest[:len(k)] == k {
			kind = k
			break
		}
	}
	if kind == "" {
		return "", "", false
	}
	path = l[:sp-1]
	numbered := false
	for {
		j := strings.LastIndexByte(path, ':')
		if j < 0 || !summarize.IsDigits(path[j+1:]) {
			break
		}
		path, numbered = path[:j], true
	}
	if path != "" && (numbered || strings.IndexByte(path, '.') >= 0 || strings.IndexByte(path, '/') >= 0) {
		return kind, path, true
	}
	return "", "", false
}

// isMypyError matches the error lines the boundary check requires: a
// diagnostic of a .py or .pyi file. It is stricter than mypyDiag so that
// no other tool's "x: error:" line is taken for mypy's.
func isMypyError(l string) bool {
	kind, path, ok := mypyDiag(l)
	return ok && kind == "error" && (strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi"))
}

// mypyCode returns the error code at the end of an error line, "arg-type"
// in "...; expected "int"  [arg-type]". A code holds no bracket, so its
// "  [" is before the line's last '['.
func mypyCode(l string) string {
	if !strings.HasSuffix(l, "]") {
		return ""
	}
	i := strings.LastIndexByte(l, '[')
	if i < 2 || l[i-2] != ' ' || l[i-1] != ' ' {
		return ""
	}
	code := l[i+1 : len(l)-1]
	if code == "" {
		return ""
	}
	for j := 0; j < len(code); j++ {
		if c := code[j]; c == ' ' || c == ']' {
			return ""
		}
	}
	return code
}

// runCounter counts strings and keeps them in the order they first come
// in. mypy prints a file's errors together, often of one code: a run of
// the same string costs a comparison, not a hash.
type runCounter struct {
	order  []string
	counts map[string]*int
	last   string
	lastN  *int
}

func newRunCounter() *runCounter {
	return &runCounter{counts: map[string]*int{}}
}

func (c *runCounter) add(s string) {
	if c.lastN == nil || s != c.last {
		n := c.counts[s]
		if n == nil {
			n = new(int)
			c.counts[s] = n
			c.order = append(c.order, s)
		}
		c.last, c.lastN = s, n
	}
	*c.lastN++
}

// values returns the counts by string.
func (c *runCounter) values() map[string]int {
	m := make(map[string]int, len(c.counts))
	for s, n := range c.counts {
		m[s] = *n
	}
	return m
}

// mypyCodes renders the error codes with their counts, most frequent
// first ("return-value 2, arg-type 1"), at most mypyMaxErrorCodes of
// them, and how many codes it left out.
func mypyCodes(codes map[string]int) (string, int) {
	keys := slices.SortedFunc(maps.Keys(codes), func(a, b string) int {
		if c := cmp.Compare(codes[b], codes[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	lost := max(0, len(keys)-mypyMaxErrorCodes)
	parts := make([]string, 0, len(keys)-lost)
	for _, k := range keys[:len(keys)-lost] {
		parts = append(parts, k+" "+strconv.Itoa(codes[k]))
	}
	return strings.Join(parts, ", "), lost
}

// mypyFound reads the totals of a closing line: N and M of "Found N
// errors in M files (...)", 0 and 0 for "Success: no issues found ...".
func mypyFound(l string) (errors, files int, ok bool) {
	if strings.HasPrefix(l, "Success: no issues found") {
		return 0, 0, true
	}
	rest, ok := strings.CutPrefix(l, "Found ")
	if !ok {
		return 0, 0, false
	}
	n, rest, _ := strings.Cut(rest, " ")
	_, rest, ok = strings.Cut(rest, " in ")
	m, _, _ := strings.Cut(rest, " ")
	if !ok || !summarize.IsDigits(n) || !summarize.IsDigits(m) {
		return 0, 0, false
	}
	errors, _ = strconv.Atoi(n)
	files, _ = strconv.Atoi(m)
	return errors, files, true
}

// isMypySummary matches mypy's closing line.
func isMypySummary(l string) bool {
	return strings.HasPrefix(l, "Success: no issues found") ||
		(strings.HasPrefix(l, "Found ") && strings.Contains(l, " error") && strings.Contains(l, " in "))
}
