package listing_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The independent oracle and the cut checks. For each whole output, an
// account of the same listing that the tool gives in another form
// (CASE.truth, from the .meta's truth command): find -printf '%h\t%p',
// fd --exec echo '{//}', git ls-files -z. Every directory it counts must
// be named in the block with its exact count, or counted as omitted; the
// entry and directory totals must equal its own. A reference reader of a
// path per line, checked against that account, then holds the blocks of
// cut outputs (the corpus' own, cuts made here, FuzzCut) to what their
// text shows.

// account is a listing's entries: per directory, and at the top level.
type account struct {
	dirs    map[string]int
	order   []string
	top     int
	entries int
}

func newAccount() *account { return &account{dirs: map[string]int{}} }

func (a *account) add(dir string) {
	a.entries++
	if dir == "" {
		a.top++
		return
	}
	if _, ok := a.dirs[dir]; !ok {
		a.order = append(a.order, dir)
	}
	a.dirs[dir]++
}

// readTruth reads a case's truth in the form its rule's command gives.
func readTruth(t *testing.T, rule string, data []byte) *account {
	a := newAccount()
	switch rule {
	case "bash.find":
		for l := range strings.Lines(string(data)) {
			h, p, ok := strings.Cut(strings.TrimSuffix(l, "\n"), "\t")
			if !ok {
				t.Fatalf("find truth line %q", l)
			}
			if !strings.Contains(p, "/") {
				h = "" // a start point: the top level
			}
			a.add(h)
		}
	case "bash.fd":
		for l := range strings.Lines(string(data)) {
			// {//} names the directory from the search's root, "./src".
			d := strings.TrimPrefix(strings.TrimSuffix(l, "\n"), "./")
			if d == "." {
				d = ""
			}
			a.add(d)
		}
	default:
		for _, p := range bytes.Split(bytes.TrimSuffix(data, []byte{0}), []byte{0}) {
			if len(p) == 0 {
				continue
			}
			d := ""
			if i := bytes.LastIndexByte(p, '/'); i >= 0 {
				d = string(p[:i])
			}
			a.add(d)
		}
	}
	return a
}

// readSeen is the reference reader: a path per line, the tool's messages
// apart; a directory's path is what comes before its last '/' (fd ends a
// directory's name with one; git quotes an unusual path whole).
func readSeen(stdout []byte) *account {
	a := newAccount()
	for l := range strings.Lines(string(stdout)) {
		p := strings.TrimSuffix(l, "\n")
		if p == "" || strings.HasPrefix(p, "find: ") || strings.HasPrefix(p, "[fd error]: ") || strings.HasPrefix(p, "fatal: ") {
			continue
		}
		if len(p) > 1 && p[0] == '"' && p[len(p)-1] == '"' {
			p = p[1 : len(p)-1]
		}
		if len(p) > 1 {
			p = strings.TrimSuffix(p, "/")
		}
		switch i := strings.LastIndexByte(p, '/'); {
		case i < 0:
			a.add("")
		case i == 0:
			a.add("/")
		default:
			a.add(p[:i])
		}
	}
	return a
}

func metaTruth(t *testing.T, c ruletest.Case) []byte {
	m, err := os.ReadFile(filepath.Join(c.Dir, c.Base+".meta"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(m, []byte("\ntruth: ")) {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(c.Dir, c.Base+".truth"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestOracle(t *testing.T) {
	n := map[string]int{}
	for _, c := range ruletest.Corpus(t, "testdata") {
		data := metaTruth(t, c)
		if data == nil || !pathRule(c.Run.Rule) {
			continue
		}
		tr := readTruth(t, c.Run.Rule, data)
		if s := readSeen(c.Run.Stdout); !equalAccounts(s, tr) {
			t.Errorf("%s: the reader sees %d entries in %d directories, the account %d in %d", c.Name, s.entries, len(s.dirs), tr.entries, len(tr.dirs))
		}
		for _, budget := range []int{0, 4096, 1024} {
			r := *c.Run
			r.Budget = budget
			check(t, c.Name+"@"+strconv.Itoa(budget), &r, tr)
		}
		n[c.Run.Rule]++
	}
	t.Logf("cases held to the account: %v", n)
	if len(n) != 4 {
		t.Errorf("truth for %d rules, want 4", len(n))
	}
}

func equalAccounts(a, b *account) bool {
	if a.entries != b.entries || a.top != b.top || len(a.dirs) != len(b.dirs) {
		return false
	}
	for d, k := range a.dirs {
		if b.dirs[d] != k {
			return false
		}
	}
	return true
}

// check holds a block to an account of what its output lists.
func check(t *testing.T, name string, r *summarize.Run, a *account) {
	t.Helper()
	block, ok := rules.Block(r)
	if !ok {
		return // the fallback speaks
	}
	p, err := ruletest.Parse(block)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, block)
	}
	sfx := ""
	if r.Partial() {
		sfx = "_seen"
		if p.Scalars["cut_by"] == "" && p.Scalars["stderr_discarded_by"] == "" {
			t.Errorf("%s: no cut_by", name)
		}
	}
	checkDirectories(t, name, p, sfx, block, a.entries, a.dirs)
	topOm, _ := p.Int("top_level_omitted")
	if got := len(p.Lists["top_level"]) + topOm; got != a.top {
		t.Errorf("%s: %d top-level entries shown or omitted, the account %d", name, got, a.top)
	}
}

// checkDirectories holds a block's entry and directory counts and its
// by_directory list (with sfx, "_seen" on a cut run) to an account: the
// entries, and each directory's entry count.
func checkDirectories(t *testing.T, name string, p ruletest.Parsed, sfx string, block []byte, entries int, dirs map[string]int) {
	t.Helper()
	if got, _ := p.Int("entries" + sfx); got != entries {
		t.Errorf("%s: entries%s %d, the account %d\n%s", name, sfx, got, entries, block)
	}
	if got, _ := p.Int("directories" + sfx); got != len(dirs) {
		t.Errorf("%s: directories%s %d, the account %d\n%s", name, sfx, got, len(dirs), block)
	}
	named := 0
	for _, it := range p.Lists["by_directory"+sfx] {
		head, _, _ := strings.Cut(it, "\n")
		i := strings.LastIndex(head, ": ")
		k, _ := strconv.Atoi(head[i+2:])
		if want, ok := dirs[head[:i]]; !ok || want != k {
			t.Errorf("%s: %s: %d, the account %d", name, head[:i], k, want)
		}
		named++
	}
	om, _ := p.Int("by_directory" + sfx + "_omitted")
	if named+om != len(dirs) {
		t.Errorf("%s: %d directories named and %d omitted of %d\n%s", name, named, om, len(dirs), block)
	}
}

// TestCutCorpus holds the corpus' cut cases to the reader.
func TestCutCorpus(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		if strings.Contains(c.Run.Command, "|") && pathRule(c.Run.Rule) {
			check(t, c.Name, c.Run, readSeen(c.Run.Stdout))
			n++
		}
	}
	if n < 5 {
		t.Fatalf("%d cut corpus cases", n)
	}
}

// pathRule tells the rules of a path per line, which readSeen reads.
func pathRule(rule string) bool {
	return rule == "bash.find" || rule == "bash.fd" || rule == "bash.git_ls_files" || rule == "bash.git_ls_tree"
}

// seeds are the whole outputs the cuts start from, of the rules keep
// accepts.
func seeds(t testing.TB, keep func(rule string) bool) []ruletest.Case {
	var out []ruletest.Case
	for _, c := range ruletest.Corpus(t, "testdata") {
		if keep(c.Run.Rule) && !strings.Contains(c.Run.Command, "|") && !strings.Contains(c.Run.Command, "2>&1") && len(c.Run.Stdout) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// TestCuts cuts every seed at several sizes and greps it for and against
// words of its lines.
func TestCuts(t *testing.T) {
	perRule := map[string]int{}
	for _, c := range seeds(t, pathRule) {
		lines := bytes.Count(c.Run.Stdout, []byte("\n"))
		rng := rand.New(rand.NewPCG(uint64(len(c.Run.Stdout)), 2))
		for _, n := range []int{1, 2, 5, 13, 40, lines / 2, lines - 1, lines + 2} {
			for _, kind := range []int{0, 1} {
				if n > 0 {
					r := cutter.Cut(t, c.Run, kind, n, 0)
					check(t, c.Name+" | "+strings.Join(r.Cut.By, " | "), r, readSeen(r.Stdout))
					perRule[c.Run.Rule]++
				}
			}
		}
		for range 4 {
			for _, kind := range []int{2, 3} {
				r := cutter.Cut(t, c.Run, kind, 0, rng.Uint32())
				check(t, c.Name+" | "+strings.Join(r.Cut.By, " | "), r, readSeen(r.Stdout))
				perRule[c.Run.Rule]++
			}
		}
	}
	t.Logf("cut cases per rule: %v", perRule)
}

func FuzzCut(f *testing.F) {
	cases := seeds(f, pathRule)
	f.Add(uint8(0), uint8(0), uint16(10), uint32(0))
	f.Add(uint8(2), uint8(1), uint16(3), uint32(9))
	f.Add(uint8(4), uint8(2), uint16(0), uint32(41))
	f.Add(uint8(7), uint8(3), uint16(0), uint32(4242))
	f.Fuzz(func(t *testing.T, which, kind uint8, n uint16, pick uint32) {
		c := cases[int(which)%len(cases)]
		r := cutter.Cut(t, c.Run, int(kind%4), int(n)+1, pick)
		check(t, c.Name+" | "+strings.Join(r.Cut.By, " | "), r, readSeen(r.Stdout))
	})
}

// cutter cuts the corpus runs for the cut tests and the fuzzer.
var cutter = ruletest.Cutter{Classify: rules.String, Words: regexp.MustCompile(`[A-Za-z0-9_]{2,}`), Fallback: "src"}
