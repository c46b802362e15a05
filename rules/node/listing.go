package node

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Test runners name each failing test twice: in their listing, as it runs
// (vitest's "× NAME" lines, jest's "✕ NAME" lines under a suite), and in
// the report of its failure, with the message and the location (vitest's
// "FAIL  FILE > NAME" line, jest's "● NAME" header under its suite's FAIL
// line). The rules and the node finder read the reports. A pipe into head
// keeps the listing, which comes first, and cuts the reports off: the
// listing is then all the caller saw of those failures. A listed test that
// no report names is therefore listed in the block, and required by the
// finder, as the listing names it.

// listedTest is a failing test that a runner's listing names.
type listedTest struct {
	file string // the test's file (vitest) or suite (jest); "" when a pipe cut it off
	name string // its name after the file, as the listing gives it
	sep  string // the runner's separator: vitest's " > ", jest's " › "
	req  string // what the finder requires: the name as the listing prints it, which the line holds
	line string // the listing's line
	// stream and at place the line for the fallback: which of the run's
	// streams, and its index in that stream's lines.
	stream, at int
}

// shown is the name the block lists: the file and the name joined by the
// runner's separator, as the runner joins them in its reports.
func (t listedTest) shown() string {
	if t.file == "" {
		return t.name
	}
	return t.file + t.sep + t.name
}

// testReport is a failing test that a report names.
type testReport struct {
	file, name, sep string
}

// testListing collects the failing tests that the listings and the reports
// of a run name, over all its streams: vitest writes its listing to stdout
// and its reports to stderr.
type testListing struct {
	listed  []listedTest
	reports []testReport
}

func (l *testListing) list(t listedTest) { l.listed = append(l.listed, t) }

// report notes a failing test a report names. Runners print their listing
// before their reports, and vitest its listing on stdout, which is read
// first: reports read before any listed test are not kept, so that a run
// with no listing (jest without --verbose, most runs of many files) keeps
// none.
func (l *testListing) report(file, name, sep string) {
	if len(l.listed) == 0 {
		return
	}
	l.reports = append(l.reports, testReport{file, name, sep})
}

// listingKey is a name a listing may give a test: file is "" for a listing
// whose file a pipe cut off.
type listingKey struct{ file, name string }

// unreported returns the listed tests that no report names, in the order
// listed. A report names a listed test of its file (or of an unknown file)
// when its name is the listed name or ends with it after a separator: the
// default reporter of vitest lists a test by its own name, without its
// describe blocks, and a pipe into tail may cut the first describe blocks
// of jest's listing off. Each report names one listed test at most, the
// whole name first: runners report each failure once.
func (l *testListing) unreported() []listedTest {
	if len(l.listed) == 0 {
		return nil
	}
	left := make(map[listingKey]int, len(l.listed)) // listed tests not yet named, by name
	files := map[string]bool{}                      // the files with listed tests
	for _, t := range l.listed {
		left[listingKey{t.file, t.name}]++
		files[t.file] = true
	}
	unknown := files[""] // some listed tests have no file
	remaining := len(l.listed)
	// A report of a file with no listed test names none: most reports, in
	// a run of many files of which one printed its listing. Reports come
	// file after file.
	var lastFile string
	lastListed := files[""]
	listed := func(file string) bool {
		if file != lastFile {
			lastFile, lastListed = file, unknown || files[file]
		}
		return lastListed
	}
	take := func(file, name string) bool {
		k := listingKey{file, name}
		if n := left[k]; n == 0 && file != "" && unknown {
			k.file = ""
		}
		if left[k] > 0 {
			left[k]--
			remaining--
			return true
		}
		return false
	}
	named := make([]bool, len(l.reports)) // the reports that name a listed test by its whole name
	for i, r := range l.reports {
		if remaining == 0 {
			return nil
		}
		named[i] = !listed(r.file) || take(r.file, r.name)
	}
	for i, r := range l.reports {
		if remaining == 0 {
			return nil
		}
		if named[i] || r.sep == "" {
			continue
		}
		for name := r.name; ; {
			_, after, ok := strings.Cut(name, r.sep)
			if !ok || take(r.file, after) {
				break
			}
			name = after
		}
	}
	// The tests left are the last ones of their name: a pipe into head
	// cuts the reports after the first ones, in the order listed.
	out := make([]listedTest, remaining)
	for i := len(l.listed) - 1; i >= 0 && remaining > 0; i-- {
		t := l.listed[i]
		if k := (listingKey{t.file, t.name}); left[k] > 0 {
			left[k]--
			remaining--
			out[remaining] = t
		}
	}
	return out
}

// vitestFileLine reads a file's line in vitest's default listing, " ❯
// src/a.test.js (6 tests | 3 failed) 20ms" (failed), " ✓ ... (2 tests)"
// (passed) or " ↓ ... (1 test | 1 skipped)", and returns the file: what
// the regexp ^ [❯✓↓] (.+?) \(\d+ test captures.
func vitestFileLine(l string) (string, bool) {
	var rest string
	ok := false
	for _, m := range [...]string{" ❯ ", " ✓ ", " ↓ "} {
		if rest, ok = strings.CutPrefix(l, m); ok {
			break
		}
	}
	if !ok {
		return "", false
	}
	// The lazy name ends at the first " (" followed by a count of tests;
	// neither may come after a newline, which no part of the pattern
	// crosses.
	end := len(rest)
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		end = i
	}
	for p := 1; p < end; {
		i := strings.Index(rest[p:end], " (")
		if i < 0 {
			break
		}
		p += i
		if d := summarize.DigitsPrefix(rest[p+2 : end]); d != "" && strings.HasPrefix(rest[p+2+len(d):end], " test") {
			return rest[:p], true
		}
		p++
	}
	return "", false
}

// vitestListed reads a failing test's line in vitest's listing and returns
// its name without the timings vitest prints after it ("12ms", "(retry
// x2)", "31 MB heap used"): "       × case 0 > rejects 12ms" under a file's
// line (the default reporter, indented by one space and two per describe
// block, the name alone), or " × src/a.test.js > parse > rejects 12ms" (the
// verbose reporter, the file and the full name; full is true). It is what
// the regexp ^ (?:  )*× (.*)$ captures, cut by vitestTimings and trimmed
// of spaces at its end, when something is left.
func vitestListed(l string) (name string, full bool, ok bool) {
	rest := strings.TrimLeft(l, " ")
	indent := len(l) - len(rest)
	rest, ok = strings.CutPrefix(rest, "× ")
	if !ok || indent%2 == 0 || strings.IndexByte(rest, '\n') >= 0 {
		return "", false, false
	}
	name = strings.TrimRight(vitestTimings(rest), " ")
	return name, indent == 1, name != ""
}

// vitestTest is the listed test of a name vitestListed read: a full name
// is the file and the test's name after " > "; a test's own name is in
// file, the file whose listing holds it, when one was read.
func vitestTest(name string, full bool, file string) (listedTest, bool) {
	t := listedTest{file: file, name: name, sep: " > ", req: name}
	if full {
		var ok bool
		t.file, t.name, ok = strings.Cut(name, " > ")
		return t, ok && t.file != "" && t.name != ""
	}
	return t, file != ""
}

// vitestTimings cuts what vitest prints after a test's name in its
// listing: " 12ms", then " (retry x2)", " (repeat x3)" and " 31 MB heap
// used", each when present, as the regexp (?: \d+ms)?(?: \(retry
// x\d+\))?(?: \(repeat x\d+\))?(?: \d+ MB heap used)?$ would.
func vitestTimings(s string) string {
	if rest, ok := strings.CutSuffix(s, " MB heap used"); ok {
		if i := strings.LastIndexByte(rest, ' '); i >= 0 && i < len(rest)-1 && summarize.IsDigits(rest[i+1:]) {
			s = rest[:i]
		}
	}
	for _, what := range [...]string{" (repeat x", " (retry x"} {
		if rest, ok := strings.CutSuffix(s, ")"); ok {
			if i := strings.LastIndex(rest, what); i >= 0 && i+len(what) < len(rest) && summarize.IsDigits(rest[i+len(what):]) {
				s = rest[:i]
			}
		}
	}
	if rest, ok := strings.CutSuffix(s, "ms"); ok {
		if i := strings.LastIndexByte(rest, ' '); i >= 0 && i < len(rest)-1 && summarize.IsDigits(rest[i+1:]) {
			s = rest[:i]
		}
	}
	return s
}

// jestListing follows the listing jest prints of a suite's tests (with
// --verbose, or when one file runs): its describe blocks as headings, two
// spaces deeper per level, each test under them marked ✓, ✕, ○ or ✎, and a
// blank line at its end.
type jestListing struct {
	on     bool     // inside a listing
	blocks []string // the heading of each level's describe block; "" where a pipe cut it off
}

// start starts a suite's listing, or one a pipe cut the top of.
func (j *jestListing) start() {
	j.on, j.blocks = true, j.blocks[:0]
}

// line reads a line of a listing and returns a failing test: its
// name as listed, and its full name, the describe blocks above it (as far
// up as the listing shows them) and its name joined by " › " as jest joins
// them in its reports. A duration after the name, " (53 ms)", is not part
// of it.
func (j *jestListing) line(l string) (full, name string, ok bool) {
	t := strings.TrimLeft(l, " ")
	level := (len(l) - len(t)) / 2
	if level == 0 || t == "" {
		return "", "", false
	}
	name, failed := strings.CutPrefix(t, "✕ ")
	if !failed {
		if !isJestMark(t) {
			// A describe block's heading: the blocks deeper than it
			// are closed.
			for len(j.blocks) < level-1 {
				j.blocks = append(j.blocks, "")
			}
			j.blocks = append(j.blocks[:level-1], l)
		}
		return "", "", false
	}
	name = strings.TrimRight(jestDuration(name), " ")
	if name == "" {
		return "", "", false
	}
	var path []string
	for i := min(level-1, len(j.blocks)) - 1; i >= 0 && j.blocks[i] != ""; i-- {
		path = append(path, strings.TrimLeft(j.blocks[i], " "))
	}
	if len(path) == 0 {
		return name, name, true
	}
	var b strings.Builder
	for i := len(path) - 1; i >= 0; i-- {
		b.WriteString(path[i])
		b.WriteString(" › ")
	}
	b.WriteString(name)
	return b.String(), name, true
}

// isJestMark reports whether t, a trimmed line of jest's listing, is a
// test's: passed, failed, skipped or todo.
func isJestMark(t string) bool {
	for _, m := range [...]string{"✓ ", "✕ ", "○ ", "✎ "} {
		if strings.HasPrefix(t, m) {
			return true
		}
	}
	return false
}

// jestDuration cuts the duration jest prints after a test's name, " (53
// ms)", as the regexp (?: \(\d+ ms\))?$ would.
func jestDuration(s string) string {
	if rest, ok := strings.CutSuffix(s, " ms)"); ok {
		if i := strings.LastIndex(rest, " ("); i >= 0 && i+2 < len(rest) && summarize.IsDigits(rest[i+2:]) {
			return rest[:i]
		}
	}
	return s
}
