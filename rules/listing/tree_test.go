package listing_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// tree's oracle: tree -J with the same options (CASE.truth) names every
// directory with its contents and gives the report's totals. A reference
// reader of tree's drawing, written apart from the rule, is checked
// against it on the whole outputs, then holds the blocks of cut outputs.

// treeNode is an object of tree -J's output.
type treeNode struct {
	Type        string     `json:"type"`
	Name        string     `json:"name"`
	Contents    []treeNode `json:"contents"`
	Error       string     `json:"error"`
	Directories int        `json:"directories"`
	Files       *int       `json:"files"` // absent with -d
}

// treeAccount is a tree listing's entries per directory, and its report.
type treeAccount struct {
	account
	summary string
}

func readTreeTruth(t *testing.T, data []byte) *treeAccount {
	var nodes []treeNode
	if err := json.Unmarshal(data, &nodes); err != nil {
		t.Fatalf("tree -J: %v", err)
	}
	a := &treeAccount{account: *newAccount()}
	var walk func(label string, n treeNode)
	walk = func(label string, n treeNode) {
		for _, c := range n.Contents {
			if c.Type == "" {
				continue // {"error": ...}
			}
			a.add(label)
			walk(label+"/"+c.Name, c)
		}
	}
	for _, n := range nodes {
		switch n.Type {
		case "report":
			a.summary = strconv.Itoa(n.Directories) + " director" + plural(n.Directories, "y", "ies")
			if n.Files != nil {
				a.summary += ", " + strconv.Itoa(*n.Files) + " file" + plural(*n.Files, "", "s")
			}
		case "directory":
			walk(n.Name, n)
		}
	}
	return a
}

func plural(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}

// treeLine is a drawn entry: its prefix is four columns per level.
var (
	treeLine    = regexp.MustCompile("^((?:│\u00a0\u00a0 |    |\\|   )*)(?:├── |└── |\\|-- |`-- )(.*)$")
	treeSummary = regexp.MustCompile(`^\d+ director(y|ies)(, \d+ files?)?$`)
)

// readTreeSeen is the reference reader. When lines may be missing before
// the last one, entries are counted and no directory is placed.
func readTreeSeen(stdout []byte, placed bool) *treeAccount {
	a := &treeAccount{account: *newAccount()}
	var stack []string
	for l := range strings.Lines(string(stdout)) {
		l = strings.TrimSuffix(l, "\n")
		m := treeLine.FindStringSubmatch(l)
		switch {
		case l == "":
		case treeSummary.MatchString(l):
			a.summary = l
		case m == nil:
			stack = []string{strings.TrimSuffix(l, "  [error opening dir]")}
		case !placed:
			a.entries++
		default:
			depth := utf8.RuneCountInString(m[1]) / 4
			if depth >= len(stack) {
				continue
			}
			name := strings.TrimSuffix(m[2], "  [error opening dir]")
			if i := strings.Index(name, " -> "); i >= 0 {
				name = name[:i]
			}
			a.add(stack[depth])
			stack = append(stack[:depth+1], stack[depth]+"/"+strings.TrimSuffix(name, "/"))
		}
	}
	return a
}

func TestTreeOracle(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		data := metaTruth(t, c)
		if data == nil || c.Run.Rule != "bash.tree" {
			continue
		}
		tr := readTreeTruth(t, data)
		if s := readTreeSeen(c.Run.Stdout, true); !equalAccounts(&s.account, &tr.account) || s.summary != tr.summary {
			t.Errorf("%s: the reader sees %d entries in %d directories (%q), the account %d in %d (%q)", c.Name, s.entries, len(s.dirs), s.summary, tr.entries, len(tr.dirs), tr.summary)
		}
		for _, budget := range []int{0, 4096, 1024} {
			r := *c.Run
			r.Budget = budget
			checkTree(t, c.Name+"@"+strconv.Itoa(budget), &r, tr)
		}
		n++
	}
	if n < 5 {
		t.Errorf("%d tree cases held to tree -J", n)
	}
}

// checkTree holds a tree block to an account of what its output shows.
func checkTree(t *testing.T, name string, r *summarize.Run, a *treeAccount) {
	t.Helper()
	block, ok := rules.Block(r)
	if !ok {
		return
	}
	p, err := ruletest.Parse(block)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, block)
	}
	if p.Scalars["rule"] != "bash.tree" {
		return // the fallback speaks
	}
	sfx := ""
	if r.Partial() {
		sfx = "_seen"
	}
	if got := p.Scalars["summary"]; got != a.summary {
		t.Errorf("%s: summary %q, the output %q", name, got, a.summary)
	}
	checkDirectories(t, name, p, sfx, block, a.entries, a.dirs)
}

func TestTreeCuts(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		if c.Run.Rule == "bash.tree" && strings.Contains(c.Run.Command, "|") {
			checkTree(t, c.Name, c.Run, readTreeSeen(c.Run.Stdout, !c.Run.MayLackStart()))
			n++
		}
	}
	for _, c := range seeds(t, isTree) {
		lines := bytes.Count(c.Run.Stdout, []byte("\n"))
		rng := rand.New(rand.NewPCG(uint64(len(c.Run.Stdout)), 3))
		for _, k := range []int{1, 2, 5, 13, 40, lines / 2, lines - 1, lines + 2} {
			for _, kind := range []int{0, 1} {
				if k > 0 {
					r := cutter.Cut(t, c.Run, kind, k, 0)
					checkTree(t, c.Name+" | "+strings.Join(r.Cut.By, " | "), r, readTreeSeen(r.Stdout, !r.MayLackStart()))
					n++
				}
			}
		}
		for range 4 {
			for _, kind := range []int{2, 3} {
				r := cutter.Cut(t, c.Run, kind, 0, rng.Uint32())
				checkTree(t, c.Name+" | "+strings.Join(r.Cut.By, " | "), r, readTreeSeen(r.Stdout, !r.MayLackStart()))
				n++
			}
		}
	}
	t.Logf("tree cut cases: %d", n)
}

func FuzzTreeCut(f *testing.F) {
	cases := seeds(f, isTree)
	f.Add(uint8(0), uint8(0), uint16(10), uint32(0))
	f.Add(uint8(2), uint8(1), uint16(3), uint32(9))
	f.Add(uint8(4), uint8(2), uint16(0), uint32(41))
	f.Fuzz(func(t *testing.T, which, kind uint8, n uint16, pick uint32) {
		c := cases[int(which)%len(cases)]
		r := cutter.Cut(t, c.Run, int(kind%4), int(n)+1, pick)
		checkTree(t, c.Name+" | "+strings.Join(r.Cut.By, " | "), r, readTreeSeen(r.Stdout, !r.MayLackStart()))
	})
}

func isTree(rule string) bool { return rule == "bash.tree" }
