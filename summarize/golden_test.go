package summarize

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files from the current output")

// corpusDir holds real captured outputs, one directory per rule (the rule id
// without its "bash." prefix). A case is CASE.meta ("command: ..." and
// "exit_code: N" lines), CASE.stdout, CASE.stderr and the expected block in
// CASE.golden. The scripts that produced each case sit in testdata/corpus.
const corpusDir = "../testdata/corpus"

type corpusCase struct {
	name string // rule dir / case
	run  *Run
	dir  string
	base string
}

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	metas, err := filepath.Glob(filepath.Join(corpusDir, "*", "*.meta"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	for _, meta := range metas {
		dir := filepath.Dir(meta)
		base := strings.TrimSuffix(filepath.Base(meta), ".meta")
		r := &Run{Rule: "bash." + filepath.Base(dir)}
		if !Has(r.Rule) {
			t.Fatalf("%s: no rule %s", meta, r.Rule)
		}
		readMeta(t, meta, r)
		r.Stdout = readOptional(t, filepath.Join(dir, base+".stdout"))
		r.Stderr = readOptional(t, filepath.Join(dir, base+".stderr"))
		r.StdoutBytes = int64(len(r.Stdout))
		r.StderrBytes = int64(len(r.Stderr))
		cases = append(cases, corpusCase{name: filepath.Base(dir) + "/" + base, run: r, dir: dir, base: base})
	}
	if len(cases) == 0 {
		t.Fatal("empty corpus")
	}
	return cases
}

func readMeta(t testing.TB, path string, r *Run) {
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
			// Fixture commands are written without quoting, so plain word
			// splitting gives the argv the shell would.
			r.Argv = strings.Fields(v)
		case "exit_code":
			if v == "null" {
				break
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			r.ExitCode, r.Exited = n, true
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

func TestGolden(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			got, _ := BlockOf(c.run)
			golden := filepath.Join(c.dir, c.base+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./summarize -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("block differs from %s (run with -update to accept):\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestDeterministic: the same raw output gives the same block byte for byte.
func TestDeterministic(t *testing.T) {
	for _, c := range loadCorpus(t) {
		a, _ := BlockOf(c.run)
		b, _ := BlockOf(c.run)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renders differ", c.name)
		}
	}
}

func mustBlock(t *testing.T, r *Run) []byte {
	t.Helper()
	r.StdoutBytes, r.StderrBytes = int64(len(r.Stdout)), int64(len(r.Stderr))
	b, ok := BlockOf(r)
	if !ok {
		t.Fatalf("no rule %s", r.Rule)
	}
	return b
}
