package cargo_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The reference reader: what a cargo or libtest output, cut or whole,
// shows, read apart from the rules (no rule code is called) and checked
// against the tools' machine-readable output on the corpus's whole runs
// (TestReferenceMatchesJSON). The oracle (checkBlock) holds every block to
// it: a block states no total that the visible lines do not, no tally
// larger than what is visible, and leaves out no failing name, panic
// location or error the visible lines show.
//
// It reads by positions and libtest's framing, with regular expressions
// where the rules parse by hand:
//
//   - A line is inside a section when the nearest line before it among
//     the framing lines ("running N tests", "---- NAME stdout ----",
//     "failures:", "successes:") is a section's head. What comes before
//     the first framing line of a stdout that may lack its start is
//     ambiguous: the end of a section, or libtest's own lines.
//   - libtest prints one result line per binary, last: of the result
//     lines outside sections between two "running N tests" lines, the
//     runner's is the last one (the last whose counts add up to N, when
//     N is in sight). A grep drops the framing: each result line it kept
//     is a binary's.
//   - The failing names are the indented lines right under a "failures:"
//     that a name follows, the "test NAME ... FAILED" and -q's
//     "NAME --- FAILED" lines outside sections and not ambiguous, and in
//     an ambiguous start the indented lines right before the runner's
//     result line (a tail that began in the list of names).
//   - The panics are the "thread 'NAME' panicked at FILE:LINE:COL:" lines
//     of failing tests, in either stream.
//   - Diagnostics are rustc's and cargo's error and warning lines at
//     column 0 (cargo's status and summary lines aside) with their
//     "-->" line; the errors that must reach a block are the ones on
//     stderr and on a stdout without libtest's lines, or before the
//     first of them (rustc's errors that a test printed are its output).

var (
	reResult  = regexp.MustCompile(`^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out`)
	reRunning = regexp.MustCompile(`^running (\d+) tests?$`)
	reSection = regexp.MustCompile(`^---- (.+) stdout ----$`)
	reMark    = regexp.MustCompile(`^test (.+?)( - should panic)? \.\.\. FAILED$`)
	reTerse   = regexp.MustCompile(`^(\S.*) --- FAILED$`)
	reName    = regexp.MustCompile(`^    (\S.*)$`)
	rePanic   = regexp.MustCompile(`^thread '([^']*)'(?: \(\d+\))? panicked at (.+:\d+:\d+):$`)
	reDiag    = regexp.MustCompile(`^(error|warning)(\[[A-Za-z0-9_]+\])?: \S`)
	reArrow   = regexp.MustCompile(`^\s*--> (\S+:\d+:\d+)`)
	reStatus  = regexp.MustCompile(`^(error: could not compile |error: test failed, to rerun pass |error: doctest failed, to rerun pass |error: \d+ targets? failed:$|\s+Finished )`)
	// reSummary are cargo's and rustc's lines about the diagnostics, which
	// are no diagnostics.
	reSummary = regexp.MustCompile("^(error: aborting due to |warning: `[^`]+` \\(.*\\) generated |warning: build failed, waiting |warning: \\d+ warnings? emitted)")
)

// counts are a result line's numbers.
type counts struct{ passed, failed, ignored, measured, filteredOut int }

func (c counts) tests() int { return c.passed + c.failed + c.ignored + c.measured }

func (c *counts) add(o counts) {
	c.passed += o.passed
	c.failed += o.failed
	c.ignored += o.ignored
	c.measured += o.measured
	c.filteredOut += o.filteredOut
}

// refDiag is one diagnostic: its line and its "-->" location ("" when it
// has none before the next diagnostic or a blank line).
type refDiag struct {
	head, loc string
	isError   bool
}

// refPanic is a panic line of a failing test.
type refPanic struct{ thread, loc string }

// refFacts is what an output shows.
type refFacts struct {
	results []counts        // the runner's result lines, in order
	names   map[string]bool // failing names
	panics  []refPanic
	// errors are the error diagnostics a block must show; errorHeads and
	// warningHeads count every such line outside sections (an upper
	// bound of what a block may count).
	errors                   []refDiag
	errorHeads, warningHeads int
	diags                    []refDiag // every diagnostic on stderr and on a stdout without libtest's lines
	// status is cargo's last status line (in stdout when stdout has one),
	// fromCut whether it came from stdout.
	status  string
	fromCut bool
	// failedRun: the output says something failed.
	failedRun bool
}

// refCut is where a stdout may lack lines.
type refCut struct{ start, end, any bool }

func refCutOf(r *summarize.Run) refCut {
	return refCut{start: r.MayLackStart(), end: r.MayLackEnd(), any: r.Cut.Any || r.StdoutTruncated}
}

// read reads a run's streams as Block gives them to rules.
func read(r *summarize.Run) refFacts {
	return readStreams(string(summarize.Readable(r.Stdout)), string(summarize.Readable(r.Stderr)), refCutOf(r))
}

func readStreams(stdout, stderr string, cut refCut) refFacts {
	f := refFacts{names: map[string]bool{}}
	out, errs := splitLines(stdout), splitLines(stderr)

	// Where each stdout line stands in libtest's framing.
	const (
		ambiguous = iota
		outside
		inSection
	)
	where := make([]int, len(out))
	state := outside
	if cut.start {
		state = ambiguous
	}
	hasLibtest := false
	firstLibtest := len(out)
	for i, l := range out {
		switch {
		case reSection.MatchString(l):
			state = inSection
			where[i] = outside
			hasLibtest = true
			firstLibtest = min(firstLibtest, i)
			continue
		case l == "failures:" || l == "successes:", state != inSection && reRunning.MatchString(l):
			state = outside
		}
		where[i] = state
		if state != inSection && (reRunning.MatchString(l) || reResult.MatchString(l) || l == "failures:" || reMark.MatchString(l)) {
			hasLibtest = true
			firstLibtest = min(firstLibtest, i)
		}
	}

	// The runner's result lines: per group between "running" lines, the
	// last (adding up to N when N is known); every one after a grep.
	type group struct {
		n      int // -1: unknown
		result int // index of the chosen line, or -1
	}
	g := group{n: -1, result: -1}
	var chosen []int
	flush := func() {
		if g.result >= 0 {
			chosen = append(chosen, g.result)
		}
	}
	for i, l := range out {
		if m := reRunning.FindStringSubmatch(l); m != nil && where[i] != inSection {
			flush()
			n, _ := strconv.Atoi(m[1])
			g = group{n: n, result: -1}
			continue
		}
		if where[i] == inSection || !reResult.MatchString(l) {
			continue
		}
		if cut.any {
			chosen = append(chosen, i)
			continue
		}
		c := resultCounts(l)
		if g.result < 0 || g.n < 0 || c.tests() == g.n || resultCounts(out[g.result]).tests() != g.n {
			g.result = i
		}
	}
	flush()
	isChosen := map[int]bool{}
	for _, i := range chosen {
		isChosen[i] = true
		c := resultCounts(out[i])
		f.results = append(f.results, c)
		if c.failed > 0 {
			f.failedRun = true
		}
	}

	// Failing names, per group: the list under "failures:" when the
	// runner's result line is in sight (the list comes right before it,
	// whole), else every name in sight.
	list, marks := map[string]bool{}, map[string]bool{}
	chosenSeen := false
	endGroup := func() {
		for n := range list {
			f.names[n] = true
		}
		if !chosenSeen || cut.any {
			for n := range marks {
				f.names[n] = true
			}
		}
		list, marks, chosenSeen = map[string]bool{}, map[string]bool{}, false
	}
	for i, l := range out {
		switch {
		case reRunning.MatchString(l) && where[i] != inSection:
			endGroup()
		case l == "failures:" && i+1 < len(out) && reName.MatchString(out[i+1]):
			for j := i + 1; j < len(out) && reName.MatchString(out[j]); j++ {
				list[reName.FindStringSubmatch(out[j])[1]] = true
			}
		case where[i] == outside && reMark.MatchString(l):
			marks[reMark.FindStringSubmatch(l)[1]] = true
		case where[i] == outside && reTerse.MatchString(l):
			marks[reTerse.FindStringSubmatch(l)[1]] = true
		case isChosen[i]:
			chosenSeen = true
			if where[i] != ambiguous {
				break
			}
			// A tail that began in the list of names: they end right
			// before the blank line before the result.
			j := i - 1
			for j >= 0 && strings.TrimSpace(out[j]) == "" {
				j--
			}
			if j == i-1 {
				break
			}
			for ; j >= 0 && where[j] == ambiguous && reName.MatchString(out[j]); j-- {
				list[reName.FindStringSubmatch(out[j])[1]] = true
			}
		}
		if cut.any && isChosen[i] {
			endGroup() // a grep: each result line is a binary's
		}
	}
	endGroup()
	if len(f.names) > 0 {
		f.failedRun = true
	}

	// Panics of failing tests, in either stream.
	for _, ls := range [][]string{out, errs} {
		for _, l := range ls {
			if m := rePanic.FindStringSubmatch(l); m != nil && f.names[m[1]] {
				f.panics = append(f.panics, refPanic{m[1], m[2]})
			}
		}
	}

	// Diagnostics and statuses.
	readDiags := func(ls []string, demand func(i int) bool, skip func(i int) bool) {
		for i, l := range ls {
			if skip(i) {
				continue
			}
			if reStatus.MatchString(l) {
				continue
			}
			if !reDiag.MatchString(l) || reSummary.MatchString(l) {
				continue
			}
			d := refDiag{head: l, isError: strings.HasPrefix(l, "error")}
			for j := i + 1; j < len(ls) && strings.TrimSpace(ls[j]) != "" && !reDiag.MatchString(ls[j]); j++ {
				if m := reArrow.FindStringSubmatch(ls[j]); m != nil {
					d.loc = m[1]
					break
				}
			}
			if d.isError {
				f.errorHeads++
				f.failedRun = true
			} else {
				f.warningHeads++
			}
			if demand(i) {
				f.diags = append(f.diags, d)
				if d.isError {
					f.errors = append(f.errors, d)
				}
			}
		}
	}
	never := func(int) bool { return false }
	always := func(int) bool { return true }
	readDiags(errs, always, never)
	readDiags(out, func(i int) bool { return !hasLibtest || !cut.start && i < firstLibtest },
		func(i int) bool { return where[i] == inSection })
	for _, s := range []struct {
		ls  []string
		cut bool
	}{{errs, false}, {out, true}} {
		for i, l := range s.ls {
			if reStatus.MatchString(l) && !(s.cut && where[i] == inSection) {
				f.status, f.fromCut = strings.TrimSpace(l), s.cut
			}
		}
	}
	if strings.HasPrefix(f.status, "error") {
		f.failedRun = true
	}
	return f
}

func resultCounts(l string) counts {
	m := reResult.FindStringSubmatch(l)
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	return counts{n(2), n(3), n(4), n(5), n(6)}
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// total sums the runner's result lines.
func (f refFacts) total() counts {
	var c counts
	for _, r := range f.results {
		c.add(r)
	}
	return c
}

// checkBlock holds a block to what the run's output shows (read), and
// returns what it states that the output contradicts, or leaves out.
func checkBlock(r *summarize.Run, block []byte) []string {
	p, err := ruletest.Parse(block)
	if err != nil {
		return []string{"malformed block: " + err.Error()}
	}
	f := read(r)
	var bad []string
	badf := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	fallback := p.Scalars["fallback"] == "true"
	omitted := 0
	for k, v := range p.Scalars {
		if n, err := strconv.Atoi(v); err == nil && strings.HasSuffix(k, "_omitted") {
			omitted += n
		}
	}

	// Totals: libtest's, only with a result line in sight, and exactly its.
	tot := f.total()
	for _, k := range []struct {
		key  string
		want int
	}{{"passed", tot.passed}, {"failed", tot.failed}, {"ignored", tot.ignored}, {"measured", tot.measured}, {"filtered_out", tot.filteredOut}} {
		n, ok := p.Int(k.key)
		switch _, seen := p.Scalars[k.key+"_seen"]; {
		case seen:
			badf("%s_seen: libtest's totals are no tallies", k.key)
		case ok && len(f.results) == 0:
			badf("%s: %d with no result line in sight", k.key, n)
		case ok && n != k.want:
			badf("%s: %d where the result lines say %d", k.key, n, k.want)
		case !ok && len(f.results) > 0 && r.Rule == "bash.cargo_test" && !fallback:
			badf("no %s, which the result lines state", k.key)
		}
	}

	// Tallies: of lines seen, no more than there are.
	for _, k := range []struct {
		key       string
		most, min int
	}{{"errors", f.errorHeads, len(f.errors)}, {"warnings", f.warningHeads, 0}} {
		n, ok := p.Int(k.key)
		ns, okSeen := p.Int(k.key + "_seen")
		switch {
		case ok && r.Partial():
			badf("%s: %d on a cut output, which can only say what it saw", k.key, n)
		case okSeen && !r.Partial():
			badf("%s_seen on a whole output", k.key)
		case okSeen:
			n, ok = ns, true
		}
		if ok && (n > k.most || n < k.min) {
			badf("%s: %d where the output shows %d to %d", k.key, n, k.min, k.most)
		}
	}

	// Failures: every name, panic location and error in sight.
	failedTests := p.Lists["failed_tests"]
	for name := range f.names {
		listed := false
		for _, it := range failedTests {
			listed = listed || it == name
		}
		if !listed && (!fallback || !p.Mentions(name)) && p.Scalars["failed_tests_omitted"] == "" {
			badf("leaves out the failing test %q", name)
		}
	}
	for _, pa := range f.panics {
		if !p.Mentions(pa.loc) && omitted == 0 {
			badf("leaves out the panic of %q at %s", pa.thread, pa.loc)
		}
	}
	for _, d := range f.errors {
		if !p.Mentions(d.head) && omitted == 0 {
			badf("leaves out the error %q", d.head)
		}
		if d.loc != "" && !p.Mentions(d.loc) && omitted == 0 {
			badf("leaves out the location %s of %q", d.loc, d.head)
		}
	}

	// cargo's status line: the last one in sight, named for what it is.
	final, isFinal := p.Scalars["final_status"]
	last, isLast := p.Scalars["last_status_seen"]
	endCut := f.fromCut && refCutOf(r).end
	switch {
	case isFinal && isLast:
		badf("both final_status and last_status_seen")
	case isFinal && f.status != "" && endCut:
		badf("final_status %q from a stdout that may lack its end", final)
	case isLast && !endCut:
		badf("last_status_seen %q where the end is in sight", last)
	case !isFinal && !isLast && f.status != "" && !fallback:
		badf("leaves out cargo's status line %q", f.status)
	case f.status == "" && isLast:
		badf("last_status_seen %q where no status line is in sight", last)
	case f.status == "" && isFinal && refCutOf(r).end && !strings.Contains(string(r.Stderr), final):
		// Without a status line cargo's last error stands for one: only
		// when the output's end is in sight.
		badf("final_status %q where a cut may have left out cargo's status line", final)
	}
	if s := final + last; s != "" && f.status != "" && s != f.status {
		badf("status %q where the last status line is %q", s, f.status)
	}

	// A failing run never reads as passing.
	if f.failedRun && !fallback {
		n, _ := p.Int("failed")
		e, _ := p.Int("errors")
		es, _ := p.Int("errors_seen")
		if n == 0 && e == 0 && es == 0 && len(failedTests) == 0 && len(p.Lists["unfinished_tests"]) == 0 &&
			len(p.Lists["cargo_errors"]) == 0 && !strings.HasPrefix(final+last, "error") {
			badf("reads as passing, where the output shows a failure")
		}
	}
	return bad
}
