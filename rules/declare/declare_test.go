package declare

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

const minimal = "[match]\ncommand = [\"tool\"]\n"

// TestParseErrors: a file that is not a rule says where and why, and
// loads nothing; a pattern that does not compile is found by Check (and
// by Match, which then passes the rule's commands through).
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"Tool.toml", minimal, "NAME.toml, NAME in lowercase"},
		{"tool.yaml", minimal, "NAME.toml"},
		{"tool.toml", "", "command is required"},
		{"tool.toml", "[match]\ncommand = [\"/usr/bin/tool\"]\n", "without a path"},
		{"tool.toml", minimal + "colour = 1\n", "unknown key match.colour"},
		{"tool.toml", minimal + "failures = ['x']\n", "belongs before the first [table]"},
		{"tool.toml", "[match\n", "tool.toml:2:7: expected"},
		{"tool.toml", minimal + "[[lines]]\nname = \"exit_code\"\nmatch = 'x'\n", "one shrinkrun writes itself"},
		{"tool.toml", minimal + "[[lines]]\nname = \"errors_omitted\"\nmatch = 'x'\n", "one shrinkrun writes itself"},
		{"tool.toml", minimal + "[[lines]]\nname = \"Errors\"\nmatch = 'x'\n", "lowercase letters"},
		{"tool.toml", minimal + "[[lines]]\nname = \"a\"\nmatch = 'x'\n[[lines]]\nname = \"a\"\nmatch = 'y'\n", "two fields have it"},
		{"tool.toml", minimal + "[[lines]]\nname = \"a\"\nmatch = '(x'\n", "missing closing )"},
		{"tool.toml", minimal + "[[lines]]\nname = \"a\"\nmatch = '(?=x)'\n", "invalid or unsupported Perl syntax"},
		{"tool.toml", minimal + "[[lines]]\nname = \"a\"\n", "match is required"},
		{"tool.toml", minimal + "[[lines]]\nname = \"a\"\nmatch = 'x'\nkeep = \"keep\"\n", "list, count, field or drop"},
		{"tool.toml", minimal + "[[lines]]\nname = \"a\"\nmatch = 'x'\nmax = 5000\n", "from 1 to 1000"},
		{"tool.toml", minimal + "[[lines]]\nname = \"a\"\nmatch = 'x'\nkeep = \"count\"\nmax = 5\n", "for a list"},
		{"tool.toml", minimal + "[other]\nname = \"a\"\nmatch = 'x'\n", "it has no match"},
		{"tool.toml", "[match]\ncommand = [\"tool\"]\nrefuse = [\"json\"]\n", "an option"},
		{"tool.toml", "[match]\ncommand = [\"tool\"]\nsubcommand = [\"--x\"]\n", "none an option"},
		{"tool.toml", minimal + strings.Repeat("[[lines]]\nname = \"a\"\nmatch = 'x'\n", 40), "at most 32"},
		{"tool.toml", minimal + "[[lines]]\nname = \"a\"\nmatch = '" + strings.Repeat("x", 2000) + "'\n", "at most 1024"},
		{"tool.toml", strings.Repeat("# padding\n", 8000), "a rule file holds at most"},
		// The review's pattern: 5 s on 400 KB of 10 KB lines before.
		{"tool.toml", minimal + "[[lines]]\nname = \"a\"\nmatch = '[a-z]{1000}Q'\n", "compiles to 1003 instructions: at most 500"},
		{"tool.toml", "failures = ['x{600}']\n" + minimal, "failures 1: pattern \"x{600}\": compiles to 602 instructions"},
	} {
		r, err := Parse(c.name, "dir/"+c.name, []byte(c.src))
		if err == nil {
			err = r.Check()
			if a := r.Match([]string{"tool"}); a.Accepted || !strings.Contains(a.Reason, c.want) {
				t.Errorf("Match with %q: %+v", c.src, a)
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s, %q) = %v, want an error with %q", c.name, c.src, err, c.want)
		}
	}
}

func mustParse(t *testing.T, src string) *Rule {
	t.Helper()
	r, err := Parse("tool.toml", "tool.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMatch: the subcommand decides whether the command is the rule's;
// then help, refused options and options outside accept pass through.
func TestMatch(t *testing.T) {
	r := mustParse(t, `[match]
command = ["tool"]
subcommand = ["build", "image build"]
accept = ["-v", "-q", "-j VALUE", "--out", "-D*", "--config FILE"]
refuse = ["--json", "-s"]
`)
	for _, c := range []struct {
		argv         string
		accepted     bool
		mine         bool
		at           int
		reasonPrefix string
	}{
		{"tool build", true, true, 0, ""},
		{"tool image build x", true, true, 0, ""},
		{"tool --config c.toml build", true, true, 0, ""},
		{"tool -j 4 build -v", true, true, 0, ""},
		{"tool build -qv -j4 -DskipTests --out=dist -- --json", true, true, 0, ""},
		{"tool test", false, false, 1, "not a recognized command"},
		{"tool", false, false, 0, "not a recognized command"},
		{"tool image push", false, false, 1, "not a recognized command"},
		{"tool build --json", false, true, 2, "--json makes rule bash.tool pass through"},
		{"tool build --json=pretty", false, true, 2, "--json makes"},
		{"tool build -vs", false, true, 2, "-s makes"},
		{"tool build --help", false, true, 2, "help or version"},
		{"tool build -x", false, true, 2, "option -x is not one rule bash.tool reads"},
		{"tool build -vx", false, true, 2, "option -vx is not one"},
	} {
		a := r.Match(strings.Fields(c.argv))
		if a.Accepted != c.accepted || a.Mine != c.mine || a.At != c.at || !strings.HasPrefix(a.Reason, c.reasonPrefix) {
			t.Errorf("Match(%q) = %+v, want accepted %v mine %v at %d %q", c.argv, a, c.accepted, c.mine, c.at, c.reasonPrefix)
		}
	}
	// Without accept, every option refuse does not name is read.
	open := mustParse(t, "[match]\ncommand = [\"tool\"]\nrefuse = [\"--json\"]\n")
	if a := open.Match([]string{"tool", "--anything", "-xyz"}); !a.Accepted {
		t.Errorf("open rule: %+v", a)
	}
	// accept = [] reads no option at all.
	none := mustParse(t, "[match]\ncommand = [\"tool\"]\naccept = []\n")
	if a := none.Match([]string{"tool", "-v"}); a.Accepted {
		t.Errorf("accept = []: %+v", a)
	}
}

// TestSummarize: each line goes to the first entry that matches it; lists
// are capped with exact _omitted counts, first or last, distinct or not;
// counts are tallies; fields copy a line; blank lines go to no list.
func TestSummarize(t *testing.T) {
	r := mustParse(t, `failures = ['^error']
[match]
command = ["tool"]
[[lines]]
name = "errors"
match = '^error'
max = 2
tally = "error_lines"
[[lines]]
name = "warnings"
match = '^warning'
max = 2
at = "last"
unique = true
[[lines]]
name = "status"
match = '^status'
keep = "field"
[[lines]]
name = "noise"
match = '^noise'
keep = "drop"
[[lines]]
name = "progress"
match = '^\d+%'
keep = "count"
[other]
name = "rest"
max = 1
`)
	out := "error one\nwarning a\nwarning a\nwarning b\nwarning c\n10%\n20%\nnoise\nstatus early\n\n   \nerror two\nerror three\nstatus final\nsomething\nelse\n"
	run := &summarize.Run{Rule: "bash.tool", Stdout: []byte(out), StdoutBytes: int64(len(out)), Exited: true}
	got := string(r.Summarize(run).Render())
	want := `error_lines: 3
errors:
- error one
- error two
errors_omitted: 1
warnings:
- warning b
- warning c
warnings_omitted: 1
status: status final
progress: 2
rest:
- something
rest_omitted: 1
`
	if got != want {
		t.Errorf("body:\n%s\nwant:\n%s", got, want)
	}
	var req []string
	r.Find(run, []summarize.Stream{{Lines: summarize.Lines(run.Stdout), Report: recorder(func(s string) { req = append(req, s) })}})
	if strings.Join(req, "|") != "error one|error two|error three" {
		t.Errorf("failures required: %q", req)
	}
}

// recorder is a summarize.Report that hands each requirement to a func.
type recorder func(string)

func (f recorder) Require(req, _ string, _ int) { f(req) }
func (recorder) Take(string, int)               {}
func (recorder) View([]string) int              { return 0 }

// TestEnv: a translated rule passes through in a locale that translates.
func TestEnv(t *testing.T) {
	r := mustParse(t, "translated = true\n"+minimal)
	env := map[string]string{"LANG": "de_DE.UTF-8"}
	if why := r.Env(nil, func(k string) string { return env[k] }); !strings.Contains(why, "LANG=de_DE.UTF-8") {
		t.Errorf("Env in German: %q", why)
	}
	env["LC_ALL"] = "C"
	if why := r.Env(nil, func(k string) string { return env[k] }); why != "" {
		t.Errorf("Env in C: %q", why)
	}
}

// BenchmarkParse measures reading a rule file of typical size (the
// shipped apt-get rule: a dozen patterns), which every command whose
// user or project has one pays.
func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile("../shipped/testdata/apt_get_install.toml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Parse("apt_get_install.toml", "x", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMaxWork: a rule whose patterns take more than MaxWork steps to
// match against the output gives up, a pass at a time, and the core
// prints the raw output, as for a rule that fails; the steps are counted,
// so the same output always gives up at the same line. The budget is
// lowered here so that the hostile pattern spends it in milliseconds.
func TestMaxWork(t *testing.T) {
	defer func(w int64) { maxWork = w }(maxWork)
	maxWork = 1 << 22
	line := strings.Repeat("a", 10000) + "\n"
	out := []byte(strings.Repeat(line, 20)) // 200 KB, 400 threads alive at each byte: 80M steps
	run := func() *summarize.Run {
		return &summarize.Run{Rule: "bash.tool", Stdout: out, StdoutBytes: int64(len(out)), Exited: true}
	}
	hostile := mustParse(t, "failures = ['[a-z]{400}Q']\n"+minimal+"[[lines]]\nname = \"hits\"\nmatch = '[a-z]{400}Q'\nkeep = \"count\"\n")
	if hostile.Check() != nil {
		t.Fatal(hostile.Check())
	}
	gaveUp := func(f func()) (err any) {
		defer func() { err = recover() }()
		f()
		return nil
	}
	if err := gaveUp(func() { hostile.Summarize(run()) }); err != errWork {
		t.Errorf("Summarize past MaxWork: %v, want %v", err, errWork)
	}
	streams := []summarize.Stream{{Lines: strings.Split(string(out), "\n")}}
	if err := gaveUp(func() { hostile.Find(run(), streams) }); err != errWork {
		t.Errorf("Find past MaxWork: %v, want %v", err, errWork)
	}
	if _, ok := summarize.BlockShown(run(), hostile.Summarize, []summarize.Finder{hostile}); ok {
		t.Error("a rule past MaxWork made a block: the raw output must print")
	}
	// Patterns whose threads die at once, on the same output: one the
	// lines cannot start, one whose literal they lack, one of other
	// letters.
	for _, p := range []string{`^\[INFO\] (BUILD|Total)`, `returned a non-zero code`, `[b-z]{400}Q`} {
		r := mustParse(t, minimal+"[[lines]]\nname = \"hits\"\nmatch = '"+p+"'\nkeep = \"count\"\n")
		if _, ok := summarize.BlockShown(run(), r.Summarize, []summarize.Finder{r}); !ok {
			t.Errorf("%s gave up on 200 KB", p)
		}
	}
}

// TestNFA holds the counting NFA to Go's regexp: the same answer on every
// line, for the forms the format is written with; and its steps to what
// the threads alive make them.
func TestNFA(t *testing.T) {
	patterns := []string{`[a-z]{3}Q`, `^\[INFO\] (BUILD|Total)`, `upgradable (from|to): `, `^(E: |dpkg: error|Errors were)`,
		`\bfoo\b`, `(?i)warn(ing)?:`, `^$`, `x*`, `a$`, `^\s+at `, `(a|b)*c`, `\B.`, `é+`, `[^a]`, `(?m)^b`, `\Aa`, `a\z`,
		`: (Pulling fs layer|Waiting)|^ ---> |^#\d+ (DONE|CACHED)`, `^\S+/\S+ `, `(?s).`, `\d{2,4}-\d+`, `^(a|ab)(c|bcd)(d*)$`}
	pieces := []string{"a", "b", "c", "d", "Q", " ", "[INFO] ", "BUILD", "foo", "é", "\xff", ": ", "Waiting", "E: ", "warn:", "WARNING:", "\t", "at ", "#12 ", "DONE", "x", "/", "2026-", "\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for _, src := range patterns {
		p, err := compilePattern(src)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(src)
		for range 2000 {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			l := b.String()
			if got, want := (&work{}).match(p, l), re.MatchString(l); got != want {
				t.Fatalf("%s on %q: %v, regexp says %v", src, l, got, want)
			}
		}
	}
	// A thread per instruction of [a-z]{k} alive at each letter, each added
	// and stepped: up to 2k steps a byte; none past the literal a line
	// lacks.
	for _, k := range []int{10, 100} {
		p, _ := compilePattern(fmt.Sprintf("[a-z]{%d}Q", k))
		w := &work{}
		w.match(p, strings.Repeat("a", 1000))
		if per := w.spent / 1000; per < int64(k) || per > 2*int64(k)+4 {
			t.Errorf("[a-z]{%d}Q: %d steps a byte", k, per)
		}
	}
	p, _ := compilePattern(`returned a non-zero code`)
	w := &work{}
	if w.match(p, strings.Repeat("a", 1000)) || w.spent != 0 {
		t.Errorf("a line without the prefix: %d steps", w.spent)
	}
}

// FuzzNFA: on any pattern and line, the counting NFA answers as Go's
// regexp does.
func FuzzNFA(f *testing.F) {
	f.Add(`^\[INFO\] (BUILD|Total)`, "[INFO] BUILD SUCCESS")
	f.Add(`(?i)\bwarn(ing)?:\B`, "x WARNING: y")
	f.Add(`a$|^b|\Ac\z`, "c")
	f.Add(`é+[^a-z]*\d{2,}`, "\xffé9 12")
	f.Fuzz(func(t *testing.T, src, line string) {
		re, err := regexp.Compile(src)
		if err != nil {
			return
		}
		p, err := compilePattern(src)
		if err != nil {
			if !strings.Contains(err.Error(), "instructions: at most") {
				t.Fatalf("%q compiles for regexp, not here: %v", src, err)
			}
			return
		}
		if got, want := (&work{}).match(p, line), re.MatchString(line); got != want {
			t.Fatalf("%q on %q: %v, regexp says %v", src, line, got, want)
		}
	})
}
