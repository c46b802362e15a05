package search_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The reference reader and the cut checks: what a (cut) text of numbered,
// named results shows, read here apart from the rules, and every block of
// a cut output held to it. The reader is validated against the tools'
// machine-readable account on the whole outputs (TestReference), then used
// where no account exists: the corpus' own cut cases (TestReferenceCorpus),
// cuts made here at many sizes (TestCuts) and at random (FuzzCut).

// matchLine is a match of the "FILE:LINE:text" layout (rg -n, grep -rn,
// git grep -n): the name is what comes before the first ":LINE:".
var matchLine = regexp.MustCompile(`^(.+?):([0-9]+):`)

// seen is what a text of results shows.
type seen struct {
	files     map[string]int // matching lines per file
	order     []string
	matches   int
	rest      int // lines that are neither a match, a "--", a message, a binary notice nor empty
	binary    map[string]bool
	lineCount int
}

func readSeen(out, stderr []byte) seen {
	s := seen{files: map[string]int{}, binary: map[string]bool{}}
	for l := range strings.Lines(string(stderr)) {
		if p, ok := strings.CutPrefix(strings.TrimSuffix(l, "\n"), "grep: "); ok && strings.HasSuffix(p, ": binary file matches") {
			s.binary[strings.TrimSuffix(p, ": binary file matches")] = true
		}
	}
	for l := range strings.Lines(string(out)) {
		l = strings.TrimSuffix(l, "\n")
		s.lineCount++
		if p, ok := strings.CutPrefix(l, "grep: "); ok && strings.HasSuffix(p, ": binary file matches") {
			s.binary[strings.TrimSuffix(p, ": binary file matches")] = true
			continue
		}
		if l == "" || l == "--" || strings.HasPrefix(l, "rg: ") || strings.HasPrefix(l, "grep: ") || strings.HasSuffix(l, "(os error 13)") {
			continue
		}
		if p, ok := strings.CutPrefix(l, "Binary file "); ok && strings.HasSuffix(p, " matches") {
			s.binary[strings.TrimSuffix(p, " matches")] = true
			continue
		}
		if p, _, ok := strings.Cut(l, ": binary file matches (found "); ok {
			s.binary[p] = true
			continue
		}
		m := matchLine.FindStringSubmatch(l)
		if m == nil {
			s.rest++
			continue
		}
		if _, ok := s.files[m[1]]; !ok {
			s.order = append(s.order, m[1])
		}
		s.files[m[1]]++
		s.matches++
	}
	return s
}

// numberedNamed reports whether a command's results are numbered lines
// that carry their file's name, one per matching line: the layout the
// reference reads.
func numberedNamed(command string) bool {
	if strings.Contains(command, "|") {
		return false
	}
	f := strings.Fields(command)
	if !slicesContains(f, "-n") && !slicesContains(f, "-rn") && !slicesContains(f, "-Rn") {
		return false
	}
	for _, w := range f {
		switch w {
		case "-o", "-c", "-l", "-L", "-rno", "-rc", "-rl", "-rL", "--heading", "--vimgrep", "--column", "--count-matches", "--files-without-match", "-h", "-I":
			return false
		}
	}
	return true
}

// seeds are the corpus cases the cuts start from: whole outputs of the
// layout the reference reads, with names on their lines.
func seeds(t testing.TB) []ruletest.Case {
	var out []ruletest.Case
	for _, c := range ruletest.Corpus(t, "testdata") {
		if c.Run.Terminal || !numberedNamed(c.Run.Command) || readSeen(c.Run.Stdout, c.Run.Stderr).matches == 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

// TestReference holds the reader to the tools' own account on the whole
// outputs: the same files, each with the same number of matching lines.
func TestReference(t *testing.T) {
	n := 0
	for _, c := range seeds(t) {
		data, err := os.ReadFile(filepath.Join(c.Dir, c.Base+".truth"))
		if err != nil {
			continue
		}
		tr := readTruth(t, data, "")
		s := readSeen(c.Run.Stdout, c.Run.Stderr)
		for _, p := range tr.ordered {
			if f := tr.files[p]; f.lines > 0 && !tr.binary[p] && !s.binary[p] && !s.binary[strings.TrimPrefix(p, "./")] && s.files[p] != f.lines {
				t.Errorf("%s: the reader sees %d lines of %s, the account %d", c.Name, s.files[p], p, f.lines)
			}
		}
		for p, k := range s.files {
			if f := tr.files[p]; f == nil || f.lines != k {
				t.Errorf("%s: the reader sees %d lines of %s, which the account does not give", c.Name, k, p)
			}
		}
		n++
	}
	if n < 10 {
		t.Fatalf("the reader was checked on %d cases", n)
	}
	t.Logf("reference reader agrees with rg --json / grep -c / git grep -c on %d whole outputs", n)
}

// TestReferenceCorpus holds every corpus case whose command pipes a
// numbered, named search into a filter to the reader.
func TestReferenceCorpus(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		base, _, cut := strings.Cut(c.Run.Command, "|")
		if !cut || !numberedNamed(strings.TrimSpace(base)) {
			continue
		}
		checkCut(t, c.Name, c.Run)
		n++
	}
	if n < 5 {
		t.Fatalf("%d cut corpus cases", n)
	}
}

// TestCuts cuts every seed at many sizes, and greps it for and against
// words of its own lines: one (rule, filter) case per cut.
func TestCuts(t *testing.T) {
	perRule := map[string]int{}
	for _, c := range seeds(t) {
		lines := readSeen(c.Run.Stdout, c.Run.Stderr).lineCount
		rng := rand.New(rand.NewPCG(uint64(len(c.Run.Stdout)), 1))
		for _, n := range []int{1, 2, 3, 5, 8, 13, 40, lines / 2, lines - 1, lines + 3} {
			if n < 1 {
				continue
			}
			for _, kind := range []int{0, 1} {
				checkCut(t, c.Name, cutter.Cut(t, c.Run, kind, n, 0))
				perRule[c.Run.Rule]++
			}
		}
		for range 6 {
			for _, kind := range []int{2, 3} {
				checkCut(t, c.Name, cutter.Cut(t, c.Run, kind, 0, rng.Uint32()))
				perRule[c.Run.Rule]++
			}
		}
	}
	t.Logf("cut cases per rule: %v", perRule)
}

// FuzzCut cuts a seed at random: head, tail, or a grep for or against a
// word of one of its lines.
func FuzzCut(f *testing.F) {
	cases := seeds(f)
	f.Add(uint8(0), uint8(0), uint16(10), uint32(0))
	f.Add(uint8(3), uint8(1), uint16(7), uint32(5))
	f.Add(uint8(5), uint8(2), uint16(0), uint32(77))
	f.Add(uint8(9), uint8(3), uint16(0), uint32(12345))
	f.Fuzz(func(t *testing.T, which, kind uint8, n uint16, pick uint32) {
		c := cases[int(which)%len(cases)]
		checkCut(t, c.Name, cutter.Cut(t, c.Run, int(kind%4), int(n)+1, pick))
	})
}

// cutter cuts the corpus runs for the cut tests and the fuzzer.
var cutter = ruletest.Cutter{Classify: rules.String, Words: regexp.MustCompile(`[A-Za-z0-9_.]{2,}`), Fallback: "TODO"}

// checkCut holds the block of a cut run to what the reader sees in it: the
// same count of matching lines and of files, each file named with its
// count or counted as omitted, every other line counted or kept, and the
// counts marked as seen.
func checkCut(t *testing.T, name string, r *summarize.Run) {
	t.Helper()
	name += " | " + strings.Join(r.Cut.By, " | ")
	block, ok := rules.Block(r)
	if !ok {
		return // the fallback speaks
	}
	p, err := ruletest.Parse(block)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, block)
	}
	s := readSeen(r.Stdout, r.Stderr)
	sfx := ""
	if r.Partial() {
		sfx = "_seen"
		if p.Scalars["cut_by"] == "" {
			t.Errorf("%s: no cut_by\n%s", name, block)
		}
	}
	count := func(key string) int {
		v, ok := p.Int(key + sfx)
		if !ok && p.Scalars[key+sfx] != "" || ok && v == 0 && sfx != "" {
			t.Errorf("%s: %s%s: %q", name, key, sfx, p.Scalars[key+sfx])
		}
		if _, whole := p.Scalars[key]; whole && sfx != "" {
			t.Errorf("%s: %s stated as a total of a cut output", name, key)
		}
		return v
	}
	if got := count("match_lines"); got != s.matches {
		t.Errorf("%s: match_lines%s %d, the text shows %d\n%s", name, sfx, got, s.matches, block)
	}
	if got, _ := p.Int("binary_files" + sfx); got != len(s.binary) {
		t.Errorf("%s: binary_files%s %d, the text shows %d", name, sfx, got, len(s.binary))
	}
	if got := count("files"); got != len(s.order) {
		t.Errorf("%s: files%s %d, the text shows %d\n%s", name, sfx, got, len(s.order), block)
	}
	named := 0
	for _, it := range p.Lists["by_file"+sfx] {
		path, k, _ := itemHead(it)
		if want, ok := s.files[path]; !ok || want != k {
			t.Errorf("%s: %s: %d, the text shows %d", name, path, k, want)
		}
		named++
	}
	om, _ := p.Int("by_file" + sfx + "_omitted")
	if named+om != len(s.order) {
		t.Errorf("%s: %d files named and %d omitted of %d the text shows\n%s", name, named, om, len(s.order), block)
	}
	kept := count("context_lines")
	for _, key := range []string{"unplaced_lines", "other_lines"} {
		o, _ := p.Int(key + "_omitted")
		kept += len(p.Lists[key]) + o
	}
	if kept != s.rest {
		t.Errorf("%s: %d lines besides matches counted or kept, the text has %d\n%s", name, kept, s.rest, block)
	}
}
