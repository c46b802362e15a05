package summarize

import (
	"iter"
	mathbits "math/bits"
	"strconv"
	"strings"
)

// The boundary check: whatever a rule does, every failure the raw output
// reports must reach the block, or be counted by one of its _omitted lines.
// It runs after every rule and after the budget, so a buggy or overly eager
// rule cannot hide a failing test, an error or its location. Patterns come
// from real cargo, rustc and git output (see testdata/corpus); the lines
// met on every line of a log are parsed by hand.

// failures collects what must survive from the raw output: the set of
// required strings and the raw lines they came from.
type failures struct {
	required map[string]bool
	// taken holds, per stream, the lines the finders took. Two finders
	// may take the same line (a rustc error line is also one of the lines
	// pip's finder keeps), and a finder may take a line after one that
	// comes later (a -v reason, at its test's result line): the fallback
	// lists each line once, in output order (fallbackLines).
	taken [2]lineSet
	// stream is the stream the finders are reading, for taken.
	stream int
}

// lineSet is the set of the lines of one stream that finders took, by
// their index in the stream's lines; the go finder numbers the lines of
// its decoded text after those (stream.goText). A bit per line: a finder
// may take every line of a large capture.
type lineSet struct {
	ls, text []string // the stream's lines and, when it is not ls, the go text
	bits     []uint64
	n        int
	// shown holds the lines a finder gave in another form than ls or text
	// hold them (the node finder's plain text of a colored line), or every
	// line when those are unknown (a finder called alone).
	shown map[int]string
}

// line returns the line at index at as the set's stream holds it, or "".
func (s *lineSet) line(at int) (string, bool) {
	switch {
	case at < len(s.ls):
		return s.ls[at], true
	case s.text != nil && at-len(s.ls) < len(s.text):
		return s.text[at-len(s.ls)], true
	}
	return "", false
}

// add takes the line at index at, given as line.
func (s *lineSet) add(line string, at int) {
	w := at / 64
	if w >= len(s.bits) {
		s.bits = append(s.bits, make([]uint64, w+1-len(s.bits))...)
	}
	if s.bits[w]&(1<<(at%64)) != 0 {
		return
	}
	s.bits[w] |= 1 << (at % 64)
	s.n++
	if l, ok := s.line(at); !ok || l != line {
		if s.shown == nil {
			s.shown = map[int]string{}
		}
		s.shown[at] = line
	}
}

// finder scans one stream for the failures of one family of tools. failed
// tells whether the run failed (exit code not 0, or none).
type finder func(s stream, failed bool, f *failures)

// stream is one captured stream as the finders read it: its lines, and its
// bytes for the questions one pass over the whole stream answers for every
// line at once. goText, when set, is goTextLines(ls) already decoded.
type stream struct {
	raw    []byte
	ls     []string
	goText []string
}

func newStream(raw []byte) stream { return stream{raw: raw, ls: lines(raw)} }

// finders are every family's failure scanners. All of them run on every
// rule's output: a failure is a failure whichever rule summarized it. The
// node family's (nodeScan) runs beside them: it reads both streams before
// it is done.
var finders = []finder{rustFailures, goFailures, pythonFailures}

func findFailures(r *Run) failures {
	f := failures{required: map[string]bool{}}
	failed := !r.Exited || r.ExitCode != 0
	var node nodeScan
	for i, raw := range [][]byte{r.Stdout, r.Stderr} {
		s := stream{raw: raw, ls: r.linesOf(raw), goText: r.goTextOf(raw)}
		f.stream = i
		f.taken[i] = lineSet{ls: s.ls}
		if !sameLines(s.goText, s.ls) {
			f.taken[i].text = s.goText
		}
		for _, find := range finders {
			find(s, failed, &f)
		}
		node.scan(s, f.add)
	}
	node.finish(f.addIn)
	return f
}

// rustFailures finds rustc/cargo errors with their primary location,
// libtest failures and panics, and git's fatal and error lines; and in a
// run that failed, the tests a test binary died running: the name of a
// "test NAME ... " start line (one test thread) that no result followed
// before the binary's output ended, and the thread named in the runtime's
// "thread 'NAME' has overflowed its stack" (libtest names each test's
// thread after it; "main" and "<unnamed>" name no test).
func rustFailures(s stream, failed bool, f *failures) {
	ls := s.ls
	inError := false
	running, runningAt := "", -1 // a test started and not finished yet
	died := func() {
		if failed && running != "" {
			f.add(running, ls[runningAt], runningAt)
		}
		running = ""
	}
	for i, l := range ls {
		// Each pattern starts with a known letter or with spaces, so the
		// first byte picks the one or two patterns worth running.
		if l == "" {
			continue
		}
		switch l[0] {
		case 'e', 'f':
			// Hex hashes start with e and f too: only "error" and "fatal"
			// are worth a regexp.
			if !strings.HasPrefix(l, "error") && !strings.HasPrefix(l, "fatal") {
				continue
			}
			switch level, _, _, ok := diagnostic(l); {
			case isErrorLine(l):
				f.add(strings.TrimSpace(l), l, i)
				inError = true
			case ok && level == "error":
				inError = false
			}
		case 'w', 'n', 'h':
			// A new diagnostic ends the previous error's location search.
			if level, _, _, ok := diagnostic(l); ok && level != "fatal" {
				inError = false
			}
		case ' ':
			if inError {
				if loc, ok := arrowLocation(l); ok {
					f.add(loc, l, i)
					inError = false
				}
			}
		case 'r':
			if running != "" && isRunningTests(l) {
				// The next binary: the last one died in that test.
				died()
			}
		case 't':
			if strings.HasPrefix(l, "test ") {
				running, runningAt = "", i
				if name, ok := libtestStart(l); ok {
					running = name
				}
			}
			switch {
			case strings.HasSuffix(l, " FAILED") && strings.HasPrefix(l, "test "):
				if name, ok := libtestFailed(l); ok {
					f.add(name, l, i)
				}
			case failed && strings.HasPrefix(l, "thread '") && strings.HasSuffix(l, " has overflowed its stack"):
				if name, _, _ := strings.Cut(l[len("thread '"):], "' "); name != "main" && name != "<unnamed>" {
					f.add(name, l, i)
				}
			case failed && strings.HasPrefix(l, "thread '"):
				// A panic is a failure only in a run that failed: a passing
				// should_panic test under --nocapture prints one too.
				if loc, ok := panicLocation(l); ok {
					f.add(loc, l, i)
					if i+1 < len(ls) && ls[i+1] != "" {
						// The panic message: the assertion or the reason.
						f.take(ls[i+1], i+1)
					}
				}
			}
		}
	}
	died()
}

// diagnostic reads the head of a rustc, cargo or git message line,
// "LEVEL: text" or "LEVEL[CODE]: text" for the levels error, warning, note,
// help and fatal. text is empty when what follows ": " starts with a space
// or is missing. Parsed by hand: the check meets these prefixes on every
// line of a build log.
func diagnostic(l string) (level, code, text string, ok bool) {
	for _, lv := range [...]string{"error", "warning", "note", "help", "fatal"} {
		rest, found := strings.CutPrefix(l, lv)
		if !found {
			continue
		}
		if inner, ok := strings.CutPrefix(rest, "["); ok {
			j := strings.IndexByte(inner, ']')
			if j <= 0 || strings.IndexFunc(inner[:j], func(r rune) bool { return !isWordRune(r) }) >= 0 {
				return "", "", "", false
			}
			code, rest = inner[:j], inner[j+1:]
		}
		rest, found = strings.CutPrefix(rest, ": ")
		if !found {
			return "", "", "", false
		}
		if rest != "" && !strings.ContainsRune("\t\n\f\r ", rune(rest[0])) {
			text = rest
		}
		return lv, code, text, true
	}
	return "", "", "", false
}

// isErrorLine reports whether l is an error line of rustc, cargo or git:
// "error[E0425]: ...", "error: could not compile", git's "fatal: ...".
// It is what the regexps ^error(\[E\d{4}\])?: \S and ^(fatal|error): \S
// match (FuzzHandParsers holds it to them), parsed by hand because every
// line starting with e or f meets it.
func isErrorLine(l string) bool {
	level, code, text, ok := diagnostic(l)
	return ok && text != "" && (level == "error" && (code == "" || isErrorCode(code)) || level == "fatal" && code == "")
}

// arrowLocation returns the location of an error's primary location line,
// "  --> src/main.rs:12:30", as the regexp ^\s*--> (\S+:\d+:\d+) would
// (FuzzHandParsers holds it to it).
func arrowLocation(l string) (string, bool) {
	w, ok := strings.CutPrefix(strings.TrimLeft(l, reSpace), "--> ")
	if !ok {
		return "", false
	}
	if i := strings.IndexAny(w, reSpace); i >= 0 {
		w = w[:i]
	}
	n := locationPrefix(w)
	return w[:n], n > 0
}

// locationPrefix returns the length of the location w starts with, as
// \S+:\d+:\d+ matches it there, or 0; w holds no white space. The
// regexp's \S+ is greedy: the location is the longest run of characters
// followed by ":LINE:COL".
func locationPrefix(w string) int {
	for e := len(w) - 1; e > 0; e-- {
		if w[e] != ':' {
			continue
		}
		line := digitsPrefix(w[e+1:])
		if line == "" || e+1+len(line) == len(w) || w[e+1+len(line)] != ':' {
			continue
		}
		end := e + 1 + len(line) + 1
		if col := digitsPrefix(w[end:]); col != "" {
			return end + len(col)
		}
	}
	return 0
}

// locations yields every file:line:col in s, as rules copy them: what
// the regexp \S+:\d+:\d+ finds in s (FuzzHandParsers holds it to it).
// The check reads every line of every block for them.
func locations(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for word := range strings.FieldsFuncSeq(s, isRESpace) {
			for word != "" {
				n := locationPrefix(word)
				if n == 0 {
					// A location starting further on would also start here.
					break
				}
				if !yield(word[:n]) {
					return
				}
				word = word[n:]
			}
		}
	}
}

func isRESpace(r rune) bool {
	return r < 0x80 && strings.IndexByte(reSpace, byte(r)) >= 0
}

// reSpace is what \s matches in Go's regexps.
const reSpace = "\t\n\f\r "

// digitsPrefix returns the ASCII digits s starts with.
func digitsPrefix(s string) string {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return s[:i]
}

func isWordRune(r rune) bool {
	return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}

// isErrorCode reports whether code is rustc's E followed by four digits.
func isErrorCode(code string) bool {
	return len(code) == 5 && code[0] == 'E' && strings.Trim(code[1:], "0123456789") == ""
}

// libtestFailed reads "test NAME ... FAILED" (never "0 failed"). A
// should_panic test is listed as "NAME - should panic" but named without
// the suffix in the failures list.
func libtestFailed(l string) (string, bool) {
	name, ok := strings.CutSuffix(strings.TrimPrefix(l, "test "), " ... FAILED")
	if name = strings.TrimSuffix(name, " - should panic"); !ok || name == "" {
		return "", false
	}
	return name, true
}

// panicLocation reads libtest's "thread 'x' (123) panicked at
// src/lib.rs:37:9:" (the thread id is newer rustc) and returns the location.
// It is parsed by hand: a regexp with the thread name's .* backtracked on
// every such line of a big test log.
func panicLocation(l string) (string, bool) {
	_, loc, ok := strings.Cut(l, "' ")
	if !ok {
		return "", false
	}
	if rest, ok := strings.CutPrefix(loc, "("); ok {
		_, loc, ok = strings.Cut(rest, ") ")
		if !ok {
			return "", false
		}
	}
	loc, ok = strings.CutPrefix(loc, "panicked at ")
	loc = strings.TrimSuffix(loc, ":")
	return loc, ok && isLocation(loc)
}

// isLocation reports whether s is a whole "path:line:col", as the regexp
// ^\S+:\d+:\d+$ would: the path may hold colons but no white space. It
// is written by hand because the check meets it on every panic of a test
// log.
func isLocation(s string) bool {
	i := strings.LastIndexByte(s, ':')
	if i < 0 || !isDigits(s[i+1:]) {
		return false
	}
	j := strings.LastIndexByte(s[:i], ':')
	return j > 0 && isDigits(s[j+1:i]) && !strings.ContainsAny(s[:j], reSpace)
}

// add records a required string, in the form the body would show it, and
// the line it came from, at index at of the lines the finder reads.
func (f *failures) add(req, line string, at int) {
	// The check reads the body's lines trimmed, so requirements are too;
	// an empty name ("FAIL\t" with no package) is no requirement.
	if req = strings.TrimSpace(clean(req)); req != "" {
		f.required[req] = true
	}
	f.take(line, at)
}

// addIn is add for a line of the given stream, for a finder that reports
// after reading both (the node finder's listed tests).
func (f *failures) addIn(stream int, req, line string, at int) {
	f.stream = stream
	f.add(req, line, at)
}

// take records a line for the fallback, at index at of the lines the
// finder reads.
func (f *failures) take(line string, at int) {
	f.taken[f.stream].add(line, at)
}

// fallbackLines returns the lines the finders took, each once, in output
// order: stdout's, then stderr's. Only the first maxFallbackLines are
// kept; all are counted.
func (f failures) fallbackLines() capped {
	c := newCapped(maxFallbackLines)
	for _, set := range f.taken {
		if len(c.items) == c.max {
			c.total += set.n
			continue
		}
		for w, bits := range set.bits {
			for bits != 0 {
				at := w*64 + mathbits.TrailingZeros64(bits)
				bits &= bits - 1
				l, ok := set.shown[at]
				if !ok {
					l, _ = set.line(at)
				}
				c.add(l)
			}
		}
	}
	return c
}

// sameLines reports whether a and b are the same slice.
func sameLines(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// accounted reports whether every required string is in the rendered body,
// or the body's _omitted counts are at least the number missing. missing
// is exact when ok is false.
func accounted(f failures, body []byte) (missing int, ok bool) {
	if len(f.required) == 0 {
		return 0, true
	}
	// Whatever seen holds is a substring of the body, so the substring
	// searches below alone give the same verdict; the set only saves them
	// when there are many requirements, and costs more to build than a
	// few searches of a block.
	var seen map[string]bool
	if len(f.required) > fewRequired {
		seen = make(map[string]bool, len(body)/8) // about a word per 8 bytes
	}
	omitted := 0
	for l := range eachLine(body) {
		t := strings.TrimSpace(strings.TrimPrefix(l, "- "))
		k, v, kv := strings.Cut(t, ": ")
		if kv && strings.HasSuffix(k, "_omitted") {
			n, _ := strconv.Atoi(v)
			omitted += n
		}
		if seen == nil {
			continue
		}
		seen[t] = true
		if kv {
			seen[v] = true
		}
		for w := range strings.FieldsSeq(t) {
			seen[w] = true
		}
		for loc := range locations(t) {
			// "at f (src/a.js:1:2)" and "src/a.rs:1:2:" both name src/a.*:1:2.
			seen[strings.Trim(loc, "():")] = true
		}
	}
	var unseen []string
	for req := range f.required {
		if !seen[req] {
			unseen = append(unseen, req)
		}
	}
	// A name with spaces (a doc-test, a parametrized test id), or one a
	// finder cut out of a line differently from the words and locations
	// above, may still sit inside a copied line. Searching stops once the
	// _omitted counts cover what is still missing, and after maxSearches:
	// the body is at most the budget, but the required set can be huge.
	missing = len(unseen)
	text := string(body)
	for i, req := range unseen {
		if missing <= omitted || i == maxSearches {
			break
		}
		if strings.Contains(text, req) {
			missing--
		}
	}
	return missing, missing <= omitted
}

// fallbackBody is what the block shows when a rule's body fails the check:
// the exit code and every raw line that reported a failure, copied once
// each, in order.
func fallbackBody(r *Run, f failures) *Body {
	b := &Body{}
	if r.Exited {
		b.Count("exit_code", r.ExitCode)
	}
	b.Field("fallback", "true")
	lines := f.fallbackLines()
	b.Count("failure_lines", lines.total)
	b.ListCapped("failures", lines)
	return b
}

// maxSearches bounds the substring searches of one check.
const maxSearches = 2000

// fewRequired is how many required strings the check looks for by
// substring search alone.
const fewRequired = 64

// maxFallbackLines caps the fallback list; the budget may cut it further.
const maxFallbackLines = 400
