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

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// ls's oracle: for a listing of one directory, ls -1 with the same
// selection (a name per line: the top level); for a recursive one,
// find's -printf '%h\n' (each entry's directory). A reference reader of
// ls's listings, written apart from the rule, is checked against it on
// the whole outputs, then holds the blocks of cut outputs.

func readLsTruth(t *testing.T, c ruletest.Case, data []byte) *account {
	m, err := os.ReadFile(filepath.Join(c.Dir, c.Base+".meta"))
	if err != nil {
		t.Fatal(err)
	}
	byDir := bytes.Contains(m, []byte("\ntruth: find "))
	a := newAccount()
	for l := range strings.Lines(string(data)) {
		if byDir {
			a.add(strings.TrimSuffix(l, "\n"))
		} else {
			a.add("")
		}
	}
	return a
}

var (
	lsTotal = regexp.MustCompile(`^total \d\S*$`)
	lsLong  = regexp.MustCompile(`^[-dlbcpsDw?][-rwxsStT?]{9}[ +.]`)
)

// readLsSeen is the reference reader. A listing is the lines between
// empty ones; with headings (-R, several operands), a listing that starts
// with "NAME:" is the directory NAME's, and one before any heading holds
// the file operands (the top level). Where a heading may be missing (a
// grep, a capture that dropped the middle) no entry is placed; after a
// tail, the entries before the first heading are not.
func readLsSeen(r *summarize.Run, headings, long bool) *account {
	a := newAccount()
	placeable := !r.Cut.Any && !r.StdoutTruncated
	dir, known := "", !r.MayLackStart()
	// A newline before the text: an output that starts with an empty line
	// (a tail) starts with a listing that may have a heading.
	text := "\n" + strings.ReplaceAll(string(summarize.Readable(r.Stdout)), "\r\n", "\n")
	for i, block := range strings.Split(text, "\n\n") {
		var lines []string
		for l := range strings.SplitSeq(block, "\n") {
			if l != "" && !strings.HasPrefix(l, "ls: ") {
				lines = append(lines, l)
			}
		}
		canHead := i > 0 || !r.MayLackStart()
		if headings && canHead && len(lines) > 0 && strings.HasSuffix(lines[0], ":") && !lsLong.MatchString(lines[0]) {
			dir, known = strings.TrimSuffix(lines[0], ":"), placeable
			lines = lines[1:]
		}
		for _, l := range lines {
			switch {
			case long && (lsTotal.MatchString(l) || !lsLong.MatchString(l)):
			case headings && !known:
				a.entries++
			default:
				a.add(dir)
			}
		}
	}
	return a
}

// lsLayoutOf reads the corpus' ls commands: -R or several operands print
// headings, -l long lines.
func lsLayoutOf(argv []string) (headings, long bool) {
	operands := 0
	for _, w := range argv[1:] {
		switch {
		case strings.HasPrefix(w, "-"):
			headings = headings || strings.Contains(w, "R")
			long = long || strings.Contains(w, "l")
		default:
			operands++
		}
	}
	return headings || operands > 1, long
}

func lsSeen(r *summarize.Run) *account {
	h, l := lsLayoutOf(r.Argv)
	return readLsSeen(r, h, l)
}

func isLs(rule string) bool { return rule == "bash.ls" }

func TestLsOracle(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		data := metaTruth(t, c)
		if data == nil || c.Run.Rule != "bash.ls" {
			continue
		}
		tr := readLsTruth(t, c, data)
		if s := lsSeen(c.Run); !equalAccounts(s, tr) {
			t.Errorf("%s: the reader sees %d entries in %d directories, the account %d in %d", c.Name, s.entries, len(s.dirs), tr.entries, len(tr.dirs))
		}
		for _, budget := range []int{0, 4096, 1024} {
			r := *c.Run
			r.Budget = budget
			check(t, c.Name+"@"+strconv.Itoa(budget), &r, tr)
		}
		n++
	}
	if n < 6 {
		t.Errorf("%d ls cases held to their truth", n)
	}
}

func TestLsCuts(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		if c.Run.Rule == "bash.ls" && !c.Run.Terminal && strings.Contains(c.Run.Command, "|") {
			check(t, c.Name, c.Run, lsSeen(c.Run))
			n++
		}
	}
	for _, c := range seeds(t, isLs) {
		if c.Run.Terminal {
			continue
		}
		lines := bytes.Count(c.Run.Stdout, []byte("\n"))
		rng := rand.New(rand.NewPCG(uint64(len(c.Run.Stdout)), 4))
		for _, k := range []int{1, 2, 5, 13, 40, lines / 2, lines - 1, lines + 2} {
			for _, kind := range []int{0, 1} {
				if k > 0 {
					r := cutter.Cut(t, c.Run, kind, k, 0)
					check(t, c.Name+" | "+strings.Join(r.Cut.By, " | "), r, lsSeen(r))
					n++
				}
			}
		}
		for range 4 {
			for _, kind := range []int{2, 3} {
				r := cutter.Cut(t, c.Run, kind, 0, rng.Uint32())
				check(t, c.Name+" | "+strings.Join(r.Cut.By, " | "), r, lsSeen(r))
				n++
			}
		}
	}
	t.Logf("ls cut cases: %d", n)
}

func FuzzLsCut(f *testing.F) {
	var cases []ruletest.Case
	for _, c := range seeds(f, isLs) {
		if !c.Run.Terminal {
			cases = append(cases, c)
		}
	}
	f.Add(uint8(0), uint8(0), uint16(10), uint32(0))
	f.Add(uint8(3), uint8(1), uint16(30), uint32(9))
	f.Add(uint8(5), uint8(2), uint16(0), uint32(41))
	f.Add(uint8(6), uint8(3), uint16(0), uint32(7))
	f.Fuzz(func(t *testing.T, which, kind uint8, n uint16, pick uint32) {
		c := cases[int(which)%len(cases)]
		r := cutter.Cut(t, c.Run, int(kind%4), int(n)+1, pick)
		check(t, c.Name+" | "+strings.Join(r.Cut.By, " | "), r, lsSeen(r))
	})
}
