package classify_test

import (
	"reflect"
	"strings"
	"testing"
)

// worldCases are the forms of issue 23's table, and their near misses,
// classified where they run: in the directory newWorld makes, with its
// HOME, the locale C.UTF-8 and the real nproc. want is the rule, or "" for
// a pass-through. They also seed FuzzClassify. (Lists and cd are Split's:
// TestSplit.)
var worldCases = []struct{ in, want string }{
	// stderr discarded
	{"rg -n foo 2>/dev/null", "bash.rg"},
	{"find . -name '*.c' 2>/dev/null", "bash.find"},
	{"find . -name '*.c' 2>&-", "bash.find"},
	{"git status 2>/dev/null | head -5", GitStatus},
	{"rg -n foo 2>/dev/nul", ""},
	{"rg -n foo 2>/tmp/x", ""},
	{"rg -n foo >/dev/null", ""},
	{"rg -n foo 2>/dev/null >&2", ""},

	// unquoted globs, braces, ~
	{"grep -rn foo --include=*.c .", "bash.grep"},
	{"pylint src/*.py", "bash.pylint"},
	{"pylint link/*.py", "bash.pylint"},
	{"pylint src/*.rs", "bash.pylint"},
	{"grep -n foo *.c", "bash.grep"},
	{"grep -n foo [x].c", "bash.grep"},
	{"grep -rn --exclude-dir={.git,build} foo .", "bash.grep"},
	{"ls -la ~", "bash.ls"},
	{"ls -la ~/proj", "bash.ls"},
	{"ls -la ~/'proj'", "bash.ls"},
	{"ls ~'x'", "bash.ls"},
	{"ls -la src/*/", "bash.ls"},
	{"ls -la s*/*.py", "bash.ls"},
	{"ls -la */*.py", ""},
	{"ls ?.c", "bash.ls"},
	{"ls [ab].c", "bash.ls"},
	{"ls [!a].c", "bash.ls"},
	{"ls -d empty/*", "bash.ls"},
	{"ls dangling*", "bash.ls"},
	{"ls a\\ b.c '*' \\*", "bash.ls"},
	{"ls {a,b}.c", "bash.ls"},
	{"ls ~root", ""},
	{"ls ~+", ""},
	{"ls .*", ""},
	{"ls src/.h*", ""},
	{"ls intl/*", ""},
	{"ls --color=~", ""},
	{"A=~/x ls", ""},
	{"A=*.c ls", "bash.ls"},
	{"A=\\~ ls", ""},
	{"A=\\: ls", ""},
	{"A='\\' ls", "bash.ls"},
	{"A={a,b} ls", "bash.ls"},
	{"ls @(a|b).c", ""},
	{"pylint src//*b", ""},
	{"pylint src/'/'*b", ""},
	{"pylint src/\\/*b", ""},
	{"ls src//sub", "bash.ls"},
	{"git diff {A..a}", ""},
	{"git diff {z..A..3}", ""},
	{"git diff x{b,{A..a}}", ""},
	{"git diff {0},}", ""},
	{"git diff {a,b}{0},}", ""},
	{"git diff x{a}b,c}", ""},
	{"git diff {~,b}", ""},
	{"git diff {b,}~", ""},
	{"git diff a\\\\\\\n", ""},
	{"git diff a\\\n", GitDiff},
	{"ls [[.a.]].c", ""},
	{"ls [[=a=]].c", ""},
	{"ls [[:alpha:]].c", ""},
	{"ls [[:alpha:b].c", ""},
	{"ls [[:alpha:]\\].c", ""},
	{"ls [b\\\\\\].c", ""},
	{"ls [\\!a].c", ""},
	{`ls [b"]"].c`, ""},
	{"ls args\\[0\\]", "bash.ls"},
	{"git diff {0}..}", GitDiff},
	{"git diff HEAD@{1}..HEAD", GitDiff},
	{"git diff {1..2}..}", GitDiff},
	{"grep -rn {} .", "bash.grep"},
	{"git diff {A..C}", GitDiff},

	// escapes and $ inside a quoted pattern
	{`grep -r "args\[0\]" src/`, "bash.grep"},
	{`ls -R | grep ":$" | head -n 5`, "bash.ls"},
	{`grep -rn 'foo$' .`, "bash.grep"},
	{`grep -rn "a\$b" .`, "bash.grep"},
	{`grep -rn "$b" .`, ""},
	{`grep -rn "\\$HOME" .`, ""},

	// $(nproc)
	{"make -j$(nproc)", "bash.make"},
	{`make -j"$(nproc)"`, "bash.make"},
	{"ninja -C build -j$(nproc)", "bash.ninja"},
	{"ninja -C build -j $(nproc)", "bash.ninja"},
	{"make -j$(nproc --all)", ""},
	{"make -j$( nproc )", "bash.make"},
	{"make -j$(nproc;)", "bash.make"},
	{"make -j$(nproc # cores\n)", "bash.make"},
	{"make -j$(nproc\n# cores\n)", "bash.make"},
	{"make -j`nproc`", ""},
	{"make -j$(getconf _NPROCESSORS_ONLN)", ""},
	{"make -j$( nproc >/dev/null)", ""},
	{"A=$(nproc) make", ""},
	{"make -j$((2*2))", ""},

	// names not known before
	{"egrep -rn 'foo|bar' .", "bash.grep"},
	{"fgrep -rn 'a.b(' src", "bash.grep"},
	{"git ls-tree -r --name-only HEAD", "bash.git_ls_tree"},
	{"git ls-tree HEAD", ""},
	{"gcc-12 -Wall -c a.c", "bash.cc"},
	{"clang-14 -c a.c", "bash.cc"},
	{"clang++-15 -c a.cpp", "bash.cc"},
	{"gcc-x -c a.c", ""},
	{"pycodestyle .", "bash.pycodestyle"},
	{"pycodestyle --show-source .", ""},
	{"cppcheck --enable=all .", "bash.cppcheck"},
	{"cppcheck --xml .", ""},
	{"clang-tidy a.c --", "bash.clang_tidy"},
	{"clang-tidy --fix a.c --", ""},
}

func TestWorld(t *testing.T) {
	w := newWorld(t, t.TempDir())
	for _, c := range worldCases {
		r := In(c.in, w.env)
		if r.Rule != c.want {
			t.Errorf("In(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
		}
		if r.Rule == "" && r.Pos == "" {
			t.Errorf("In(%q) = %q: no position", c.in, r.Explain())
		}
	}
}

// TestWorldArgv pins what the words expand to; FuzzClassify checks the
// same against bash.
func TestWorldArgv(t *testing.T) {
	w := newWorld(t, t.TempDir())
	for in, want := range map[string]string{
		"pylint src/*.py": "pylint src/a.py src/b.py",
		"pylint src/*.rs": "pylint src/*.rs",
		"grep -n foo *.c": "grep -n foo B.c [x].c _a.c a b.c a.c b.c",
		"grep -rn --exclude-dir={.git,build} foo .": "grep -rn --exclude-dir=.git --exclude-dir=build foo .",
		"ls -la ~/proj":            "ls -la " + w.home + "/proj",
		"ls ~'x'":                  "ls ~x",
		"ls -la [ls]*/*.py":        "ls -la link/a.py link/b.py src/a.py src/b.py",
		"ls dangling*":             "ls dangling",
		"ls -d empty/*":            "ls -d empty/*",
		`grep -r "args\[0\]" src/`: `grep -r args\[0\] src/`,
		"A=*.c ls":                 "ls",
	} {
		r := In(in, w.env)
		if r.Rule == "" {
			t.Errorf("In(%q) passes through: %s", in, r.Explain())
			continue
		}
		if got := strings.Join(r.Stages[0], " "); got != want {
			t.Errorf("In(%q) = %q, want %q", in, got, want)
		}
	}
	r := In("make -j$(nproc)", w.env)
	n, _ := w.env.Nproc()
	if !reflect.DeepEqual(r.Stages[0], []string{"make", "-j" + strings.TrimSpace(n)}) {
		t.Errorf("make -j$(nproc) = %q", r.Stages[0])
	}
}

// TestWorldEnvironment: bash's glob order and options come from the
// environment; where they are not what the expansion package does, a glob
// passes through.
func TestWorldEnvironment(t *testing.T) {
	w := newWorld(t, t.TempDir())
	for _, c := range []struct {
		vars     []string
		in, want string
	}{
		{[]string{"LANG=en_US.UTF-8"}, "pylint src/*.py", ""},
		{[]string{"LANG=en_US.UTF-8"}, "pylint x*.py", "bash.pylint"},
		{[]string{"LANG=en_US.UTF-8"}, "grep -rn --exclude-dir={.git,build} foo .", "bash.grep"},
		{[]string{"LANG=en_US.UTF-8", "LC_COLLATE=C"}, "pylint src/*.py", "bash.pylint"},
		{[]string{"LC_ALL=POSIX", "LANG=en_US.UTF-8"}, "pylint src/*.py", "bash.pylint"},
		{[]string{"BASHOPTS=nullglob"}, "pylint src/*.rs", ""},
		{[]string{"SHELLOPTS=noglob"}, "pylint src/*.py", ""},
		{[]string{"GLOBIGNORE=*.py"}, "pylint src/*.py", ""},
		{[]string{"BASH_ENV=/x"}, "ls ~", ""},
		{[]string{"BASH_ENV="}, "ls ~", "bash.ls"},
		{[]string{"HOME="}, "ls ~", ""},
		{[]string{"HOME=/h"}, "ls ~", "bash.ls"},
	} {
		vars := map[string]string{"HOME": w.home}
		for _, kv := range c.vars {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		env := w.env
		env.LookupEnv = func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
		if r := In(c.in, env); r.Rule != c.want {
			t.Errorf("%v %q: rule %q (%s), want %q", c.vars, c.in, r.Rule, r.Explain(), c.want)
		}
	}
	// Without a world, a word that needs one passes through.
	for _, in := range []string{"pylint src/*.py", "ls ~", "make -j$(nproc)"} {
		if r := In(in, Env{}); r.Rule != "" {
			t.Errorf("In(%q, Env{}) = %q, want a pass-through", in, r.Rule)
		}
	}
}
