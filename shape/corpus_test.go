package shape

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/history/tokens"
	"github.com/shrinkrun/shrinkrun/rules"
)

func tokenCount(b []byte) int { return tokens.Count(b) }

var update = flag.Bool("update", false, "rewrite the .golden files from the current cuts")

// corpusCase is one real run from testdata/corpus.sh.
type corpusCase struct {
	name           string
	command        string
	argv           []string
	piped          bool
	stdout, stderr []byte
}

// client is a client's limit and the budget shrinkrun's cut gets under
// it (agents/clients), for the golden files and the comparison.
type client struct {
	name          string
	limit, budget int
}

var goldenClients = []client{
	{"claude", agentClients[0].limit, agentClients[0].budget},
	{"codex", agentClients[1].limit, agentClients[1].budget},
}

// loadCorpus reads every case of testdata/corpus.
func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	metas, err := filepath.Glob("testdata/corpus/*.meta")
	if err != nil || len(metas) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var cs []corpusCase
	for _, m := range metas {
		meta, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(meta), "\n")
		c := corpusCase{name: strings.TrimSuffix(filepath.Base(m), ".meta"), command: strings.TrimPrefix(first, "command: ")}
		cl := rules.String(c.command)
		c.argv, c.piped = cl.Tool(), len(cl.Stages) > 1
		base := strings.TrimSuffix(m, ".meta")
		c.stdout, c.stderr = readStream(t, base+".stdout"), readStream(t, base+".stderr")
		cs = append(cs, c)
	}
	return cs
}

// viewsFile reports whether the case's cut reads stdout as a source file
// viewed whole (its outline), not for failures.
func (c corpusCase) viewsFile() bool {
	o := newOutline(c.argv, 1)
	return o != nil && (!c.piped || o.numbered)
}

// readStream reads a stream, stored gzipped when large.
func readStream(t testing.TB, name string) []byte {
	t.Helper()
	if b, err := os.ReadFile(name); err == nil {
		return b
	}
	f, err := os.Open(name + ".gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cutCase cuts a case as compress does: stdout, then stderr, no Ticks.
func cutCase(c corpusCase, limit, budget int) []Chunk {
	ct := New(Options{Limit: limit, Budget: budget, Argv: c.argv, Piped: c.piped})
	out := ct.Write(Stdout, c.stdout)
	out = append(out, ct.Write(Stderr, c.stderr)...)
	return append(out, ct.Close("shrinkrun show "+c.name, nil)...)
}

// TestGolden pins each case's cut for each client's limit:
// testdata/corpus/CASE.CLIENT.golden, rewritten by -update.
func TestGolden(t *testing.T) {
	for _, c := range loadCorpus(t) {
		for _, cl := range goldenClients {
			t.Run(c.name+"/"+cl.name, func(t *testing.T) {
				_, got := joined(cutCase(c, cl.limit, cl.budget))
				file := filepath.Join("testdata", "corpus", c.name+"."+cl.name+".golden")
				if *update {
					if err := os.WriteFile(file, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (go test ./shape -run TestGolden -update)", err)
				}
				if !bytes.Equal(got, want) {
					os.WriteFile(file+".got", got, 0o644)
					t.Errorf("the cut differs from %s (written to %s.got)", file, file)
				}
			})
		}
	}
}

// TestCorpusInvariants holds every real case, at every client's limit
// and split into Writes or not, to the cut's promises: within the budget,
// every failure line kept or counted, every count exact, and the same
// bytes from the relay's many Writes as from compress's one.
func TestCorpusInvariants(t *testing.T) {
	for _, c := range loadCorpus(t) {
		ins := inputLines(c.stdout, c.stderr, !c.viewsFile())
		wants := map[int]int{} // by the part of a line the cut reads
		for _, cl := range goldenClients {
			t.Run(c.name+"/"+cl.name, func(t *testing.T) {
				o := Options{Limit: cl.limit, Budget: cl.budget, Argv: c.argv, Piped: c.piped}
				chunks := cutCase(c, cl.limit, cl.budget)
				streams, all := joined(chunks)
				if len(c.stdout)+len(c.stderr) <= cl.limit {
					if !bytes.Equal(streams[0], c.stdout) || !bytes.Equal(streams[1], c.stderr) {
						t.Fatal("below the limit the output changed")
					}
					return
				}
				if len(all) > cl.budget {
					t.Fatalf("%d bytes over the budget %d", len(all), cl.budget)
				}
				maxLine := max(256, cl.budget/4)
				if _, ok := wants[maxLine]; !ok && len(wants) > 0 && !longLines(ins, maxLine) {
					for _, w := range wants {
						wants[maxLine] = w
					}
				}
				if _, ok := wants[maxLine]; !ok {
					wants[maxLine] = wantFailures(ins, maxLine)
				}
				checkFailures(t, c.name, wants[maxLine], streams)
				checkCounts(t, c.name, ins, all)
				// On the corpus the budget holds them all: every failure line
				// is in the cut itself, not only counted.
				var failures []string
				for _, l := range ins {
					if l.fails && failLine(l.text) {
						failures = append(failures, l.text)
					}
				}
				if read, n := failuresRead(failures, string(all)); read != n {
					t.Errorf("%s: %d of the %d failure lines are in the cut", c.name, read, n)
				}
				// The relay's Writes: a pipe's reads, of any size.
				ct := New(o)
				var relayed []Chunk
				for s, b := range [][]byte{c.stdout, c.stderr} {
					for n := 0; len(b) > 0; n++ {
						k := min(len(b), 1+n*7919%65536)
						relayed = append(relayed, ct.Write(Stream(s), b[:k])...)
						b = b[k:]
					}
				}
				relayed = append(relayed, ct.Close("shrinkrun show "+c.name, nil)...)
				if _, r := joined(relayed); !bytes.Equal(r, all) {
					t.Fatalf("many Writes gave another cut than one:\n%s", r)
				}
			})
		}
	}
}

// longLines reports whether a line is longer than maxLine.
func longLines(ins []inputLine, maxLine int) bool {
	for _, l := range ins {
		if len(l.text) > maxLine {
			return true
		}
	}
	return false
}

// TestSavings reports what the cut saves on each case at each client's
// limit, in o200k tokens (go test ./shape -run Savings -v).
func TestSavings(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("a report: run with -v")
	}
	var rawAll, cutAll [2]int
	var shares [2][]float64 // each case's tokens cut over raw
	var b strings.Builder
	fmt.Fprintf(&b, "\n| case | raw bytes | raw tokens |")
	for _, cl := range goldenClients {
		fmt.Fprintf(&b, " %s bytes | %s tokens |", cl.name, cl.name)
	}
	b.WriteString("\n| --- | ---: | ---: |" + strings.Repeat(" ---: | ---: |", len(goldenClients)) + "\n")
	for _, c := range loadCorpus(t) {
		raw := append(append([]byte(nil), c.stdout...), c.stderr...)
		rt := tokenCount(raw)
		fmt.Fprintf(&b, "| %s | %d | %d |", c.name, len(raw), rt)
		for i, cl := range goldenClients {
			_, cut := joined(cutCase(c, cl.limit, cl.budget))
			ct := tokenCount(cut)
			rawAll[i] += rt
			cutAll[i] += ct
			if len(raw) > cl.limit {
				shares[i] = append(shares[i], float64(ct)/float64(rt))
			}
			fmt.Fprintf(&b, " %d | %d |", len(cut), ct)
		}
		b.WriteString("\n")
	}
	for i, cl := range goldenClients {
		slices.Sort(shares[i])
		fmt.Fprintf(&b, "\n%s: %d o200k tokens raw, %d through shrinkrun: %.1f%% saved in all; of the %d cases past the limit, the median saves %.1f%%, the least %.1f%%",
			cl.name, rawAll[i], cutAll[i], 100*(1-float64(cutAll[i])/float64(rawAll[i])), len(shares[i]),
			100*(1-shares[i][len(shares[i])/2]), 100*(1-shares[i][len(shares[i])-1]))
	}
	t.Log(b.String())
}
