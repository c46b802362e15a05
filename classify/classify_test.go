package classify_test

import (
	"reflect"
	"strings"
	"testing"
)

// stringCases walks docs/classify.md line by line in string mode. want is the
// rule, or "" for a pass-through. It also seeds FuzzClassify.
var stringCases = []struct{ in, want string }{
	// The rules, with the argument forms each accepts.
	{"git status", GitStatus},
	{"git status --short --branch", GitStatus},
	{"git status -sb", GitStatus},
	{"git status -s -b --long", GitStatus},
	{"git status --porcelain", GitStatus},
	{"git status --porcelain=v1", GitStatus},
	{"git status '--short'", GitStatus},
	{`git "status"`, GitStatus},
	{`"git" status`, GitStatus},
	{"  git status  ", GitStatus},
	{"git status\n", GitStatus},
	{"git status;", GitStatus},
	{"git status # hi", GitStatus},
	{"# a comment\ngit status", GitStatus},
	{"git \\\nstatus", GitStatus},
	{"git sta\\\ntus", GitStatus},
	{"git diff", GitDiff},
	{"git diff --stat", GitDiff},
	{"git diff --cached -- a.go", GitDiff},
	{"git diff HEAD~1", GitDiff},
	{"git diff main...HEAD", GitDiff},
	{"git diff --exit-code", GitDiff},
	{"git diff -- 'a b' \"c d\"", GitDiff},
	{"git diff a]b a}b", GitDiff},
	{"git --no-pager diff", GitDiff},
	{"git log --oneline", GitLog},
	{"git log --oneline -5", GitLog},
	{"git log -5 --oneline", GitLog},
	{"git log -n5 --oneline", GitLog},
	{"git log --oneline -n 5", GitLog},
	{"git log -n 5 --oneline", GitLog},
	{`git log --grep "|" --oneline`, GitLog},
	{"git log --author=bob --oneline --all", GitLog},
	{"git log --oneline main..HEAD -- src", GitLog},
	{"git log --oneline --decorate --no-merges", GitLog},
	{"cargo check", CargoCheck},
	{"cargo check --all-targets", CargoCheck},
	{"cargo test", CargoTest},
	{"cargo +nightly test", CargoTest},
	{"cargo test -- --nocapture", CargoTest},
	{"cargo test my_filter", CargoTest},
	{"cargo test -q", CargoTest},

	// Words bash passes on as they are (TestConfirmBash checks each), and
	// their near misses.
	{"git diff a\fb \x01", GitDiff},
	{"git diff } ] ! !x % ^x @ =", GitDiff},
	{"git diff a#b #c", GitDiff},
	{"git diff if then fi time", GitDiff},
	{"git diff \"a\nb\" \"a\\\nb\" ''", GitDiff},
	{"git diff a~ '~' \"*\" '[' é", GitDiff},
	{"git log --oneline\\\n -5", GitLog},
	{"git diff 'a'~", GitDiff},
	{"git diff x:~", ""},
	{"git diff ~", ""},
	{"git diff a=(b)", ""},
	{"git diff {", GitDiff},

	// Redirects: only the exact 2>&1 and 1>&2, after the command word.
	{"git status 2>&1", GitStatus},
	{"git status 1>&2", GitStatus},
	{"git status 2>&1 1>&2", GitStatus},
	{"git status 1>&2 2>&1", GitStatus},
	{"git diff 2>&1 | tail -40 2>&1", GitDiff},
	{"git 2>&1 status", GitStatus},
	{"git status 2>/dev/null", GitStatus},
	{"git status 2>>/dev/null", GitStatus},
	{"git status 2>|/dev/null", GitStatus},
	{"git status 2>&-", GitStatus},
	{"git status 2>&1 2>/dev/null", GitStatus},
	{"git status 2>/dev/null 2>&1", GitStatus},
	{"rg -n foo 2>/dev/null | head -5", "bash.rg"},
	{"git diff | grep x 2>/dev/null", GitDiff},
	{"git status >/dev/null", ""},
	{"git status 1>/dev/null", ""},
	{"git status 2>/dev/nul", ""},
	{`git status 2>"/dev/null"`, ""},
	{"git status 2>/dev/null 1>&2", ""},
	{"git status 1>&2 2>/dev/null", ""},
	{"git status 1>&-", ""},
	{"git status 2>&- 1>&2", ""},
	{"git status &>/dev/null", ""},
	{"2>/dev/null git status", ""},
	{"git status >f", ""},
	{"git status >>f", ""},
	{"git status <f", ""},
	{"git status &>f", ""},
	{"git status >&2", ""},
	{"git status 3>&1", ""},
	{"git status 2>&01", ""},
	{"2>&1 git status", ""},
	{"A=1 2>&1 git status", ""},
	{"git diff <<EOF\nx\nEOF", ""},
	{"git diff <<<x", ""},

	// Pipes into filters only, never |&.
	{"git diff | grep x", GitDiff},
	{"git diff 2>&1 | cat", GitDiff},
	{"git diff|head -n 20|tail -5", GitDiff},
	{"git log --oneline | wc -l", ""},
	{"cargo test 2>&1 | rg FAILED", ""},
	{"cargo test 2>&1 | rg -N FAILED", CargoTest},
	{"git diff | xargs rm", ""},
	{"git diff | tee f", ""},
	{"git diff |& cat", ""},
	{"git diff | A=1 cat", ""},
	{"git diff | (cat)", ""},
	{"git diff | cat >f", ""},
	{"git diff | $PAGER", ""},
	{"cat x | git diff", ""},
	{"whoami | grep x", ""},

	// Leading assignments with literal values.
	{"RUST_BACKTRACE=1 cargo test", CargoTest},
	{`A= B="x y" cargo test`, CargoTest},
	{"FOO=1", ""},
	{"A=$X cargo test", ""},
	{"A+=1 cargo test", ""},
	{"A=~ cargo test", ""},
	{"A=b:~/x cargo test", ""},

	// One statement only.
	{"", ""},
	{"   ", ""},
	{"# only a comment", ""},
	{"a&&b", ""},
	{"git status&&ls", ""},
	{"git status && ls", ""},
	{"git status || ls", ""},
	{"git status;ls", ""},
	{"git status & ls", ""},
	{"git status &", ""},
	{"git status\nls", ""},
	{"git status\rls", ""},
	{"git status\r", ""},
	{"git status\x00", ""},
	{"! git status", ""},
	{"(git status)", ""},
	{"{ git status; }", ""},
	{"if true; then git status; fi", ""},
	{"for f in a; do git status; done", ""},
	{"while true; do git status; done", ""},
	{"case x in x) git status ;; esac", ""},
	{"f() { git status; }", ""},
	{"[[ -n x ]]", ""},
	{"((x))", ""},
	{"time git status", ""},
	{"coproc git status", ""},
	{"export A=1", ""},
	{"let x=1", ""},
	{`git status "unterminated`, ""},
	{"git status )", ""},
	{"git diff \xff", ""},

	// Static words only.
	{"$(git status)", ""},
	{"git status $(x)", ""},
	{"git status `x`", ""},
	{`git diff "$(x)"`, ""},
	{"git diff <(x)", ""},
	{"git diff >(x)", ""},
	{`git log --oneline "$X"`, ""},
	{"git log --oneline $X", ""},
	{"git log --oneline ${X}", ""},
	{"$GIT status", ""},
	{"git diff $((1))", ""},
	{"git diff $'x'", ""},
	{`git diff $"x"`, ""},
	{`git diff a\ b`, GitDiff},
	{`git diff "a\"b"`, GitDiff},
	{"\\git status", GitStatus},
	{"git diff a$", GitDiff},
	{`git diff "a$" "$" 'a$'`, GitDiff},
	{`git diff "args\[0\]" \* \? \~ "\\" "\$x"`, GitDiff},
	{"git diff -- {a,b} x{1,2}y {a} x{,b} ''{,b} {a,b}{c,d}", GitDiff},
	{"git diff -- {1..3} {a..c}", GitDiff},
	{"git log --oneline -n{1,2}", GitLog},
	{"git diff {,b}", ""},
	{"git status *.go", ""},
	{"git diff ?", ""},
	{"git diff [ab]", ""},
	{"git diff ~/x", ""},
	{"git diff ~", ""},
	{"git diff ~root", ""},
	{"git diff x=~", ""},
	{"git diff a:~", ""},
	{"git diff -j$(nproc)", ""},
	{"git diff @(a)", ""},

	// git global options.
	{"git -C x status", ""},
	{"git -c a=b diff", ""},
	{"git --git-dir=x status", ""},
	{"git --no-pager --no-pager diff", ""},
	{"git -p log --oneline", ""},
	{"git", ""},
	{"git --no-pager", ""},

	// Arguments that change the output the summarizer reads.
	{"git status -uno", ""},
	{"git status -z", ""},
	{"git status -v", ""},
	{"git status --porcelain=v2", ""},
	{"git status a.go", ""},
	{"git status -bs", ""},
	{"git status --help", ""},
	{"git status -h", ""},
	{"git diff --name-only", ""},
	{"git diff --name-status", ""},
	{"git diff --raw", ""},
	{"git diff -z", ""},
	{"git diff -Rz", ""},
	{"git diff --numstat", ""},
	{"git diff --shortstat", ""},
	{"git diff --summary", ""},
	{"git diff --word-diff", ""},
	{"git diff --word-diff=color", ""},
	{"git diff --color-words", ""},
	{"git diff --color=always", ""},
	{"git diff --no-patch", ""},
	{"git diff -s", ""},
	{"git diff --check", ""},
	{"git diff --dirstat=files", ""},
	{"git diff -X", ""},
	{"git diff --output=f", ""},
	{"git diff --ext-diff", ""},
	{"git diff --quiet", ""},
	{"git diff --help", ""},
	{"git diff -h", ""},
	{"git log", ""},
	{"git log -5", ""},
	{"git log --pretty=oneline", ""},
	{"git log --oneline --graph", ""},
	{"git log --oneline -p", ""},
	{"git log --oneline --patch", ""},
	{"git log --oneline --stat", ""},
	{"git log --oneline --format=%h", ""},
	{"git log --oneline --pretty=short", ""},
	{"git log --oneline -z", ""},
	{"git log --oneline --help", ""},
	{"git log --grep --oneline", ""},
	{"git log -- --oneline", ""},
	{"git log --date --oneline", ""},
	{"git stash", ""},
	{"cargo test --message-format=json", ""},
	{"cargo check --message-format json", ""},
	{"cargo test -- --list", ""},
	{"cargo test -- --format=json", ""},
	{"cargo test --color always", ""},
	{"cargo test --help", ""},
	{"cargo test -h", ""},
	{"cargo test -qh", ""},
	{"cargo test -V", ""},
	{"cargo -q test", ""},
	{"cargo +nightly", ""},
	{"cargo t", ""},
	{"cargo run", ""},
	{"cargo", ""},

	// Not the command itself.
	{"exec git status", ""},
	{"command git status", ""},
	{"sudo git status", ""},
	{"env git status", ""},
	{"whoami", ""},
}

func TestString(t *testing.T) {
	for _, c := range stringCases {
		r := String(c.in)
		if r.Rule != c.want {
			t.Errorf("String(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
			continue
		}
		switch {
		case r.Rule != "" && (r.Reason != "" || r.Pos != "" || len(r.Stages) == 0):
			t.Errorf("String(%q) = %+v: a recognized command has stages and no reason", c.in, r)
		case r.Rule == "" && r.Reason == "":
			t.Errorf("String(%q) passes through without a reason", c.in)
		case r.Rule == "" && r.Pos == "" && r.Reason != "empty command":
			t.Errorf("String(%q) = %q: no position", c.in, r.Explain())
		}
	}
}

func TestStringParts(t *testing.T) {
	for _, c := range []struct {
		in      string
		stages  [][]string
		assigns []string
	}{
		{"git status", [][]string{{"git", "status"}}, nil},
		{"git status 2>&1 # hi", [][]string{{"git", "status"}}, nil},
		{"git 'st'\"at\"us", [][]string{{"git", "status"}}, nil},
		{"git diff -- 'a b' \"c|d\" ''", [][]string{{"git", "diff", "--", "a b", "c|d", ""}}, nil},
		{"git diff 2>&1 | grep -v x | head -n 3",
			[][]string{{"git", "diff"}, {"grep", "-v", "x"}, {"head", "-n", "3"}}, nil},
		{`RUST_BACKTRACE=1 A= B="x y" cargo test`,
			[][]string{{"cargo", "test"}}, []string{"RUST_BACKTRACE=1", "A=", "B=x y"}},
		{"ls -la", [][]string{{"ls", "-la"}}, nil},
		{"git status >f", nil, nil},
	} {
		r := String(c.in)
		if !reflect.DeepEqual(r.Stages, c.stages) || !reflect.DeepEqual(r.Assigns, c.assigns) {
			t.Errorf("String(%q) = stages %q assigns %q, want %q %q", c.in, r.Stages, r.Assigns, c.stages, c.assigns)
		}
	}
}

// TestToStderr pins the stream model: bash applies redirects in order, so
// the first of 2>&1 and 1>&2 decides where both streams go (FuzzClassify
// checks the same against bash).
func TestToStderr(t *testing.T) {
	for in, want := range map[string]bool{
		"git diff":                  false,
		"git diff 2>&1":             false,
		"git diff 1>&2":             true,
		"git diff 2>&1 1>&2":        false,
		"git diff 1>&2 2>&1":        true,
		"git 1>&2 diff 2>&1":        true,
		"git diff 2>&1 | head":      false,
		"git diff | head 2>&1":      false,
		"cargo test 1>&2 2>&1":      true,
		"cargo test 2>&1 1>&2 2>&1": false,
	} {
		r := String(in)
		if r.Rule == "" || r.ToStderr != want {
			t.Errorf("String(%q): rule %q ToStderr %v, want %v", in, r.Rule, r.ToStderr, want)
		}
	}
	for _, in := range []string{"git diff 1>&2 | cat", "git diff | cat 1>&2", "git diff 2>&1 | cat 1>&2"} {
		if r := String(in); r.Rule != "" {
			t.Errorf("String(%q) = %q, want a pass-through: 1>&2 around a pipe is not modeled", in, r.Rule)
		}
	}
}

func TestExplain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"git status", "rule bash.git_status"},
		{"", "empty command; passing through"},
		{"git status $(x)", "1:12: command substitution; passing through"},
		{"git status `x`", "1:12: command substitution (backticks); passing through"},
		{"git diff <(x)", "1:10: process substitution; passing through"},
		{"git log --oneline \"$X\"", "1:20: parameter expansion; passing through"},
		{"git status >/dev/null", "1:12: redirect to a file; passing through"},
		{"git status 1>&2 2>/dev/null", "1:12: 1>&2 with stderr discarded; passing through"},
		{"git status <f", "1:12: redirect from a file; passing through"},
		{"git status >&2", "1:12: redirect other than 2>&1, 1>&2 or 2>&-; passing through"},
		{"2>&1 git status", "1:1: redirect before the command word; passing through"},
		{"git diff <<<x", "1:10: here-string; passing through"},
		{"git diff <<EOF\nx\nEOF", "1:10: here-document; passing through"},
		{"git status&&ls", "1:11: more than one command (&&); passing through"},
		{"git status || ls", "1:12: more than one command (||); passing through"},
		{"git status;ls", "1:11: more than one command (;); passing through"},
		{"git status & ls", "1:12: more than one command (&); passing through"},
		{"git status\nls", "2:1: more than one command (newline); passing through"},
		{"git status &", "1:12: background command (&); passing through"},
		{"! git status", "1:1: negated command (!); passing through"},
		{"git status\n\rls", "2:1: carriage return; passing through"},
		{"git status\x00", "1:11: NUL byte; passing through"},
		{"(git status)", "1:1: subshell; passing through"},
		{"time git status", "1:1: time prefix; passing through"},
		{"export A=1", "1:1: export builtin; passing through"},
		{`git status "x`, "1:12: parse error: reached EOF without closing quote `\"`; passing through"},
		{"git diff | xargs rm", `1:12: pipe into a non-filter command "xargs"; passing through`},
		{"git diff |& cat", "1:10: pipe of stderr (|&); passing through"},
		{"git diff | A=1 cat", "1:12: assignment before a filter; passing through"},
		{"FOO=1", "1:1: assignment without a command; passing through"},
		{"0>0", "1:1: redirect without a command; passing through"},
		{"git diff | 2>&1", "1:12: redirect without a command; passing through"},
		{"A+=1 cargo test", "1:1: assignment that is not NAME=value; passing through"},
		{"git diff *.go", "1:10: glob pattern; passing through"},
		{"git diff x=~", `1:10: tilde expansion after "="; passing through`},
		{"git diff ~/x", "1:10: tilde expansion; passing through"},
		{"git diff ~x/y", `1:10: tilde expansion of "~x"; passing through`},
		{"make -j$(nproc)", "1:8: command substitution; passing through"},
		{"git diff $'x'", "1:10: ANSI-C quoting $'...'; passing through"},
		{"git -C x status", `1:5: git global option "-C"; passing through`},
		{"git status -uno", `1:12: unsupported git status argument "-uno"; passing through`},
		{"git diff --name-only", `1:10: option "--name-only" changes the output format; passing through`},
		{"git log -5", "1:5: git log without --oneline; passing through"},
		{"git log --oneline --graph", `1:19: unsupported git log option "--graph"; passing through`},
		{"cargo test -- --list", `1:15: option "--list" changes the output format; passing through`},
		{"cargo test --help", "1:12: help or version requested (--help); passing through"},
		{"cargo -q test", `1:7: cargo option "-q" before the subcommand; passing through`},
		{"sudo git status", "1:1: not a recognized command; passing through"},
		{"git stash", "1:5: not a recognized command; passing through"},
	} {
		if got := String(c.in).Explain(); got != c.want {
			t.Errorf("String(%q).Explain() = %q, want %q", c.in, got, c.want)
		}
	}
}

// argvCases are docs/classify.md in argv mode: every word is literal, so
// operators and expansions are plain arguments.
var argvCases = []struct {
	in   []string
	want string
}{
	{[]string{"git", "status"}, GitStatus},
	{[]string{"git", "status", "--short", "--branch"}, GitStatus},
	{[]string{"git", "--no-pager", "diff"}, GitDiff},
	{[]string{"git", "diff", "$(x)", "*.go", "~/x"}, GitDiff},
	{[]string{"git", "log", "--grep", "|", "--oneline"}, GitLog},
	{[]string{"git", "log", "--oneline", "2>&1"}, GitLog},
	{[]string{"RUST_BACKTRACE=1", "cargo", "test"}, CargoTest},
	{[]string{"A=", "_b2=x y", "cargo", "check"}, CargoCheck},
	{[]string{"cargo", "+nightly", "test", "--", "--nocapture"}, CargoTest},
	{nil, ""},
	{[]string{"FOO=1"}, ""},
	{[]string{"1A=1", "git", "status"}, ""},
	{[]string{"=1", "git", "status"}, ""},
	{[]string{"git status"}, ""},
	{[]string{"git", "status", "2>&1"}, ""},
	{[]string{"git", "status", "|", "grep", "x"}, ""},
	{[]string{"git", "-C", "x", "status"}, ""},
	{[]string{"git", "status", "-uno"}, ""},
	{[]string{"git", "diff", "--name-only"}, ""},
	{[]string{"git", "log", "-5"}, ""},
	{[]string{"git", "log", "--pretty=oneline"}, ""},
	{[]string{"cargo", "test", "--message-format=json"}, ""},
	{[]string{"cargo", "test", "--", "--list"}, ""},
	{[]string{"sudo", "git", "status"}, ""},
	{[]string{"bash", "-c", "git status"}, ""},
	{[]string{""}, ""},
}

func TestArgv(t *testing.T) {
	for _, c := range argvCases {
		r := Argv(c.in)
		if r.Rule != c.want {
			t.Errorf("Argv(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
			continue
		}
		if r.Rule == "" && r.Reason == "" || r.Pos != "" {
			t.Errorf("Argv(%q) = %+v: want a reason and no position", c.in, r)
		}
	}
}

func TestArgvParts(t *testing.T) {
	in := []string{"A=1", "B=", "cargo", "test", "C=2"}
	r := Argv(in)
	want := Result{Rule: CargoTest, Stages: [][]string{{"cargo", "test", "C=2"}}, Assigns: []string{"A=1", "B="}}
	// Field by field: a rule's environment check (Rule.Env) is a func,
	// which DeepEqual never finds equal.
	if r.Rule != want.Rule || !reflect.DeepEqual(r.Stages, want.Stages) || !reflect.DeepEqual(r.Assigns, want.Assigns) ||
		r.Reason != "" || r.Pos != "" || r.ToStderr || len(r.Filters) > 0 {
		t.Fatalf("Argv(%q) = %+v, want %+v", in, r, want)
	}
	in[2] = "git"
	if r.Stages[0][0] != "cargo" {
		t.Errorf("Argv result shares memory with its argument")
	}
	if got := Argv([]string{"FOO=1"}); got.Reason != "assignment without a command" {
		t.Errorf("Argv(FOO=1).Reason = %q", got.Reason)
	}
}

// TestReasonsOneLine guards --explain: a reason is one line however odd the
// offending word.
func TestReasonsOneLine(t *testing.T) {
	for _, r := range []Result{
		String("git status 'a\nb'"),
		String("'a\nb' | grep x"),
		Argv([]string{"git", "-\nx", "status"}),
	} {
		if r.Rule != "" || strings.Contains(r.Explain(), "\n") {
			t.Errorf("%+v: want a one-line pass-through reason", r)
		}
	}
}
