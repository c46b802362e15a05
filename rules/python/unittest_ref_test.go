package python_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The reference reader of unittest's text, written apart from the rule
// (it calls no code of package python) with regular expressions where the
// rule parses by hand. TestReferenceReport holds it to unittest's own
// account of each uncut run, the CASE.report.json unittest.sh writes from
// the runner's result object; TestReferenceOracle and FuzzCut hold every
// bash.unittest block to it.

// unittestFacts is what a unittest text shows.
type unittestFacts struct {
	// runs are the runs whose closing lines are visible: "Ran N tests"
	// (tests < 0 when a cut left only the status) and the status line
	// ("" when a cut left only the Ran line).
	runs []utRefRun
	// failed, errored and unexpected are the tests named by section heads
	// and -v result lines, by kind.
	failed, errored, unexpected []string
	// sections are the sections whose head is visible: the test, and the
	// lines of its exception (every line at the margin but "Traceback"),
	// of which final is the first line of the last exception.
	sections []utRefSection
}

type utRefRun struct {
	tests  int
	status string
	counts map[string]int // the status's categories, by the block's keys
}

type utRefSection struct {
	kind, test string
	message    []string
	final      string
}

var (
	refUtRule     = regexp.MustCompile(`^={70}$`)
	refUtDash     = regexp.MustCompile(`^-{70}$`)
	refUtRan      = regexp.MustCompile(`^Ran (\d+) tests? in \d+(?:\.\d+)?s$`)
	refUtStatus   = regexp.MustCompile(`^(OK|FAILED|NO TESTS RAN)(?: \(((?:[a-z ]+=\d+)(?:, [a-z ]+=\d+)*)\))?$`)
	refUtHead     = regexp.MustCompile(`^(FAIL|ERROR|UNEXPECTED SUCCESS): (.+)$`)
	refUtTestName = regexp.MustCompile(`^\S+ \([A-Za-z_][\w.]*\.[\w.]*\)(?: [(\[].*)?$`)
	refUtResult   = regexp.MustCompile(`^ {0,2}(.+) \.\.\. (FAIL|ERROR|unexpected success)$`)
	refUtKeys     = map[string]string{
		"failures": "failures", "errors": "errors", "skipped": "skipped",
		"expected failures": "expected_failures", "unexpected successes": "unexpected_successes",
	}
)

// readUnittest reads stdout then stderr, each on its own: a section never
// runs from one into the other. In a whole output (not cut by a filter or
// the capture limit) a Ran line without the blank line and status under
// it is a line a test printed, not a run.
func readUnittest(stdout, stderr []byte, whole bool) unittestFacts {
	var f unittestFacts
	seen := map[string]bool{}
	add := func(kind, name string) {
		if seen[kind+name] {
			return
		}
		seen[kind+name] = true
		switch kind {
		case "FAIL":
			f.failed = append(f.failed, name)
		case "ERROR":
			f.errored = append(f.errored, name)
		default:
			f.unexpected = append(f.unexpected, name)
		}
	}
	for _, stream := range [][]byte{stdout, stderr} {
		ls := summarize.Lines(stream)
		var sec *utRefSection
		frames, traceback, stopped := false, false, false
		end := func() {
			if sec != nil {
				f.sections = append(f.sections, *sec)
			}
			sec, frames, traceback, stopped = nil, false, false, false
		}
		for i, l := range ls {
			prev := ""
			if i > 0 {
				prev = ls[i-1]
			}
			if refUtRule.MatchString(l) {
				end()
				continue
			}
			if m := refUtRan.FindStringSubmatch(l); m != nil {
				end()
				n, _ := strconv.Atoi(m[1])
				run := utRefRun{tests: n}
				if i+2 < len(ls) && ls[i+1] == "" && refUtStatus.MatchString(ls[i+2]) {
					run.status, run.counts = ls[i+2], refUtCounts(ls[i+2])
				} else if whole {
					continue
				}
				f.runs = append(f.runs, run)
				continue
			}
			if refUtStatus.MatchString(l) && l != "OK" && !(i >= 2 && ls[i-1] == "" && refUtRan.MatchString(ls[i-2])) {
				end()
				f.runs = append(f.runs, utRefRun{tests: -1, status: l, counts: refUtCounts(l)})
				continue
			}
			if m := refUtHead.FindStringSubmatch(l); m != nil && (refUtRule.MatchString(prev) || refUtTestName.MatchString(m[2])) {
				end()
				add(m[1], m[2])
				sec = &utRefSection{kind: m[1], test: m[2]}
				continue
			}
			if sec == nil {
				if m := refUtResult.FindStringSubmatch(l); m != nil {
					name := strings.TrimPrefix(m[1], "  ")
					if !refUtTestName.MatchString(name) && refUtTestName.MatchString(prev) {
						name = prev
					}
					if refUtTestName.MatchString(name) {
						add(map[string]string{"FAIL": "FAIL", "ERROR": "ERROR", "unexpected success": "UNEXPECTED SUCCESS"}[m[2]], name)
					}
				}
				continue
			}
			switch {
			case refUtDash.MatchString(l):
				if frames {
					end()
				}
				frames = true
			case !frames || stopped || strings.TrimSpace(l) == "" || strings.HasPrefix(l, " "):
			case l == "Stdout:" || l == "Stderr:":
				stopped = true
			case l == "Traceback (most recent call last):":
				traceback = true
			default:
				sec.message = append(sec.message, l)
				if traceback {
					sec.final, traceback = l, false
				}
			}
		}
		end()
	}
	return f
}

// refUtCounts reads a status line's categories; those it does not name
// are 0.
func refUtCounts(status string) map[string]int {
	counts := map[string]int{}
	for _, k := range refUtKeys {
		counts[k] = 0
	}
	m := refUtStatus.FindStringSubmatch(status)
	if m == nil || m[2] == "" {
		return counts
	}
	for _, part := range strings.Split(m[2], ", ") {
		word, n, _ := strings.Cut(part, "=")
		counts[refUtKeys[word]], _ = strconv.Atoi(n)
	}
	return counts
}

// utReport is one line of a CASE.report.json: one run of the text runner,
// as its result object saw it.
type utReport struct {
	TestsRun            int `json:"tests_run"`
	Failures            int `json:"failures"`
	Errors              int `json:"errors"`
	Skipped             int `json:"skipped"`
	ExpectedFailures    int `json:"expected_failures"`
	UnexpectedSuccesses int `json:"unexpected_successes"`
	Results             []struct {
		Kind      string `json:"kind"`
		Test      string `json:"test"`
		Exception string `json:"exception"`
	} `json:"results"`
}

// TestReferenceReport holds the reference reader to unittest's own account
// of every uncut run of the corpus: the runs, their counts, every failing,
// erroring and unexpectedly passing test, and each one's exception.
func TestReferenceReport(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		data, err := os.ReadFile(filepath.Join(c.Dir, c.Base+".report.json"))
		if err != nil {
			continue
		}
		n++
		var reports []utReport
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			var rep utReport
			if err := json.Unmarshal(sc.Bytes(), &rep); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			reports = append(reports, rep)
		}
		f := readUnittest(c.Run.Stdout, c.Run.Stderr, !c.Run.Partial())
		if len(f.runs) != len(reports) {
			t.Errorf("%s: %d runs read, the report has %d", c.Name, len(f.runs), len(reports))
			continue
		}
		var failed, errored, unexpected []string
		for i, rep := range reports {
			run := f.runs[i]
			want := map[string]int{"failures": rep.Failures, "errors": rep.Errors, "skipped": rep.Skipped,
				"expected_failures": rep.ExpectedFailures, "unexpected_successes": rep.UnexpectedSuccesses}
			if run.tests != rep.TestsRun || !mapsEqual(run.counts, want) {
				t.Errorf("%s: run %d reads %d tests %v, the report %d %v", c.Name, i, run.tests, run.counts, rep.TestsRun, want)
			}
			for _, res := range rep.Results {
				switch res.Kind {
				case "failure":
					failed = append(failed, res.Test)
				case "error":
					errored = append(errored, res.Test)
				default:
					unexpected = append(unexpected, res.Test)
				}
				if res.Exception != "" && !f.hasException(res.Test, res.Exception) {
					t.Errorf("%s: %s's exception %q is not in its section", c.Name, res.Test, res.Exception)
				}
			}
		}
		for _, l := range []struct {
			kind      string
			got, want []string
		}{{"failed", f.failed, failed}, {"errored", f.errored, errored}, {"unexpected", f.unexpected, unexpected}} {
			if !slices.Equal(slices.Sorted(slices.Values(l.got)), slices.Sorted(slices.Values(l.want))) {
				t.Errorf("%s: %s tests %q, the report %q", c.Name, l.kind, l.got, l.want)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d cases have a report", n)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// hasException reports whether the section of test holds the exception
// line.
func (f unittestFacts) hasException(test, exception string) bool {
	for _, s := range f.sections {
		if s.test == test && slices.Contains(s.message, exception) {
			return true
		}
	}
	return false
}

var unittestCountKeys = []string{"failures", "errors", "skipped", "expected_failures", "unexpected_successes"}

// checkUnittest returns what block states that the (cut) text does not, and
// the failures the block must show or count, each as the strings that name
// it.
func checkUnittest(r *summarize.Run, p ruletest.Parsed, f unittestFacts) (problems []string, required [][]string) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	tests, ranSeen, stated := 0, false, map[string]int{}
	var statuses []utRefRun
	for _, run := range f.runs {
		if run.tests >= 0 {
			tests += run.tests
			ranSeen = true
		}
		if run.status != "" {
			statuses = append(statuses, run)
			for k, n := range run.counts {
				stated[k] += n
			}
		}
	}
	if n, ok := p.Int("tests"); ok != ranSeen || ok && n != tests {
		bad("tests: %d (stated %v), the Ran lines say %d (seen %v)", n, ok, tests, ranSeen)
	}
	for i, k := range unittestCountKeys {
		n, ok := p.Int(k)
		switch {
		case ok != (len(statuses) > 0 && (i < 2 || stated[k] > 0)):
			bad("%s stated %v with %d status lines visible", k, ok, len(statuses))
		case ok && n != stated[k]:
			bad("%s: %d, the status lines say %d", k, n, stated[k])
		}
	}
	if s, ok := p.Scalars["summary"]; ok && (len(f.runs) != 1 || s != f.runs[0].status) {
		bad("summary %q, the text's runs %v", s, f.runs)
	}
	if n, ok := p.Int("failures"); ok && n == 0 && len(f.failed)+len(f.errored) > 0 {
		if e, _ := p.Int("errors"); e == 0 {
			bad("reads as passing while %d failures are visible", len(f.failed)+len(f.errored))
		}
	}
	for _, names := range [][]string{f.failed, f.errored, f.unexpected} {
		for _, n := range names {
			required = append(required, []string{n})
		}
	}
	for _, s := range f.sections {
		if s.final != "" {
			required = append(required, []string{s.final})
		}
	}
	return problems, required
}
