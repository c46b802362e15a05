package node

import (
	"bytes"
	"iter"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchNpmTest recognizes the test script of npm, pnpm and yarn: npm test
// (npm t, npm tst), npm run test (npm run-script test), pnpm test and
// pnpm run test, yarn test and yarn run test (matchTestScript).
func MatchNpmTest(argv []string) classify.Answer {
	return matchManager(argv, func(argv []string) (classify.Answer, bool) {
		pm, sub := argv[0], 1
		switch argv[sub] {
		case "test", "t", "tst":
			if pm != "npm" && argv[sub] != "test" {
				return classify.Refuse(sub, "not a recognized command"), true
			}
			return matchTestScript(argv, sub+1), true
		case "run", "run-script":
			if sub+1 < len(argv) && argv[sub+1] == "test" && (pm == "npm" || argv[sub] == "run") {
				return matchTestScript(argv, sub+2), true
			}
			return classify.Refuse(sub, "a script other than test"), true
		}
		return classify.Answer{}, false
	})
}

// runnerFormats are the options that, handed to whichever runner a test
// script starts, would change its report: the union of the vitest and jest
// ones, and of the reporters of both.
var runnerFormats = append(append([]string{"--reporter", "--json"}, vitestFormats...), jestFormats...)

// matchTestScript checks the arguments of a test script run from argv[from]
// on. Before "--" they are the package manager's (npm also hands words that
// are not options to the script): only --silent and -s, which hide the
// script header, are accepted, because the others (--workspaces, -r,
// --filter, --json, --loglevel) run several scripts, prefix their lines or
// change what is printed. After "--" the words go to the runner, whichever
// it is, and the format options of vitest and jest pass through.
func matchTestScript(argv []string, from int) classify.Answer {
	dashes := false
	for j := from; j < len(argv); j++ {
		a := argv[j]
		switch {
		case nodeHelp[a]:
			return classify.Refuse(j, "help or version requested (%s)", a)
		case a == "--" && !dashes:
			dashes = true
		case dashes && (a == "-w" || hasPrefix(a, runnerFormats)):
			return classify.Refuse(j, "option %q changes the output format", a)
		case !dashes && strings.HasPrefix(a, "-") && a != "--silent" && a != "-s":
			return classify.Refuse(j, "%s option %q", argv[0], a)
		}
	}
	return classify.Accept()
}

// Caps of bash.npm_test when the runner is not one it reads.
const (
	maxScriptLines  = 10
	maxManagerLines = 20
	maxTailLines    = 30
	maxUnknownFails = 100
)

// NpmTest summarizes bash.npm_test: npm test, npm run test, pnpm test and
// yarn test. The classifier cannot know which runner the script starts, so
// the rule recognizes it by the shape of the output: vitest's (a "RUN  v"
// line, its summary and error sections) or jest's (PASS/FAIL suite lines,
// "Test Suites:"), and then gives that runner's body after "runner:". The
// package manager's own lines (the "> pkg@1.0.0 test" script header, npm
// error lines, pnpm's ELIFECYCLE, yarn's "$ cmd" and "Done in") are set
// apart first. Any other output (node --test, mocha, a script of several
// commands, two runners at once) gets an honest generic body: the line
// counts, every line the boundary check reads as a failure, and the last
// lines of each stream.
func NpmTest(r *summarize.Run) *summarize.Body {
	var pm scriptLines
	out, nOut := pm.split(summarize.EachLine(r.Stdout), bytes.Count(r.Stdout, []byte{'\n'})+1)
	errs, nErr := pm.split(summarize.EachLine(r.Stderr), bytes.Count(r.Stderr, []byte{'\n'})+1)

	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	var t *testRun
	outCut, errCut := streamCuts(r)
	switch runner := pm.runner(); runner {
	case "vitest":
		t = readVitestLines([2]streamCut{outCut, errCut}, out, errs)
	case "jest":
		t = readJestLines([2]streamCut{errCut, outCut}, errs, out)
	}
	if t == nil {
		b.Field("runner", "unknown")
		b.List("script", pm.script, maxScriptLines)
		b.List("manager_lines", pm.manager, maxManagerLines)
		b.Tally("stdout_lines", nOut)
		b.Tally("stderr_lines", nErr)
		unknownRunner(r, b, out, errs)
		return b
	}
	b.Field("runner", t.runner)
	b.List("script", pm.script, maxScriptLines)
	b.List("manager_lines", pm.manager, maxManagerLines)
	t.body(r, b)
	return b
}

// scriptLines holds what the package manager printed around the script,
// and which runners' marks the other lines bear.
type scriptLines struct {
	script  []string // "> pkg@1.0.0 test", "> vitest run"; yarn's "$ vitest run"
	manager []string // npm error and warn lines, ELIFECYCLE, yarn's status lines

	vitest bool // a "RUN  v" line, a "Test Files" summary or a failures section
	jest   bool // a PASS or FAIL suite line or a "Test Suites:" summary
}

// split returns the lines of one stream without the package manager's own,
// which it keeps, and the number of lines read; size is about that number.
// The script header is read only before the first other line of the
// stream: later "> " or "$ " lines are the runner's. The lines kept are
// looked at for the runners' marks on the way, so that no second pass over
// the output is needed.
func (s *scriptLines) split(ls iter.Seq[string], size int) (rest []string, n int) {
	rest = make([]string, 0, size)
	header := true
	for l := range ls {
		n++
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			rest = append(rest, l)
			continue
		case header && (strings.HasPrefix(l, "> ") || strings.HasPrefix(l, "$ ") ||
			strings.HasPrefix(l, "yarn run v")):
			s.script = append(s.script, t)
			continue
		}
		header = false
		switch {
		case strings.IndexByte("nEeiD", t[0]) < 0:
			// No line of the manager's starts otherwise.
			rest = append(rest, l)
			s.mark(l, t)
		case t == "npm error" || t == "npm warn":
		case strings.HasPrefix(l, "npm error ") || strings.HasPrefix(l, "npm warn ") ||
			pnpmBadge(t, "ELIFECYCLE") || strings.HasPrefix(t, "ERR_PNPM_") ||
			strings.HasPrefix(l, "error Command failed") || strings.HasPrefix(l, "info Visit https://yarnpkg.com") ||
			strings.HasPrefix(l, "Done in ") && strings.HasSuffix(l, "s."):
			s.manager = append(s.manager, t)
		default:
			rest = append(rest, l)
			s.mark(l, t)
		}
	}
	return rest, n
}

// mark notes the runner whose mark a line (and t, it trimmed, not empty)
// bears.
func (s *scriptLines) mark(l, t string) {
	if strings.IndexByte("RTFP\xe2", t[0]) < 0 {
		return // no mark starts otherwise
	}
	switch {
	case strings.HasPrefix(t, "RUN  v"), strings.HasPrefix(t, "Test Files  "),
		strings.HasPrefix(t, "⎯") && strings.Contains(t, " Failed "):
		s.vitest = true
	case strings.HasPrefix(l, "Test Suites: "), isJestSuite(l):
		s.jest = true
	}
}

// runner names the runner whose output this is, or "" when it is neither
// vitest's nor jest's, or both.
func (s *scriptLines) runner() string {
	switch {
	case s.vitest && !s.jest:
		return "vitest"
	case s.jest && !s.vitest:
		return "jest"
	}
	return ""
}

// unknownRunner ends the body for output that no reader knows: every line
// the node family's finder reads as a failure (test runners, tsc, ESLint,
// TAP), and the last non-blank lines of each stream without the package
// manager's. Failures of other families that a script may print are left
// to the boundary check, which falls back to listing them.
func unknownRunner(r *summarize.Run, b *summarize.Body, out, errs []string) {
	fails := summarize.NewCapped(maxUnknownFails)
	keep := func(_, line string, _ int) { fails.Add(line) }
	var n nodeScan
	n.scan(r.Stdout, out, keep)
	n.scan(r.Stderr, errs, keep)
	n.finish(func(_ int, _, line string, _ int) { fails.Add(line) })
	b.ListCapped("failure_lines", fails)
	b.List("stdout_tail", tail(out, maxTailLines), 0)
	b.List("stderr_tail", tail(errs, maxTailLines), 0)
}

// tail returns the last n non-blank lines of ls, trimmed at the right.
func tail(ls []string, n int) []string {
	var out []string
	for i := len(ls) - 1; i >= 0 && len(out) < n; i-- {
		if t := strings.TrimRight(ls[i], " \t"); t != "" {
			out = append(out, t)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// pnpmBadge reports whether t, a trimmed line, starts with pnpm's badge
// name (ELIFECYCLE, WARN). pnpm sets its badges off with thin spaces
// (U+2009): TrimSpace removes the one before, and either kind of space
// follows.
func pnpmBadge(t, name string) bool {
	rest, ok := strings.CutPrefix(t, name)
	return ok && (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "\u2009"))
}
