// Package rules is the table of shrinkrun's rules: for each family of
// tools (one package each under rules/), its rules and the Finder of its
// failures; for each rule, its id, the command names it routes on, its
// matcher, its summarizer and the command forms --help and shrinkrun prompt
// list. Everything that needs to know the rules derives from the table:
// classification (Match, String, Argv), the summarizer of a run (Block),
// the boundary check's finders, --help, shrinkrun prompt, the benchmark
// inputs, and the test that checks README.md's list of rules.
package rules

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/rules/cargo"
	"github.com/shrinkrun/shrinkrun/rules/cc"
	"github.com/shrinkrun/shrinkrun/rules/git"
	"github.com/shrinkrun/shrinkrun/rules/golang"
	"github.com/shrinkrun/shrinkrun/rules/lint"
	"github.com/shrinkrun/shrinkrun/rules/listing"
	"github.com/shrinkrun/shrinkrun/rules/node"
	"github.com/shrinkrun/shrinkrun/rules/python"
	"github.com/shrinkrun/shrinkrun/rules/search"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// Rule is one rule of the table.
type Rule struct {
	// ID is the rule's id, as the block's rule: line shows it.
	ID string
	// Commands are the argv[0] words whose commands Match is asked about.
	Commands []string
	// Match reads the first stage of a command whose argv[0] is one of
	// Commands, its assignments removed.
	Match func(argv []string) classify.Answer
	// Summarize makes the rule's body.
	Summarize summarize.Func
	// Usage lists the forms of the command the rule recognizes, as --help
	// and shrinkrun prompt list them.
	Usage []string
	// Changes marks a command that changes a repository, a remote or the
	// environment (a push, an install). shrinkrun prompt does not list it:
	// on the prompt route the client decides on `shrinkrun ...`, and a user
	// who allows that to save a summary should not be asked to allow these
	// (docs/agents.md, "The prompt route").
	Changes bool
	// Env, when set, reads the environment the command runs in (getenv
	// sees its own assignments first) for the first stage's argv as the
	// tool reads it, and says why it changes the output the rule reads, or
	// "": an option the tool also takes from the environment
	// (classify.Result.InEnviron).
	Env func(argv []string, getenv func(string) string) string
}

// Family is one family of tools: the package under rules/ that holds its
// matchers, rules and finder, and its corpus (rules/NAME/testdata).
type Family struct {
	Name   string
	Finder summarize.Finder
	Rules  []Rule
	// Translated tells that the tools translate the messages the rules
	// read by the locale (gettext): in a locale that would translate them
	// the rules pass through (classify.Result.InLocale).
	Translated bool
}

// Table is every family, in the order --help and shrinkrun prompt list
// them, and each family's rules in that order too.
var Table = []Family{
	{Name: "git", Finder: git.Finder, Translated: true, Rules: []Rule{
		{ID: "bash.git_status", Commands: []string{"git"}, Match: git.MatchStatus, Summarize: git.Status, Env: git.StatusEnv, Usage: []string{"git status"}},
		{ID: "bash.git_diff", Commands: []string{"git"}, Match: git.MatchDiff, Summarize: git.Diff, Env: git.DiffEnv, Usage: []string{"git diff"}},
		{ID: "bash.git_log", Commands: []string{"git"}, Match: git.MatchLog, Summarize: git.Log, Env: git.LogEnv, Usage: []string{"git log --oneline"}},
		{ID: "bash.git_show", Commands: []string{"git"}, Match: git.MatchShow, Summarize: git.Show, Env: git.ShowEnv, Usage: []string{"git show"}},
		{ID: "bash.git_push", Commands: []string{"git"}, Match: git.MatchPush, Summarize: git.Push, Usage: []string{"git push"}, Changes: true},
		{ID: "bash.git_pull", Commands: []string{"git"}, Match: git.MatchPull, Summarize: git.Pull, Usage: []string{"git pull"}, Changes: true},
		{ID: "bash.git_fetch", Commands: []string{"git"}, Match: git.MatchFetch, Summarize: git.Fetch, Usage: []string{"git fetch"}, Changes: true},
		{ID: "bash.git_clone", Commands: []string{"git"}, Match: git.MatchClone, Summarize: git.Clone, Usage: []string{"git clone"}, Changes: true},
	}},
	{Name: "cargo", Finder: cargo.Finder, Rules: []Rule{
		{ID: "bash.cargo_check", Commands: []string{"cargo"}, Match: cargo.MatchCheck, Summarize: cargo.Check, Env: cargo.Env, Usage: []string{"cargo check"}},
		{ID: "bash.cargo_test", Commands: []string{"cargo"}, Match: cargo.MatchTest, Summarize: cargo.Test, Env: cargo.Env, Usage: []string{"cargo test"}},
		{ID: "bash.cargo_build", Commands: []string{"cargo"}, Match: cargo.MatchBuild, Summarize: cargo.Build, Env: cargo.Env, Usage: []string{"cargo build"}},
		{ID: "bash.cargo_clippy", Commands: []string{"cargo"}, Match: cargo.MatchClippy, Summarize: cargo.Clippy, Env: cargo.Env, Usage: []string{"cargo clippy"}},
	}},
	{Name: "golang", Finder: golang.Finder, Rules: []Rule{
		{ID: "bash.go_test", Commands: []string{"go"}, Match: golang.MatchTest, Env: golang.Env(golang.MatchTest), Summarize: golang.Test, Usage: []string{"go test"}},
		{ID: "bash.go_build", Commands: []string{"go"}, Match: golang.MatchBuild, Env: golang.Env(golang.MatchBuild), Summarize: golang.Build, Usage: []string{"go build"}},
		{ID: "bash.go_vet", Commands: []string{"go"}, Match: golang.MatchVet, Env: golang.Env(golang.MatchVet), Summarize: golang.Vet, Usage: []string{"go vet"}},
		{ID: "bash.go_mod", Commands: []string{"go"}, Match: golang.MatchMod, Env: golang.Env(golang.MatchMod), Summarize: golang.Mod, Usage: []string{"go get", "go mod download"}, Changes: true},
	}},
	{Name: "python", Finder: python.Finder, Rules: []Rule{
		{ID: "bash.pytest", Commands: []string{"pytest", "python", "python3"}, Match: python.MatchPytest, Summarize: python.Pytest, Usage: []string{"pytest"}, Env: python.PytestEnv},
		{ID: "bash.mypy", Commands: []string{"mypy", "python", "python3"}, Match: python.MatchMypy, Summarize: python.Mypy, Usage: []string{"mypy"}, Env: python.MypyEnv},
		{ID: "bash.pip_install", Commands: []string{"pip", "pip3", "python", "python3"}, Match: python.MatchPipInstall, Summarize: python.PipInstall, Usage: []string{"pip install"}, Env: python.PipEnv, Changes: true},
	}},
	{Name: "node", Finder: node.Finder, Rules: []Rule{
		{ID: "bash.vitest", Commands: []string{"vitest", "npx"}, Match: node.MatchVitest, Summarize: node.Vitest, Usage: []string{"vitest"}, Env: node.RunnerEnv},
		{ID: "bash.jest", Commands: []string{"jest", "npx"}, Match: node.MatchJest, Summarize: node.Jest, Usage: []string{"jest"}, Env: node.RunnerEnv},
		{ID: "bash.npm_test", Commands: []string{"npm", "pnpm", "yarn"}, Match: node.MatchNpmTest, Summarize: node.NpmTest, Usage: []string{"npm test"}, Env: node.TestScriptEnv},
		{ID: "bash.tsc", Commands: []string{"tsc", "npx"}, Match: node.MatchTsc, Summarize: node.Tsc, Usage: []string{"tsc"}, Env: node.RunnerEnv},
		{ID: "bash.eslint", Commands: []string{"eslint", "npx"}, Match: node.MatchESLint, Summarize: node.ESLint, Usage: []string{"eslint"}, Env: node.ESLintEnv},
		{ID: "bash.npm_install", Commands: []string{"npm", "pnpm", "yarn"}, Match: node.MatchNpmInstall, Summarize: node.NpmInstall, Usage: []string{"npm install"}, Env: node.InstallEnv, Changes: true},
	}},
	{Name: "search", Finder: search.Finder, Translated: true, Rules: []Rule{
		{ID: "bash.rg", Commands: []string{"rg"}, Match: search.MatchRg, Summarize: search.Rg, Usage: []string{"rg PATTERN"}, Env: search.RgEnv},
		{ID: "bash.grep", Commands: []string{"grep"}, Match: search.MatchGrep, Summarize: search.Grep, Usage: []string{"grep -rn PATTERN"}},
		{ID: "bash.git_grep", Commands: []string{"git"}, Match: search.MatchGitGrep, Summarize: search.GitGrep, Usage: []string{"git grep -n PATTERN"}},
	}},
	{Name: "listing", Finder: listing.Finder, Translated: true, Rules: []Rule{
		{ID: "bash.find", Commands: []string{"find"}, Match: listing.MatchFind, Summarize: listing.Find, Usage: []string{"find"}},
		{ID: "bash.fd", Commands: []string{"fd", "fdfind"}, Match: listing.MatchFd, Summarize: listing.Fd, Usage: []string{"fd", "fdfind"}},
		{ID: "bash.git_ls_files", Commands: []string{"git"}, Match: listing.MatchGitLsFiles, Summarize: listing.GitLsFiles, Usage: []string{"git ls-files"}},
		{ID: "bash.tree", Commands: []string{"tree"}, Match: listing.MatchTree, Summarize: listing.Tree, Usage: []string{"tree"}},
		{ID: "bash.ls", Commands: []string{"ls"}, Match: listing.MatchLs, Summarize: listing.Ls, Usage: []string{"ls -la", "ls -R"}},
	}},
	{Name: "lint", Finder: lint.Finder, Rules: []Rule{
		{ID: "bash.flake8", Commands: []string{"flake8", "python", "python3"}, Match: lint.MatchFlake8, Summarize: lint.Flake8, Usage: []string{"flake8"}},
		{ID: "bash.pylint", Commands: []string{"pylint", "python", "python3"}, Match: lint.MatchPylint, Summarize: lint.Pylint, Usage: []string{"pylint"}},
		{ID: "bash.golangci_lint", Commands: []string{"golangci-lint"}, Match: lint.MatchGolangciLint, Summarize: lint.GolangciLint, Usage: []string{"golangci-lint run"}},
	}},
	{Name: "cc", Finder: cc.Finder, Translated: true, Rules: []Rule{
		{ID: "bash.cc", Commands: []string{"gcc", "g++", "cc", "c++", "clang", "clang++"}, Match: cc.MatchCompiler, Summarize: cc.Compiler, Usage: []string{"gcc", "g++", "cc", "clang", "clang++"}},
		{ID: "bash.make", Commands: []string{"make", "gmake"}, Match: cc.MatchMake, Summarize: cc.Make, Usage: []string{"make"}, Env: cc.MakeEnv},
		{ID: "bash.cmake_build", Commands: []string{"cmake"}, Match: cc.MatchCMakeBuild, Summarize: cc.CMakeBuild, Usage: []string{"cmake --build"}, Env: cc.MakeEnv},
		{ID: "bash.ninja", Commands: []string{"ninja"}, Match: cc.MatchNinja, Summarize: cc.Ninja, Usage: []string{"ninja"}},
		{ID: "bash.ctest", Commands: []string{"ctest"}, Match: cc.MatchCTest, Summarize: cc.CTest, Usage: []string{"ctest"}},
	}},
}

// Lookup returns the rule whose id is id.
func Lookup(id string) (*Rule, bool) {
	for i := range Table {
		for j := range Table[i].Rules {
			if r := &Table[i].Rules[j]; r.ID == id {
				return r, true
			}
		}
	}
	return nil, false
}

// Finders returns every family's Finder, in table order.
func Finders() []summarize.Finder {
	fs := make([]summarize.Finder, len(Table))
	for i, f := range Table {
		fs[i] = f.Finder
	}
	return fs
}

// Has reports whether a rule has the id.
func Has(id string) bool {
	_, ok := Lookup(id)
	return ok
}

// Block renders the block of r with the rule named by r.Rule and every
// family's finder (summarize.Block). It reports false when no rule has that
// id, or the rule failed on this output.
func Block(r *summarize.Run) ([]byte, bool) {
	rule, ok := Lookup(r.Rule)
	if !ok {
		return nil, false
	}
	return summarize.Block(r, rule.Summarize, Finders())
}

// Commands lists the command forms of every rule, as --help shows them: a family's forms joined by ", ", the first in full and
// the others without the command name they share with it ("git status,
// diff, log --oneline"), and the families joined by "; ".
func Commands() string {
	return commands(func(Rule) bool { return true })
}

// PromptCommands lists, as Commands does, the forms shrinkrun prompt asks
// an agent to run through shrinkrun: those of the rules that change
// nothing.
func PromptCommands() string {
	return commands(func(r Rule) bool { return !r.Changes })
}

func commands(keep func(Rule) bool) string {
	var b strings.Builder
	for _, f := range Table {
		var rs []Rule
		for _, r := range f.Rules {
			if keep(r) {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		first := ""
		for j, r := range rs {
			for k, form := range r.Usage {
				name, rest, _ := strings.Cut(form, " ")
				switch {
				case j == 0 && k == 0:
					first = name
				case name == first && rest != "":
					form = rest
				}
				if j > 0 || k > 0 {
					b.WriteString(", ")
				}
				b.WriteString(form)
			}
		}
	}
	return b.String()
}
