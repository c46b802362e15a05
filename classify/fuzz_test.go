package classify_test

import (
	"bytes"
	"context"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzClassify checks every recognized command against two oracles: the
// syntax tree has only the shapes docs/classify.md allows, and bash itself splits
// the words into the same argv (skipped under -short or without bash).
func FuzzClassify(f *testing.F) {
	for _, c := range stringCases {
		f.Add(c.in)
	}
	for _, c := range filterCases {
		f.Add("cargo test 2>&1 | " + c.stage)
	}
	bash, _ := exec.LookPath("bash")
	f.Fuzz(func(t *testing.T, src string) {
		r := String(src)
		if r.Rule == "" {
			if r.Reason == "" {
				t.Fatalf("String(%q) passes through without a reason", src)
			}
			return
		}
		calls := allowedShape(t, src)
		if !testing.Short() && bash != "" {
			confirmBash(t, bash, src, r, calls)
			confirmStreams(t, bash, src, r, calls)
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
	for _, c := range stringCases {
		if r := String(c.in); r.Rule != "" {
			calls := allowedShape(t, c.in)
			confirmBash(t, bash, c.in, r, calls)
			confirmStreams(t, bash, c.in, r, calls)
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
		case *syntax.Redirect:
			if !mergesStreams(n) {
				t.Fatalf("recognized %q with redirect %s", src, n.Op)
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

// confirmBash asks bash how it splits each stage's words. Every stage's
// command is replaced by a function that prints its argc and argv NUL
// separated, and the assignments go first as plain words; the source text
// of each word is copied from src by its position, so bash sees exactly
// what the user wrote.
func confirmBash(t *testing.T, bash, src string, r Result, calls []*syntax.CallExpr) {
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
	var line []string
	for _, a := range calls[0].Assigns {
		line = append(line, text(a))
	}
	script = append(script, strings.Join(append([]string{"f"}, line...), " "))
	expect(r.Assigns)
	if len(calls) != len(r.Stages) {
		t.Fatalf("String(%q): %d stages, the tree has %d", src, len(r.Stages), len(calls))
	}
	for i, call := range calls {
		line = []string{"f"}
		for _, w := range call.Args {
			line = append(line, text(w))
		}
		script = append(script, strings.Join(line, " "))
		expect(r.Stages[i])
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", strings.Join(script, "\n"))
	// No BASH_ENV and no exported functions; the locale agents usually run.
	cmd.Env = []string{"LC_ALL=C.UTF-8"}
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("String(%q): bash on %q: %v", src, script, err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("String(%q) = assigns %q stages %q\nbash says %q\nscript %q", src, r.Assigns, r.Stages, got, script)
	}
}

// confirmStreams asks bash where the first stage's output ends up: the
// command becomes a function printing O on stdout and E on stderr, each
// filter becomes cat, and every redirect stays where src has it. The rule
// reads the command's output from stderr exactly when r.ToStderr says so.
func confirmStreams(t *testing.T, bash, src string, r Result, calls []*syntax.CallExpr) {
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
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", script)
	cmd.Env = []string{"LC_ALL=C.UTF-8"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("String(%q): bash on %q: %v", src, script, err)
	}
	onStdout := strings.Contains(stdout.String(), "O")
	if onStdout == r.ToStderr || !r.ToStderr && strings.Contains(stderr.String(), "O") {
		t.Fatalf("String(%q).ToStderr = %v, but bash printed stdout %q stderr %q for %q", src, r.ToStderr, stdout.String(), stderr.String(), script)
	}
}
