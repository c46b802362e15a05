package node

import (
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchESLint recognizes eslint and npx eslint (matchESLint).
func MatchESLint(argv []string) classify.Answer { return matchRunner(argv, "eslint", matchESLint) }

// eslintFormats are the ESLint options that change or redirect the report,
// print configuration or debugging output (-f and --format are handled apart:
// stylish, the default, is kept).
var eslintFormats = []string{
	"--output-file", "-o", "--print-config", "--inspect-config", "--init", "--env-info",
	"--debug", "--mcp",
}

// matchESLint accepts eslint with the default stylish format, given or not.
func matchESLint(argv []string) classify.Answer {
	for j := 1; j < len(argv); j++ {
		a := argv[j]
		switch {
		case (a == "-f" || a == "--format") && j+1 < len(argv) && argv[j+1] == "stylish":
			j++
		case a == "--format=stylish":
		case a == "-f" || strings.HasPrefix(a, "--format"):
			return classify.Refuse(j, "option %q changes the output format", a)
		}
	}
	return matchTool(argv, eslintFormats)
}

// Caps of bash.eslint: the rows kept for one file (errors first), the
// files listed, and the rows that no file's path precedes, which the budget
// may cut further.
const (
	maxESLintRows    = 20
	maxESLintFiles   = 50
	maxESLintUnfiled = 100
)

// ESLint summarizes bash.eslint (the stylish format): the number of error
// and warning rows and of files with problems, ESLint's "✖ N problems" and
// "potentially fixable" lines, the files with their rows, and the lines of
// ESLint's own (a crash, a missing config, --max-warnings). Files with
// errors come first; in each file the errors are kept before the warnings.
// Rows that no file's path precedes (a pipe into grep kept only the rows)
// are counted all the same, and listed apart, errors first.
func ESLint(r *summarize.Run) *summarize.Body {
	var e eslintLog
	summarize.ReadStreams(&e, r.Stdout, r.Stderr)
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	if n, ok := e.problemCounts(); ok && r.Partial() {
		// A pipe may have cut rows off: the totals are ESLint's own.
		b.Count("errors", n.errors)
		b.Count("warnings", n.warnings)
	} else {
		b.Tally("errors", e.errors)
		b.Tally("warnings", e.warnings)
	}
	b.Tally("files", len(e.files))
	if e.problems != "" {
		b.Field("problems", e.problems)
	}
	if e.fixable != "" {
		b.Field("fixable", e.fixable)
	}

	// Files with errors first, in the order ESLint printed them.
	var order []*eslintFile
	for _, errs := range []bool{true, false} {
		for _, f := range e.files {
			if (f.errors > 0) == errs {
				order = append(order, f)
			}
		}
	}
	items := make([]string, len(order))
	for i, f := range order {
		if i < maxESLintFiles {
			items[i] = f.item()
		} else {
			items[i] = f.path
		}
	}
	unfiled := e.unfiledItems()
	room := r.BodyRoom() - len(b.Render()) - len("rows_omitted: 0000000000\n")
	n, size := summarize.FitList("by_file", items, maxESLintFiles, room)
	room -= size
	nUnfiled, size := summarize.FitList("unfiled_rows", unfiled, maxESLintUnfiled, room)
	nMessages, _ := summarize.FitList("messages", e.messages, maxNodeMessages, room-size)
	summarize.AddList(b, "by_file", items, n)
	lost := 0
	for i, f := range order {
		if i < n {
			lost += len(f.rows) - min(len(f.rows), maxESLintRows)
		} else {
			lost += len(f.rows)
		}
	}
	if lost > 0 {
		b.Count("rows_omitted", lost)
	}
	summarize.AddList(b, "unfiled_rows", unfiled, nUnfiled)
	summarize.AddList(b, "messages", e.messages, nMessages)
	return b
}

// eslintTotals are the counts of ESLint's "✖ N problems (E errors, W
// warnings)" line.
type eslintTotals struct{ errors, warnings int }

// problemCounts reads the counts of the problems line, when there was one
// and it says them: "✖ 9 problems (4 errors, 5 warnings)", "✖ 1 problem
// (1 error, 0 warnings)".
func (e *eslintLog) problemCounts() (n eslintTotals, ok bool) {
	_, in, found := strings.Cut(e.problems, " (")
	in, closed := strings.CutSuffix(in, ")")
	if !found || !closed {
		return n, false
	}
	seen := 0
	for part := range strings.SplitSeq(in, ", ") {
		num, word, _ := strings.Cut(part, " ")
		v, err := strconv.Atoi(num)
		if err != nil || v > maxCount {
			return n, false
		}
		switch word {
		case "error", "errors":
			n.errors, seen = v, seen|1
		case "warning", "warnings":
			n.warnings, seen = v, seen|2
		}
	}
	return n, seen == 3
}

// unfiledItems returns the rows no file's path preceded, errors first, each
// group in the order printed.
func (e *eslintLog) unfiledItems() []string {
	items := make([]string, 0, len(e.unfiled))
	for _, errs := range []bool{true, false} {
		for _, row := range e.unfiled {
			if row.error == errs {
				items = append(items, row.text)
			}
		}
	}
	return items
}

// eslintFile is a file header and its rows.
type eslintFile struct {
	path   string
	rows   []eslintRow
	errors int
}

type eslintRow struct {
	text  string
	error bool
}

// item renders the file and at most maxESLintRows of its rows, errors
// before warnings, each group in the order printed.
func (f *eslintFile) item() string {
	keepErrors := min(f.errors, maxESLintRows)
	keepWarnings := min(len(f.rows)-f.errors, maxESLintRows-keepErrors)
	out := []string{f.path}
	for _, row := range f.rows {
		if row.error {
			if keepErrors > 0 {
				out = append(out, row.text)
				keepErrors--
			}
		} else if keepWarnings > 0 {
			out = append(out, row.text)
			keepWarnings--
		}
	}
	return strings.Join(out, "\n")
}

// eslintLog reads the stylish format one line at a time: a file's path at
// the margin, its rows indented by two spaces, a blank line, and at the end
// the "✖ N problems" summary.
type eslintLog struct {
	files            []*eslintFile
	errors, warnings int
	problems         string
	fixable          string
	messages         []string
	header           string      // a line at the margin that may be a file's path
	cur              *eslintFile // the file whose rows are being read
	unfiled          []eslintRow // rows that no file's path preceded
}

func (e *eslintLog) Feed(l string) {
	t := strings.TrimSpace(l)
	if sev, ok := eslintSeverity(l); ok {
		row := eslintRow{text: t, error: sev == "error"}
		if row.error {
			e.errors++
		} else {
			e.warnings++
		}
		if e.cur == nil && e.header == "" {
			// No path above: a pipe (grep) left the rows alone, or a
			// blank line ended the file.
			e.unfiled = append(e.unfiled, row)
			return
		}
		if e.cur == nil {
			e.cur = &eslintFile{path: e.header}
			e.files = append(e.files, e.cur)
			e.header = ""
		}
		e.cur.rows = append(e.cur.rows, row)
		if row.error {
			e.cur.errors++
		}
		return
	}
	e.flush()
	e.cur = nil
	switch {
	case t == "":
	case strings.HasPrefix(t, "✖ ") && strings.Contains(t, " problem"):
		e.problems = t
	case strings.Contains(t, "potentially fixable with the `--fix` option"):
		e.fixable = t
	case l[0] != ' ':
		e.header = l
	default:
		e.messages = append(e.messages, t)
	}
}

// EndStream ends the last file of a stream.
func (e *eslintLog) EndStream() { e.flush() }

// flush turns a margin line that no row followed into a message.
func (e *eslintLog) flush() {
	if e.header != "" {
		e.messages = append(e.messages, e.header)
		e.header = ""
	}
}
