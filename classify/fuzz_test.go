package classify_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzClassify checks every recognized command against two oracles: the
// syntax tree has only the shapes docs/classify.md allows, and bash itself
// splits and expands the words into the same argv, in a directory of files
// for globs to match, with a HOME and nproc (skipped under -short or
// without bash). Each input is classified twice: as String does, knowing
// nothing of the world, and in that directory.
func FuzzClassify(f *testing.F) {
	for _, c := range stringCases {
		f.Add(c.in)
	}
	for _, c := range worldCases {
		f.Add(c.in)
	}
	for _, c := range filterCases {
		f.Add("cargo test 2>&1 | " + c.stage)
	}
	bash, _ := exec.LookPath("bash")
	w := newWorld(f, f.TempDir())
	f.Fuzz(func(t *testing.T, src string) {
		slow := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("classifying %q takes more than 5s", src)) })
		rs := []Result{String(src), In(src, w.env)}
		slow.Stop()
		for _, r := range rs {
			if r.Rule == "" {
				if r.Reason == "" {
					t.Fatalf("%q passes through without a reason", src)
				}
				continue
			}
			calls := allowedShape(t, src)
			if !testing.Short() && bash != "" {
				w.confirmBash(t, bash, src, r, calls)
				w.confirmStreams(t, bash, src, r, calls)
			}
		}
	})
}

// TestConfirmBash runs the bash oracle over every recognized table case.
func TestConfirmBash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash: skipped under -short")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	w := newWorld(t, t.TempDir())
	for _, c := range append(stringCases, worldCases...) {
		for _, r := range []Result{String(c.in), In(c.in, w.env)} {
			if r.Rule != "" {
				calls := allowedShape(t, c.in)
				w.confirmBash(t, bash, c.in, r, calls)
				w.confirmStreams(t, bash, c.in, r, calls)
			}
		}
	}
}

// FuzzArgv checks that Argv never panics and that a recognized argv comes
// back unchanged as its one stage once the assignments are taken off. Words
// are NUL-separated in the fuzz input, since no argv word holds a NUL.
func FuzzArgv(f *testing.F) {
	for _, c := range argvCases {
		f.Add(strings.Join(c.in, "\x00"))
	}
	f.Fuzz(func(t *testing.T, s string) {
		var argv []string
		if s != "" {
			argv = strings.Split(s, "\x00")
		}
		r := Argv(argv)
		if r.Rule == "" {
			if r.Reason == "" {
				t.Fatalf("Argv(%q) passes through without a reason", argv)
			}
			return
		}
		n := len(r.Assigns)
		if len(r.Stages) != 1 || !reflect.DeepEqual(r.Stages[0], argv[n:]) ||
			n > 0 && !reflect.DeepEqual(r.Assigns, argv[:n]) {
			t.Fatalf("Argv(%q) = %+v, want the argv split into assigns and one stage", argv, r)
		}
	})
}

// allowedShape re-parses a recognized src and walks the whole tree with an
// allowlist of node types, independently of the classifier's own walk. It
// returns the simple commands, one per pipeline stage.
func allowedShape(t *testing.T, src string) []*syntax.CallExpr {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatalf("recognized %q but it does not parse: %v", src, err)
	}
	if len(f.Stmts) != 1 {
		t.Fatalf("recognized %q with %d statements", src, len(f.Stmts))
	}
	var calls []*syntax.CallExpr
	syntax.Walk(f, func(node syntax.Node) bool {
		switch n := node.(type) {
		case nil, *syntax.File, *syntax.Word, *syntax.Lit:
		case *syntax.Assign:
			if n.Append || n.Naked || n.Index != nil || n.Array != nil {
				t.Fatalf("recognized %q with an assignment that is not NAME=value", src)
			}
		case *syntax.Stmt:
			if n.Negated || n.Background || n.Coprocess || n.Disown {
				t.Fatalf("recognized %q with a statement flag", src)
			}
		case *syntax.BinaryCmd:
			if n.Op != syntax.Pipe {
				t.Fatalf("recognized %q with operator %s", src, n.Op)
			}
		case *syntax.CallExpr:
			calls = append(calls, n)
		case *syntax.SglQuoted:
			if n.Dollar {
				t.Fatalf("recognized %q with $'...'", src)
			}
		case *syntax.DblQuoted:
			if n.Dollar {
				t.Fatalf("recognized %q with $\"...\"", src)
			}
		case *syntax.CmdSubst:
			if !nprocAlone(n) {
				t.Fatalf("recognized %q with a command substitution", src)
			}
			return false
		case *syntax.Redirect:
			text := src[n.Pos().Offset():n.End().Offset()]
			switch strings.Join(strings.Fields(text), "") {
			case "2>&1", "1>&2", "2>&-", "2>/dev/null", "2>>/dev/null", "2>|/dev/null":
			default:
				t.Fatalf("recognized %q with redirect %q", src, text)
			}
		default:
			t.Fatalf("recognized %q with node %T", src, node)
		}
		return true
	})
	for _, call := range calls[1:] {
		if len(call.Assigns) > 0 {
			t.Fatalf("recognized %q with an assignment before a filter", src)
		}
	}
	return calls
}

// nprocAlone reports whether a command substitution runs nproc and
// nothing else: one statement, the one word nproc, no quotes, redirects,
// assignments or statement flags. Blanks, a `;` and comments may surround
// it, as they change nothing.
func nprocAlone(cs *syntax.CmdSubst) bool {
	if cs.Backquotes || len(cs.Stmts) != 1 {
		return false
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || st.Disown || len(st.Redirs) > 0 ||
		len(call.Assigns) > 0 || len(call.Args) != 1 || len(call.Args[0].Parts) != 1 {
		return false
	}
	lit, ok := call.Args[0].Parts[0].(*syntax.Lit)
	return ok && lit.Value == "nproc"
}

// world is a directory of files for globs to match, a HOME for ~, and the
// Env that describes them; bash runs there with the same environment.
type world struct {
	dir, home string
	env       Env
	environ   []string
}

// newWorld makes the files in dir: names a glob can match several of,
// names that look like options or hold spaces and glob characters, dot
// files, a directory reached through a symlink, a dangling link, an empty
// directory, and names that are not ASCII in one directory of their own.
func newWorld(tb testing.TB, dir string) *world {
	tb.Helper()
	for _, name := range []string{
		"a.c", "b.c", "c.h", "main.go", "util.go", "x.py", "a b.c", "-n", "[x].c", "*", "B.c", "_a.c",
		"src/a.py", "src/b.py", "src/.hidden.py", "src/sub/c.py", "build/.keep", "empty/",
		"home/proj/README", "intl/a.c", "intl/\u00e9.c",
	} {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for link, to := range map[string]string{"link": "src", "dangling": "nowhere"} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			tb.Fatal(err)
		}
	}
	w := &world{dir: dir, home: filepath.Join(dir, "home")}
	w.environ = []string{"LC_ALL=C.UTF-8", "HOME=" + w.home, "PATH=" + os.Getenv("PATH")}
	vars := map[string]string{}
	for _, kv := range w.environ {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	w.env = Env{
		Dir:       dir,
		LookupEnv: func(name string) (string, bool) { v, ok := vars[name]; return v, ok },
		ReadDir:   os.ReadDir,
		Nproc: func() (string, error) {
			cmd := exec.Command("nproc")
			cmd.Dir, cmd.Env = dir, w.environ
			out, err := cmd.Output()
			return string(out), err
		},
	}
	return w
}

// bash runs script in the world with bash and returns its stdout and stderr.
func (w *world) bash(t *testing.T, bash, script string) (stdout, stderr []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", script)
	// No BASH_ENV and no exported functions; the locale agents usually run.
	cmd.Env, cmd.Dir = w.environ, w.dir
	cmd.WaitDelay = time.Second
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	// The status is the oracle function's or cat's: a write to a closed
	// stderr fails, and says nothing about the streams.
	var exit *exec.ExitError
	if err := cmd.Run(); err != nil && !errors.As(err, &exit) {
		t.Fatalf("bash on %q: %v (stderr %q)", script, err, errs.String())
	}
	return out.Bytes(), errs.Bytes()
}

// confirmBash asks bash how it splits and expands each stage's words. The
// words of each stage become the arguments of a function that prints its
// argc and argv NUL separated; the assignments stay assignments, before a
// function that prints each one's value. The source text of each word is
// copied from src by its position, so bash sees exactly what the user
// wrote.
func (w *world) confirmBash(t *testing.T, bash, src string, r Result, calls []*syntax.CallExpr) {
	t.Helper()
	text := func(n syntax.Node) string { return src[n.Pos().Offset():n.End().Offset()] }
	script := []string{`f() { printf '%s\0' "$#" "$@"; }`}
	var want bytes.Buffer
	expect := func(words []string) {
		want.WriteString(strconv.Itoa(len(words)) + "\x00")
		for _, w := range words {
			want.WriteString(w + "\x00")
		}
	}
	var names, line []string
	for _, a := range calls[0].Assigns {
		line = append(line, text(a))
		names = append(names, a.Name.Value)
	}
	script = append(script, `g() { for n in `+strings.Join(names, " ")+`; do printf '%s=%s\0' "$n" "${!n}"; done; }`)
	script = append(script, strings.Join(append(line, "g"), " "))
	last := map[string]string{}
	for _, a := range r.Assigns {
		k, v, _ := strings.Cut(a, "=")
		last[k] = v
	}
	for _, a := range r.Assigns {
		k, _, _ := strings.Cut(a, "=")
		want.WriteString(k + "=" + last[k] + "\x00")
	}
	if len(calls) != len(r.Stages) {
		t.Fatalf("%q: %d stages, the tree has %d", src, len(r.Stages), len(calls))
	}
	for i, call := range calls {
		line = []string{"f"}
		for _, w := range call.Args {
			line = append(line, text(w))
		}
		script = append(script, strings.Join(line, " "))
		expect(r.Stages[i])
	}
	got, _ := w.bash(t, bash, strings.Join(script, "\n"))
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("%q = assigns %q stages %q\nbash says %q\nscript %q", src, r.Assigns, r.Stages, got, script)
	}
}

// confirmStreams asks bash where the first stage's output and errors end
// up: the command becomes a function printing O on stdout and E on stderr,
// each filter becomes cat, and every redirect stays where src has it. The
// rule reads the command's output from stderr exactly when r.ToStderr says
// so, and its errors are nowhere exactly when a redirect discarded them.
func (w *world) confirmStreams(t *testing.T, bash, src string, r Result, calls []*syntax.CallExpr) {
	t.Helper()
	var b strings.Builder
	var last uint
	for i, call := range calls {
		for j, w := range call.Args {
			b.WriteString(src[last:w.Pos().Offset()])
			last = w.End().Offset()
			switch {
			case j > 0:
			case i == 0:
				b.WriteString("f")
			default:
				b.WriteString("cat")
			}
		}
	}
	b.WriteString(src[last:])
	script := "f() { echo O; echo E >&2; }\n" + b.String()
	stdout, stderr := w.bash(t, bash, script)
	onStdout := strings.Contains(string(stdout), "O")
	if onStdout == r.ToStderr || !r.ToStderr && strings.Contains(string(stderr), "O") {
		t.Fatalf("%q.ToStderr = %v, but bash printed stdout %q stderr %q for %q", src, r.ToStderr, stdout, stderr, script)
	}
	discarded := r.Cuts().Discarded != ""
	if seen := strings.Contains(string(stdout)+string(stderr), "E"); seen == discarded {
		t.Fatalf("%q discards stderr: %v, but bash printed stdout %q stderr %q for %q", src, discarded, stdout, stderr, script)
	}
}
