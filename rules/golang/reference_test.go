package golang_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// The reference reader: what a go output shows, read apart from the rules
// (it calls none of their code, and parses with regular expressions where
// they parse by hand), for oracles that hold blocks to the visible text.
// It is checked against test2json's events, the machine-readable truth of
// the same runs (TestGoReference).

// goFacts is what a go test output shows.
type goFacts struct {
	// pkgs is each package whose result line is visible, with the worst of
	// its result lines: 'F' (FAIL), 'o' (ok) or '?' (no test files).
	pkgs map[string]byte
	// failed holds one name per visible "--- FAIL:" line that is a result,
	// in order.
	failed []string
	// passed and skipped count the visible "--- PASS:" and "--- SKIP:"
	// results of -v (or -json) output that no later "--- FAIL:" line of the
	// same run of the test overrules.
	passed, skipped int
	// verbose tells that the output has go test -v's layout: a "=== RUN"
	// line is visible.
	verbose bool
	// reasons holds the "file.go:N" of each reason line a failing test
	// printed, for the lines whose test is visible.
	reasons map[string][]string
	// panics counts "panic: " and "fatal error: " lines.
	panics int
	// buildErrors holds the "file.go:N:M" of each compiler or vet error.
	buildErrors []string
	// unplaced holds the lines before the first line that says whose they
	// are (a result, a run marker, a package result, a panic or a race, a
	// build header or error), when the output's start may be cut.
	unplaced []string
}

var (
	refPackage  = regexp.MustCompile(`^(ok  |FAIL|\?   )\t(\S+)(?:\t| \[|$)`)
	refCoverage = regexp.MustCompile(`^\t(\S+)\t\tcoverage: `)
	refResult   = regexp.MustCompile(`^( *)--- (FAIL|PASS|SKIP): (\S+) \([0-9.]+s\)$`)
	// refTailResult is a result at the end of a line a test's output
	// without a final newline ran into.
	refTailResult = regexp.MustCompile(`\S--- (FAIL|PASS|SKIP): (\S+) \([0-9.]+s\)$`)
	refMarker     = regexp.MustCompile(`^=== (RUN|PAUSE|CONT|NAME) +(\S+)$`)
	// refTailMarker is a run marker at the end of such a line.
	refTailMarker = regexp.MustCompile(`\S=== (RUN|PAUSE|CONT|NAME) +(\S+)$`)
	refReason     = regexp.MustCompile(`^( +)(\S+\.go:\d+): `)
	refBuild      = regexp.MustCompile(`^(?:vet: )?(\S+\.go:\d+:\d+): `)
)

// refEvent is a test2json event, as encoding/json reads it.
type refEvent struct {
	Action, Package, ImportPath, Test, Output, FailedBuild string
}

// refGroup is a text the reader reads on its own: the lines of a stream
// that are not test2json events, or the text of the events of one package
// (pkg), or of one package's build (build).
type refGroup struct {
	pkg, build string
	lines      []string
}

// refGroups splits a stream's lines into the texts the reader reads one
// after the other: test2json events become the text of their Output
// fields, one text per package (per import path for build output), in the
// order each first appears; other lines are a text of their own.
func refGroups(lines []string) []refGroup {
	var plain []string
	type key struct{ pkg, build string }
	texts := map[key]*strings.Builder{}
	var order []key
	for _, l := range lines {
		var e refEvent
		if !strings.HasPrefix(l, "{") || json.Unmarshal([]byte(l), &e) != nil || e.Action == "" {
			plain = append(plain, l)
			continue
		}
		k := key{pkg: e.Package}
		if k.pkg == "" {
			k.build = e.ImportPath
		}
		b := texts[k]
		if b == nil {
			b = &strings.Builder{}
			texts[k] = b
			order = append(order, k)
		}
		b.WriteString(e.Output)
	}
	var groups []refGroup
	if len(plain) > 0 {
		groups = append(groups, refGroup{lines: plain})
	}
	for _, k := range order {
		if text := strings.TrimSuffix(texts[k].String(), "\n"); text != "" {
			groups = append(groups, refGroup{k.pkg, k.build, strings.Split(text, "\n")})
		}
	}
	return groups
}

// readGoTest reads a go test output, verbose when the command asked for
// -v's layout (-v, -json). stdout may lack its start when mayLackStart;
// stderr never passes a filter.
func readGoTest(stdout, stderr []string, verbose, mayLackStart bool) goFacts {
	f := goFacts{pkgs: map[string]byte{}, reasons: map[string][]string{}, verbose: verbose}
	errs, outs := refGroups(stderr), refGroups(stdout)
	for _, g := range append(slices.Clone(errs), outs...) {
		for _, l := range g.lines {
			if strings.HasPrefix(l, "=== RUN") {
				f.verbose = true
			}
		}
	}
	for _, g := range errs {
		f.readGroup(g, false)
	}
	for i, g := range outs {
		f.readGroup(g, mayLackStart && (i == 0 && g.pkg == "" && g.build == "" || g.pkg != ""))
	}
	return f
}

// packageOf returns the package a line is the result of, and its kind.
func packageOf(l string) (pkg string, kind byte) {
	if m := refPackage.FindStringSubmatch(l); m != nil {
		return m[2], m[1][0]
	}
	if m := refCoverage.FindStringSubmatch(l); m != nil {
		return m[1], '?'
	}
	return "", 0
}

// worse orders result kinds: a failure over a pass over no tests.
func worse(a, b byte) bool {
	rank := map[byte]int{'F': 3, 'o': 2, '?': 1}
	return rank[a] > rank[b]
}

// realResults returns the lines that end a package's output. A test can
// print a line of a result's shape (its own package's ok line, another
// package's), so a package's status is the worst of its result lines, and
// of those, the last one ends its output: go prints a package's result
// after everything its test binary printed. In a package's events, only
// its own result is one.
func realResults(g refGroup) map[int]bool {
	best := map[string]int{}
	for i, l := range g.lines {
		pkg, kind := packageOf(l)
		if kind == 0 || g.pkg != "" && pkg != g.pkg {
			// In a package's events, another package's result is the
			// text of a test.
			continue
		}
		j, seen := best[pkg]
		_, old := packageOf(g.lines[j])
		if !seen || !worse(old, kind) {
			best[pkg] = i
		}
	}
	real := map[int]bool{}
	for _, i := range best {
		real[i] = true
	}
	return real
}

// refTest is one run of a test in the reader: its result so far and the
// reason lines it printed.
type refTest struct {
	name, result string
	reasons      []string
}

// end counts a run that is over: its pass or skip, or its reasons.
func (f *goFacts) end(t *refTest) {
	switch t.result {
	case "PASS":
		f.passed++
	case "SKIP":
		f.skipped++
	case "FAIL":
		f.reasons[t.name] = compactSorted(append(f.reasons[t.name], t.reasons...))
	}
}

// readGroup reads one text: packages' outputs, each ended by its result.
// With -v a test's lines follow its "=== " marker; without, they follow
// its "--- FAIL:" line, indented deeper.
func (f *goFacts) readGroup(g refGroup, mayLackStart bool) {
	real := realResults(g)
	tests := map[string]*refTest{}
	endAll := func() {
		for _, t := range tests {
			f.end(t)
		}
		clear(tests)
	}
	cur := ""
	var under []*refTest // without -v: the results the next lines are under
	var depths []int
	placed := !mayLackStart
	for i, l := range g.lines {
		pkg, kind := packageOf(l)
		indent, result, name := -1, "", ""
		if m := refResult.FindStringSubmatch(l); m != nil {
			indent, result, name = len(m[1]), m[2], m[3]
		} else if m := refTailResult.FindStringSubmatch(l); m != nil {
			indent, result, name = 0, m[1], m[2]
		}
		marker := refMarker.FindStringSubmatch(l)
		if marker == nil {
			marker = refTailMarker.FindStringSubmatch(l)
		}
		if !placed {
			if kind != 0 || result != "" || marker != nil || refBuild.MatchString(l) ||
				strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") || strings.HasPrefix(l, "# ") ||
				l == "WARNING: DATA RACE" {
				placed = true
			} else {
				f.unplaced = append(f.unplaced, l)
				continue
			}
		}
		switch {
		case kind != 0 && real[i]:
			if old, ok := f.pkgs[pkg]; !ok || worse(kind, old) {
				f.pkgs[pkg] = kind
			}
			endAll()
			cur, under, depths = "", nil, nil
		case kind != 0:
			// a test's own line of a result's shape
		case marker != nil:
			cur, under, depths = marker[2], nil, nil
			if t := tests[cur]; t != nil && marker[1] == "RUN" {
				f.end(t)
				delete(tests, cur)
			}
			if tests[cur] == nil {
				tests[cur] = &refTest{name: cur}
			}
		case result != "":
			t := tests[name]
			if t != nil && t.result == "FAIL" && result == "FAIL" && !f.verbose {
				// Without -v, -count=2 prints a FAIL line per run.
				f.end(t)
				t = nil
			}
			if t == nil {
				t = &refTest{name: name}
				tests[name] = t
			}
			switch {
			case result == "FAIL" && t.result != "FAIL":
				// A PASS or SKIP line before it was the test's own output.
				t.result = "FAIL"
				f.failed = append(f.failed, name)
			case t.result == "":
				t.result = result
			}
			for len(depths) > 0 && depths[len(depths)-1] >= indent {
				under, depths = under[:len(under)-1], depths[:len(depths)-1]
			}
			under, depths = append(under, t), append(depths, indent)
		case refReason.MatchString(l):
			m := refReason.FindStringSubmatch(l)
			owner := tests[cur]
			if !f.verbose {
				for len(depths) > 0 && depths[len(depths)-1] >= len(m[1]) {
					under, depths = under[:len(under)-1], depths[:len(depths)-1]
				}
				owner = nil
				if len(under) > 0 {
					owner = under[len(under)-1]
				}
			}
			if owner != nil {
				owner.reasons = append(owner.reasons, m[2])
			}
		case strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: "):
			f.panics++
		case refBuild.MatchString(l):
			f.buildErrors = append(f.buildErrors, refBuild.FindStringSubmatch(l)[1])
		}
	}
	endAll()
}

// jsonFacts returns what test2json's events state: package results, the
// failing, passing and skipped tests, and the reason lines of each failing
// test (the Output of its own events).
func jsonFacts(lines []string) goFacts {
	f := goFacts{pkgs: map[string]byte{}, reasons: map[string][]string{}, verbose: true}
	out := map[string][]string{} // package and test → its reason locations
	coverOnly := map[string]bool{}
	for _, l := range lines {
		var e refEvent
		if json.Unmarshal([]byte(l), &e) != nil || e.Action == "" {
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "output" && e.Test != "":
			for o := range strings.SplitSeq(e.Output, "\n") {
				if m := refReason.FindStringSubmatch(o); m != nil {
					out[key] = append(out[key], m[2])
				}
			}
		case e.Action == "build-output":
			for o := range strings.SplitSeq(e.Output, "\n") {
				if m := refBuild.FindStringSubmatch(o); m != nil {
					f.buildErrors = append(f.buildErrors, m[1])
				}
			}
		case e.Test == "" && e.Action == "fail":
			f.pkgs[e.Package] = 'F'
		case e.Test == "" && e.Action == "output":
			if refCoverage.MatchString(e.Output) {
				coverOnly[e.Package] = true
			}
		case e.Test == "" && e.Action == "pass" && coverOnly[e.Package]:
			// -cover "passes" a package without test files, which prints
			// its coverage line instead of "[no test files]".
			f.pkgs[e.Package] = '?'
		case e.Test == "" && e.Action == "pass":
			f.pkgs[e.Package] = 'o'
		case e.Test == "" && e.Action == "skip":
			f.pkgs[e.Package] = '?'
		case e.Action == "fail":
			f.failed = append(f.failed, e.Test)
			f.reasons[e.Test] = append(f.reasons[e.Test], out[key]...)
			delete(out, key)
		case e.Action == "pass":
			f.passed++
			delete(out, key)
		case e.Action == "skip":
			f.skipped++
			delete(out, key)
		}
	}
	for k := range f.reasons {
		f.reasons[k] = compactSorted(f.reasons[k])
	}
	return f
}

// compactSorted returns the distinct strings of ss, sorted.
func compactSorted(ss []string) []string {
	ss = slices.Clone(ss)
	slices.Sort(ss)
	return slices.Compact(ss)
}

// goVerbose reports whether go test's flags ask for -v's layout: -v, or
// -json, whose events carry the text -v prints.
func goVerbose(argv []string) bool {
	for _, a := range argv {
		name, value, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if (name == "-v" || name == "-json" || name == "-test.v") && value != "false" {
			return true
		}
	}
	return false
}
