package summarize

import (
	"encoding/json"
	"iter"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file reads what the go command and the compiler print about packages
// that do not build (go_build, go_vet and the build step of go_test), the
// runtime's panic and race traces, and test2json's events. Patterns come
// from real go 1.26 output (testdata/corpus/go.sh).

// Caps of the go rules' diagnostics and traces.
const (
	// maxGoDiags bounds the build diagnostics listed; the compiler stops
	// at ten errors a package, so fifty covers several broken packages.
	maxGoDiags = 50
	// maxGoDiagLines bounds the continuation lines of one diagnostic
	// (have/want, import chains, vet -c context).
	maxGoDiagLines = 8
	// maxGoTraceMessage bounds a panic's message lines (the panic value,
	// "[signal ...]", the tests a timeout found running).
	maxGoTraceMessage = 12
	// maxGoUserFrames is how many frames of the user's code a trace keeps:
	// where the panic happened and the test that got there.
	maxGoUserFrames = 4
	// maxGoTraceScan bounds the frames read from one trace to find the
	// user's; a stack overflow prints thousands of the same frame.
	maxGoTraceScan = 200
)

// goDiags collects build diagnostics: each is a message line at column 0
// with the tab-indented lines under it, and the "# pkg" header lines that
// go prints before the first message of each package stay with that
// message, so the list reads grouped by package as the raw output does.
// Only the items a list can show are kept: past maxGoDiags they are
// counted, and their lines let go.
type goDiags struct {
	items    [][]string // the first maxGoDiags items
	total    int        // every item, kept or not
	body     int        // the last item's lines but its headers
	errors   int        // items whose message has a file.go:line location
	messages int        // items whose message has none
	headers  int        // runs of "# " header lines: one per package reported
	pending  []string
	open     bool // the last item takes continuation lines
	lost     int  // continuation lines left out of their item
}

// header records a "# pkg" line (vet prints two: "# pkg" and "# [pkg]").
func (d *goDiags) header(l string) {
	if len(d.pending) == 0 {
		d.headers++
	}
	d.pending = append(d.pending, l)
	d.open = false
}

// message starts a new item with l.
func (d *goDiags) message(l string) {
	if d.keeps() {
		d.items = append(d.items, append(d.pending, l))
		d.pending = nil
	}
	d.endItem()
	d.body = 1
	d.open = true
	// The compiler's "too many errors" notice carries the location of the
	// last error it reported; it is not an error of its own.
	if goLocation(l) != "" && !strings.HasSuffix(l, ": too many errors") {
		d.errors++
	} else {
		d.messages++
	}
}

// keeps reports whether the next item is kept.
func (d *goDiags) keeps() bool {
	return len(d.items) < maxGoDiags
}

// endItem counts an item and empties pending, which a kept item took.
func (d *goDiags) endItem() {
	d.total++
	d.pending = d.pending[:0]
}

// continues reports whether l continues the last item: a tab-indented line,
// or a "12\tsource" context line of go vet -c.
func (d *goDiags) continues(l string) bool {
	if !d.open || l == "" {
		return false
	}
	if l[0] == '\t' {
		return true
	}
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && i < len(l) && l[i] == '\t'
}

// cont appends a continuation line to the last item, within its cap.
// Headers and messages start with neither a tab nor a digit, so the last
// item's lines are its headers, its message and its continuation lines.
func (d *goDiags) cont(l string) {
	if d.body > maxGoDiagLines {
		d.lost++
		return
	}
	d.body++
	if d.total == len(d.items) {
		last := &d.items[len(d.items)-1]
		*last = append(*last, l)
	}
}

// list renders the kept items, the first maxGoDiags of d.total, as list
// items.
func (d *goDiags) list() []string {
	items := make([]string, len(d.items))
	for i, it := range d.items {
		items[i] = strings.Join(it, "\n")
	}
	return items
}

// Feed reads one line of go build or go vet output.
func (d *goDiags) Feed(l string) {
	switch {
	case l == "":
		d.open = false
	case strings.HasPrefix(l, "# "):
		d.header(l)
	case d.continues(l):
		d.cont(l)
	case isGoProgress(l):
	default:
		d.message(l)
	}
}

// EndStream makes a header that no message followed an item of its own.
func (d *goDiags) EndStream() {
	if len(d.pending) > 0 {
		if d.keeps() {
			d.items = append(d.items, d.pending)
			d.pending = nil
		}
		d.endItem()
	}
	d.open = false
}

// isGoProgress matches the go command's download progress, which says
// nothing about the result.
func isGoProgress(l string) bool {
	return strings.HasPrefix(l, "go: downloading ") || strings.HasPrefix(l, "go: extracting ") ||
		strings.HasPrefix(l, "go: finding ")
}

// goLocation returns the "file.go:line[:col]" a compiler or vet message
// starts with ("vet: " may come first), or "".
func goLocation(l string) string {
	s := strings.TrimPrefix(l, "vet: ")
	i := strings.Index(s, ".go:")
	if i <= 0 || hasGoBlank(s[:i]) {
		return ""
	}
	end := i + 3
	for part := 0; part < 2; part++ {
		j := end + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == end+1 || j >= len(s) || s[j] != ':' {
			break
		}
		end = j
	}
	if end == i+3 || !strings.HasPrefix(s[end:], ": ") {
		return ""
	}
	return s[:end]
}

// goIndentOf returns the length of the spaces and tabs l starts with.
// strings.TrimLeft with a cutset of two builds the set on every call.
func goIndentOf(l string) int {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	return i
}

// hasGoBlank reports whether s holds a space or a tab, as
// strings.ContainsAny(s, " \t") does without building a set per call.
func hasGoBlank(s string) bool {
	return strings.IndexByte(s, ' ') >= 0 || strings.IndexByte(s, '\t') >= 0
}

// goTrace is a panic ("panic: ...", "fatal error: ...") or a data race
// report ("WARNING: DATA RACE") with what an agent needs of its goroutine
// dump: the message and the first frames in the user's code, each under
// the header of its goroutine. The other dump lines are only counted.
type goTrace struct {
	head    string
	message []string
	race    bool // a race report, which ends at its closing "=====" line
	inMsg   bool // before the blank line that ends a panic's message
	done    bool // a race report's closing line was read

	frames    []goFrame // frames read, at most maxGoTraceScan
	fn        string    // a function line waiting for its file line
	header    string    // the current goroutine header
	dumpLines int       // non-blank lines after the message
	lost      int       // message lines past the cap
}

type goFrame struct {
	header   string // goroutine header the frame is under
	fn, file string // the function line and its file:line line
}

const goRaceHead = "WARNING: DATA RACE"

func newGoTrace(head string) *goTrace {
	race := head == goRaceHead
	return &goTrace{head: head, race: race, inMsg: !race}
}

// feed reads the next line of the trace and reports false, without
// taking it, when the line belongs to what follows the trace.
func (t *goTrace) feed(l string) bool {
	switch {
	case t.done || !t.race && endsGoTrace(l):
		return false
	case t.race && l == "==================":
		t.done = true
	case t.inMsg && l == "":
		t.inMsg = false
	case t.inMsg:
		if len(t.message) < maxGoTraceMessage {
			t.message = append(t.message, l)
		} else {
			t.lost++
		}
	case strings.TrimSpace(l) == "":
	case t.fn != "" && (l[0] == '\t' || strings.HasPrefix(l, "      ")):
		// The file:line under a function: tab-indented in a panic,
		// six spaces in a race report.
		t.dumpLines++
		if len(t.frames) < maxGoTraceScan {
			t.frames = append(t.frames, goFrame{t.header, t.fn, l})
		}
		t.fn = ""
	case l[0] != ' ' && l[0] != '\t' && strings.HasSuffix(l, ":"):
		// "goroutine 7 [running]:", "runtime stack:", "Read at 0x... by
		// goroutine 9:", "Goroutine 9 (running) created at:".
		t.dumpLines++
		t.header, t.fn = l, ""
	default:
		// A function line, "created by ...", "...additional frames
		// elided...".
		t.dumpLines++
		t.fn = l
	}
	return true
}

// endsGoTrace reports whether l ends a panic's dump: the test binary's exit
// and the lines go test prints after it.
func endsGoTrace(l string) bool {
	if _, _, ok := goPackageResult(l); ok {
		return true
	}
	return strings.HasPrefix(l, "exit status ") || l == "FAIL" || l == "PASS" ||
		strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "# ")
}

// item renders the trace as a list item, and returns how many of its
// non-blank lines it leaves out.
func (t *goTrace) item() (string, int) {
	lines := append([]string{t.head}, t.message...)
	root := goRoot(t.frames)
	header, frames, dump := "", 0, 0
	for _, f := range t.frames {
		if frames == maxGoUserFrames {
			break
		}
		if !isUserFrame(f, root) {
			continue
		}
		if f.header != header && f.header != "" {
			lines = append(lines, f.header)
			header = f.header
			dump++
		}
		lines = append(lines, f.fn, f.file)
		frames++
		dump += 2
	}
	return strings.Join(lines, "\n"), t.lost + t.dumpLines - dump
}

// goRoot finds GOROOT's source directory ("/usr/local/go/src/") in the file
// of a frame of package runtime or testing, which every test binary's
// trace has; "" when none was read.
func goRoot(frames []goFrame) string {
	for _, f := range frames {
		file := strings.TrimSpace(f.file)
		pkg := goFramePackage(f.fn)
		for _, std := range []string{"runtime", "testing"} {
			if i := strings.LastIndex(file, "/src/"+std+"/"); i >= 0 && pkg == std {
				return file[:i+len("/src/")]
			}
		}
	}
	return ""
}

// isUserFrame tells a frame of the code under test from one of the
// runtime, the testing package or the generated test main. A frame is the
// standard library's when its file is under GOROOT; without a GOROOT in
// the trace, when its package path has no dot in its first element and
// its file sits under a ".../src/" directory.
func isUserFrame(f goFrame, root string) bool {
	file := strings.TrimSpace(f.file)
	pkg := goFramePackage(f.fn)
	switch {
	case pkg == "" || strings.HasPrefix(file, "_testmain.go:"):
		return false
	case root != "":
		return !strings.HasPrefix(file, root)
	}
	first, _, _ := strings.Cut(pkg, "/")
	return strings.Contains(first, ".") || !strings.Contains(file, "/src/")
}

// goFramePackage returns the package path of a frame's function line
// ("example.com/demo/store.(*Store).Inc(...)", "created by
// testing.(*T).Run in goroutine 1"), or "" for one without a package
// ("panic(...)").
func goFramePackage(fn string) string {
	fn = strings.TrimPrefix(strings.TrimSpace(fn), "created by ")
	if i := strings.Index(fn, " in goroutine "); i >= 0 {
		fn = fn[:i]
	}
	if i := strings.LastIndex(fn, "("); i >= 0 && strings.HasSuffix(fn, ")") {
		fn = fn[:i] // the arguments
	}
	if i := strings.Index(fn, "["); i >= 0 {
		fn = fn[:i] // type arguments, which may hold import paths
	}
	slash := strings.LastIndex(fn, "/")
	dot := strings.Index(fn[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}

// goPackageResult parses go test's line for one package: "ok  \tpkg\t0.01s",
// "FAIL\tpkg\t0.01s", "FAIL\tpkg [build failed]", "?   \tpkg\t[no test
// files]" and, under -cover, "\tpkg\t\tcoverage: 0.0% of statements" for a
// package without tests. kind is 'o', 'F' or '?'.
func goPackageResult(l string) (kind byte, pkg string, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(l, "ok  \t"):
		kind, rest = 'o', l[5:]
	case strings.HasPrefix(l, "FAIL\t"):
		kind, rest = 'F', l[5:]
	case strings.HasPrefix(l, "?   \t"):
		kind, rest = '?', l[5:]
	case strings.HasPrefix(l, "\t") && strings.Contains(l, "\t\tcoverage: "):
		kind, rest = '?', l[1:]
	default:
		return 0, "", false
	}
	pkg, _, _ = strings.Cut(rest, "\t")
	pkg, _, _ = strings.Cut(pkg, " ")
	return kind, pkg, pkg != ""
}

// goEvent is one test2json event (go test -json), as far as the rules read
// it: the text it carries and what it belongs to.
type goEvent struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
	// quoted tells that Output is still spelled as in the line, between
	// its quotes, escapes and all: most events' text is a line and its
	// "\n", which goPackageText keeps as a slice of the event's line.
	quoted bool
}

// textArena holds the text of the events whose Output has escapes
// besides "\n": their unescaped strings are cut from a few large blocks
// instead of allocated one by one.
type textArena struct {
	b strings.Builder
}

// unquote returns the text of a string body that scanJSONString accepted,
// its escapes undone. The block's bytes before its length are never
// written again, so the strings cut from it stay as they are.
func (a *textArena) unquote(s string) string {
	if a.b.Cap()-a.b.Len() < len(s) { // the text is never longer than s
		a.b = strings.Builder{}
		a.b.Grow(max(len(s), 16<<10))
	}
	start := a.b.Len()
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 {
			a.b.WriteString(s)
			return a.b.String()[start:]
		}
		a.b.WriteString(s[:i])
		switch c := s[i+1]; c {
		case 'u':
			r, _ := jsonHex4(s[i+2:])
			a.b.WriteRune(r)
			s = s[i+6:]
			continue
		case 'b':
			a.b.WriteByte('\b')
		case 'f':
			a.b.WriteByte('\f')
		case 'n':
			a.b.WriteByte('\n')
		case 'r':
			a.b.WriteByte('\r')
		case 't':
			a.b.WriteByte('\t')
		default: // '"', '\\', '/'
			a.b.WriteByte(c)
		}
		s = s[i+2:]
	}
}

// decodeGoEvent reads a line as json.Unmarshal into a goEvent would, and
// reports false where that fails. Lines as test2json writes them are
// scanned by hand: json.Unmarshal on every event was most of go_test's
// time and most of the boundary check's on a -json log.
func decodeGoEvent(l string) (goEvent, bool) {
	if e, ok := scanGoEvent(l); ok {
		return e, true
	}
	var e goEvent
	if json.Unmarshal([]byte(l), &e) != nil {
		return goEvent{}, false
	}
	return e, true
}

// scanGoEvent reads an event in the form test2json writes it: a flat
// object with no blank between its tokens, keys without escapes or
// non-ASCII bytes, the event's fields strings or null and the other
// values strings, numbers, true, false or null; only Output may hold
// escapes, and no string a \u escape of a UTF-16 surrogate or invalid
// UTF-8. It reports false for any other line, valid JSON or not, which
// json.Unmarshal must judge.
func scanGoEvent(l string) (e goEvent, ok bool) {
	s, ok := strings.CutPrefix(l, "{")
	if !ok {
		return e, false
	}
	for {
		key, n := scanJSONKey(s)
		if n == 0 || n == len(s) || s[n] != ':' {
			return e, false
		}
		s = s[n+1:]
		field := e.field(key)
		switch {
		case field == nil:
			n = skipJSONScalar(s)
		case strings.HasPrefix(s, "null"):
			n = len("null") // leaves the field as it was
		default:
			v, escaped, m := scanJSONString(s)
			n = m
			if escaped && field != &e.Output {
				return e, false
			}
			*field = v
			if field == &e.Output {
				e.quoted = escaped
			}
		}
		if n == 0 || n == len(s) {
			return e, false
		}
		switch s[n] {
		case ',':
			s = s[n+1:]
		case '}':
			return e, n+1 == len(s)
		default:
			return e, false
		}
	}
}

// field returns the field a key sets, matched without regard to ASCII case
// as encoding/json matches it, or nil for a key no field takes.
func (e *goEvent) field(key string) *string {
	switch key {
	case "Time", "Elapsed":
		return nil
	case "Action":
		return &e.Action
	case "Package":
		return &e.Package
	case "Test":
		return &e.Test
	case "Output":
		return &e.Output
	case "ImportPath":
		return &e.ImportPath
	}
	for _, f := range []struct {
		name string
		p    *string
	}{{"Action", &e.Action}, {"Package", &e.Package}, {"ImportPath", &e.ImportPath}, {"Test", &e.Test}, {"Output", &e.Output}} {
		if strings.EqualFold(key, f.name) {
			return f.p
		}
	}
	return nil
}

// scanJSONKey returns the key s starts with and its length in s; n is 0
// unless the key is printable ASCII without escapes. A key in another form
// goes to json.Unmarshal, which matches keys to fields by Unicode case
// folding.
func scanJSONKey(s string) (key string, n int) {
	if s == "" || s[0] != '"' {
		return "", 0
	}
	j := jsonPlainEnd(s, 1)
	if j == len(s) || s[j] != '"' {
		return "", 0
	}
	return s[1:j], j + 1
}

// scanJSONString reads the JSON string s starts with and returns what is
// between its quotes, whether that holds escapes, and the string's length
// in s; n is 0 when s does not start with a string scanGoEvent takes.
func scanJSONString(s string) (body string, escaped bool, n int) {
	if s == "" || s[0] != '"' {
		return "", false, 0
	}
	ascii := true
	for i := 1; ; i++ {
		i = jsonPlainEnd(s, i)
		if i == len(s) {
			return "", false, 0
		}
		switch c := s[i]; {
		case c == '"':
			if !ascii && !utf8.ValidString(s[1:i]) {
				return "", false, 0
			}
			return s[1:i], escaped, i + 1
		case c == '\\':
			if i+1 == len(s) {
				return "", false, 0
			}
			escaped = true
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if r, ok := jsonHex4(s[i+2:]); !ok || utf16.IsSurrogate(r) {
					return "", false, 0
				}
				i += 5
			default:
				return "", false, 0
			}
		case c < ' ':
			return "", false, 0
		default:
			ascii = false
		}
	}
}

// load64 returns the first eight bytes of s as one word, the first byte
// lowest; the compiler makes it one load.
func load64(s string) uint64 {
	s = s[:8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// jsonPlainEnd returns the index of the first byte of s from i on that
// jsonPlain does not mark, or len(s). It tests eight bytes a step.
func jsonPlainEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := jsonSpecials(load64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && jsonPlain[s[i]] {
		i++
	}
	return i
}

// jsonSpecials returns a word whose lowest set bit is the high bit of the
// first byte of w that jsonPlain does not mark (a control character, a
// quote, a backslash or a byte of a multi-byte character), or 0 when all
// eight are plain. A byte's subtractions borrow from its high bit when it
// is below 0x20, '"' or '\\'; a borrow may also flag the bytes after
// such a byte, never one before it.
func jsonSpecials(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	borrows := (w - ones*' ') | (quote - ones) | (backslash - ones)
	return (borrows&^w | w) & highs
}

// jsonPlain marks the bytes a JSON string holds as themselves: not its
// quote, a backslash, a control character or part of a multi-byte
// character. jsonPlainEnd tests the bytes after the last whole word with
// it.
var jsonPlain = func() (plain [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		plain[c] = c != '"' && c != '\\'
	}
	return plain
}()

// jsonHex4 reads the four hex digits of a \u escape.
func jsonHex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// skipJSONScalar returns the length of the string, number, true, false or
// null s starts with, or 0.
func skipJSONScalar(s string) int {
	switch {
	case s == "":
		return 0
	case s[0] == '"':
		_, _, n := scanJSONString(s)
		return n
	case strings.HasPrefix(s, "true"), strings.HasPrefix(s, "null"):
		return 4
	case strings.HasPrefix(s, "false"):
		return 5
	}
	return jsonNumberLen(s)
}

// jsonNumberLen returns the length of the JSON number s starts with, or 0.
func jsonNumberLen(s string) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i += len(DigitsPrefix(s[i:]))
	default:
		return 0
	}
	if i < len(s) && s[i] == '.' {
		d := len(DigitsPrefix(s[i+1:]))
		if d == 0 {
			return 0
		}
		i += 1 + d
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := len(DigitsPrefix(s[i:]))
		if d == 0 {
			return 0
		}
		i += d
	}
	return i
}

// goTextKey derives goTextOf's text.
var goTextKey = NewKey("go text")

// goTextOf returns goText of b's lines, b one of r's streams, decoded
// once per Run: the go test rule and the go finder both read it, and
// decoding the events was half of a go test -json summary. Without events
// and without a line to split it is r.Lines(b) itself.
func goTextOf(r *Run, b []byte) []string {
	return Derive(r, goTextKey, b, func(b []byte) []string {
		return goTextOrTails(r.Lines(b), mayRunIntoGo(b))
	})
}

// goTextLines yields the lines of go test's text output that a stream
// carries. Lines of test2json events are replaced by the text of their
// Output fields, joined per package (build output per import path) and
// released when that package's run or build ends, so that packages whose
// events interleave come out one after the other, as without -json; an
// event that is one of go's marker lines starts a line of its own. Other
// lines are yielded in place. A line where a test's output without a
// final newline ran into go's own text is yielded as two (goTailStart).
func goTextLines(ls []string) iter.Seq[string] {
	return func(yield0 func(string) bool) {
		// Each line is yielded as two when test output ran into go's own
		// text on it.
		yield := func(l string) bool {
			if i := goTailStart(l); i > 0 {
				return yield0(l[:i]) && yield0(l[i:])
			}
			return yield0(l)
		}
		if !hasGoEvents(ls) {
			for _, l := range ls {
				if !yield(l) {
					return
				}
			}
			return
		}
		texts := map[string]*goPackageText{}
		var order []string
		var arena textArena
		// Events of one package come in runs: its text is looked up again
		// only when the key changes.
		var lastKey string
		var last *goPackageText
		for _, l := range ls {
			var e goEvent
			ok := false
			if strings.HasPrefix(l, `{"`) {
				e, ok = decodeGoEvent(l)
			}
			if !ok || e.Action == "" {
				if !yield(l) {
					return
				}
				continue
			}
			key := e.Package
			if key == "" {
				key = "build " + e.ImportPath
			}
			if last == nil || key != lastKey {
				last = texts[key]
				if last == nil {
					last = &goPackageText{}
					texts[key] = last
					order = append(order, key)
				}
				lastKey = key
			}
			if last.partial.Len() > 0 && startsGoMarker(e.Output, e.quoted, &arena) {
				// test2json gives go's lines events of their own: what a
				// test printed without a final newline ends before them.
				last.endLine("")
			}
			if e.quoted {
				last.addQuoted(e.Output, &arena)
			} else {
				last.add(e.Output, false)
			}
			released := e.Action == "build-fail" ||
				e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip")
			if released && !last.release(yield) {
				return
			}
		}
		for _, key := range order {
			if !texts[key].release(yield) {
				return
			}
		}
	}
}

// goText returns the lines goTextLines yields: ls itself when the stream
// holds no test2json event and no line to split.
func goText(ls []string) []string { return goTextOrTails(ls, true) }

// mayRunIntoGo reports whether a stream has any of the text goTailStart
// looks for, so that goText need not look on every line: most outputs
// summarized are not go's.
func mayRunIntoGo(b []byte) bool { return ContainsAny(b, goTailMarkers) }

var goTailMarkers = [][]byte{[]byte("--- "), []byte("=== "), []byte(".go:")}

// goTextOrTails is goText, looking for lines that ran into go's text only
// when tails is set.
func goTextOrTails(ls []string, tails bool) []string {
	if hasGoEvents(ls) {
		return slices.Collect(goTextLines(ls))
	}
	if !tails {
		return ls
	}
	for i, l := range ls {
		if goTailStart(l) > 0 {
			text := make([]string, i, len(ls)+len(ls)/8+1)
			copy(text, ls[:i])
			for _, l := range ls[i:] {
				if j := goTailStart(l); j > 0 {
					text = append(text, l[:j], l[j:])
				} else {
					text = append(text, l)
				}
			}
			return text
		}
	}
	return ls
}

// startsGoMarker reports whether the text of an Output field (spelled as
// in its line when quoted) is one line of go's test markers, a result or
// a run marker.
func startsGoMarker(out string, quoted bool, arena *textArena) bool {
	if !strings.HasPrefix(out, "--- ") && !strings.HasPrefix(out, "=== ") {
		return false
	}
	if quoted {
		out = arena.unquote(out)
	}
	return goMarkerTail(strings.TrimSuffix(out, "\n")) == 0
}

// goTailStart returns where go test's own text starts on a line that a
// test's output without a final newline ran into, or 0. go test writes
// its lines after whatever a test printed, so fmt.Print("loading...")
// before a test ends gives
//
//	loading...--- FAIL: TestLoad (0.00s)
//	loading...=== RUN   TestSections/footer       (-v)
//	loading...    report_test.go:24: total = 7    (-v: t.Error's line)
//
// The tail must have go's exact shape and run to the end of the line, and
// what precedes it must not be blank: a line that starts with go's text
// is read as it is. A reason is only looked for at the line's first
// ".go:", with go -v's indentation of four spaces before it.
func goTailStart(l string) int {
	i := goMarkerTail(l)
	if i < 0 {
		i = goReasonTail(l)
	}
	if i <= 0 || goIndentOf(l) >= i {
		return 0
	}
	return i
}

// goMarkerTail returns the index of the test result ("--- FAIL: name
// (0.00s)", PASS, SKIP) or run marker ("=== RUN   name", PAUSE, CONT,
// NAME) that l ends with, or -1. A test's name holds no blank: go
// replaces them with underscores.
func goMarkerTail(l string) int {
	sp := strings.LastIndexByte(l, ' ')
	if sp < 0 {
		return -1
	}
	last := l[sp+1:]
	if last == "" || strings.IndexByte(last, '\t') >= 0 {
		return -1
	}
	for _, m := range [...]string{"=== RUN   ", "=== PAUSE ", "=== CONT  ", "=== NAME  "} {
		if strings.HasSuffix(l[:sp+1], m) {
			return sp + 1 - len(m)
		}
	}
	// "(0.00s)", after the name.
	if len(last) < 4 || last[0] != '(' || !strings.HasSuffix(last, "s)") || !isGoDuration(last[1:len(last)-2]) {
		return -1
	}
	sp2 := strings.LastIndexByte(l[:sp], ' ')
	if sp2 < 0 || sp2+1 == sp || strings.IndexByte(l[sp2+1:sp], '\t') >= 0 {
		return -1
	}
	for _, m := range [...]string{"--- FAIL: ", "--- PASS: ", "--- SKIP: "} {
		if strings.HasSuffix(l[:sp2+1], m) {
			return sp2 + 1 - len(m)
		}
	}
	return -1
}

// goReasonTail returns the index of the "    file.go:12: message" that l
// ends with after other text, taken at l's first ".go:", or -1.
func goReasonTail(l string) int {
	i := strings.Index(l, ".go:")
	if i < 0 {
		return -1
	}
	w := i
	for w > 0 && l[w-1] != ' ' && l[w-1] != '\t' {
		w--
	}
	if w < 4 || l[w-4:w] != "    " || goLocLen(l[w:], 1) == 0 {
		return -1
	}
	return w - 4
}

// goPackageText is the text of one package's events since its last
// release, as lines splits text: its complete lines, and what follows the
// last newline. A line that one event carries whole is a slice of the
// event's line, not a copy.
type goPackageText struct {
	lines   []string
	partial strings.Builder
}

// add appends text, and a newline when nl.
func (p *goPackageText) add(text string, nl bool) {
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		p.endLine(text[:i])
		text = text[i+1:]
	}
	if nl {
		p.endLine(text)
	} else {
		p.partial.WriteString(text)
	}
}

// addQuoted appends an Output field as its line spells it: the text
// between its "\n" escapes is unescaped only when it holds other escapes.
func (p *goPackageText) addQuoted(raw string, arena *textArena) {
	for {
		i := indexNewlineEscape(raw)
		seg := raw
		if i >= 0 {
			seg = raw[:i]
		}
		if strings.IndexByte(seg, '\\') >= 0 {
			seg = arena.unquote(seg)
		}
		if i < 0 {
			p.add(seg, false)
			return
		}
		p.add(seg, true)
		raw = raw[i+2:]
	}
}

// indexNewlineEscape returns the index of the first "\n" escape in the body
// of a JSON string, or -1.
func indexNewlineEscape(s string) int {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			return -1
		}
		i += j
		if s[i+1] == 'n' {
			return i
		}
		i += 2 // a \u escape's hex digits hold no backslash
	}
}

// endLine ends the current line with tail.
func (p *goPackageText) endLine(tail string) {
	line := tail
	if p.partial.Len() > 0 {
		p.partial.WriteString(tail)
		// The line keeps the builder's bytes: Reset lets go of them and
		// never writes them again.
		line = p.partial.String()
		p.partial.Reset()
	}
	p.lines = append(p.lines, strings.TrimSuffix(line, "\r"))
}

// release yields the text's lines and empties it. It reports false when
// yield did.
func (p *goPackageText) release(yield func(string) bool) bool {
	for _, l := range p.lines {
		if !yield(l) {
			return false
		}
	}
	p.lines = p.lines[:0]
	if p.partial.Len() > 0 {
		l := strings.TrimSuffix(p.partial.String(), "\r")
		p.partial.Reset()
		return yield(l)
	}
	return true
}

// hasGoEvents reports whether any line looks like a test2json event.
func hasGoEvents(ls []string) bool {
	for _, l := range ls {
		if strings.HasPrefix(l, `{"`) && strings.Contains(l, `"Action":"`) {
			return true
		}
	}
	return false
}
