package rules_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/compress"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/declare"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// patternPool is what FuzzDeclared builds rules from: patterns that match
// the failure lines the families' finders require, some lines, every line,
// blank lines, and words of the fuzzed output.
var patternPool = []string{`^error`, `error`, `FAIL`, `.`, `^$`, `^\s+`, `\d+`, `^warning:`, `x`, `^[a-z]+$`, `passed`, `-->`, `panicked`, `^E: `}

// spec is a rule declaration FuzzDeclared made, kept to check the block
// against it apart from package declare's code.
type spec struct {
	toml    string
	entries []specEntry
	other   *specEntry
}

type specEntry struct {
	name, keep string
	re         *regexp.Regexp
	max        int
	last       bool
	unique     bool
	tally      string
}

// makeSpec turns fuzzed bytes into a rule file: entries of every kind with
// caps, sides and tallies, an [other], and failure patterns, from the pool
// and from words of out.
func makeSpec(b []byte, out []byte) spec {
	next := func() int {
		if len(b) == 0 {
			return 0
		}
		c := int(b[0])
		b = b[1:]
		return c
	}
	words := regexp.MustCompile(`[A-Za-z0-9]{2,8}`).FindAllString(string(out), 8)
	pattern := func() string {
		n := next()
		if n%4 == 3 && len(words) > 0 {
			return regexp.QuoteMeta(words[n%len(words)])
		}
		return patternPool[n%len(patternPool)]
	}
	var s spec
	var t strings.Builder
	if n := next() % 4; n > 0 {
		var fs []string
		for range n {
			fs = append(fs, "'"+pattern()+"'")
		}
		fmt.Fprintf(&t, "failures = [%s]\n", strings.Join(fs, ", "))
	}
	t.WriteString("[match]\ncommand = [\"fuzztool\"]\n")
	kinds := []string{"list", "count", "field", "drop"}
	for i := range 1 + next()%6 {
		e := specEntry{name: fmt.Sprintf("e%d", i), keep: kinds[next()%4]}
		p := pattern()
		e.re = regexp.MustCompile(p)
		fmt.Fprintf(&t, "[[lines]]\nname = %q\nmatch = '%s'\nkeep = %q\n", e.name, p, e.keep)
		flags := next()
		if e.keep == "list" {
			e.max = 1 + next()%5
			e.last, e.unique = flags&1 != 0, flags&2 != 0
			fmt.Fprintf(&t, "max = %d\nunique = %v\n", e.max, e.unique)
			if flags&4 != 0 {
				e.tally = e.name + "_lines"
				fmt.Fprintf(&t, "tally = %q\n", e.tally)
			}
		}
		if e.keep == "field" {
			e.last = flags&1 == 0
		}
		if e.keep == "list" || e.keep == "field" {
			fmt.Fprintf(&t, "at = %q\n", map[bool]string{true: "last", false: "first"}[e.last])
		}
		s.entries = append(s.entries, e)
	}
	if n := next() % 4; n > 0 {
		o := specEntry{name: "other", keep: kinds[n-1], max: 3}
		if o.keep == "field" {
			o.keep = "drop"
		}
		fmt.Fprintf(&t, "[other]\nname = \"other\"\nkeep = %q\n", o.keep)
		if o.keep == "list" {
			t.WriteString("max = 3\n")
		}
		s.other = &o
	}
	s.toml = t.String()
	return s
}

// FuzzDeclared holds a random rule file to the contract on random output:
// whatever the rule declares, its block is the same bytes twice, shows or
// counts every failure that every family's finder and the rule's own
// patterns find, states no count the output contradicts (each count,
// tally, list and _omitted line is checked against the lines, matched here
// by the declared patterns apart from package declare), copies every list
// item and field from the output, and is never printed bigger than the raw
// output; and the rule's matcher, on words of the fuzzed stderr, points at a
// word of argv.
func FuzzDeclared(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, []byte("error: one\nwarning: two\n  --> src/a.rs:1:2\nerror: one\nok\n\n"), []byte("FAIL x\n"), 1)
	f.Add([]byte{3, 0, 3, 1, 2, 0, 3, 3, 4, 1, 0, 2, 2, 1}, []byte("test a ... FAILED\npanicked at src/lib.rs:3:4:\n"), []byte{}, 101)
	f.Add([]byte{2, 4, 7, 3, 0, 1, 5, 2, 6, 9}, []byte(strings.Repeat("Setting up x (1.0) ...\n", 300)+"E: Sub-process returned an error code (1)\n"), []byte("dpkg: error processing package x\n"), 100)
	f.Add([]byte{0, 5, 1, 0, 0, 9}, []byte("\x00\xff\r\n\x1b[31merror\x1b[0m\r50%\r100%\n"), []byte("fatal: \xff"), 128)
	f.Cleanup(func() { rules.Declare(nil) })
	f.Fuzz(func(t *testing.T, specBytes, stdout, stderr []byte, exit int) {
		s := makeSpec(specBytes, stdout)
		rule, err := declare.Parse("fuzz.toml", "fuzz.toml", []byte(s.toml))
		if err != nil {
			t.Fatalf("the generated rule does not load: %v\n%s", err, s.toml)
		}
		argv := append([]string{"fuzztool"}, strings.Fields(string(stderr))...)
		if a := rule.Match(argv); a.At < 0 || a.At >= len(argv) {
			t.Fatalf("Match(%q) points at word %d: %+v", argv, a.At, a)
		}
		rules.Declare([]*declare.Rule{rule})
		defer rules.Declare(nil)
		r := &summarize.Run{
			Rule: "bash.fuzz", Command: "fuzztool", Argv: []string{"fuzztool"},
			Stdout: stdout, Stderr: stderr, StdoutBytes: int64(len(stdout)), StderrBytes: int64(len(stderr)),
			ExitCode: exit, Exited: true, Budget: 1024 + len(specBytes)%4*1024,
		}
		block, ok := rules.Block(r)
		if !ok {
			t.Fatalf("no block\n%s", s.toml)
		}
		if again, _ := rules.Block(r); !bytes.Equal(block, again) {
			t.Fatal("not deterministic")
		}
		if missing := ruletest.Unshown(r, block, append(rules.Finders(), rule)); missing > 0 {
			t.Fatalf("%d failures not shown\n%s\n%s", missing, s.toml, block)
		}
		p, err := ruletest.Parse(block)
		if err != nil {
			t.Fatalf("%v\n%s", err, block)
		}
		if p.Scalars["fallback"] != "true" {
			checkCounts(t, s, r, p, block)
		}
		out, ok := compress.Block(compress.Output{Command: "fuzztool", Stdout: stdout, Stderr: stderr, ExitCode: exit})
		if ok && len(out) > len(stdout)+len(stderr) {
			t.Fatalf("a block of %d bytes for %d raw bytes", len(out), len(stdout)+len(stderr))
		}
	})
}

// checkCounts checks every field of a rule's body against the output,
// read as the block reads it: each line, stdout's then stderr's, taken by
// the first entry whose pattern matches it.
func checkCounts(t *testing.T, s spec, r *summarize.Run, p ruletest.Parsed, block []byte) {
	entries := s.entries
	if s.other != nil {
		entries = append(entries, *s.other)
	}
	type taken struct {
		n     int
		lines []string // not blank, each once for a unique list
		seen  map[string]bool
	}
	got := make([]taken, len(entries))
	var all []string
	for _, stream := range [][]byte{r.Stdout, r.Stderr} {
		all = append(all, summarize.Lines(summarize.Readable(stream))...)
	}
	for _, l := range all {
		i := len(s.entries)
		for j, e := range s.entries {
			if e.re.MatchString(l) {
				i = j
				break
			}
		}
		if i == len(s.entries) && s.other == nil {
			continue
		}
		g := &got[i]
		g.n++
		if strings.TrimSpace(l) == "" || (entries[i].unique && g.seen[l]) {
			continue
		}
		if g.seen == nil {
			g.seen = map[string]bool{}
		}
		g.seen[l] = true
		g.lines = append(g.lines, l)
	}
	for i, e := range entries {
		g := got[i]
		switch e.keep {
		case "count":
			if n, ok := p.Int(e.name); !ok || n != g.n {
				t.Fatalf("%s: the block says %q, the output has %d lines it takes\n%s\n%s", e.name, p.Scalars[e.name], g.n, s.toml, block)
			}
		case "field":
			want := ""
			if len(g.lines) > 0 {
				want = g.lines[0]
				if e.last {
					want = g.lines[len(g.lines)-1]
				}
			}
			if v := p.Scalars[e.name]; v != strings.TrimSpace(summarize.Clean(want)) {
				t.Fatalf("%s: the block says %q, the output's line is %q\n%s", e.name, v, want, block)
			}
		case "list":
			items := p.Lists[e.name]
			omitted, _ := p.Int(e.name + "_omitted")
			if len(items)+omitted != len(g.lines) || len(items) > e.max {
				t.Fatalf("%s: %d items and %d omitted, the output has %d lines it takes (max %d)\n%s\n%s", e.name, len(items), omitted, len(g.lines), e.max, s.toml, block)
			}
			if e.tally != "" {
				if n, ok := p.Int(e.tally); !ok || n != len(g.lines) {
					t.Fatalf("%s: the block says %q, the list takes %d lines\n%s", e.tally, p.Scalars[e.tally], len(g.lines), block)
				}
			}
			for _, it := range items {
				if !containsLine(g.lines, it) {
					t.Fatalf("%s: item %q is no line the entry takes\n%s", e.name, it, block)
				}
			}
		case "drop":
			if _, ok := p.Scalars[e.name]; ok || p.Lists[e.name] != nil {
				t.Fatalf("%s: a dropped entry shows in the block\n%s", e.name, block)
			}
		}
	}
}

// containsLine reports whether item is one of lines as the block shows a
// line.
func containsLine(lines []string, item string) bool {
	for _, l := range lines {
		if summarize.Clean(l) == item {
			return true
		}
	}
	return false
}

// TestOverride: a rule file with a built-in rule's id replaces it; one
// with another id is asked first, and a command it does not claim goes on
// to the table.
func TestOverride(t *testing.T) {
	t.Cleanup(func() { rules.Declare(nil) })
	mine, err := declare.Parse("git_status.toml", "user/git_status.toml", []byte("[match]\ncommand = [\"git\"]\nsubcommand = [\"status\", \"frobnicate\"]\n[other]\nname = \"lines\"\nkeep = \"count\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	logs, err := declare.Parse("my_log.toml", "user/my_log.toml", []byte("[match]\ncommand = [\"git\"]\nsubcommand = [\"log\"]\nrefuse = [\"--graph\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	rules.Declare([]*declare.Rule{mine, logs})
	for _, c := range []struct{ cmd, rule string }{
		{"git status", "bash.git_status"},
		{"git frobnicate", "bash.git_status"}, // the replacement's own reach
		{"git log --oneline", "bash.my_log"},  // asked before bash.git_log
		{"git log --graph", ""},               // refused by it: nobody else is asked
		{"git diff", "bash.git_diff"},         // not its command: the table's
	} {
		if got := rules.String(c.cmd); got.Rule != c.rule {
			t.Errorf("%s: %q (%s), want %q", c.cmd, got.Rule, got.Explain(), c.rule)
		}
	}
	r, _ := rules.Lookup("bash.git_status")
	if r.Source != "user/git_status.toml" {
		t.Errorf("Lookup(bash.git_status) is %q, want the user's file", r.Source)
	}
	run := &summarize.Run{Rule: "bash.git_status", Command: "git status", Stdout: []byte("On branch main\nnothing to commit\n"), Exited: true}
	if b, _ := rules.Block(run); !bytes.Contains(b, []byte("\nlines: 2\n")) {
		t.Errorf("git status's block is not the user's rule's:\n%s", b)
	}
	rules.Declare(nil)
	if got := rules.String("git frobnicate"); got.Rule != "" {
		t.Errorf("after Declare(nil), git frobnicate is %q", got.Rule)
	}
}

// TestDeclaredCreditsNoOtherList: a rule file cannot hide a failure line
// in a count (or drop it) and have the _omitted count of another list, of
// lines that are not failures, stand for it. Seen before the fix: the
// block showed "noise_omitted: 199" and "passed: 2", and neither the
// --- FAIL: line nor the rustc error.
func TestDeclaredCreditsNoOtherList(t *testing.T) {
	t.Cleanup(func() { rules.Declare(nil) })
	rule, err := declare.Parse("mytool.toml", "user/mytool.toml", []byte(`[match]
command = ["mytool"]
[[lines]]
name = "noise"
match = "^ok"
max = 1
[[lines]]
name = "passed"
match = "."
keep = "count"
`))
	if err != nil {
		t.Fatal(err)
	}
	rules.Declare([]*declare.Rule{rule})
	out := strings.Repeat("ok test passed with a line long enough to be worth cutting\n", 200) +
		"--- FAIL: TestImportant (0.00s)\n" +
		"error[E0425]: cannot find value `x` in this scope\n"
	r := &summarize.Run{Rule: "bash.mytool", Command: "mytool", Argv: []string{"mytool"},
		Stdout: []byte(out), StdoutBytes: int64(len(out)), ExitCode: 1, Exited: true}
	block, ok := rules.Block(r)
	if !ok {
		t.Fatal("no block")
	}
	for _, want := range []string{"TestImportant", "E0425"} {
		if !bytes.Contains(block, []byte(want)) {
			t.Errorf("the block hides %s:\n%s", want, block)
		}
	}
}
