package search_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// searchCases walks docs/classify.md (search rules): what each search rule
// recognizes and what passes through, with the word the reason must point
// at.
var searchCases = []ruletest.FamilyCase{
	{In: "rg foo", Want: Rg},
	{In: "rg -n foo", Want: Rg},
	{In: "rg -n foo src", Want: Rg},
	{In: "rg -n foo a.go b.go", Want: Rg},
	{In: "rg -in -C2 foo src", Want: Rg},
	{In: "rg -C2 foo src", Want: Rg},
	{In: "rg -A 3 -B1 foo", Want: Rg},
	{In: "rg --context=2 -n foo", Want: Rg},
	{In: "rg -e foo -e bar src", Want: Rg},
	{In: "rg -l foo", Want: Rg},
	{In: "rg -c foo", Want: Rg},
	{In: "rg --count-matches foo", Want: Rg},
	{In: "rg --files-without-match foo", Want: Rg},
	{In: "rg -o -n foo", Want: Rg},
	{In: "rg --vimgrep foo", Want: Rg},
	{In: "rg --heading -n foo", Want: Rg},
	{In: "rg -p foo", Want: Rg},
	{In: "rg -tgo -g '!vendor' foo", Want: Rg},
	{In: "rg --type go '--glob=*_test.go' foo", Want: Rg},
	{In: "rg -uuu --hidden -S foo", Want: Rg},
	{In: "rg -F -w -m 5 foo", Want: Rg},
	{In: "rg --no-config --sort path -n foo", Want: Rg},
	{In: "rg -H foo a.go", Want: Rg},
	{In: "rg -n foo 2>&1 | head -50", Want: Rg},
	{In: "rg -n foo 2>/dev/null", Want: Rg},
	{In: "rg -n foo | grep -v test", Want: Rg},
	{In: "rg", Want: "", At: 0},
	{In: "rg -n", Want: "", At: 0},
	{In: "rg --json foo", Want: "", At: 1},
	{In: "rg --files", Want: "", At: 1},
	{In: "rg -q foo", Want: "", At: 1},
	{In: "rg -nq foo", Want: "", At: 1},
	{In: "rg -0 -l foo", Want: "", At: 1},
	{In: "rg --passthru foo", Want: "", At: 1},
	{In: "rg -b foo", Want: "", At: 1},
	{In: "rg --stats foo", Want: "", At: 1},
	{In: "rg --pre cat foo", Want: "", At: 1},
	{In: "rg --context-separator=x -C1 foo", Want: "", At: 1},
	{In: "rg --field-match-separator=x foo", Want: "", At: 1},
	{In: "rg --type-list", Want: "", At: 1},
	{In: "rg --line-num foo", Want: "", At: 1},
	{In: "rg --frobnicate foo", Want: "", At: 1},
	{In: "rg -n -K foo", Want: "", At: 2},
	{In: "rg -h", Want: "", At: 1},
	{In: "rg --version", Want: "", At: 1},
	{In: "rg -I -C2 foo", Want: "", At: 0},
	{In: "rg --color always foo", Want: "", At: 1},
	{In: "rg -n --color=ansi foo", Want: "", At: 2},
	{In: "rg --color never -n foo", Want: Rg},

	{In: "grep -r foo", Want: Grep},
	{In: "grep -rn foo .", Want: Grep},
	{In: "grep -rn foo src", Want: Grep},
	{In: "grep -Rni foo src lib", Want: Grep},
	{In: "grep -n foo a.go", Want: Grep},
	{In: "grep foo a.go b.go", Want: Grep},
	{In: "grep -rn -C2 foo src", Want: Grep},
	{In: "grep -rn -3 foo src", Want: Grep},
	{In: "grep -rnE 'foo|bar' .", Want: Grep},
	{In: "grep -rn -e foo -e bar .", Want: Grep},
	{In: "grep -rl foo .", Want: Grep},
	{In: "grep -rL foo .", Want: Grep},
	{In: "grep -rc foo .", Want: Grep},
	{In: "grep -rno 'foo(x)' .", Want: Grep},
	{In: "grep -rn --include=x.go foo .", Want: Grep},
	{In: "grep -rn --exclude-dir node_modules foo .", Want: Grep},
	{In: "grep -rn --color=never foo .", Want: Grep},
	{In: "grep -rIn foo .", Want: Grep},
	{In: "grep -rhn foo .", Want: Grep},
	{In: "grep -rn foo . 2>&1 | tail -20", Want: Grep},
	{In: "grep foo", Want: "", At: 0},
	{In: "grep -i foo", Want: "", At: 0},
	{In: "grep -r", Want: "", At: 0},
	{In: "grep -rZ foo .", Want: "", At: 1},
	{In: "grep -rnb foo .", Want: "", At: 1},
	{In: "grep -rnT foo .", Want: "", At: 1},
	{In: "grep -rq foo .", Want: "", At: 1},
	{In: "grep -rz foo .", Want: "", At: 1},
	{In: "grep --help", Want: "", At: 1},
	{In: "grep -V", Want: "", At: 1},
	{In: "grep -r --line-num foo .", Want: "", At: 2},
	{In: "grep -r --group-separator=x -C1 foo .", Want: "", At: 2},
	{In: "grep -C2 foo a.go", Want: "", At: 0},
	{In: "grep -rh -A1 foo .", Want: "", At: 0},
	{In: "grep -rn --color=always foo .", Want: "", At: 2},
	{In: "grep -rn foo . --colour=always", Want: "", At: 4},
	{In: "grep -rn --color foo .", Want: Grep},
	{In: "grep -rn foo . 2>/dev/null", Want: Grep},
	{In: "egrep -rn 'TODO|FIXME' .", Want: Grep},
	{In: "egrep -n 'a+b' a.go b.go", Want: Grep},
	{In: "fgrep -rn 'config.Get(' src", Want: Grep},
	{In: "fgrep -rl foo .", Want: Grep},
	{In: "egrep foo", Want: "", At: 0},
	{In: "fgrep -rZ foo .", Want: "", At: 1},
	{In: "egrep --help", Want: "", At: 1},

	{In: "git grep foo", Want: GitGrep},
	{In: "git grep -n foo", Want: GitGrep},
	{In: "git --no-pager grep -n foo", Want: GitGrep},
	{In: "git grep -n -C2 foo -- src", Want: GitGrep},
	{In: "git grep -n foo HEAD~1", Want: GitGrep},
	{In: "git grep -c foo", Want: GitGrep},
	{In: "git grep -l foo", Want: GitGrep},
	{In: "git grep --name-only foo", Want: GitGrep},
	{In: "git grep -L foo", Want: GitGrep},
	{In: "git grep -n --column foo", Want: GitGrep},
	{In: "git grep -n -e foo --and -e bar", Want: GitGrep},
	{In: "git grep -nih foo", Want: GitGrep},
	{In: "git grep --untracked -n foo", Want: GitGrep},
	{In: "git grep", Want: "", At: 1},
	{In: "git grep -z foo", Want: "", At: 2},
	{In: "git grep -p foo", Want: "", At: 2},
	{In: "git grep -W foo", Want: "", At: 2},
	{In: "git grep --heading foo", Want: "", At: 2},
	{In: "git grep -O foo", Want: "", At: 2},
	{In: "git grep -q foo", Want: "", At: 2},
	{In: "git grep --help", Want: "", At: 2},
	{In: "git grep --line-n foo", Want: "", At: 2},
	{In: "git grep -h -C1 foo", Want: "", At: 0},
	{In: "git grep --color=always -n foo", Want: "", At: 2},
	{In: "git -C src grep foo", Want: "", At: 1},
	{In: "git --no-pager --no-pager grep foo", Want: "", At: 2},
}

// TestSearchRules checks the table in both modes, with the position of
// each pass-through reason.
func TestSearchRules(t *testing.T) {
	table.CheckFamily(t, searchCases, []string{Rg, Grep, GitGrep})
}

// table classifies commands as shrinkrun does.
var table = ruletest.Classifier{String: rules.String, Argv: rules.Argv, Has: rules.Has}

// Rule ids, as the block's rule: line shows them.
const (
	Rg      = "bash.rg"
	Grep    = "bash.grep"
	GitGrep = "bash.git_grep"
)

// TestRgEnv: a ripgrep config file may set any option, so a command that
// would read one passes through, unless --no-config or an assignment that
// empties the variable keeps rg from reading it.
func TestRgEnv(t *testing.T) {
	env := func(k string) string {
		if k == "RIPGREP_CONFIG_PATH" {
			return "/home/u/.ripgreprc"
		}
		return ""
	}
	for cmd, want := range map[string]string{
		"rg -n foo":                      "",
		"rg --no-config -n foo":          "bash.rg",
		"RIPGREP_CONFIG_PATH= rg -n foo": "bash.rg",
		"grep -rn foo .":                 "bash.grep",
		"rg -n foo | head -5":            "",
	} {
		if got := rules.String(cmd).InEnviron(env).Rule; got != want {
			t.Errorf("%s with RIPGREP_CONFIG_PATH set: rule %q, want %q", cmd, got, want)
		}
	}
	if got := rules.String("rg -n foo").InEnviron(func(string) string { return "" }).Rule; got != "bash.rg" {
		t.Errorf("rg -n foo without RIPGREP_CONFIG_PATH: rule %q", got)
	}
}
