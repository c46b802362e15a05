package summarize

import (
	"strconv"
	"strings"
)

// The boundary check: whatever a rule does, every failure the raw output
// reports must reach the block, or be counted by one of its _omitted lines.
// It runs after every rule and after the budget, so a buggy or overly eager
// rule cannot hide a failing test, an error or its location. What a failure
// is, each family of tools says with its Finder; every family's finder
// reads every rule's output, since a failure is a failure whichever rule
// summarized it (a build script's rustc errors in pip's output, a test
// script's go test failures under npm test).

// A Finder finds in a run's output the failures of one family of tools.
// Finders parse lines by hand, apart from the rules' parsers: the check is
// only worth something if it does not share the rules' mistakes, and it
// reads every line of every output, so each line must cost a few
// comparisons.
type Finder interface {
	// Find reads the streams, stdout and then stderr, and reports each
	// failure to the stream it is in. r is the run the streams come from
	// (for r.Failed(), and Derive).
	Find(r *Run, streams []Stream)
}

// StreamFinder is a Finder that reads each stream on its own, with nothing
// carried from stdout to stderr.
type StreamFinder func(r *Run, s Stream)

// Find calls f on each stream in turn.
func (f StreamFinder) Find(r *Run, streams []Stream) {
	for _, s := range streams {
		f(r, s)
	}
}

// Stream is one captured stream as a Finder reads it.
type Stream struct {
	Index int      // 0 for stdout, 1 for stderr
	Raw   []byte   // its bytes, as Readable gives them
	Lines []string // Lines(Raw), split once per run
	// Report takes what the finder finds in this stream.
	Report
}

// Report takes what a Finder finds in one stream. A line is given by its
// index at in the stream's Lines, or in another reading of the stream that
// View numbered.
type Report interface {
	// Require records req, a failure in the form the block shows it (a
	// test name, an error line, a file:line:col), found on line: req
	// must appear in the body, or be counted by an _omitted line. The
	// line is kept for the fallback.
	Require(req, line string, at int)
	// Take keeps a line for the fallback without requiring anything of
	// it: a panic's message, under its location.
	Take(line string, at int)
	// View tells that the finder reads the stream as lines, another
	// reading of it than Lines (go's text of test2json events), and
	// returns the index the first of them has: the indexes at of those
	// lines count from there. It returns 0 when lines is Lines itself.
	View(lines []string) (base int)
}

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
}

// report is the Report of one stream of a failures.
type report struct {
	f      *failures
	stream int
}

func (p report) Require(req, line string, at int) {
	// The check reads the body's lines trimmed, so requirements are too;
	// an empty name ("FAIL\t" with no package) is no requirement.
	if req = strings.TrimSpace(Clean(req)); req != "" {
		p.f.required[req] = true
	}
	p.Take(line, at)
}

func (p report) Take(line string, at int) {
	p.f.taken[p.stream].add(line, at)
}

func (p report) View(lines []string) int {
	return p.f.taken[p.stream].view(lines)
}

// Failing reports whether one of finders finds a failure in r's output,
// read as Block reads it: a line the block would have to keep.
func Failing(r *Run, finders []Finder) bool {
	return len(findFailures(readable(r), finders).required) > 0
}

func findFailures(r *Run, finders []Finder) *failures {
	f := &failures{required: map[string]bool{}}
	streams := make([]Stream, 2)
	for i, raw := range [][]byte{r.Stdout, r.Stderr} {
		ls := r.Lines(raw)
		f.taken[i] = lineSet{ls: ls}
		streams[i] = Stream{Index: i, Raw: raw, Lines: ls, Report: report{f: f, stream: i}}
	}
	for _, find := range finders {
		find.Find(r, streams)
	}
	return f
}

// accounted reports whether every required string is in the rendered body,
// or, with credit, the body's _omitted counts are at least the number
// missing. missing is exact when ok is false.
func accounted(f *failures, body []byte, credit bool) (missing int, ok bool) {
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
	for l := range EachLine(body) {
		t := strings.TrimSpace(strings.TrimPrefix(l, "- "))
		k, v, kv := strings.Cut(t, ": ")
		if kv && credit && strings.HasSuffix(k, "_omitted") {
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

// maxSearches bounds the substring searches of one check.
const maxSearches = 2000

// fewRequired is how many required strings the check looks for by
// substring search alone.
const fewRequired = 64
