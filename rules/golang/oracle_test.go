package golang_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// goTallies are the go rules' counts of lines: go prints no totals, so
// each is a statement about the whole output only when the output is whole
// (docs/format.md, "A count is a statement").
var goTallies = []string{
	"packages_ok", "packages_failed", "packages_no_test_files", "tests_passed", "tests_failed", "tests_skipped",
	"build_errors", "errors", "messages", "packages", "downloads", "fetches", "warnings",
}

// TestGoOracle holds every go block of the corpus to what its (cut) output
// shows, as the reference reader reads it: no count without a visible
// basis, no count other than the reader's, every failing test, failing
// package and reason location the text shows named (or covered by an
// _omitted count), no package listed as passing that failed, and the lines
// whose start a filter cut kept or counted.
func TestGoOracle(t *testing.T) {
	cases, wrong := 0, 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		if !strings.HasPrefix(c.Run.Rule, "bash.go_") {
			continue
		}
		cases++
		block, _ := rules.Block(c.Run)
		problems := goOracle(c.Run, block)
		if len(problems) > 0 {
			wrong++
		}
		for _, p := range problems {
			t.Errorf("%s: %s", c.Name, p)
		}
		if len(problems) > 0 {
			t.Logf("%s:\n%s", c.Name, block)
		}
	}
	t.Logf("%d go cases, %d with a wrong statement", cases, wrong)
}

// goOracle returns what block states that r's output contradicts.
func goOracle(r *summarize.Run, block []byte) []string {
	p, err := ruletest.Parse(block)
	if err != nil {
		return []string{fmt.Sprintf("%v:\n%s", err, block)}
	}
	if p.Header["compression"] != "curated" || p.Scalars["fallback"] == "true" {
		return nil
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	partial := r.Partial()
	count := func(key string) (n int, stated bool) {
		if partial {
			if n, ok := p.Int(key + "_seen"); ok {
				return n, true
			}
			return 0, false
		}
		return p.Int(key)
	}
	// check states that a count, when stated, is what the reader sees: of
	// a cut output, at most what the reader sees (a rule may place fewer
	// lines than the reader does: an ok line a test may have printed).
	check := func(key string, want int) {
		if n, ok := count(key); ok && (n > want || !partial && n != want) {
			bad("%s %d, the output shows %d", key, n, want)
		}
	}
	for _, key := range goTallies {
		if _, ok := p.Scalars[key]; partial && ok {
			bad("%s stated on a cut output, where its basis may be gone", key)
		}
	}
	switch r.Rule {
	case "bash.go_test":
		problems = append(problems, goTestOracle(r, p, check)...)
	case "bash.go_build", "bash.go_vet":
		d := readDiags(summarize.Lines(r.Stderr), summarize.Lines(r.Stdout))
		check("errors", d.located)
		check("packages", d.headers)
	}
	return problems
}

// goTestOracle checks a go test block against the reference reader.
func goTestOracle(r *summarize.Run, p ruletest.Parsed, check func(string, int)) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	f := readRun(r)
	kinds := map[byte]int{}
	for _, k := range f.pkgs {
		kinds[k]++
	}
	check("packages_ok", kinds['o'])
	check("packages_failed", kinds['F'])
	check("packages_no_test_files", kinds['?'])
	check("tests_failed", len(f.failed))
	if f.verbose {
		check("tests_passed", f.passed)
		check("tests_skipped", f.skipped)
	}
	if len(f.buildErrors) > 0 {
		check("build_errors", len(compactSorted(f.buildErrors)))
	}
	_, failedOmitted := p.Scalars["failed_tests_omitted"]
	for _, name := range compactSorted(f.failed) {
		if !failedOmitted && !slices.Contains(p.Lists["failed_tests"], name) {
			bad("failing test %s not in failed_tests", name)
		}
	}
	_, failuresOmitted := p.Scalars["failures_omitted"]
	_, linesOmitted := p.Scalars["failure_lines_omitted"]
	_, unplacedOmitted := p.Scalars["unplaced_lines_omitted"]
	for test, locs := range f.reasons {
		for _, loc := range locs {
			if !failuresOmitted && !linesOmitted && !unplacedOmitted && !p.Mentions(loc) {
				bad("%s's reason at %s not shown", test, loc)
			}
		}
	}
	for pkg, k := range f.pkgs {
		if k == 'F' && !p.Mentions("\t"+pkg) {
			bad("failed package %s not shown", pkg)
		}
	}
	for _, it := range p.Lists["passed_packages"] {
		if pkg, _ := packageOf(it); f.pkgs[pkg] != 'o' {
			bad("passed_packages lists %q, whose package did not pass", it)
		}
	}
	if fs := p.Scalars["final_status"]; strings.HasPrefix(fs, "ok") {
		for pkg, k := range f.pkgs {
			if k == 'F' {
				bad("final_status %q although %s failed", fs, pkg)
			}
		}
	}
	for _, l := range f.unplaced {
		if l = strings.TrimSpace(l); l != "" && !unplacedOmitted && !mentionsParts(p, l) {
			bad("line %q, before the first line the output places, not kept", l)
		}
	}
	return problems
}

// mentionsParts reports whether the block shows line, whole or as the
// parts around an indentation inside it: a test's output without a final
// newline runs into the next line, which a rule may read apart.
func mentionsParts(p ruletest.Parsed, line string) bool {
	if p.Mentions(line) {
		return true
	}
	for part := range strings.SplitSeq(line, "    ") {
		if part = strings.TrimSpace(part); part != "" && !p.Mentions(part) {
			return false
		}
	}
	return true
}

// refDiags is what a go build or go vet output shows: the diagnostics with
// a file.go:N:M location and the "# pkg" header runs.
type refDiags struct{ located, headers int }

var refLocated = regexp.MustCompile(`^(?:vet: )?\S+\.go:\d+(?::\d+)?: `)

// readDiags reads build and vet output.
func readDiags(streams ...[]string) refDiags {
	var d refDiags
	for _, ls := range streams {
		header := false
		for _, l := range ls {
			switch {
			case strings.HasPrefix(l, "# "):
				if !header {
					d.headers++
				}
				header = true
				continue
			case refLocated.MatchString(l) && !strings.HasSuffix(l, ": too many errors"):
				d.located++
			}
			header = false
		}
	}
	return d
}

// FuzzGoCut cuts real go outputs of the corpus as a filter would (head,
// tail, or grep of some lines, picked by the inputs), with Run.Cut set as
// classify sets it for that filter, and holds the block to what the cut
// text shows (goOracle): a valid header, no false count, no visible
// failure, location or unplaced line dropped.
func FuzzGoCut(f *testing.F) {
	var runs []*summarize.Run
	for _, c := range ruletest.Corpus(f, "testdata") {
		if strings.HasPrefix(c.Run.Rule, "bash.go_") && !c.Run.Partial() {
			runs = append(runs, c.Run)
		}
	}
	for i := range runs {
		f.Add(uint16(i), uint8(i%3), uint16(i*7), uint64(i)*0x9e3779b97f4a7c15)
	}
	f.Fuzz(func(t *testing.T, which uint16, filter uint8, n uint16, pick uint64) {
		whole := runs[int(which)%len(runs)]
		r := *whole
		lines := len(summarize.Lines(r.Stdout))
		k := int(n) % (lines + 2)
		switch filter % 3 {
		case 0:
			r.Stdout, r.Cut = ruletest.Head(r.Stdout, k), summarize.Cut{By: []string{fmt.Sprintf("head -%d", k)}, End: true}
		case 1:
			r.Stdout, r.Cut = ruletest.Tail(r.Stdout, k), summarize.Cut{By: []string{fmt.Sprintf("tail -%d", k)}, Start: true}
		case 2:
			i := 0
			r.Stdout = ruletest.Grep(r.Stdout, func(string) bool {
				i++
				return pick>>(i%64)&1 == 1
			})
			r.Cut = summarize.Cut{By: []string{"grep -E 'FAIL|ok'"}, Any: true}
		}
		r.StdoutBytes = int64(len(r.Stdout))
		r.ExitCode, r.Exited = 0, true // the filter's status
		block, ok := rules.Block(&r)
		if !ok {
			t.Fatalf("no block for %s", r.Rule)
		}
		for _, p := range goOracle(&r, block) {
			t.Errorf("%s", p)
		}
		if t.Failed() {
			t.Logf("cut output:\n%s\nblock:\n%s", r.Stdout, block)
		}
	})
}
