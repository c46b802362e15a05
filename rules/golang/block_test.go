package golang_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The tests that need a whole block, or every family's finder, as
// rules.Block and rules.Finders() give them.

func TestGolden(t *testing.T) {
	ruletest.Golden(t, "testdata", rules.Block)
}

func TestCorpusProperties(t *testing.T) {
	ruletest.Properties(t, "testdata", rules.Block, rules.Finders())
}

// TestGoFailuresSurvive: on every go case of the corpus, each required
// string is in the rule's own body (not the fallback) at the default
// budget, or counted by an _omitted line.
func TestGoFailuresSurvive(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		if !strings.HasPrefix(c.Run.Rule, "bash.go_") {
			continue
		}
		block, _ := rules.Block(c.Run)
		if strings.Contains(string(block), "\nfallback: true\n") {
			t.Errorf("%s: the rule's body was replaced by the fallback:\n%s", c.Name, block)
		}
	}
}

// FuzzGoRules feeds the go rules arbitrary output seeded with the go corpus
// and the shapes their parsers track (test markers, traces, headers,
// test2json events). The oracle is FuzzSummarize's: no panic, the same
// bytes twice, and every failure the finders require shown or counted.
func FuzzGoRules(f *testing.F) {
	for _, c := range ruletest.Corpus(f, "testdata") {
		if strings.HasPrefix(c.Run.Rule, "bash.go_") {
			f.Add(c.Run.Stdout, c.Run.Stderr, uint8(0))
		}
	}
	f.Add([]byte("=== RUN   TestA\n    a_test.go:1: x\n--- FAIL: TestA (0.00s)\npanic: p\n\ngoroutine 1 [running]:\nf()\n\t/x/a.go:1\nFAIL\tp\t0.1s\n"), []byte("# p\n./a.go:1:2: e\n\thave ()\n"), uint8(1))
	f.Add([]byte(`{"Action":"output","Package":"p","Output":"--- FAIL: TestJ (0.00s)\n"}`+"\n"), []byte("go: x\n\tmore\n# get u\n"), uint8(3))
	ids := []string{"bash.go_test", "bash.go_build", "bash.go_vet", "bash.go_mod"}
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, rule uint8) {
		r := &summarize.Run{
			Rule: ids[int(rule)%len(ids)], Command: "go test",
			Stdout: stdout, Stderr: stderr, StdoutBytes: int64(len(stdout)), StderrBytes: int64(len(stderr)),
			ExitCode: 1, Exited: true, Budget: 2048,
		}
		block, _ := rules.Block(r)
		if again, _ := rules.Block(r); string(again) != string(block) {
			t.Fatal("not deterministic")
		}
		if missing := ruletest.Unaccounted(r, block, rules.Finders()); missing > 0 {
			t.Fatalf("%d failures neither shown nor counted:\n%s", missing, block)
		}
	})
}

// TestGoRulesLinear runs the go rules on large outputs of the shapes that
// could make a parser slow: 100k failing tests, one test with 100k reason
// lines, a trace of 100k frames, 100k build errors and test2json events.
// A quadratic step would take many minutes; linear ones take a fraction of
// a second each.
func TestGoRulesLinear(t *testing.T) {
	ruletest.Slow(t)
	n := 100_000
	if testing.Short() {
		n = 20_000
	}
	var verbose, oneTest, trace, build, events strings.Builder
	for i := range n {
		fmt.Fprintf(&verbose, "=== RUN   TestT%d\n    t_test.go:%d: log\n--- FAIL: TestT%d (0.00s)\n", i, i, i)
		fmt.Fprintf(&oneTest, "    t_test.go:%d: reason %d\n", i, i)
		fmt.Fprintf(&trace, "example.com/demo.f%d(...)\n\t/tmp/demo/f.go:%d\n", i, i)
		fmt.Fprintf(&build, "./a.go:%d:1: undefined: x%d\n\thave ()\n", i, i)
		fmt.Fprintf(&events, `{"Action":"output","Package":"p%d","Test":"TestE","Output":"--- FAIL: TestE (0.00s)\n"}`+"\n", i%7)
	}
	cases := map[string]string{
		"verbose":  verbose.String(),
		"one test": "--- FAIL: TestOne (0.00s)\n" + oneTest.String(),
		"trace":    "panic: deep\n\ngoroutine 1 [running]:\n" + trace.String(),
		"build":    "# example.com/demo\n" + build.String(),
		"events":   events.String(),
	}
	for name, out := range cases {
		for _, rule := range []string{"bash.go_test", "bash.go_build", "bash.go_mod"} {
			r := &summarize.Run{Rule: rule, Command: "go test", Stdout: []byte(out), StdoutBytes: int64(len(out)), ExitCode: 1, Exited: true}
			start := time.Now()
			block, _ := rules.Block(r)
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("%s on %s: %v", rule, name, d)
			}
			if missing := ruletest.Unaccounted(r, block, rules.Finders()); missing > 0 {
				t.Errorf("%s on %s: %d failures neither shown nor counted", rule, name, missing)
			}
		}
	}
}
