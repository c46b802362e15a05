package shape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The outline's oracle is each language's own parser: Python's ast,
// go/parser, and ctags for JavaScript, TypeScript, Rust and C. Every
// definition it finds in a file the corpus views must be in the cut: in
// the head or the tail, listed in the outline with its line number, or
// counted by "N more definitions not shown".

// parserDefinitions returns the line of every definition the language's
// own parser finds in src, named name; ok is false when the parser is not
// installed.
func parserDefinitions(t *testing.T, name string, src []byte) (lines map[int]string, ok bool) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	lines = map[int]string{}
	switch filepath.Ext(name) {
	case ".py":
		const script = `import ast, json, sys
tree = ast.parse(open(sys.argv[1]).read())
print(json.dumps([[n.lineno, n.name] for n in ast.walk(tree)
    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]))`
		out, err := exec.Command("python3", "-c", script, file).Output()
		if err != nil {
			return nil, false
		}
		var defs [][2]any
		if err := json.Unmarshal(out, &defs); err != nil {
			t.Fatal(err)
		}
		for _, d := range defs {
			lines[int(d[0].(float64))] = d[1].(string)
		}
	case ".go":
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch d := n.(type) {
			case *ast.FuncDecl:
				lines[fset.Position(d.Pos()).Line] = d.Name.Name
			case *ast.TypeSpec:
				lines[fset.Position(d.Pos()).Line] = d.Name.Name
			}
			return true
		})
	default:
		out, err := exec.Command("ctags", "-x", "--_xformat=%K %n %N", file).Output()
		if err != nil {
			return nil, false
		}
		kinds := map[string]map[string]bool{
			".js": {"class": true, "function": true, "method": true, "getter": true, "setter": true, "generator": true},
			".ts": {"class": true, "function": true, "interface": true, "enum": true, "alias": true},
			".rs": {"function": true, "method": true, "struct": true, "enum": true, "interface": true, "implementation": true, "module": true, "macro": true, "typedef": true},
			".c":  {"function": true, "struct": true, "union": true, "enum": true},
		}[filepath.Ext(name)]
		for l := range strings.Lines(string(out)) {
			f := strings.Fields(l)
			if len(f) >= 3 && kinds[f[0]] {
				n, _ := strconv.Atoi(f[1])
				lines[n] = f[2]
			}
		}
	}
	return lines, true
}

var (
	numberedRE = regexp.MustCompile(`^ *(\d+)\t`)
	entryRE    = regexp.MustCompile(`^(\d+):`)
	moreRE     = regexp.MustCompile(`^\[shrinkrun: (\d+) more definitions? not shown\]$`)
)

// shownLines reads a cut source view: the file's lines it shows (head,
// tail, outline entries), those the outline lists, and how many
// definitions it says it left out.
func shownLines(t *testing.T, o *outline, cut []byte, viewLines int) (shown, listed map[int]bool, more int) {
	t.Helper()
	shown, listed = map[int]bool{}, map[int]bool{}
	outs := splitKeep(cut)
	var head, tail []string
	inOutline, afterMarker := false, false
	for _, l := range outs {
		l = strings.TrimSuffix(l, "\n")
		switch {
		case l == markerPrefix+"what the omitted lines define, by line number:]":
			inOutline = true
		case moreRE.MatchString(l):
			more, _ = strconv.Atoi(moreRE.FindStringSubmatch(l)[1])
			inOutline = false
		case isMarker(l):
			afterMarker = true
			if !strings.Contains(l, "omitted]") {
				inOutline = false
			}
		case inOutline && (o.numbered && numberedRE.MatchString(l) || !o.numbered && entryRE.MatchString(l)):
			m := entryRE.FindStringSubmatch(l)
			if o.numbered {
				m = numberedRE.FindStringSubmatch(l)
			}
			n, _ := strconv.Atoi(m[1])
			shown[n], listed[n] = true, true
		case !afterMarker:
			head = append(head, l)
		default:
			inOutline = false
			tail = append(tail, l)
		}
	}
	number := func(l string, at int) int {
		if o.numbered {
			m := numberedRE.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("a numbered view's line %q has no number", l)
			}
			n, _ := strconv.Atoi(m[1])
			return n
		}
		return int(o.offset) + at
	}
	for i, l := range head {
		shown[number(l, i+1)] = true
	}
	for i, l := range tail {
		shown[number(l, viewLines-len(tail)+i+1)] = true
	}
	return shown, listed, more
}

// TestOutlineOracle holds the outline of every source view of the corpus
// to the language's parser, at each client's limit.
func TestOutlineOracle(t *testing.T) {
	cases := loadCorpus(t)
	files := map[string][]byte{} // each file's text, from its cat case
	for _, c := range cases {
		if len(c.argv) == 2 && c.argv[0] == "cat" {
			files[c.argv[1]] = c.stdout
		}
	}
	for _, c := range cases {
		if !c.viewsFile() {
			continue
		}
		o := newOutline(c.argv, 1)
		file := c.argv[len(c.argv)-1]
		src, ok := files[file]
		if !ok {
			t.Fatalf("%s: no cat case for %s", c.name, file)
		}
		defs, ok := parserDefinitions(t, file, src)
		if !ok {
			t.Logf("%s: no parser for %s installed; skipped", c.name, file)
			continue
		}
		// The lines the view prints, by their number in the file.
		first, last := int(o.offset)+1, int(o.offset)+bytes.Count(c.stdout, []byte{'\n'})
		if o.numbered {
			m := numberedRE.FindStringSubmatch(string(c.stdout))
			first, _ = strconv.Atoi(m[1])
			last = first + bytes.Count(c.stdout, []byte{'\n'}) - 1
		}
		for _, cl := range goldenClients {
			_, cut := joined(cutCase(c, cl.limit, cl.budget))
			shown, listed, more := shownLines(t, o, cut, bytes.Count(c.stdout, []byte{'\n'}))
			var missing []string
			for line, name := range defs {
				if line >= first && line <= last && !shown[line] {
					missing = append(missing, fmt.Sprintf("%d %s", line, name))
				}
			}
			if len(missing) > more {
				t.Errorf("%s/%s: %d definitions neither shown nor counted (%d counted): %v", c.name, cl.name, len(missing)-more, more, missing[:min(len(missing), 10)])
			}
			extra := 0
			for line := range listed {
				if _, ok := defs[line]; !ok {
					extra++
				}
			}
			t.Logf("%s/%s: %d definitions in the file; the outline lists %d, of which %d the parser does not report; %d left out and counted",
				c.name, cl.name, len(defs), len(listed), extra, more)
		}
	}
}

func TestDefinition(t *testing.T) {
	for _, c := range []struct {
		l     lang
		line  string
		depth int
		want  bool
	}{
		{langPython, "class Store:", 0, true},
		{langPython, "    async def get(self, key):", 1, true},
		{langPython, "    define = 1", 1, false},
		{langGo, "func (s *Store) Get(k Key) int {", 0, true},
		{langGo, "\tPair struct {", 1, true},
		{langGo, "\tfunc() {}", 0, false},
		{langJS, "export default async function load() {", 0, true},
		{langJS, "  async fetchAll(): Promise<void> {", 1, true},
		{langJS, "  if (x) {", 1, false},
		{langJS, "export const sum = (items) => {", 0, true},
		{langJS, "const LIMIT = 1000;", 0, false},
		{langRust, "pub(crate) async fn run(", 0, true},
		{langRust, "impl<T> Store for Engine<T> {", 0, true},
		{langRust, "mod tests;", 0, false},
		{langC, "static long", 0, false},
		{langC, "buf_load(struct buf *b, const char *key)", 0, true},
		{langC, "enum mode { MODE_FAST, MODE_SAFE };", 0, true},
		{langC, "struct pair;", 0, false},
		{langC, "int count_pairs(const struct pair *ps, size_t n);", 0, false},
		{langJava, "    public static void main(String[] args) {", 1, true},
		{langJava, "    return compute(x);", 1, false},
	} {
		depth, ok := definition(c.l, []byte(c.line))
		if ok != c.want || ok && depth != c.depth {
			t.Errorf("definition(%d, %q) = %d, %v; want %d, %v", c.l, c.line, depth, ok, c.depth, c.want)
		}
	}
}

// TestOutlinePiped: a file viewed through a filter has an outline only
// when its lines carry their numbers (nl, cat -n).
func TestOutlinePiped(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "def f%d():\n    return %d\n", i, i)
	}
	src := b.String()
	for _, tc := range []struct {
		o    Options
		want bool
	}{
		{Options{Limit: 3000, Budget: 2000, Argv: []string{"cat", "m.py"}}, true},
		{Options{Limit: 3000, Budget: 2000, Argv: []string{"cat", "m.py"}, Piped: true}, false},
	} {
		c := New(tc.o)
		_, out := joined(append(c.Write(Stdout, []byte(src)), c.Close("", nil)...))
		if got := strings.Contains(string(out), "what the omitted lines define"); got != tc.want {
			t.Errorf("%+v: outline %v, want %v", tc.o, got, tc.want)
		}
	}
}
