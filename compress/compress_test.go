package compress

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/shape"
	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestWorth(t *testing.T) {
	for _, tt := range []struct {
		block, blockTokens int
		raw, rawTokens     int64
		want               bool
	}{
		{80, 20, 100, 25, true},
		{81, 20, 100, 25, false},
		{80, 21, 100, 25, false},
		{300, 80, 0, 0, false},
		{1000, 250, 100000, 25000, true},
		{1175, 532, 1469, 525, false}, // a real git status: smaller in bytes, not in tokens
	} {
		if got := Worth(tt.block, tt.raw, tt.blockTokens, tt.rawTokens); got != tt.want {
			t.Errorf("Worth(%d, %d, %d, %d) = %v", tt.block, tt.raw, tt.blockTokens, tt.rawTokens, got)
		}
	}
}

// corpusCase is one real run from the rules' corpora (rules/*/testdata).
type corpusCase struct {
	name   string
	out    Output
	golden []byte
}

func loadCorpus(t testing.TB) []corpusCase {
	metas, err := filepath.Glob("../rules/*/testdata/*/*.meta")
	if err != nil || len(metas) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var cases []corpusCase
	for _, m := range metas {
		base := strings.TrimSuffix(m, ".meta")
		golden, err := os.ReadFile(base + ".golden")
		if err != nil {
			continue
		}
		meta, _ := os.ReadFile(m)
		if bytes.Contains(meta, []byte("\nterminal: true")) {
			continue // a terminal's output: Output has no terminal, whose layout a rule may read (rg's headings)
		}
		c := corpusCase{name: filepath.Base(filepath.Dir(base)) + "/" + filepath.Base(base), golden: golden}
		for _, line := range strings.Split(string(meta), "\n") {
			if v, ok := strings.CutPrefix(line, "command: "); ok {
				c.out.Command = v
			}
			if v, ok := strings.CutPrefix(line, "exit_code: "); ok {
				c.out.ExitCode, _ = strconv.Atoi(v)
			}
		}
		c.out.Stdout, _ = os.ReadFile(base + ".stdout")
		c.out.Stderr, _ = os.ReadFile(base + ".stderr")
		cases = append(cases, c)
	}
	return cases
}

// TestCorpus: for every real run of the corpus, Block gives exactly the
// block the summarizer's golden file holds, or the output as it is when
// that block is not clearly smaller; the runs of commands no rule
// recognizes too, when a signature claims their output (./runtests.py,
// bash ci.sh).
func TestCorpus(t *testing.T) {
	n := 0
	for _, c := range loadCorpus(t) {
		if bytes.Contains(c.golden, []byte("raw_output:")) || !bytes.HasPrefix(c.golden, []byte("[tool_output_compression]")) {
			continue // a golden of another shape (a pipe's, a cut capture's)
		}
		if id, _ := Rule(c.out); id == "" {
			continue // kept for the rule alone: classify passes the command through, and no signature claims it
		}
		block, ok := Block(c.out)
		raw := int64(len(c.out.Stdout) + len(c.out.Stderr))
		worth := Worth(len(c.golden), raw, summarize.EstimateTokens(c.golden), int64(summarize.EstimateTokens(c.out.Stdout)+summarize.EstimateTokens(c.out.Stderr)))
		switch {
		case ok && !bytes.Equal(block, c.golden):
			t.Errorf("%s: block differs from the golden:\n%s\nwant\n%s", c.name, block, c.golden)
		case ok != worth:
			t.Errorf("%s: ok=%v, but the golden is worth printing: %v", c.name, ok, worth)
		}
		n++
	}
	if n < 50 {
		t.Fatalf("only %d corpus cases compared", n)
	}
}

// TestByOutput: a command no rule recognizes is summarized when its
// output bears a signature and is larger than the limit, and the block
// says so; below the limit, or for a command that prints a file, or whose
// output bears none, it is shown as it is.
func TestByOutput(t *testing.T) {
	failures, err := os.ReadFile("../rules/python/testdata/unittest/failures.stderr")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		command, rule, cut string
	}{
		{"./runtests.py", "bash.unittest", ""},
		{"bash ci.sh 2>&1 | tail -80", "bash.unittest", "cut_by: tail -80"},
		{"cd billing && ./runtests.py", "bash.unittest", "cut_by: unknown"},
		{"make test", "bash.unittest", ""},
		{"cat test.log", "", ""},
		{"tail -n 200 test.log", "", ""},
		{"sed -n 1,400p test.log", "", ""},
	} {
		o := Output{Command: c.command, Stdout: failures, ExitCode: 1, Limit: len(failures)}
		if _, ok := Block(o); ok && c.command != "make test" {
			t.Errorf("%q: a block for an output at the limit", c.command)
		}
		o.Limit = len(failures) - 1
		id, by := Rule(o)
		block, ok := Block(o)
		if id != c.rule || ok != (c.rule != "") || by != (c.rule != "") {
			t.Errorf("%q: rule %q (by output %v), a block %v; want %q", c.command, id, by, ok, c.rule)
			continue
		}
		if !ok {
			continue
		}
		if !bytes.Contains(block, []byte("\nrule: "+c.rule+"\n")) || !bytes.Contains(block, []byte("\nrecognized_by: output\n")) {
			t.Errorf("%q: block:\n%s", c.command, block)
		}
		if c.cut != "" && !bytes.Contains(block, []byte("\n"+c.cut+"\n")) {
			t.Errorf("%q: no %q line:\n%s", c.command, c.cut, block)
		}
	}
}

func TestPassThrough(t *testing.T) {
	for _, o := range []Output{
		{Command: "whoami", Stdout: bytes.Repeat([]byte("x\n"), 10000)},
		{Command: "git status && git diff", Stdout: bytes.Repeat([]byte("x\n"), 10000)},
		{Command: "git status", Stdout: []byte("On branch main\nnothing to commit, working tree clean\n")},
	} {
		if b, ok := Block(o); ok {
			t.Errorf("%q: a block for output to show as it is:\n%s", o.Command, b)
		}
	}
}

// FuzzBlock: whatever the output, a block is never bigger than 80% of it,
// comes only for a recognized command, and is the same every time.
func FuzzBlock(f *testing.F) {
	for _, c := range loadCorpus(f) {
		if len(c.out.Stdout)+len(c.out.Stderr) < 64<<10 {
			f.Add(c.out.Command, c.out.Stdout, c.out.Stderr, c.out.ExitCode)
		}
	}
	f.Fuzz(func(t *testing.T, cmd string, stdout, stderr []byte, code int) {
		o := Output{Command: cmd, Stdout: stdout, Stderr: stderr, ExitCode: code}
		block, ok := Block(o)
		if !ok {
			return
		}
		if int64(len(block))*5 > int64(len(stdout)+len(stderr))*4 {
			t.Fatalf("block of %d bytes for %d raw", len(block), len(stdout)+len(stderr))
		}
		if again, _ := Block(o); !bytes.Equal(again, block) {
			t.Fatal("not deterministic")
		}
	})
}

// TestShape: the output of a command no rule recognizes passes unchanged
// up to the limit and is cut by shape past it, the same cut the relay
// makes of a command that wrote it at once; a recognized command's output
// is left to Block.
func TestShape(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "test_%04d ... ok\n", i)
		if i == 1234 {
			b.WriteString("AssertionError: 'item-1234' != 'item_1234'\n")
		}
	}
	out := []byte(b.String())
	o := Output{Command: "./runtests.sh -v", Stdout: out, RawOutput: "shrinkrun show 1a2b"}
	stdout, stderr, cut := Shape(o)
	if !cut || len(stdout)+len(stderr) > summarize.DefaultBudget {
		t.Fatalf("cut %v, %d bytes", cut, len(stdout)+len(stderr))
	}
	for _, want := range []string{"AssertionError: 'item-1234' != 'item_1234'\n", "similar lines", "full output: shrinkrun show 1a2b]\n"} {
		if !bytes.Contains(stdout, []byte(want)) {
			t.Errorf("no %q in the cut:\n%s", want, stdout)
		}
	}
	// The relay's cutter, fed the same bytes in a pipe's reads, gives the
	// same cut.
	ct := shape.New(shape.Options{Limit: shape.DefaultLimit, Budget: summarize.DefaultBudget, Argv: []string{"runtests.sh", "-v"}})
	var relayed []byte
	for p := out; len(p) > 0; p = p[min(len(p), 4096):] {
		for _, ch := range ct.Write(shape.Stdout, p[:min(len(p), 4096)]) {
			relayed = append(relayed, ch.Data...)
		}
	}
	for _, ch := range ct.Close(o.RawOutput, nil) {
		relayed = append(relayed, ch.Data...)
	}
	if !bytes.Equal(relayed, stdout) {
		t.Errorf("the relay's cut differs from compress's:\n%s", relayed)
	}

	for _, o := range []Output{
		{Command: "./runtests.sh -v", Stdout: out, Limit: len(out)},
		{Command: "./runtests.sh -v", Stdout: out[:1000]},
		{Command: "git log --oneline", Stdout: out},
	} {
		if stdout, stderr, cut := Shape(o); cut || !bytes.Equal(stdout, o.Stdout) || len(stderr) != 0 {
			t.Errorf("%q, %d bytes, limit %d: changed", o.Command, len(o.Stdout), o.Limit)
		}
	}
}

// TestShapeCorpus: compress cuts the shape corpus's one-stream cases as
// their golden files say (package shape's, for Claude Code's limit and the
// budget a cut past it gets).
func TestShapeCorpus(t *testing.T) {
	metas, err := filepath.Glob("../shape/testdata/corpus/*.meta")
	if err != nil || len(metas) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	n, limit := 0, clients.Limit(clients.Claude)
	for _, m := range metas {
		base := strings.TrimSuffix(m, ".meta")
		meta, _ := os.ReadFile(m)
		first, _, _ := strings.Cut(string(meta), "\n")
		stdout, err1 := os.ReadFile(base + ".stdout")
		stderr, err2 := os.ReadFile(base + ".stderr")
		if err1 != nil || err2 != nil || len(stdout) > 0 && len(stderr) > 0 {
			continue // gzipped, or two streams the golden file interleaves
		}
		golden, err := os.ReadFile(base + ".claude.golden")
		if err != nil {
			t.Fatal(err)
		}
		o := Output{Command: strings.TrimPrefix(first, "command: "), Stdout: stdout, Stderr: stderr,
			RawOutput: "shrinkrun show " + filepath.Base(base), Limit: limit, Budget: min(clients.BlockBudget(clients.Claude, int64(limit)+1), limit)}
		gotOut, gotErr, _ := Shape(o)
		got := append(gotOut, gotErr...)
		if len(stdout) == 0 {
			got = append(gotErr, gotOut...) // the closing marker, and a block, on stdout last
		}
		if id, byOutput := Rule(o); byOutput {
			// A rule recognizes the output by its signature: its block takes
			// the place of the middle and tail package shape's golden file
			// shows, after the same head.
			head, _, _ := bytes.Cut(got, []byte("\n[shrinkrun: "))
			if len(head) == 0 || !bytes.HasPrefix(golden, head) || !bytes.Contains(got, []byte("\nrule: "+id+"\n")) || !bytes.Contains(got, []byte("\nrecognized_by: output\n")) {
				t.Errorf("%s: the cut has not the golden file's head and %s's block:\n%s", filepath.Base(base), id, got)
			}
			n++
			continue
		}
		if !bytes.Equal(got, golden) {
			t.Errorf("%s: compress's cut differs from %s.claude.golden", filepath.Base(base), base)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no one-stream case")
	}
}
