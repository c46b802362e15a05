package python_test

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// junitSuite is the part of a JUnit XML report the reference is held to:
// pytest's (-o junit_family=xunit1, which names each test's file) and
// mypy's (--junit-xml, one test case whose failure holds every message).
type junitSuite struct {
	Tests    int         `xml:"tests,attr"`
	Errors   int         `xml:"errors,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	File      string        `xml:"file,attr"`
	Failure   *junitMessage `xml:"failure"`
	Error     *junitMessage `xml:"error"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// readJunit reads a report whose root is <testsuites> (pytest) or
// <testsuite> (mypy).
func readJunit(t *testing.T, path string) junitSuite {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		XMLName xml.Name
		Suites  []junitSuite `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if suites.XMLName.Local == "testsuites" {
		if len(suites.Suites) != 1 {
			t.Fatalf("%s: %d suites", path, len(suites.Suites))
		}
		return suites.Suites[0]
	}
	var s junitSuite
	if err := xml.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// nodeID is the pytest node id of a test case: its file, the classes of
// its classname after the module, and its name; a module that could not
// be collected has no classname and is its file.
func (c junitCase) nodeID() string {
	if c.Classname == "" {
		return c.File
	}
	module := strings.ReplaceAll(strings.TrimSuffix(c.File, ".py"), "/", ".")
	id := c.File
	if classes := strings.TrimPrefix(strings.TrimPrefix(c.Classname, module), "."); classes != "" && classes != c.Classname {
		id += "::" + strings.ReplaceAll(classes, ".", "::")
	}
	return id + "::" + c.Name
}

// TestReferenceJunit holds the reference reader to the tools' own
// machine-readable account of every uncut run of the corpus.
func TestReferenceJunit(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		path := filepath.Join(c.Dir, c.Base+".junit.xml")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		n++
		suite := readJunit(t, path)
		r := c.Run
		switch r.Rule {
		case "bash.pytest":
			checkPytestJunit(t, c.Name, readPytest(r.Stdout, r.Stderr, false), suite)
		case "bash.mypy":
			checkMypyJunit(t, c.Name, readMypy(r.Stdout, r.Stderr), suite)
		}
	}
	if n < 20 {
		t.Errorf("only %d cases have a JUnit report", n)
	}
}

func checkPytestJunit(t *testing.T, name string, f pytestFacts, s junitSuite) {
	var failed, errored []string
	for _, c := range s.Cases {
		if c.Classname == "pytest" && c.Name == "internal" {
			// pytest's record of an INTERNALERROR, which its final
			// line does not count.
			s.Tests--
			s.Errors--
			continue
		}
		if c.Failure != nil {
			failed = append(failed, c.nodeID())
		}
		if c.Error != nil && !slices.Contains(errored, c.nodeID()) {
			errored = append(errored, c.nodeID())
		}
	}
	if f.final == "" {
		if s.Tests > 0 {
			t.Errorf("%s: no final line read, JUnit has %d tests", name, s.Tests)
		}
		return
	}
	c := f.counts
	if c["failed"] != s.Failures || c["errors"] != s.Errors || c["skipped"]+c["xfailed"] != s.Skipped ||
		c["passed"]+c["xpassed"] != s.Tests-s.Failures-s.Errors-s.Skipped {
		t.Errorf("%s: counts %v of %q, JUnit tests=%d failures=%d errors=%d skipped=%d",
			name, c, f.final, s.Tests, s.Failures, s.Errors, s.Skipped)
	}
	if !f.listed {
		return // -rP and the like: no short summary names the failures
	}
	slices.Sort(failed)
	slices.Sort(errored)
	if got := slices.Sorted(slices.Values(f.failed)); !slices.Equal(got, failed) {
		t.Errorf("%s: failed ids %q, JUnit %q", name, got, failed)
	}
	if got := slices.Sorted(slices.Values(f.errored)); !slices.Equal(got, errored) {
		t.Errorf("%s: error ids %q, JUnit %q", name, got, errored)
	}
}

func checkMypyJunit(t *testing.T, name string, f mypyFacts, s junitSuite) {
	var want []string
	for _, c := range s.Cases {
		if c.Failure == nil {
			continue
		}
		for _, l := range strings.Split(c.Failure.Text, "\n") {
			if m := refMypyDiag.FindStringSubmatch(l); m != nil && m[2] == "error" {
				want = append(want, l)
			}
		}
	}
	if !slices.Equal(f.errors, want) {
		t.Errorf("%s: error lines %q, JUnit %q", name, f.errors, want)
	}
	if f.hasFinalErrs && f.finalErrors != len(want) {
		t.Errorf("%s: %q, JUnit has %d errors", name, f.final, len(want))
	}
}

// TestReferenceOracle holds every block of the corpus to what its (cut)
// output shows, as the reference reads it: no count the output does not
// state, no zero that is not stated, no visible failure left out unless an
// _omitted count covers it, no total that cannot be one.
func TestReferenceOracle(t *testing.T) {
	cases := ruletest.Corpus(t, "testdata")
	wrong := 0
	for _, c := range cases {
		for _, budget := range []int{summarize.DefaultBudget, 4096} {
			r := *c.Run
			r.Budget = budget
			block, ok := rules.Block(&r)
			if !ok {
				t.Errorf("%s: no block", c.Name)
				continue
			}
			if problems := checkBlock(&r, block); len(problems) > 0 {
				if budget == summarize.DefaultBudget {
					wrong++
				}
				t.Errorf("%s@%d (%s):\n  %s", c.Name, budget, r.Command, strings.Join(problems, "\n  "))
			}
		}
	}
	t.Logf("%d cases, %d with a block the reference contradicts", len(cases), wrong)
}

// checkBlock returns what is wrong with block as a statement of r's output.
func checkBlock(r *summarize.Run, block []byte) []string {
	p, err := ruletest.Parse(block)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	// A tally may count stderr's lines too, which no filter cut.
	seenLimit, limited := p.Int("lines_seen")
	seenLimit += len(summarize.Lines(r.Stderr))
	for _, k := range p.Keys {
		if !strings.HasSuffix(k, "_seen") || k == "lines_seen" {
			continue
		}
		if n, ok := p.Int(k); ok && (n == 0 || limited && n > seenLimit) {
			bad("%s: %d with %d lines seen", k, n, seenLimit)
		}
	}
	if _, fallback := p.Scalars["fallback"]; fallback {
		return problems
	}
	// required holds the failures the block must show, each as the
	// strings that name it: one _omitted item covers one failure.
	var required [][]string
	one := func(ss []string) {
		for _, s := range ss {
			required = append(required, []string{s})
		}
	}
	switch r.Rule {
	case "bash.pytest":
		f := readPytest(r.Stdout, r.Stderr, r.MayLackEnd())
		problems = append(problems, checkPytest(r, p, f)...)
		one(f.failed)
		one(f.errored)
		required = append(required, f.sections...)
	case "bash.mypy":
		f := readMypy(r.Stdout, r.Stderr)
		problems = append(problems, checkMypy(r, p, f)...)
		one(f.errors)
	case "bash.pip_install":
		f := readPip(r.Stdout, r.Stderr)
		problems = append(problems, checkPip(r, p, f)...)
	case "bash.unittest":
		more, req := checkUnittest(r, p, readUnittest(r.Stdout, r.Stderr, !r.Partial()))
		problems = append(problems, more...)
		required = append(required, req...)
	}
	omitted, missing := 0, []string(nil)
	for k, v := range p.Scalars {
		if strings.HasSuffix(k, "_omitted") {
			n, _ := strconv.Atoi(v)
			omitted += n
		}
	}
	for _, req := range required {
		for _, s := range req {
			if !p.Mentions(strings.TrimSpace(s)) {
				missing = append(missing, s)
				break
			}
		}
	}
	if len(missing) > omitted {
		bad("%d visible failures left out, %d counted as omitted: %q", len(missing), omitted, missing)
	}
	if n := ruletest.Unaccounted(r, block, rules.Finders()); n > 0 {
		bad("%d failures the finders require neither shown nor counted", n)
	}
	return problems
}

var pytestCountKeys = []string{"passed", "failed", "errors", "skipped", "xfailed", "xpassed", "deselected", "warnings"}

func checkPytest(r *summarize.Run, p ruletest.Parsed, f pytestFacts) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if s, ok := p.Scalars["summary"]; ok && s != f.final {
		bad("summary %q, the output's final line %q", s, f.final)
	}
	for _, k := range pytestCountKeys {
		n, ok := p.Int(k)
		switch {
		case !ok:
		case f.final == "":
			bad("%s: %d with no final line visible", k, n)
		case n != f.counts[k]:
			bad("%s: %d, the final line %q says %d", k, n, f.final, f.counts[k])
		case n == 0 && !f.run:
			bad("%s: 0, not stated by %q", k, f.final)
		}
	}
	failed, _ := p.Int("failed")
	errors, _ := p.Int("errors")
	_, stated := p.Int("failed")
	if stated && failed+errors == 0 && len(f.failed)+len(f.errored) > 0 {
		bad("reads as passing while %d failures are visible", len(f.failed)+len(f.errored))
	}
	return problems
}

func checkMypy(r *summarize.Run, p ruletest.Parsed, f mypyFacts) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if s, ok := p.Scalars["summary"]; ok && s != f.final {
		bad("summary %q, the output's closing line %q", s, f.final)
	}
	if !r.Partial() {
		checkEqual(p, "errors", len(f.errors), bad)
		checkEqual(p, "notes", f.notes, bad)
		checkEqual(p, "files_with_errors", len(f.files), bad)
	} else {
		for key, total := range map[string]int{"errors": f.finalErrors, "files_with_errors": f.finalFiles} {
			if n, ok := p.Int(key); ok && (!f.hasFinalErrs || n != total) {
				bad("%s: %d, the closing line %q", key, n, f.final)
			}
		}
		if n, ok := p.Int("notes"); ok {
			bad("notes: %d as a total of a cut output", n)
		}
		checkEqual(p, "errors_seen", len(f.errors), bad)
		checkEqual(p, "notes_seen", f.notes, bad)
		checkEqual(p, "files_with_errors_seen", len(f.files), bad)
		for _, k := range []string{"error_codes", "error_files"} {
			if _, ok := p.Scalars[k]; ok {
				bad("%s as totals of a cut output", k)
			}
			if _, ok := p.Lists[k]; ok {
				bad("%s as totals of a cut output", k)
			}
		}
	}
	for _, k := range []string{"error_codes", "error_codes_seen"} {
		v, ok := p.Scalars[k]
		if !ok {
			continue
		}
		for _, part := range strings.Split(v, ", ") {
			code, n, _ := strings.Cut(part, " ")
			if c, _ := strconv.Atoi(n); c != f.codes[code] {
				bad("%s: %s %d, %d visible", k, code, c, f.codes[code])
			}
		}
	}
	return problems
}

func checkPip(r *summarize.Run, p ruletest.Parsed, f pipFacts) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if n, ok := p.Int("installed"); ok {
		switch {
		case f.installedVisible && n != f.installed:
			bad("installed: %d, the Successfully installed line names %d", n, f.installed)
		case !f.installedVisible && (r.Partial() || n != 0):
			bad("installed: %d with no Successfully installed line visible", n)
		}
	}
	if !r.Partial() {
		checkEqual(p, "already_satisfied", f.satisfied, bad)
		checkEqual(p, "uninstalled", f.uninstalled, bad)
		return problems
	}
	for _, k := range []string{"already_satisfied", "uninstalled", "errors", "warnings"} {
		if n, ok := p.Int(k); ok {
			bad("%s: %d as a total of a cut output", k, n)
		}
	}
	checkEqual(p, "already_satisfied_seen", f.satisfied, bad)
	checkEqual(p, "uninstalled_seen", f.uninstalled, bad)
	return problems
}

// checkEqual reports a scalar the block states that is not want.
func checkEqual(p ruletest.Parsed, key string, want int, bad func(string, ...any)) {
	if n, ok := p.Int(key); ok && n != want {
		bad("%s: %d, %d visible", key, n, want)
	}
}
