package cc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// ctest's reference reader: the failing tests a (cut) text shows, by their
// result lines and by the "The following tests FAILED:" list, and the
// summary line; held to ctest's --output-junit report on the uncut cases.

var (
	ctestResultRE  = regexp.MustCompile(`^\s*\d+/\d+ Test +#\d+: (\S+) \.*\s*(.*?)\s+[\d.]+ sec$`)
	ctestListedRE  = regexp.MustCompile(`^\t\s*\d+ - (\S+) \(.*\)$`)
	ctestSummaryRE = regexp.MustCompile(`^\d+% tests passed, (\d+) tests? failed out of (\d+)$`)
	junitCaseRE    = regexp.MustCompile(`<testcase name="([^"]*)"[^>]*status="([^"]*)"`)
)

type ctestRef struct {
	failed  map[string]bool
	summary []string // the two numbers, or nil
}

func readCTest(text string) ctestRef {
	ref := ctestRef{failed: map[string]bool{}}
	for _, l := range strings.Split(text, "\n") {
		if m := ctestResultRE.FindStringSubmatch(l); m != nil && !strings.HasPrefix(m[2], "Passed") {
			ref.failed[m[1]] = true
		}
		if m := ctestListedRE.FindStringSubmatch(l); m != nil {
			ref.failed[m[1]] = true
		}
		if m := ctestSummaryRE.FindStringSubmatch(l); m != nil {
			ref.summary = m[1:]
		}
	}
	return ref
}

func TestCTestReferenceAgainstJUnit(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		path := filepath.Join(c.Dir, c.Base+".junit")
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		n++
		want := map[string]bool{}
		for _, m := range junitCaseRE.FindAllStringSubmatch(string(data), -1) {
			if m[2] != "run" {
				want[m[1]] = true
			}
		}
		got := readCTest(string(c.Run.Stdout) + string(c.Run.Stderr)).failed
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: failing tests %v, the JUnit report says %v", c.Name, got, want)
		}
	}
	if n < 4 {
		t.Errorf("only %d ctest cases have a JUnit report", n)
	}
}

// TestCTestBlocks: every failing test the text shows is named in the
// block, and the block's tests and failed are the summary line's.
func TestCTestBlocks(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		if filepath.Base(c.Dir) != "ctest" {
			continue
		}
		if err := checkCTest(c.Run, ruletest.MustBlock(t, rules.Block, c.Run)); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}

func checkCTest(r *summarize.Run, block []byte) error {
	p, err := ruletest.Parse(block)
	if err != nil {
		return err
	}
	ref := readCTest(string(r.Stdout) + "\n" + string(r.Stderr))
	for name := range ref.failed {
		if !p.Mentions(" " + name + " ") {
			return fmt.Errorf("failing test %s not named:\n%s", name, block)
		}
	}
	tests, okT := p.Scalars["tests"]
	failed, okF := p.Scalars["failed"]
	switch {
	case ref.summary == nil && (okT || okF):
		return fmt.Errorf("tests/failed stated without a visible summary line:\n%s", block)
	case ref.summary != nil && (tests != ref.summary[1] || failed != ref.summary[0]):
		return fmt.Errorf("tests %s failed %s, the summary says %v", tests, failed, ref.summary)
	}
	return nil
}
