// Package ruletest is what the tests of the rules share: a family's corpus
// and its golden files, the properties every block of real output has, and
// an oracle for the boundary check. Only tests import it. It imports no
// family and not the table either, so that a family's own tests can use it;
// what needs the table (a block, every family's finder) is passed in, as
// rules.Block and rules.Finders().
package ruletest

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

var update = flag.Bool("update", false, "rewrite the .golden files from the current output")

// Case is one real captured output of a corpus: DIR/RULE/CASE.meta
// ("command: ..." and "exit_code: N" lines, "terminal: true" for an
// output a terminal received, and "recognized_by: output" for one the
// table recognizes by its output rather than its command), CASE.stdout, CASE.stderr and
// the block expected of it, CASE.golden. RULE is the rule's id without its
// "bash." prefix. The scripts that produced the cases sit in DIR.
type Case struct {
	Name string // RULE/CASE
	Dir  string // DIR/RULE
	Base string // CASE
	Run  *summarize.Run
}

// Corpus loads the cases under each of dirs, glob patterns of corpus
// directories ("testdata", or "*/testdata" for every family's).
func Corpus(t testing.TB, dirs ...string) []Case {
	t.Helper()
	var cases []Case
	for _, dir := range dirs {
		metas, err := filepath.Glob(filepath.Join(dir, "*", "*.meta"))
		if err != nil {
			t.Fatal(err)
		}
		for _, meta := range metas {
			d := filepath.Dir(meta)
			base := strings.TrimSuffix(filepath.Base(meta), ".meta")
			r := &summarize.Run{Rule: "bash." + filepath.Base(d)}
			readMeta(t, meta, r)
			r.Stdout = readOptional(t, filepath.Join(d, base+".stdout"))
			r.Stderr = readOptional(t, filepath.Join(d, base+".stderr"))
			r.StdoutBytes = int64(len(r.Stdout))
			r.StderrBytes = int64(len(r.Stderr))
			cases = append(cases, Case{Name: filepath.Base(d) + "/" + base, Dir: d, Base: base, Run: r})
		}
	}
	if len(cases) == 0 {
		t.Fatalf("empty corpus in %q", dirs)
	}
	return cases
}

// anyRule accepts every command: a fixture's rule is its directory's.
func anyRule([]string) classify.Verdict { return classify.Verdict{Rule: "fixture"} }

func readMeta(t testing.TB, path string, r *summarize.Run) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			continue
		}
		switch k {
		case "command":
			r.Command = v
			// The first stage's argv and what its filters cut, as a run
			// of the command string would have them.
			c := classify.String(v, anyRule)
			if len(c.Stages) == 0 {
				t.Fatalf("%s: command %q does not take apart: %s", path, v, c.Explain())
			}
			r.Argv = c.Stages[0]
			r.Cut = summarize.Cut(c.Cuts())
		case "exit_code":
			if v == "null" {
				break
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			r.ExitCode, r.Exited = n, true
		case "terminal":
			r.Terminal = v == "true"
		case "recognized_by":
			r.ByOutput = v == "output"
		}
	}
	if r.Command == "" {
		t.Fatalf("%s: no command line", path)
	}
}

func readOptional(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Read returns the bytes of a corpus file, DIR/RULE/NAME.
func Read(t testing.TB, dir, rule, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, rule, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// BlockFunc makes the block of a run, as rules.Block does.
type BlockFunc func(r *summarize.Run) ([]byte, bool)

// Golden checks every case under dir against its golden file (go test
// -update rewrites them), and that two renders of a case are the same
// bytes.
func Golden(t *testing.T, dir string, block BlockFunc) {
	for _, c := range Corpus(t, dir) {
		t.Run(c.Name, func(t *testing.T) {
			got, ok := block(c.Run)
			if !ok {
				t.Fatalf("no block for rule %s", c.Run.Rule)
			}
			if again, _ := block(c.Run); !bytes.Equal(got, again) {
				t.Errorf("two renders differ")
			}
			golden := filepath.Join(c.Dir, c.Base+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("block differs from %s (run with -update to accept):\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// Properties holds for every case under dir, at the default budget and at
// tight ones: the block is valid UTF-8, within the budget unless only
// counts are left, accounts for every failure, and is the same bytes on
// every render.
func Properties(t *testing.T, dir string, block BlockFunc, finders []summarize.Finder) {
	for _, c := range Corpus(t, dir) {
		for _, budget := range []int{summarize.DefaultBudget, 4096, 1024} {
			r := *c.Run
			r.Budget = budget
			r.RawOutput = "shrinkrun show 0123456789abcdef"
			b, _ := block(&r)
			again, _ := block(&r)
			if !bytes.Equal(b, again) {
				t.Errorf("%s@%d: not deterministic", c.Name, budget)
			}
			if !utf8.Valid(b) {
				t.Errorf("%s@%d: invalid UTF-8", c.Name, budget)
			}
			if len(b) > budget && strings.Contains(string(b), "\n- ") {
				t.Errorf("%s@%d: %d bytes with list items left", c.Name, budget, len(b))
			}
			if missing := Unaccounted(&r, b, finders); missing > 0 {
				t.Errorf("%s@%d: %d failures neither shown nor counted", c.Name, budget, missing)
			}
		}
	}
}

// MustBlock returns r's block, failing the test when there is none. The
// stream sizes are set from the streams first.
func MustBlock(t testing.TB, block BlockFunc, r *summarize.Run) []byte {
	t.Helper()
	r.StdoutBytes, r.StderrBytes = int64(len(r.Stdout)), int64(len(r.Stderr))
	b, ok := block(r)
	if !ok {
		t.Fatalf("no block for %s", r.Rule)
	}
	return b
}

// Slow skips a test that takes seconds because it measures how a rule
// scales (pathological inputs, outputs of tens of MB), unless
// SHRINKRUN_SLOW_TESTS=1: go test ./... stays quick, and .ci/run runs
// these in a step of their own, which names each (TestSlowTestsRunInCI
// holds it to that).
func Slow(t testing.TB) {
	t.Helper()
	if os.Getenv("SHRINKRUN_SLOW_TESTS") != "1" {
		t.Skip("a scaling test: set SHRINKRUN_SLOW_TESTS=1 to run it")
	}
}

// sorted returns the set's members in order.
func sorted(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
