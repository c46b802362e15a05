package node_test

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The reference reader: what the text a caller saw of a node tool's output
// shows, read apart from the rules (with regular expressions, from the
// end of a stream where the rules read from its start) so that the tests
// can hold every block to it (TestReferenceBlocks, FuzzNodeCut). It is
// itself held to the tools' machine-readable reports on the uncut cases
// (TestReferenceAgainstReports): vitest's and jest's JSON, ESLint's JSON,
// tsc's plain lines.

// facts is what a (possibly cut) output shows.
type facts struct {
	// totals are the numbers the tool's own visible result lines state,
	// by the block's key ("failed", "files_total", "errors"), or counts
	// over an output known whole. A key absent has no visible basis.
	totals map[string]int
	// seen bounds the block's KEY_seen tallies: how many of those things
	// are visible.
	seen map[string]int
	// units are the failures the block must show (or count as omitted):
	// each a name, and the locations that go with it. names are all of
	// their strings.
	units []*unit
	cur   *unit // the unit locations go with; nil between failures
	names []string
	// reports are the failing tests the runner's reports name, joined
	// as the runner joins them (vitest "FILE > NAME", "FILE [ FILE ]" for
	// a file that failed to load; jest "FILE › NAME"); diags are tsc's
	// errors as "FILE:LINE:COL TSnnnn", rows ESLint's as "FILE LINE:COL
	// SEVERITY RULE": for the comparison with the tools' reports.
	reports, diags, rows []string
	// failing tells that the visible text shows a failure.
	failing bool
}

// unit is one failure: the name that stands for it (a test, a suite, an
// error line; or a location whose failure's name was cut off), and the
// locations of its report.
type unit struct {
	head string
	locs []string
}

func newFacts() *facts { return &facts{totals: map[string]int{}, seen: map[string]int{}} }

// name starts a failure named s.
func (f *facts) name(s string) {
	if s = strings.TrimSpace(s); s != "" {
		f.names = append(f.names, s)
		f.failing = true
		f.cur = &unit{head: s}
		f.units = append(f.units, f.cur)
	}
}

// failures returns the units, each once: jest repeats its failures under
// "Summary of all failing tests".
func (f *facts) failures() []*unit {
	seen := map[string]bool{}
	var out []*unit
	for _, u := range f.units {
		k := u.head + "\x00" + strings.Join(u.locs, "\x00")
		if !seen[k] {
			seen[k] = true
			out = append(out, u)
		}
	}
	return out
}

// loc adds a location to the failure being read, or, when none is (its
// name was cut off), stands for a failure of its own.
func (f *facts) loc(s string) {
	if f.cur == nil {
		f.name(s)
		f.cur = nil
		return
	}
	f.names = append(f.names, s)
	f.cur.locs = append(f.cur.locs, s)
}

// end ends the failure being read.
func (f *facts) end() { f.cur = nil }

// view is the text of a run as the reference reads it: each stream's
// lines as a terminal shows them, and what each may lack.
type view struct {
	out, errs       []string
	outEnd, errsEnd bool // the stream may lack its end (head, the capture limit)
	outStart        bool // stdout may lack its start (tail, grep)
	errsStart       bool
	whole           bool // nothing may be missing
}

func viewOf(r *summarize.Run) view {
	return view{
		out:      summarize.Lines(summarize.Readable(r.Stdout)),
		errs:     summarize.Lines(summarize.Readable(r.Stderr)),
		outEnd:   r.Cut.End || r.StdoutTruncated,
		errsEnd:  r.StderrTruncated,
		outStart: r.Cut.Start || r.Cut.Any || r.StdoutTruncated, errsStart: r.StderrTruncated,
		whole: !(r.Cut.Start || r.Cut.End || r.Cut.Any || r.StdoutTruncated || r.StderrTruncated),
	}
}

// reference reads a run of a node rule (its id without "bash.").
func reference(rule string, r *summarize.Run) *facts {
	v := viewOf(r)
	if rule == "npm_test" {
		whole := v
		v.out, v.errs = runnerLines(v.out), runnerLines(v.errs)
		switch runnerOf(v) {
		case "vitest":
			return refVitest(v)
		case "jest":
			return refJest(v)
		}
		return refGeneric(whole)
	}
	switch rule {
	case "vitest":
		return refVitest(v)
	case "jest":
		return refJest(v)
	case "tsc":
		return refTsc(v)
	case "eslint":
		return refESLint(v)
	case "npm_install":
		return refInstall(v)
	}
	panic("no reference reader for " + rule)
}

// reManager matches the package manager's own lines around a test
// script's output: npm's script header and its error lines, pnpm's, yarn's.
var reManager = regexp.MustCompile(`^(?:> |\$ |yarn run v|npm (?:error|warn)(?: |$)|error Command failed|info Visit https://yarnpkg\.com|Done in .*s\.$)|^[\s\x{2009}]*(?:ELIFECYCLE|ERR_PNPM_)`)

// runnerLines is a stream of a test script without the package
// manager's lines.
func runnerLines(ls []string) []string {
	var out []string
	for _, l := range ls {
		if !reManager.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

var (
	reVitestMark = regexp.MustCompile(`^ RUN  v\d|^ Test Files  |^⎯+ Failed `)
	reJestMark   = regexp.MustCompile(`^(PASS|FAIL) \S|^Test Suites: `)
)

// runnerOf tells which runner printed a test script's output, as the
// shape of its lines shows: "vitest", "jest", or "" for neither or both.
func runnerOf(v view) string {
	var vt, jt bool
	for _, ls := range [][]string{v.out, v.errs} {
		for _, l := range ls {
			vt = vt || reVitestMark.MatchString(l)
			jt = jt || reJestMark.MatchString(l)
		}
	}
	switch {
	case vt && !jt:
		return "vitest"
	case jt && !vt:
		return "jest"
	}
	return ""
}

// counts reads a runner's counts ("5 failed | 4 passed | 1 skipped (11)",
// "6 failed, 1 skipped, 4 passed, 12 total", "2 passed, 2 of 3 total")
// into totals under prefix.
func counts(s, prefix string, totals map[string]int) {
	for _, k := range []string{"failed", "passed", "skipped", "todo"} {
		totals[prefix+k] = 0
		if m := regexp.MustCompile(`(?:^|[|,]) *(\d+) ` + k + `\b`).FindStringSubmatch(s); m != nil {
			totals[prefix+k], _ = strconv.Atoi(m[1])
		}
	}
	key := prefix + "total"
	if prefix == "" {
		key = "total"
	}
	for _, re := range []string{`\((\d+)\)\s*$`, `(\d+) total\s*$`} {
		if m := regexp.MustCompile(re).FindStringSubmatch(s); m != nil {
			totals[key], _ = strconv.Atoi(m[1])
		}
	}
}

// lastGroup finds the runner's summary, scanning a stream back from its
// end: past blank lines and lines that may close a summary (skip), the
// first run of lines that are summary lines (is). closed tells that the
// run holds the runner's closing line (closer).
func lastGroup(ls []string, is, skip, closer *regexp.Regexp) (group []string, closed bool) {
	i := len(ls) - 1
	for i >= 0 && (strings.TrimSpace(ls[i]) == "" || skip.MatchString(ls[i]) && !is.MatchString(ls[i])) {
		i--
	}
	end := i
	for i >= 0 && is.MatchString(ls[i]) {
		i--
	}
	group = ls[i+1 : end+1]
	for _, l := range group {
		closed = closed || closer.MatchString(l)
	}
	return group, closed
}

var (
	reVitestSummary  = regexp.MustCompile(`^ *(Test Files|Tests|Errors|Type Errors|Snapshots|Start at|Duration)  \S`)
	reVitestNever    = regexp.MustCompile(`^\x00`)
	reVitestClose    = regexp.MustCompile(`^ *Duration  `)
	reVitestFail     = regexp.MustCompile(`^ FAIL  (.+?)\s*$`)
	reVitestSuite    = regexp.MustCompile(`^\S.* \[ .+ \]$`)
	reVitestListed   = regexp.MustCompile(`^ (?:  )*× (.+?)(?: \d+ms)?(?: \(retry x\d+\))?(?: \(repeat x\d+\))?(?: \d+ MB heap used)?\s*$`)
	reVitestFile     = regexp.MustCompile(`^ ❯ (.+?) \(\d+ tests?[ |)]`)
	reVitestLoc      = regexp.MustCompile(`^ *❯ (?:.* )?(\S+:\d+:\d+)$`)
	reVitestUncaught = regexp.MustCompile(`^ *Errors  \d+ errors?`)
	reUnhandled      = regexp.MustCompile(`^⎯+ Unhandled (?:Rejection|Error)`)
)

// refVitest reads vitest's default and verbose reporters: the summary on
// stdout, the failures on stderr.
func refVitest(v view) *facts {
	f := newFacts()
	var fails, suites, listed int
	// A file the listing marks failed stands for its failures when no
	// report or listed test of it is visible (a pipe into head kept only
	// its line).
	var failedFiles []string
	shown := map[string]bool{}
	for _, ls := range [][]string{v.out, v.errs} {
		file := ""
		f.end()
		for _, l := range ls {
			switch {
			case reVitestFail.MatchString(l):
				name := reVitestFail.FindStringSubmatch(l)[1]
				f.name(name)
				f.reports = append(f.reports, name)
				shown[regexp.MustCompile(`^(.*?)(?: > | \[ )`).FindStringSubmatch(name + " > ")[1]] = true
				if reVitestSuite.MatchString(name) {
					suites++
				} else {
					fails++
				}
			case reVitestListed.MatchString(l):
				f.name(reVitestListed.FindStringSubmatch(l)[1])
				f.end()
				shown[file] = true
				if m := regexp.MustCompile(`^ × (.+?) > `).FindStringSubmatch(l); m != nil {
					shown[m[1]] = true
				}
				listed++
			case reVitestFile.MatchString(l):
				f.end()
				file = reVitestFile.FindStringSubmatch(l)[1]
				if strings.HasPrefix(l, " ❯ ") {
					failedFiles = append(failedFiles, file)
				}
			case reVitestLoc.MatchString(l):
				if loc := reVitestLoc.FindStringSubmatch(l)[1]; projectLoc(loc) {
					f.loc(loc)
				}
			case reVitestUncaught.MatchString(l) || reUnhandled.MatchString(l):
				f.failing = true
				f.end()
			case strings.HasPrefix(l, "⎯") || reVitestSummary.MatchString(l):
				f.end()
			}
		}
	}
	for _, file := range failedFiles {
		if !shown[file] {
			shown[file] = true
			f.name(file)
			f.end()
		}
	}
	group := runnerGroup(v, 0, reVitestSummary, reVitestNever, reVitestClose)
	totals := map[string]int{}
	for _, l := range group {
		t := strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(t, "Test Files  "); ok {
			counts(rest, "files_", totals)
		} else if rest, ok := strings.CutPrefix(t, "Tests  "); ok {
			counts(rest, "", totals)
		}
	}
	settleTotals(f, totals, max(fails, listed), suites)
	return f
}

// runnerGroup is the runner's own summary: the last group of the stream
// it writes its summary to (report: 0 stdout, 1 stderr), else of the
// other; a group in a stream that may lack its end counts only with the
// runner's closing line.
func runnerGroup(v view, report int, is, skip, closer *regexp.Regexp) []string {
	streams := [2][]string{v.out, v.errs}
	ends := [2]bool{v.outEnd, v.errsEnd}
	s := report
	if g, _ := lastGroup(streams[s], is, skip, closer); len(g) == 0 {
		s = 1 - report
	}
	g, closed := lastGroup(streams[s], is, skip, closer)
	if len(g) == 0 || ends[s] && !closed {
		return nil
	}
	return g
}

// settleTotals keeps a summary's totals unless the failures the output
// names are more than it counts (another run's summary, or a test's
// imitation of one).
func settleTotals(f *facts, totals map[string]int, fails, suites int) {
	if n, ok := totals["failed"]; ok && n < fails {
		return
	}
	if n, ok := totals["files_failed"]; ok && n < suites {
		return
	}
	for k, n := range totals {
		f.totals[k] = n
		if (k == "failed" || k == "files_failed") && n > 0 {
			f.failing = true
		}
	}
}

var (
	reJestSummary = regexp.MustCompile(`^(Test Suites|Tests|Snapshots|Time):\s`)
	reJestSkip    = regexp.MustCompile(`^Ran all test suites`)
	reJestClose   = regexp.MustCompile(`^Time:\s`)
	reJestFile    = regexp.MustCompile(`^FAIL +(\S.*?)(?: \(\d[^)]*\))?$`)
	reJestHeader  = regexp.MustCompile(`^  ● (.+)$`)
	reJestListed  = regexp.MustCompile(`^ +✕ (.+?)(?: \(\d+ ms\))?\s*$`)
	reJestFrame   = regexp.MustCompile(`^\s+at (?:.*\()?(\S+:\d+:\d+)\)?$`)
	reConsoleCall = regexp.MustCompile(`^\s+console\.[a-z]+$`)
)

// refJest reads jest's default reporter: everything on stderr, console
// output of a single-file or --verbose run on stdout.
func refJest(v view) *facts {
	f := newFacts()
	headers := map[string]bool{}
	listed := 0
	suites := map[string]bool{}
	for s, ls := range [][]string{v.errs, v.out} {
		// Frames belong to a failure unless they are inside a "●
		// Console" block, or in a stream cut at its start, after a
		// console call line before any header.
		console, suite := false, ""
		f.end()
		for i, l := range ls {
			switch {
			case reJestFile.MatchString(l):
				suite = reJestFile.FindStringSubmatch(l)[1]
				f.name(suite)
				f.end()
				console = false
			case reJestHeader.MatchString(l):
				name := reJestHeader.FindStringSubmatch(l)[1]
				console = name == "Console" && nextIsConsoleCall(ls, i)
				f.end()
				if !console {
					f.name(name)
					if suite != "" {
						f.reports = append(f.reports, suite+" › "+name)
					}
					if name == "Test suite failed to run" {
						suites[strconv.Itoa(s)+":"+strconv.Itoa(i)] = true
					} else {
						headers[name] = true
					}
				}
			case reJestListed.MatchString(l):
				f.name(reJestListed.FindStringSubmatch(l)[1])
				f.end()
				listed++
			case reConsoleCall.MatchString(l):
				console = true
			case reJestFrame.MatchString(l) && !console:
				if loc := reJestFrame.FindStringSubmatch(l)[1]; projectLoc(loc) {
					f.loc(loc)
				}
			case l != "" && l[0] != ' ':
				console, suite = false, ""
				f.end()
			}
		}
	}
	group := runnerGroup(v, 1, reJestSummary, reJestSkip, reJestClose)
	totals := map[string]int{}
	for _, l := range group {
		if rest, ok := strings.CutPrefix(l, "Test Suites:"); ok {
			counts(rest, "files_", totals)
		} else if rest, ok := strings.CutPrefix(l, "Tests:"); ok {
			counts(rest, "", totals)
		}
	}
	settleTotals(f, totals, max(len(headers), listed), len(suites))
	return f
}

func nextIsConsoleCall(ls []string, i int) bool {
	for _, l := range ls[i+1:] {
		if strings.TrimSpace(l) != "" {
			return reConsoleCall.MatchString(l)
		}
	}
	return false
}

// projectLoc tells whether a stack location points into the project: not
// into node_modules or node's own modules.
func projectLoc(loc string) bool {
	return !strings.Contains(loc, "node_modules/") && !strings.HasPrefix(loc, "node:")
}

var reTAPFail = regexp.MustCompile(`^ *not ok \d+ - (.+)$`)

// refGeneric reads a test script's output of another runner: the TAP
// failures of node --test, and the lines of each stream.
func refGeneric(v view) *facts {
	f := newFacts()
	for _, ls := range [][]string{v.out, v.errs} {
		for _, l := range ls {
			if m := reTAPFail.FindStringSubmatch(l); m != nil && !regexp.MustCompile(`(?i) # (TODO|SKIP)`).MatchString(m[1]) {
				f.name(m[1])
				f.end()
			}
		}
	}
	f.seen["stdout_lines"], f.seen["stderr_lines"] = len(v.out), len(v.errs)
	if v.whole {
		f.totals["stdout_lines"], f.totals["stderr_lines"] = len(v.out), len(v.errs)
	}
	return f
}

var (
	reTscError = regexp.MustCompile(`^(?:(\S.*?)(?:\((\d+),(\d+)\):|:(\d+):(\d+) -) )?error (TS\d+): `)
	reTscFound = regexp.MustCompile(`^Found (\d+) errors?(?: in (?:(\d+) files|(the same file)|\S+:\d+))?\.?`)
	reTscTitle = regexp.MustCompile(`^Errors  Files$`)
	reTscRow   = regexp.MustCompile(`^ +(\d+)  (\S.*:\d+)$`)
)

// refTsc reads tsc's plain and --pretty output.
func refTsc(v view) *facts {
	f := newFacts()
	diags, rowErrors, rows := 0, 0, 0
	files := map[string]bool{}
	found, foundErrors, foundFiles := false, 0, 0
	filesKnown := true
	for s, ls := range [][]string{v.out, v.errs} {
		table := false
		lead := s == 0 && v.outStart || s == 1 && v.errsStart
		for _, l := range ls {
			if m := reTscRow.FindStringSubmatch(l); m != nil && (table || lead) {
				f.name(m[2])
				n, _ := strconv.Atoi(m[1])
				rowErrors += n
				rows++
				table = true
				continue
			}
			// The lead ends at the first diagnostic, Found line or
			// title: tsc's code excerpts start at the margin too.
			table = false
			if reTscError.MatchString(l) || reTscFound.MatchString(l) || reTscTitle.MatchString(l) {
				lead = false
			}
			switch {
			case reTscError.MatchString(l):
				f.name(l)
				diags++
				m := reTscError.FindStringSubmatch(l)
				if m[1] != "" {
					files[m[1]] = true
				}
				line, col := m[2]+m[4], m[3]+m[5]
				f.diags = append(f.diags, m[1]+":"+line+":"+col+" "+m[6])
			case reTscFound.MatchString(l):
				m := reTscFound.FindStringSubmatch(l)
				n, _ := strconv.Atoi(m[1])
				found, foundErrors = true, foundErrors+n
				f.failing = true
				switch {
				case m[2] != "":
					k, _ := strconv.Atoi(m[2])
					foundFiles += k
				case m[3] != "" || n == 1 && strings.Contains(l, " in "):
					foundFiles++
				default:
					filesKnown = false
				}
			case reTscTitle.MatchString(l):
				table = true
			}
		}
	}
	f.seen["errors"] = max(diags, rowErrors)
	f.seen["files"] = max(len(files), rows)
	switch {
	case v.whole:
		f.totals["errors"] = max(diags, foundErrors)
		if filesKnown {
			f.totals["files"] = max(len(files), foundFiles)
		} else {
			f.totals["files"] = len(files)
		}
	case found:
		f.totals["errors"] = foundErrors
		if filesKnown {
			f.totals["files"] = foundFiles
		}
	}
	return f
}

var (
	reESLintRow      = regexp.MustCompile(`^ +(\d+:\d+) +(error|warning)  .*?(?:  (\S+))?$`)
	reESLintProblems = regexp.MustCompile(`^✖ \d+ problems? \((\d+) errors?, (\d+) warnings?\)`)
)

// refESLint reads ESLint's stylish format.
func refESLint(v view) *facts {
	f := newFacts()
	errors, warnings, files := 0, 0, 0
	problems := false
	for _, ls := range [][]string{v.out, v.errs} {
		path, pathRows := "", 0
		for _, l := range ls {
			if m := reESLintRow.FindStringSubmatch(l); m != nil {
				f.rows = append(f.rows, path+" "+m[1]+" "+m[2]+" "+m[3])
				if m[2] == "error" {
					errors++
					f.name(l)
					if path != "" {
						f.name(path)
					}
				} else {
					warnings++
				}
				if path != "" && pathRows == 0 {
					files++
				}
				pathRows++
				continue
			}
			path, pathRows = "", 0
			if m := reESLintProblems.FindStringSubmatch(l); m != nil {
				problems = true
				f.totals["errors"], _ = strconv.Atoi(m[1])
				f.totals["warnings"], _ = strconv.Atoi(m[2])
				f.failing = f.failing || f.totals["errors"] > 0
			} else if l != "" && l[0] != ' ' {
				path = l
			}
		}
	}
	f.seen["errors"], f.seen["warnings"], f.seen["files"] = errors, warnings, files
	if v.whole {
		f.totals["errors"], f.totals["warnings"], f.totals["files"] = errors, warnings, files
	} else if !problems {
		delete(f.totals, "errors")
		delete(f.totals, "warnings")
	}
	return f
}

var (
	reNpmError      = regexp.MustCompile(`^npm error \S`)
	reNpmCode       = regexp.MustCompile(`^npm error code (\S+)`)
	reNpmWarn       = regexp.MustCompile(`^npm warn (\S+)`)
	rePnpmWarn      = regexp.MustCompile(`^[\s\x{2009}]*WARN[\s\x{2009}]`)
	rePnpmDeprecate = regexp.MustCompile(`deprecated`)
	rePnpmErr       = regexp.MustCompile(`ERR_PNPM_\S+`)
	reBox           = regexp.MustCompile(`^\s*╭`)
)

// refInstall reads npm's and pnpm's install output.
func refInstall(v view) *facts {
	f := newFacts()
	warnings, deprecations := 0, 0
	for _, ls := range [][]string{v.out, v.errs} {
		for _, l := range ls {
			switch {
			case reNpmError.MatchString(l):
				f.name(l)
				if m := reNpmCode.FindStringSubmatch(l); m != nil {
					f.seen["error_code:"+m[1]] = 1
				}
			case rePnpmErr.MatchString(l):
				f.name(rePnpmErr.FindString(l))
			case reNpmWarn.MatchString(l):
				if reNpmWarn.FindStringSubmatch(l)[1] == "deprecated" {
					deprecations++
				} else {
					warnings++
				}
			case rePnpmWarn.MatchString(l):
				if rePnpmDeprecate.MatchString(l) {
					deprecations++
				} else {
					warnings++
				}
			case reBox.MatchString(l):
				warnings++
			}
		}
	}
	f.seen["warnings"], f.seen["deprecations"] = warnings, deprecations
	return f
}
