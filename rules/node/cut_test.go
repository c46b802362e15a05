package node_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/compress"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The blocks of the node rules held to the reference reader
// (reference_test.go), on every corpus case (cut by the filters of its
// command, as the agent ran it) and on the corpus cut at random.

// TestReferenceBlocks: no block of the corpus states a count the
// reference reader contradicts or leaves out a failure it shows.
func TestReferenceBlocks(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		t.Run(c.Name, func(t *testing.T) {
			block, ok := rules.Block(c.Run)
			if !ok {
				t.Fatal("no block")
			}
			if err := checkBlock(strings.TrimPrefix(c.Run.Rule, "bash."), c.Run, block); err != nil {
				t.Errorf("%v\n%s", err, block)
			}
		})
	}
}

// checkBlock holds a block to what the reference reader finds in the
// output it was made from: every count has a visible basis (a total the
// tool printed, or a count over an output known whole) and agrees with
// it, every KEY_seen tally is at most what is visible and not 0, every
// failure name and location shown is in the block or counted as omitted,
// and a failing output does not read as a passing one.
func checkBlock(rule string, r *summarize.Run, block []byte) error {
	p, err := ruletest.Parse(block)
	if err != nil {
		return err
	}
	f := reference(rule, r)
	v := viewOf(r)
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	fallback := p.Scalars["fallback"] == "true"
	for _, k := range p.Keys {
		n, isInt := p.Int(k)
		switch {
		case fallback || !isInt || k == "exit_code" || strings.HasSuffix(k, "_omitted"):
		case k == "lines_seen":
			if n != len(v.out) {
				bad("lines_seen: %d, %d lines visible", n, len(v.out))
			}
		case strings.HasSuffix(k, "_seen"):
			base := strings.TrimSuffix(k, "_seen")
			if most, ok := f.seen[base]; !ok || n <= 0 || n > most {
				bad("%s: %d, with %d visible (known: %v)", k, n, most, ok)
			}
		default:
			if want, ok := f.totals[k]; ok {
				if n != want {
					bad("%s: %d, the output states %d", k, n, want)
				}
			} else if most, ok := f.seen[k]; !v.whole || !ok || n > most {
				bad("%s: %d with no visible basis", k, n)
			}
		}
	}
	if code, ok := p.Scalars["error_code"]; ok && f.seen["error_code:"+code] == 0 {
		bad("error_code: %s not visible", code)
	}
	omitted := 0
	for _, k := range p.Keys {
		if n, ok := p.Int(k); ok && strings.HasSuffix(k, "_omitted") {
			omitted += n
		}
	}
	// A failure whose name is missing is one item left out; a location
	// missing from a failure shown is one line left out.
	var missing []string
	has := func(s string) bool { return bytes.Contains(block, []byte(summarize.Clean(s))) }
	for _, u := range f.failures() {
		var lost []string
		for _, l := range u.locs {
			if !has(l) {
				lost = append(lost, l)
			}
		}
		switch {
		case !has(u.head):
			missing = append(missing, u.head)
		case len(lost) > 0 && len(lost) == len(u.locs):
			// The name is in a list of names; its report is left out.
			missing = append(missing, lost[0])
		default:
			missing = append(missing, lost...)
		}
	}
	if len(missing) > omitted {
		bad("%d failures and locations neither shown nor counted (%d omitted): %q", len(missing), omitted, firstFew(missing))
	}
	if f.failing && readsPassing(p) {
		bad("the output shows a failure, the block none")
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// firstFew is the first ten of ss, for a message.
func firstFew(ss []string) []string { return ss[:min(len(ss), 10)] }

// readsPassing tells that a block shows no failure: no list of failures
// and no count of one.
func readsPassing(p ruletest.Parsed) bool {
	for _, k := range []string{"failed_tests", "failures", "failed_files", "failed_suites", "unhandled_errors",
		"cut_failure", "diagnostics", "error_files", "unfiled_rows", "error_lines", "failure_lines"} {
		if len(p.Lists[k]) > 0 {
			return false
		}
	}
	for _, items := range p.Lists["by_file"] {
		if strings.Contains(items, "  error  ") {
			return false
		}
	}
	for _, k := range []string{"failed", "files_failed", "errors", "errors_seen", "failed_seen", "failure_lines"} {
		if n, ok := p.Int(k); ok && n > 0 {
			return false
		}
	}
	return true
}

// FuzzNodeCut cuts the corpus's outputs as head, tail and grep would, with
// Run.Cut set as classify sets it for that filter, and holds each block
// to the reference reader (checkBlock); a block that would be printed is
// never bigger than the cut output.
func FuzzNodeCut(f *testing.F) {
	cases := ruletest.Corpus(f, "testdata")
	for i := range cases {
		for kind := range uint8(3) {
			f.Add(uint16(i), kind, uint16(7+i%40), uint64(i))
		}
	}
	f.Fuzz(func(t *testing.T, pick uint16, kind uint8, n uint16, seed uint64) {
		c := cases[int(pick)%len(cases)]
		// A case already cut by its command's filter is cut once more, as
		// a second filter stage would: classify adds up what each may
		// leave out.
		r := *c.Run
		r.Cut.By = slices.Clone(r.Cut.By)
		switch kind % 3 {
		case 0:
			r.Stdout = ruletest.Head(r.Stdout, int(n))
			r.Cut.By, r.Cut.End = append(r.Cut.By, "head -"+strconv.Itoa(int(n))), true
		case 1:
			r.Stdout = ruletest.Tail(r.Stdout, int(n))
			r.Cut.By, r.Cut.Start = append(r.Cut.By, "tail -"+strconv.Itoa(int(n))), true
		default:
			rnd := rand.New(rand.NewPCG(seed, uint64(n)))
			keep := 1 + rnd.IntN(4)
			r.Stdout = ruletest.Grep(r.Stdout, func(string) bool { return rnd.IntN(4) < keep })
			r.Cut.By, r.Cut.Any = append(r.Cut.By, "grep x"), true
		}
		r.StdoutBytes, r.StderrBytes = int64(len(r.Stdout)), int64(len(r.Stderr))
		block, ok := rules.Block(&r)
		if !ok {
			t.Fatal("no block")
		}
		if err := checkBlock(strings.TrimPrefix(r.Rule, "bash."), &r, block); err != nil {
			t.Fatalf("%s cut by %s: %v\n--- stdout\n%s\n--- block\n%s", c.Name, r.Cut.By, err, r.Stdout, block)
		}
		raw := summarize.EstimateTokens(r.Stdout) + summarize.EstimateTokens(r.Stderr)
		if compress.Worth(len(block), r.StdoutBytes+r.StderrBytes, summarize.EstimateTokens(block), int64(raw)) &&
			int64(len(block)) > r.StdoutBytes+r.StderrBytes {
			t.Fatalf("a block of %d bytes for %d", len(block), r.StdoutBytes+r.StderrBytes)
		}
	})
}

// TestReferenceAgainstReports holds the reference reader, on every uncut
// case, to the tool's machine-readable report of the same command
// (CASE.json, CASE.plain beside the case: node.sh's reference).
func TestReferenceAgainstReports(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		rule := filepath.Base(c.Dir)
		var report string
		for _, ext := range []string{".json", ".plain"} {
			if _, err := os.Stat(filepath.Join(c.Dir, c.Base+ext)); err == nil {
				report = filepath.Join(c.Dir, c.Base+ext)
			}
		}
		if report == "" {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			data, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			root := "/tmp/shrinkrun-corpus/node/" + metaValue(t, filepath.Join(c.Dir, c.Base+".meta"), "project") + "/"
			got := reference(rule, c.Run)
			var want reportFacts
			switch rule {
			case "vitest", "jest":
				want = testReport(t, data, root, rule)
			case "eslint":
				want = eslintReport(t, data, root)
			case "tsc":
				want = tscReport(data)
			}
			for k, n := range want.totals {
				if got.totals[k] != n {
					t.Errorf("%s: the reader says %d, the report %d", k, got.totals[k], n)
				}
			}
			for _, set := range []struct {
				name      string
				got, want []string
			}{{"failing tests", got.reports, want.reports}, {"tsc errors", got.diags, want.diags}, {"eslint rows", got.rows, want.rows}} {
				g, w := sortedSet(set.got), sortedSet(set.want)
				if !slices.Equal(g, w) {
					t.Errorf("%s: the reader says\n%q\nthe report\n%q", set.name, g, w)
				}
			}
			for _, loc := range want.locs {
				if !slices.Contains(got.names, loc) {
					t.Errorf("location %s of the report not read (read %q)", loc, got.names)
				}
			}
		})
	}
	if n < 20 {
		t.Errorf("only %d cases have a report", n)
	}
}

// reportFacts is what a tool's machine-readable report says: the totals
// its summary would state, the failing tests, tsc errors and ESLint rows
// as the reference reader gives them (facts), and the first location in
// the project of each failing test.
type reportFacts struct {
	totals               map[string]int
	reports, diags, rows []string
	locs                 []string
}

// testReport reads vitest's or jest's JSON report (the shape both share,
// reduced by node.sh's reference_json).
func testReport(t *testing.T, data []byte, root, rule string) reportFacts {
	var rep struct {
		NumFailedTests, NumPassedTests, NumPendingTests, NumTodoTests, NumTotalTests int
		NumFailedTestSuites, NumPassedTestSuites, NumTotalTestSuites                 int
		TestResults                                                                  []struct {
			Name, Status, Message string
			AssertionResults      []struct {
				AncestorTitles  []string
				Title, Status   string
				FailureMessages []string
			}
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	out := reportFacts{totals: map[string]int{
		"failed": rep.NumFailedTests, "passed": rep.NumPassedTests, "skipped": rep.NumPendingTests,
		"todo": rep.NumTodoTests, "total": rep.NumTotalTests,
	}}
	sep := " > "
	if rule == "jest" {
		sep = " › "
		out.totals["files_failed"] = rep.NumFailedTestSuites
		out.totals["files_passed"] = rep.NumPassedTestSuites
		out.totals["files_total"] = rep.NumTotalTestSuites
	} else {
		// vitest counts describe blocks as suites; its Test Files line
		// counts files.
		out.totals["files_total"] = len(rep.TestResults)
		for _, tr := range rep.TestResults {
			if tr.Status == "failed" || tr.Status == "passed" {
				out.totals["files_"+tr.Status]++
			}
		}
	}
	frame := regexp.MustCompile(`^\s+at (?:.*\()?(?:file://)?` + regexp.QuoteMeta(root) + `(\S+:\d+:\d+)\)?$`)
	for _, tr := range rep.TestResults {
		file := strings.TrimPrefix(tr.Name, root)
		if tr.Status == "failed" && len(tr.AssertionResults) == 0 {
			if rule == "jest" {
				out.reports = append(out.reports, file+" › Test suite failed to run")
			} else {
				out.reports = append(out.reports, file+" [ "+file+" ]")
			}
		}
		for _, a := range tr.AssertionResults {
			if a.Status != "failed" {
				continue
			}
			out.reports = append(out.reports, strings.Join(append(append([]string{file}, a.AncestorTitles...), a.Title), sep))
			for _, m := range a.FailureMessages {
				for l := range strings.SplitSeq(m, "\n") {
					if sm := frame.FindStringSubmatch(l); sm != nil {
						out.locs = append(out.locs, sm[1])
						break
					}
				}
			}
		}
	}
	return out
}

// eslintReport reads ESLint's JSON report.
func eslintReport(t *testing.T, data []byte, root string) reportFacts {
	var rep []struct {
		FilePath                 string
		ErrorCount, WarningCount int
		Messages                 []struct {
			RuleID       *string
			Severity     int
			Line, Column int
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	out := reportFacts{totals: map[string]int{"errors": 0, "warnings": 0, "files": 0}}
	for _, file := range rep {
		out.totals["errors"] += file.ErrorCount
		out.totals["warnings"] += file.WarningCount
		if len(file.Messages) > 0 {
			out.totals["files"]++
		}
		for _, m := range file.Messages {
			sev, rule := "warning", ""
			if m.Severity == 2 {
				sev = "error"
			}
			if m.RuleID != nil {
				rule = *m.RuleID
			}
			out.rows = append(out.rows, fmt.Sprintf("%s %d:%d %s %s", file.FilePath, m.Line, m.Column, sev, rule))
		}
	}
	return out
}

// tscReport reads tsc's plain output: one "FILE(LINE,COL): error TSnnnn:
// ..." line per error (or "error TSnnnn: ..." without a location).
func tscReport(data []byte) reportFacts {
	re := regexp.MustCompile(`^(?:(\S.*?)\((\d+),(\d+)\): )?error (TS\d+): `)
	out := reportFacts{totals: map[string]int{}}
	files := map[string]bool{}
	for l := range summarize.EachLine(data) {
		if m := re.FindStringSubmatch(l); m != nil {
			out.diags = append(out.diags, m[1]+":"+m[2]+":"+m[3]+" "+m[4])
			if m[1] != "" {
				files[m[1]] = true
			}
		}
	}
	out.totals["errors"], out.totals["files"] = len(out.diags), len(files)
	return out
}

func sortedSet(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// metaValue reads a KEY: value line of a case's .meta.
func metaValue(t *testing.T, path, key string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key+": "); ok {
			return v
		}
	}
	t.Fatalf("%s: no %s line", path, key)
	return ""
}
