package rules_test

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/bench/input"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// familyOf returns the family that has the rule id.
func familyOf(t testing.TB, id string) string {
	t.Helper()
	for _, f := range rules.Table {
		for _, r := range f.Rules {
			if r.ID == id {
				return f.Name
			}
		}
	}
	t.Fatalf("no rule %s", id)
	return ""
}

// TestClaimNoOtherFamily: no signature claims an output of another
// family's corpus. Every case of every corpus is claimed by a rule of the
// family whose rule makes its block, or by none; and every rule with a
// signature claims some of its own corpus.
func TestClaimNoOtherFamily(t *testing.T) {
	claimed, uncut := map[string]int{}, map[string]int{}
	for _, c := range ruletest.Corpus(t, "*/testdata") {
		rule, _ := rules.Route(c.Run)
		if len(c.Run.Cut.By) == 0 {
			uncut[rule]++
		}
		id, ok := rules.Claim(c.Run)
		if !ok {
			continue
		}
		if familyOf(t, id) != familyOf(t, rule) {
			t.Errorf("%s (%s, rule %s): claimed by %s", c.Name, c.Run.Command, rule, id)
		}
		if id == rule && len(c.Run.Cut.By) == 0 {
			claimed[rule]++
		}
	}
	for _, f := range rules.Table {
		for _, r := range f.Rules {
			if r.Output == nil {
				continue
			}
			t.Logf("%-18s claims %3d of the %3d uncut cases of its corpus", r.ID, claimed[r.ID], uncut[r.ID])
			if claimed[r.ID] == 0 {
				t.Errorf("%s: its signature claims none of its own corpus", r.ID)
			}
		}
	}
}

// TestCorpusRecognition: every case of every corpus is one whose command
// and output the table routes to the case's rule, as shrinkrun does it:
// the command's rule (and a host's handover, rules.Block), or, for a
// command no rule recognizes, the rule whose signature claims the output
// (rules.Claim); and a case marked "recognized_by: output" is exactly one
// whose rule the output chose. A few cases are a rule's reading of an
// output of a command the table passes through (git diff --name-status):
// they are unmarked, and nothing claims them.
func TestCorpusRecognition(t *testing.T) {
	byOutput, through := 0, 0
	cases := ruletest.Corpus(t, "*/testdata")
	for _, c := range cases {
		want, wantBy := rules.Route(c.Run)
		r := *c.Run
		r.Rule, r.ByOutput = rules.String(r.Command).Rule, false
		if r.Rule == "" {
			id, ok := rules.Claim(&r)
			if !ok {
				if wantBy {
					t.Errorf("%s: marked as recognized by output, and no signature claims it", c.Name)
				}
				through++
				continue
			}
			r.Rule, r.ByOutput = id, true
		}
		got, gotBy := rules.Route(&r)
		if got != want || gotBy != wantBy {
			t.Errorf("%s: %q routes to %s (by output %v), the case is %s (by output %v)", c.Name, r.Command, got, gotBy, want, wantBy)
		}
		if gotBy {
			byOutput++
		}
	}
	t.Logf("%d cases, %d recognized by output, %d of commands that pass through", len(cases), byOutput, through)
}

// TestClaimOrder: when one output bears two signatures, the first in the
// table's order claims it. Real outputs that bear two: pytest's and
// unittest's under make, whose "***" line follows a failed recipe; rustc's
// under make; and each family's output followed by another's (a script
// that runs two tools), where the runner or compiler that comes first in
// the table wins.
func TestClaimOrder(t *testing.T) {
	read := func(rel string) *summarize.Run {
		t.Helper()
		base := strings.TrimSuffix(rel, filepath.Ext(rel))
		out, _ := os.ReadFile(filepath.Join(base + ".stdout"))
		errs, _ := os.ReadFile(filepath.Join(base + ".stderr"))
		if len(out)+len(errs) == 0 {
			t.Fatalf("%s: no output", rel)
		}
		return &summarize.Run{Stdout: out, Stderr: errs, Exited: true, ExitCode: 2}
	}
	signature := func(id string) func(*summarize.Run) bool {
		r, ok := rules.Lookup(id)
		if !ok || r.Output == nil {
			t.Fatalf("%s has no signature", id)
		}
		return r.Output
	}
	both := func(a, b *summarize.Run) *summarize.Run {
		return &summarize.Run{Stdout: slices.Concat(a.Stdout, a.Stderr, b.Stdout, b.Stderr), Exited: true, ExitCode: 1}
	}
	for _, c := range []struct {
		name string
		run  *summarize.Run
		want string
		also string // the other signature the output bears
	}{
		{"pytest under make", read("python/testdata/pytest/make_test"), "bash.pytest", "bash.make"},
		{"unittest under make", read("python/testdata/unittest/make"), "bash.unittest", "bash.make"},
		{"rustc under make", read("cc/testdata/make/cargo"), "bash.cargo_build", "bash.make"},
		{"go test then gcc", both(read("golang/testdata/go_test/fail"), read("cc/testdata/cc/errors")), "bash.go_test", "bash.cc"},
		{"gcc then pytest", both(read("cc/testdata/cc/errors"), read("python/testdata/pytest/failures")), "bash.pytest", "bash.cc"},
		{"tsc then jest", both(read("node/testdata/tsc/errors"), read("node/testdata/jest/fail_all")), "bash.jest", "bash.tsc"},
		{"unittest then pytest", both(read("python/testdata/unittest/failures"), read("python/testdata/pytest/failures")), "bash.pytest", "bash.unittest"},
		{"cargo test then go test", both(read("cargo/testdata/cargo_test/assert_fail"), read("golang/testdata/go_test/fail")), "bash.cargo_test", "bash.go_test"},
	} {
		if !signature(c.also)(c.run) {
			t.Errorf("%s: %s's signature does not match: not a case of two", c.name, c.also)
		}
		if got, _ := rules.Claim(c.run); got != c.want {
			t.Errorf("%s: claimed by %q, want %s", c.name, got, c.want)
		}
	}
}

// TestClaimReadable: a signature reads the streams as a terminal shows
// them: vitest colors its summary even into a pipe.
func TestClaimReadable(t *testing.T) {
	out, err := os.ReadFile("node/testdata/vitest/fail.stdout")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("\x1b[")) {
		t.Fatal("the case is not colored")
	}
	if id, _ := rules.Claim(&summarize.Run{Stdout: out}); id != "bash.vitest" {
		t.Errorf("a colored vitest run is claimed by %q", id)
	}
}

// BenchmarkClaim measures Claim on each rule's corpus repeated to 4 MB, a
// capture's size on each stream: where a signature claims the output it
// stops at the first line it needs, and on the output of a rule with no
// signature (git diff, rg, find...) every signature searches the whole
// output, which is what the relay pays at the end of every long
// pass-through that no rule claims.
//
//	go test ./rules -run '^$' -bench Claim -benchtime 10x
func BenchmarkClaim(b *testing.B) {
	units, err := input.Units()
	if err != nil {
		b.Fatal(err)
	}
	for _, u := range units {
		rule := u.Rule
		r := u.Sized(4e6)
		id, _ := rules.Claim(r)
		b.Run(rule.Name+"/"+cmp.Or(id, "none"), func(b *testing.B) {
			b.SetBytes(int64(input.Size(r)))
			for b.Loop() {
				rules.Claim(r)
			}
		})
	}
}

// TestClaimWindows: the signatures read a long output's start and end: a
// tool's header at the start, or its closing lines at the end, are found
// past a megabyte of other lines; a tool's output in the middle of two
// megabytes of other lines is not.
func TestClaimWindows(t *testing.T) {
	read := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var filler []byte
	for i := 0; len(filler) < 1<<20; i++ {
		filler = fmt.Appendf(filler, "2026-11-30 12:00:%02d INFO worker %d: processed batch\n", i%60, i)
	}
	pytest := read("python/testdata/pytest/failures.stdout")
	unittest := read("python/testdata/unittest/failures.stderr")
	for _, c := range []struct {
		name   string
		stdout []byte
		want   string
	}{
		{"pytest's header, then a log", slices.Concat(pytest, filler), "bash.pytest"},
		{"a log, then unittest's closing lines", slices.Concat(filler, unittest), "bash.unittest"},
		{"unittest's output inside a log", slices.Concat(filler, unittest, filler), ""},
		{"a log alone", filler, ""},
	} {
		if got, _ := rules.Claim(&summarize.Run{Stdout: c.stdout}); got != c.want {
			t.Errorf("%s: claimed by %q, want %q", c.name, got, c.want)
		}
	}
}

// TestHostHandover: a host's output (make, the npm test script) that
// another family's signature claims gets that family's block, saying so;
// one its own family claims, or none, keeps the host's rule; and a rule
// that is no host keeps its output whatever it is.
func TestHostHandover(t *testing.T) {
	read := func(base string) (stdout, stderr []byte) {
		out, _ := os.ReadFile(base + ".stdout")
		errs, _ := os.ReadFile(base + ".stderr")
		return out, errs
	}
	for _, c := range []struct {
		rule, output, want string
		byOutput           bool
	}{
		{"bash.make", "python/testdata/pytest/make_test", "bash.pytest", true},
		{"bash.make", "python/testdata/unittest/make", "bash.unittest", true},
		{"bash.make", "golang/testdata/go_test/wrapped_make", "bash.go_test", true},
		{"bash.npm_test", "python/testdata/pytest/npm_test", "bash.pytest", true},
		{"bash.npm_test", "golang/testdata/go_test/wrapped_npm", "bash.go_test", true},
		{"bash.make", "cc/testdata/make/errors", "bash.make", false},
		{"bash.make", "cc/testdata/make/go_vet", "bash.make", false},
		{"bash.npm_test", "node/testdata/npm_test/jest_pass", "bash.npm_test", false},
		{"bash.cargo_test", "python/testdata/pytest/failures", "bash.cargo_test", false},
		{"bash.pytest", "python/testdata/unittest/failures", "bash.pytest", false},
	} {
		out, errs := read(c.output)
		r := &summarize.Run{Rule: c.rule, Command: "cmd", Stdout: out, Stderr: errs, StdoutBytes: int64(len(out)), StderrBytes: int64(len(errs)), Exited: true, ExitCode: 2}
		block, ok := rules.Block(r)
		if !ok {
			t.Fatalf("%s on %s: no block", c.rule, c.output)
		}
		if !bytes.Contains(block, []byte("\nrule: "+c.want+"\n")) || bytes.Contains(block, []byte("\nrecognized_by: output\n")) != c.byOutput {
			t.Errorf("%s on %s: want rule %s, recognized by output %v:\n%s", c.rule, c.output, c.want, c.byOutput, block)
		}
		if r.Rule != c.rule || r.ByOutput {
			t.Errorf("%s on %s: Block changed the run to %s", c.rule, c.output, r.Rule)
		}
	}
}
