package python

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// Python's unittest and the runners built on its text runner: python -m
// unittest, Django's manage.py test and the runtests.py scripts of
// projects and reusable apps. They all print what unittest.TextTestRunner
// prints, on stderr: a dot per test (or a "NAME (ID) ... ok" line per test
// with -v), a section per failure, error or unexpected success between
// lines of 70 "=" and "-", then
//
//	----------------------------------------------------------------------
//	Ran 14 tests in 0.004s
//
//	FAILED (failures=5, errors=5, skipped=1, unexpected successes=1)
//
// The family is python's: the same interpreter forms route to it (python
// -m), its sections are Python tracebacks, and the python finder already
// requires its "ERROR: " lines.

// MatchUnittest recognizes python -m unittest (and python3, with its
// discover subcommand), python manage.py test, ./manage.py test and python
// -m django test, with any arguments but help, a debugger, or another test
// runner (Django's --testrunner), which print no run of the text runner.
func MatchUnittest(argv []string) classify.Answer {
	switch {
	case argv[0] == "./manage.py":
		return matchDjangoTest(argv, 1)
	case len(argv) > 1 && argv[1] == "manage.py":
		return matchDjangoTest(argv, 2)
	}
	name, at, a, ok := tool(argv)
	switch {
	case !ok:
		return a
	case name == "unittest":
		if j := longOrAbbrev(argv, at, []string{"--help"}, "h"); j >= 0 {
			return classify.Refuse(j, "help requested (%s)", argv[j])
		}
		return classify.Accept()
	case name == "django":
		return matchDjangoTest(argv, at)
	}
	return classify.Other(at-1, "not a recognized command")
}

// djangoRefused are manage.py test's options that print no text runner's
// run: help, the version, a debugger on the terminal, another runner.
var djangoRefused = []string{"--help", "--version", "--pdb", "--testrunner"}

// matchDjangoTest reads a Django management command from argv[at]: test,
// and its options.
func matchDjangoTest(argv []string, at int) classify.Answer {
	if at >= len(argv) {
		return classify.Other(at-1, "manage.py without a command")
	}
	if argv[at] != "test" {
		return classify.Other(at, "not manage.py test")
	}
	if j := longOrAbbrev(argv, at+1, djangoRefused, "h"); j >= 0 {
		return classify.Refuse(j, "option %q prints no test run", argv[j])
	}
	return classify.Accept()
}

// UnittestOutput is unittest's signature: a "Ran N tests in Xs" line, a
// blank line, and the run's status (OK, FAILED (...), NO TESTS RAN), the
// three lines unittest.TextTestRunner closes every run with. No other
// runner words its end so: pytest closes with "N passed in Xs", libtest
// with "test result:", jest and vitest with "Tests:" lines.
func UnittestOutput(r *summarize.Run) bool {
	return r.HasLine("Ran ", func(l string, rest []byte) bool {
		blank, rest := summarize.FirstLine(rest)
		status, _ := summarize.FirstLine(rest)
		_, ran := utRan(l)
		return ran && blank == "" && isUtStatus(status)
	})
}

// Caps of bash.unittest, as pytest's: names are short and each one
// matters; sections take what the budget leaves after them.
const (
	utMaxTests    = 100
	utMaxSections = 30
	// utMaxMessage bounds the lines of a section's exception kept: its
	// first line and the start of an assertion's diff.
	utMaxMessage = 10
	// utMaxDoc bounds the description lines under a section's head (a
	// test's docstring, as -v shows it).
	utMaxDoc = 2
)

// utCounts are the categories of a status line, in the order the block
// prints them, with unittest's words for them.
var utCounts = []struct{ key, word string }{
	{"failures", "failures"},
	{"errors", "errors"},
	{"skipped", "skipped"},
	{"expected_failures", "expected failures"},
	{"unexpected_successes", "unexpected successes"},
}

// utSection is one section: its head ("FAIL: NAME"), the description
// lines under it, its frames' locations and its exception's lines.
type utSection struct {
	head    string
	name    string // the test the head names
	doc     []string
	frames  bool // past the head's dashes: in the traceback
	relLoc1 string
	relLoc  string
	loc     string
	message []string // the first utMaxMessage lines of the exception
	lost    int      // exception lines past them
	// final is the first line of the last exception (after the last
	// "Traceback" line), which the finder requires; traceback tells that
	// it is still to come.
	final     string
	traceback bool
	stopped   bool // a "Stdout:" or "Stderr:" label: the rest is the test's output
}

// utRun is one run's closing lines: "Ran N tests in Xs" and its status.
type utRun struct {
	ran, status string
}

// unittestLog reads the text runner's output, one line at a time.
type unittestLog struct {
	runs     []utRun
	failed   pyIDs
	errored  pyIDs
	unexpect pyIDs
	sections []*utSection // the first utMaxSections
	nSection int
	other    []string // lines outside sections and the runner's framing

	sec      *utSection
	spare    utSection
	afterSep bool   // the last line was a line of 70 "="
	ranAt    int    // 1 after a Ran line, 2 after its blank line; 0 otherwise
	lastDesc string // the last line that was a test's description, for -v
}

// Unittest summarizes bash.unittest: the run's "Ran" and status lines and
// their counts, every failing, erroring and unexpectedly passing test, each
// section's head, its locations (the first and last frames in the
// project's own files, and the innermost) and its exception, and the lines
// of the rest of the output that report an error on their own.
func Unittest(r *summarize.Run) *summarize.Body {
	u := &unittestLog{
		failed:   pyIDs{max: utMaxTests},
		errored:  pyIDs{max: utMaxTests},
		unexpect: pyIDs{max: utMaxTests},
	}
	summarize.ReadLines(u, r.Lines(r.Stdout), r.Lines(r.Stderr))

	if !r.Partial() {
		u.runs = closedRuns(u.runs)
	}
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	var stated []utRun
	tests, counts := 0, map[string]int{}
	ranSeen := false
	for _, run := range u.runs {
		if run.ran != "" {
			ranSeen = true
			tests += summarize.NumberBefore(run.ran, " test")
		}
		if run.status != "" {
			stated = append(stated, run)
			for k, n := range utStatusCounts(run.status) {
				counts[k] += n
			}
		}
	}
	if n := len(u.runs); n == 1 {
		if s := u.runs[0].ran; s != "" {
			b.Field("ran", s)
		}
		if s := u.runs[0].status; s != "" {
			b.Field("summary", s)
		}
	} else if n > 1 {
		b.Tally("runs", n)
		items := make([]string, n)
		for i, run := range u.runs {
			items[i] = strings.Trim(run.ran+"\n"+run.status, "\n")
		}
		b.List("results", items, 0)
	}
	if ranSeen {
		b.Count("tests", tests)
	}
	if len(stated) > 0 {
		// failures and errors always, the others when the status names
		// them, as unittest prints them: a run that reads OK states 0
		// failures and 0 errors.
		for i, c := range utCounts {
			if i < 2 || counts[c.key] > 0 {
				b.Count(c.key, counts[c.key])
			}
		}
	}

	tail := 0
	if len(stated) == 0 && r.Failed() {
		tail = pyTailLines // no status: how the run ended is in its last lines
	}
	excerpt, excerptLost := pyExcerpt(u.other, isPyMustKeep, pyMaxMustKeep, tail)
	// The sections take what the budget leaves after the names of every
	// failing test, which the lists show for the sections left out.
	var names summarize.Body
	u.addNames(&names, nil)
	room := r.BodyRoom() - len(b.Render()) - len(names.Render()) - pyExcerptSize("output_excerpt", excerpt, excerptLost)
	items, lost := u.sectionItems()
	if len(lost) > 0 {
		room -= len("failure_lines_omitted: 0000000000\n")
	}
	n, _ := summarize.FitHead("failure_sections", items, u.nSection, utMaxSections, room)
	summarize.AddHead(b, "failure_sections", items, u.nSection, n)
	if l := sum(lost[:min(n, len(lost))]); l > 0 {
		b.Count("failure_lines_omitted", l)
	}
	shown := map[string]bool{}
	for _, s := range u.sections[:min(n, len(u.sections))] {
		shown[s.name] = true
	}
	u.addNames(b, shown)
	addPyExcerpt(b, "output_excerpt", excerpt, excerptLost)
	return b
}

// closedRuns returns the runs of a whole output: those whose Ran line has
// its blank line and status under it, as the text runner prints them. A
// Ran line alone is a line a test printed (a report formatter's sample),
// not a run; only a cut (| grep Ran, | head) leaves a real one alone.
func closedRuns(runs []utRun) []utRun {
	kept := runs[:0]
	for _, run := range runs {
		if run.ran == "" || run.status != "" {
			kept = append(kept, run)
		}
	}
	return kept
}

// addNames adds the lists of the failing, erroring and unexpectedly
// passing tests, but those whose section is shown: a section's head
// names its test.
func (u *unittestLog) addNames(b *summarize.Body, shown map[string]bool) {
	for _, l := range []struct {
		key string
		ids *pyIDs
	}{{"failed_tests", &u.failed}, {"error_tests", &u.errored}, {"unexpected_success_tests", &u.unexpect}} {
		var ids []string
		total := len(l.ids.seen)
		for id := range shown {
			if l.ids.seen[id] {
				total--
			}
		}
		for _, id := range l.ids.ids {
			if !shown[id] {
				ids = append(ids, id)
			}
		}
		b.ListHead(l.key, ids, total)
	}
}

func sum(ns []int) int {
	t := 0
	for _, n := range ns {
		t += n
	}
	return t
}

// Feed reads one line of either stream.
func (u *unittestLog) Feed(l string) {
	afterSep := u.afterSep
	u.afterSep = false
	switch {
	case isUtRule(l, '='):
		u.endSection()
		u.afterSep, u.ranAt = true, 0
		return
	case u.ranAt == 1 && l == "":
		u.ranAt = 2
		return
	case u.ranAt == 2 && isUtStatus(l):
		u.runs[len(u.runs)-1].status = l
		u.ranAt = 0
		return
	}
	u.ranAt = 0
	if isUtStatus(l) && l != "OK" {
		// A status without its "Ran" line, which a grep left out: its
		// counts are still the run's.
		u.endSection()
		u.runs = append(u.runs, utRun{status: l})
		return
	}
	if ran, ok := utRan(l); ok {
		u.endSection()
		u.runs = append(u.runs, utRun{ran: ran})
		u.ranAt = 1
		return
	}
	if kind, name, ok := utHead(l); ok && (afterSep || isUtTestName(name)) {
		u.endSection()
		u.addName(kind, name)
		u.nSection++
		s := &u.spare
		if len(u.sections) < utMaxSections {
			s = new(utSection)
			u.sections = append(u.sections, s)
		}
		*s = utSection{head: l, name: name, message: s.message[:0]}
		u.sec = s
		return
	}
	if u.sec != nil {
		u.sectionLine(l)
		return
	}
	if name, result, ok := utResult(l, u.lastDesc); ok {
		switch result {
		case "FAIL":
			u.failed.add(name)
		case "ERROR":
			u.errored.add(name)
		case "unexpected success":
			u.unexpect.add(name)
		}
		u.lastDesc = ""
		return
	}
	u.lastDesc = ""
	switch {
	case isUtTestName(l):
		// A -v description whose docstring line comes next.
		u.lastDesc = l
	case isUtRule(l, '-') || isUtProgress(l):
	default:
		u.other = append(u.other, l)
	}
}

// EndStream ends the section a stream left open.
func (u *unittestLog) EndStream() {
	u.endSection()
	u.afterSep, u.ranAt, u.lastDesc = false, 0, ""
}

func (u *unittestLog) addName(kind, name string) {
	switch kind {
	case "FAIL":
		u.failed.add(name)
	case "ERROR":
		u.errored.add(name)
	default:
		u.unexpect.add(name)
	}
}

// sectionLine reads a line of a section: the description lines up to the
// dashes under the head, then the traceback.
func (u *unittestLog) sectionLine(l string) {
	s := u.sec
	switch {
	case !s.frames:
		if isUtRule(l, '-') {
			s.frames = true
		} else if len(s.doc) < utMaxDoc && strings.TrimSpace(l) != "" {
			s.doc = append(s.doc, l)
		}
	case isUtRule(l, '-'):
		// The line above "Ran": the last section is over.
		u.endSection()
	case s.stopped || strings.TrimSpace(l) == "":
	case l == "Stdout:" || l == "Stderr:":
		s.stopped = true
	case l[0] == ' ':
		if loc, ok := utFrame(l); ok {
			s.loc = loc
			if !isPyLibraryPath(loc) {
				s.relLoc = loc
				if s.relLoc1 == "" {
					s.relLoc1 = loc
				}
			}
		}
	case l == "Traceback (most recent call last):":
		s.traceback = true
	default:
		if s.traceback {
			s.final, s.traceback = l, false
		}
		if len(s.message) < utMaxMessage {
			s.message = append(s.message, l)
		} else {
			s.lost++
		}
	}
}

func (u *unittestLog) endSection() {
	if s := u.sec; s != nil && s.final != "" && !containsString(s.message, s.final) {
		// The last exception's first line, past the cap: it is what the
		// test failed with.
		s.message = append(s.message, s.final)
		s.lost--
	}
	u.sec = nil
}

func containsString(ls []string, s string) bool {
	for _, l := range ls {
		if l == s {
			return true
		}
	}
	return false
}

// sectionItems returns one item per kept section: its head, description,
// locations and exception lines; and the exception lines each left out.
func (u *unittestLog) sectionItems() (items []string, lost []int) {
	for _, s := range u.sections {
		it := append([]string{s.head}, s.doc...)
		for _, loc := range []string{s.relLoc1, s.relLoc, s.loc} {
			if loc != "" && !containsString(it, loc) {
				it = append(it, loc)
			}
		}
		it = append(it, s.message...)
		items = append(items, strings.Join(it, "\n"))
		lost = append(lost, s.lost)
	}
	return items, lost
}

// utRan returns a "Ran 14 tests in 0.004s" line as it is, "Ran 1 test in
// 0.000s" included.
func utRan(l string) (string, bool) {
	rest, ok := strings.CutPrefix(l, "Ran ")
	if !ok {
		return "", false
	}
	n := len(summarize.DigitsPrefix(rest))
	if n == 0 {
		return "", false
	}
	rest = rest[n:]
	if r, ok := strings.CutPrefix(rest, " tests in "); ok {
		rest = r
	} else if r, ok := strings.CutPrefix(rest, " test in "); ok {
		rest = r
	} else {
		return "", false
	}
	whole, frac, dot := strings.Cut(strings.TrimSuffix(rest, "s"), ".")
	if !strings.HasSuffix(rest, "s") || !summarize.IsDigits(whole) || dot && !summarize.IsDigits(frac) {
		return "", false
	}
	return l, true
}

// isUtStatus matches a run's status line: "OK", "FAILED", "NO TESTS RAN",
// each alone or followed by " (" and the counts of utCounts as
// "word=N" separated by ", ", then ")".
func isUtStatus(l string) bool {
	rest, found := "", false
	for _, w := range [...]string{"OK", "FAILED", "NO TESTS RAN"} {
		if rest, found = strings.CutPrefix(l, w); found {
			break
		}
	}
	if !found {
		return false
	}
	if rest == "" {
		return !strings.HasPrefix(l, "FAILED")
	}
	inner, open := strings.CutPrefix(rest, " (")
	inner, closed := strings.CutSuffix(inner, ")")
	if !open || !closed || inner == "" {
		return false
	}
	for part := range strings.SplitSeq(inner, ", ") {
		word, n, ok := strings.Cut(part, "=")
		if !ok || !summarize.IsDigits(n) || !isUtCountWord(word) {
			return false
		}
	}
	return true
}

func isUtCountWord(w string) bool {
	for _, c := range utCounts {
		if c.word == w {
			return true
		}
	}
	return false
}

// utStatusCounts reads the counts of a status line: the categories it
// names; those it does not name are 0 (unittest prints only the others).
func utStatusCounts(l string) map[string]int {
	counts := map[string]int{}
	_, inner, ok := strings.Cut(l, " (")
	if !ok {
		return counts
	}
	for part := range strings.SplitSeq(strings.TrimSuffix(inner, ")"), ", ") {
		word, n, _ := strings.Cut(part, "=")
		for _, c := range utCounts {
			if c.word == word {
				counts[c.key] = summarize.NumberBefore(n+" ", " ")
			}
		}
	}
	return counts
}

// isUtRule reports whether l is one of the runner's separators: 70 c's.
func isUtRule(l string, c byte) bool {
	if len(l) != 70 {
		return false
	}
	for i := 0; i < len(l); i++ {
		if l[i] != c {
			return false
		}
	}
	return true
}

// utHead reads a section's head, "FAIL: NAME", "ERROR: NAME" or
// "UNEXPECTED SUCCESS: NAME".
func utHead(l string) (kind, name string, ok bool) {
	for _, k := range [...]string{"FAIL: ", "ERROR: ", "UNEXPECTED SUCCESS: "} {
		if rest, found := strings.CutPrefix(l, k); found && rest != "" {
			return k[:len(k)-2], rest, true
		}
	}
	return "", "", false
}

// isUtTestName reports whether s describes a test as unittest does:
// "test_x (pkg.mod.Class.test_x)" (Python 3.11; "(pkg.mod.Class)"
// before), a method or module name, a space and a dotted name in
// parentheses, then a subtest's parameters (" (rate=0.25)") or message
// (" [msg]") if any. It is what the regexp
//
//	^\S+ \([A-Za-z_][\w.]*\.[\w.]*\)(?: [(\[].*)?$
//
// matches (FuzzHandParsers holds it to it).
func isUtTestName(s string) bool {
	name, rest, ok := strings.Cut(s, " (")
	if !ok || name == "" || strings.ContainsAny(name, summarize.RESpace) {
		return false
	}
	dotted, after, ok := strings.Cut(rest, ")")
	if !ok || dotted == "" || !strings.Contains(dotted, ".") {
		return false
	}
	for i := 0; i < len(dotted); i++ {
		c := dotted[i]
		word := c == '_' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !word || i == 0 && (c == '.' || '0' <= c && c <= '9') {
			return false
		}
	}
	return after == "" || strings.HasPrefix(after, " (") || strings.HasPrefix(after, " [")
}

// utResult reads a -v result line, "NAME ... RESULT" (a subtest's indented
// by two spaces), and returns the test and the result. When the line's
// description is a docstring's first line, the test is desc, the line
// before it.
func utResult(l, desc string) (name, result string, ok bool) {
	i := strings.LastIndex(l, " ... ")
	if i < 0 {
		return "", "", false
	}
	name, result = strings.TrimPrefix(l[:i], "  "), l[i+len(" ... "):]
	switch {
	case result == "ok" || result == "FAIL" || result == "ERROR" ||
		result == "expected failure" || result == "unexpected success" ||
		strings.HasPrefix(result, "skipped "):
	default:
		return "", "", false
	}
	if isUtTestName(name) {
		return name, result, true
	}
	if desc != "" {
		return desc, result, true
	}
	return "", "", false
}

// isUtProgress reports whether l is the default verbosity's progress: a
// character per test, ".", "F", "E", "s", "x" or "u".
func isUtProgress(l string) bool { return onlyOf(l, ".FEsxu") }

// onlyOf reports whether s is not empty and holds only bytes of set.
func onlyOf(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return s != ""
}

// utFrame returns a traceback frame's location line, trimmed: `File
// "path", line N, in name`.
func utFrame(l string) (string, bool) {
	t := strings.TrimLeft(l, " ")
	if !strings.HasPrefix(t, `File "`) || !strings.Contains(t, `", line `) {
		return "", false
	}
	return t, true
}

// isPyLibraryPath reports whether a frame's location is in Python's own
// library or an installed package rather than the project's files.
func isPyLibraryPath(loc string) bool {
	path, _, _ := strings.Cut(strings.TrimPrefix(loc, `File "`), `"`)
	return strings.HasPrefix(path, "<") || strings.Contains(path, "/site-packages/") ||
		strings.Contains(path, "/dist-packages/") || strings.Contains(path, "/lib/python3")
}
