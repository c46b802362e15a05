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
	"bytes"
	"path"
	"slices"
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
	// Output, when set, is the rule's signature: it reports whether r's
	// streams (as summarize.Readable gives them) bear its tool's own
	// framing, lines no other tool prints, so that the rule can summarize
	// the output whatever command printed it (Claim). Nil for a rule
	// matched by its command only.
	Output func(r *summarize.Run) bool
	// Host tells that the command runs other tools and prints their output
	// (a Makefile's recipes, a package.json script): when another
	// family's signature claims its output, that family's rule makes the
	// block (Block).
	Host bool
	// Finder, when set, finds the rule's own failures in its output, for
	// the boundary check beside every family's finder: a rule read from a
	// file, whose failure patterns are its own (declared.go).
	Finder summarize.Finder
	// Source is the file a rule written in the format was read from, ""
	// for a rule written in Go.
	Source string
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
		{ID: "bash.cargo_test", Commands: []string{"cargo"}, Match: cargo.MatchTest, Summarize: cargo.Test, Env: cargo.Env, Usage: []string{"cargo test"}, Output: cargo.TestOutput},
		{ID: "bash.cargo_build", Commands: []string{"cargo"}, Match: cargo.MatchBuild, Summarize: cargo.Build, Env: cargo.Env, Usage: []string{"cargo build"}, Output: cargo.BuildOutput},
		{ID: "bash.cargo_clippy", Commands: []string{"cargo"}, Match: cargo.MatchClippy, Summarize: cargo.Clippy, Env: cargo.Env, Usage: []string{"cargo clippy"}},
	}},
	{Name: "golang", Finder: golang.Finder, Rules: []Rule{
		{ID: "bash.go_test", Commands: []string{"go"}, Match: golang.MatchTest, Env: golang.Env(golang.MatchTest), Summarize: golang.Test, Usage: []string{"go test"}, Output: golang.TestOutput},
		{ID: "bash.go_build", Commands: []string{"go"}, Match: golang.MatchBuild, Env: golang.Env(golang.MatchBuild), Summarize: golang.Build, Usage: []string{"go build"}},
		{ID: "bash.go_vet", Commands: []string{"go"}, Match: golang.MatchVet, Env: golang.Env(golang.MatchVet), Summarize: golang.Vet, Usage: []string{"go vet"}},
		{ID: "bash.go_mod", Commands: []string{"go"}, Match: golang.MatchMod, Env: golang.Env(golang.MatchMod), Summarize: golang.Mod, Usage: []string{"go get", "go mod download"}, Changes: true},
	}},
	{Name: "python", Finder: python.Finder, Rules: []Rule{
		{ID: "bash.pytest", Commands: []string{"pytest", "python", "python3"}, Match: python.MatchPytest, Summarize: python.Pytest, Usage: []string{"pytest"}, Env: python.PytestEnv, Output: python.PytestOutput},
		{ID: "bash.mypy", Commands: []string{"mypy", "python", "python3"}, Match: python.MatchMypy, Summarize: python.Mypy, Usage: []string{"mypy"}, Env: python.MypyEnv},
		{ID: "bash.pip_install", Commands: []string{"pip", "pip3", "python", "python3"}, Match: python.MatchPipInstall, Summarize: python.PipInstall, Usage: []string{"pip install"}, Env: python.PipEnv, Changes: true},
		{ID: "bash.unittest", Commands: []string{"python", "python3", "./manage.py"}, Match: python.MatchUnittest, Summarize: python.Unittest, Usage: []string{"python -m unittest", "python manage.py test"}, Output: python.UnittestOutput},
	}},
	{Name: "node", Finder: node.Finder, Rules: []Rule{
		{ID: "bash.vitest", Commands: []string{"vitest", "npx"}, Match: node.MatchVitest, Summarize: node.Vitest, Usage: []string{"vitest"}, Env: node.RunnerEnv, Output: node.VitestOutput},
		{ID: "bash.jest", Commands: []string{"jest", "npx"}, Match: node.MatchJest, Summarize: node.Jest, Usage: []string{"jest"}, Env: node.RunnerEnv, Output: node.JestOutput},
		{ID: "bash.npm_test", Commands: []string{"npm", "pnpm", "yarn"}, Match: node.MatchNpmTest, Summarize: node.NpmTest, Usage: []string{"npm test"}, Env: node.TestScriptEnv, Host: true},
		{ID: "bash.tsc", Commands: []string{"tsc", "npx"}, Match: node.MatchTsc, Summarize: node.Tsc, Usage: []string{"tsc"}, Env: node.RunnerEnv, Output: node.TscOutput},
		{ID: "bash.eslint", Commands: []string{"eslint", "npx"}, Match: node.MatchESLint, Summarize: node.ESLint, Usage: []string{"eslint"}, Env: node.ESLintEnv},
		{ID: "bash.npm_install", Commands: []string{"npm", "pnpm", "yarn"}, Match: node.MatchNpmInstall, Summarize: node.NpmInstall, Usage: []string{"npm install"}, Env: node.InstallEnv, Changes: true},
	}},
	{Name: "search", Finder: search.Finder, Translated: true, Rules: []Rule{
		{ID: "bash.rg", Commands: []string{"rg"}, Match: search.MatchRg, Summarize: search.Rg, Usage: []string{"rg PATTERN"}, Env: search.RgEnv},
		{ID: "bash.grep", Commands: []string{"grep", "egrep", "fgrep"}, Match: search.MatchGrep, Summarize: search.Grep, Usage: []string{"grep -rn PATTERN"}},
		{ID: "bash.git_grep", Commands: []string{"git"}, Match: search.MatchGitGrep, Summarize: search.GitGrep, Usage: []string{"git grep -n PATTERN"}},
	}},
	{Name: "listing", Finder: listing.Finder, Translated: true, Rules: []Rule{
		{ID: "bash.find", Commands: []string{"find"}, Match: listing.MatchFind, Summarize: listing.Find, Usage: []string{"find"}},
		{ID: "bash.fd", Commands: []string{"fd", "fdfind"}, Match: listing.MatchFd, Summarize: listing.Fd, Usage: []string{"fd", "fdfind"}},
		{ID: "bash.git_ls_files", Commands: []string{"git"}, Match: listing.MatchGitLsFiles, Summarize: listing.GitLsFiles, Usage: []string{"git ls-files"}},
		{ID: "bash.git_ls_tree", Commands: []string{"git"}, Match: listing.MatchGitLsTree, Summarize: listing.GitLsTree, Usage: []string{"git ls-tree --name-only HEAD"}},
		{ID: "bash.tree", Commands: []string{"tree"}, Match: listing.MatchTree, Summarize: listing.Tree, Usage: []string{"tree"}},
		{ID: "bash.ls", Commands: []string{"ls"}, Match: listing.MatchLs, Summarize: listing.Ls, Usage: []string{"ls -la", "ls -R"}},
	}},
	{Name: "lint", Finder: lint.Finder, Rules: []Rule{
		{ID: "bash.flake8", Commands: []string{"flake8", "python", "python3"}, Match: lint.MatchFlake8, Summarize: lint.Flake8, Usage: []string{"flake8"}},
		{ID: "bash.pylint", Commands: []string{"pylint", "python", "python3"}, Match: lint.MatchPylint, Summarize: lint.Pylint, Usage: []string{"pylint"}},
		{ID: "bash.pycodestyle", Commands: []string{"pycodestyle", "python", "python3"}, Match: lint.MatchPycodestyle, Summarize: lint.Pycodestyle, Usage: []string{"pycodestyle"}},
		{ID: "bash.golangci_lint", Commands: []string{"golangci-lint"}, Match: lint.MatchGolangciLint, Summarize: lint.GolangciLint, Usage: []string{"golangci-lint run"}},
	}},
	{Name: "cc", Finder: cc.Finder, Translated: true, Rules: []Rule{
		{ID: "bash.cc", Commands: []string{"gcc", "g++", "cc", "c++", "clang", "clang++"}, Match: cc.MatchCompiler, Summarize: cc.Compiler, Usage: []string{"gcc", "g++", "cc", "clang", "clang++"}, Output: cc.CompilerOutput},
		{ID: "bash.make", Commands: []string{"make", "gmake"}, Match: cc.MatchMake, Summarize: cc.Make, Usage: []string{"make"}, Env: cc.MakeEnv, Output: cc.MakeOutput, Host: true},
		{ID: "bash.cmake_build", Commands: []string{"cmake"}, Match: cc.MatchCMakeBuild, Summarize: cc.CMakeBuild, Usage: []string{"cmake --build"}, Env: cc.MakeEnv},
		{ID: "bash.ninja", Commands: []string{"ninja"}, Match: cc.MatchNinja, Summarize: cc.Ninja, Usage: []string{"ninja"}},
		{ID: "bash.ctest", Commands: []string{"ctest"}, Match: cc.MatchCTest, Summarize: cc.CTest, Usage: []string{"ctest"}},
		{ID: "bash.clang_tidy", Commands: []string{"clang-tidy"}, Match: cc.MatchClangTidy, Summarize: cc.ClangTidy, Usage: []string{"clang-tidy"}},
		{ID: "bash.cppcheck", Commands: []string{"cppcheck"}, Match: cc.MatchCppcheck, Summarize: cc.Cppcheck, Usage: []string{"cppcheck"}},
	}},
	// Rules written in the format (declared.go): each finds its own
	// failures, in its own output.
	{Name: "shipped", Finder: noFinder, Rules: []Rule{
		changes(shipped("apt_get_install.toml", []string{"apt-get", "apt"}, "apt-get install")),
		shipped("esbuild.toml", []string{"esbuild"}, "esbuild"),
		changes(shipped("docker.toml", []string{"docker"}, "docker build", "docker pull", "docker push")),
		shipped("mvn.toml", []string{"mvn", "mvnw"}, "mvn compile", "mvn test", "mvn package"),
	}},
}

// Lookup returns the rule whose id is id: a rule read from a file
// (Declare) before the table's.
func Lookup(id string) (*Rule, bool) {
	for i := range declared {
		if r := &declared[i].Rules[0]; r.ID == id {
			return r, true
		}
	}
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
//
// The output of a Host rule's command that another family's signature
// claims (pytest's under make test) is summarized by the claiming rule, as
// recognized by output (Run.ByOutput); r itself is left as it is.
func Block(r *summarize.Run) ([]byte, bool) {
	if id, by := Route(r); id != r.Rule {
		hosted := *r
		hosted.Rule, hosted.ByOutput = id, by
		r = &hosted
	}
	rule, ok := Lookup(r.Rule)
	if !ok {
		return nil, false
	}
	finders := Finders()
	if rule.Finder != nil {
		finders = append(finders, rule.Finder)
	}
	if rule.Source != "" {
		// A rule read from a file may count a failure line and leave out
		// lines that are none: it must show every failure.
		return summarize.BlockShown(r, rule.Summarize, finders)
	}
	return summarize.Block(r, rule.Summarize, finders)
}

// Route returns the rule that makes r's block, and whether r's output
// chose it: r.Rule, or, when r.Rule is a Host's and another family's
// signature claims the output, that family's rule.
func Route(r *summarize.Run) (id string, byOutput bool) {
	if rule, ok := Lookup(r.Rule); ok && rule.Host && !r.ByOutput {
		if id, ok := Claim(r); ok && family(id) != family(r.Rule) {
			return id, true
		}
	}
	return r.Rule, r.ByOutput
}

// Claim returns the rule whose signature (Rule.Output) recognizes r's
// output, whatever its command: the first in table order. The order
// decides when one output bears two signatures: a test runner's comes
// before a compiler's and both before make's, since a runner's output
// can hold compiler diagnostics (ts-jest's TS errors) and make's "***"
// line follows any recipe that failed. The caller sets r.Cut (OutputCut)
// and then, to use the rule, r.Rule and r.ByOutput.
//
// The signatures read the first and the last claimWindow bytes of each
// stream, as a terminal shows them (summarize.Readable): a tool's framing
// is at the start of its output (pytest's header, the first compiler
// error) or at its end (the closing counts), and a claim then costs the
// same for an output of 100 KB or of 100 MB.
//
// A command that prints files (r.Argv's cat, head, sed -n...) shows a
// file's text, a saved log or a test's expected output, not a tool's run:
// its output is never claimed. Nor is an output whose failures do not
// agree with how the command ended (agrees).
func Claim(r *summarize.Run) (id string, ok bool) {
	if printsFiles(r.Argv) {
		return "", false
	}
	windows := claimWindows(r)
	for _, w := range windows {
		for i := range Table {
			for _, rule := range Table[i].Rules {
				if rule.Output != nil && rule.Output(w) {
					if !agrees(r, windows) {
						return "", false
					}
					return rule.ID, true
				}
			}
		}
	}
	return "", false
}

// agrees reports whether the windows Claim read agree with how r's
// command ended: a failure that some family's finder finds when it
// failed, none when it succeeded. A signature tells whose lines an output
// holds, not that nothing else printed the lines that matter: a script
// whose test run passed and whose next step failed would get a block that
// reads "OK" and has lost the step's lines, and a command that succeeded
// printing a failing run's log (a saved report) one that lists failures
// beside "success: true". The cut by shape keeps the lines of either.
//
// Behind a filter stage (| tail, | grep) the exit status is the filter's
// and says nothing of the tool: there is nothing to agree with. A command
// that could not be taken apart (cut_by: unknown) may be the tool's own
// (cd x && ./ci.sh), and is held to it.
func agrees(r *summarize.Run, windows []*summarize.Run) bool {
	if len(r.Cut.By) > 0 && r.Cut.By[0] != unknownCut {
		return true
	}
	for _, w := range windows {
		// Read as a failed run's output: some finders only look for
		// failures when the command failed.
		probe := *w
		probe.Exited, probe.ExitCode = true, 1
		if summarize.Failing(&probe, Finders()) {
			return r.Failed()
		}
	}
	return !r.Failed()
}

// viewers are the commands that print files as they are, or parts of
// them: the lines of a file they searched (grep -h) or decompressed
// included.
var viewers = map[string]bool{
	"cat": true, "tac": true, "head": true, "tail": true, "less": true, "more": true, "nl": true,
	"sed": true, "awk": true, "gawk": true, "bat": true, "batcat": true, "view": true, "strings": true,
	"jq": true, "xxd": true, "od": true,
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "zgrep": true,
	"zcat": true, "bzcat": true, "xzcat": true, "zstdcat": true, "zless": true, "zmore": true,
}

// printsFiles reports whether argv, a command's first stage, prints files:
// a viewer, or git printing a file at a revision (git show REV:PATH, git
// cat-file).
func printsFiles(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	if viewers[path.Base(argv[0])] {
		return true
	}
	if path.Base(argv[0]) != "git" {
		return false
	}
	for i, w := range argv[1:] {
		if strings.HasPrefix(w, "-") {
			continue
		}
		switch w {
		case "cat-file":
			return true
		case "show":
			return slices.ContainsFunc(argv[i+2:], func(a string) bool { return !strings.HasPrefix(a, "-") && strings.Contains(a, ":") })
		}
		return false
	}
	return false
}

// claimWindow is how much of the start and of the end of each stream
// Claim reads: pytest's short summary of 500 failures, or a failing
// build's last errors and make's lines, fit in it.
const claimWindow = 64 << 10

// claimWindows returns the runs Claim's signatures read: r's streams
// whole when they are short, else their starts and their ends, each cut
// at a line's end, as a terminal shows them.
func claimWindows(r *summarize.Run) []*summarize.Run {
	run := func(out, errs []byte) *summarize.Run {
		return &summarize.Run{Stdout: summarize.Readable(out), Stderr: summarize.Readable(errs), ExitCode: r.ExitCode, Exited: r.Exited}
	}
	if len(r.Stdout) <= 2*claimWindow && len(r.Stderr) <= 2*claimWindow {
		return []*summarize.Run{run(r.Stdout, r.Stderr)}
	}
	return []*summarize.Run{run(head(r.Stdout), head(r.Stderr)), run(tail(r.Stdout), tail(r.Stderr))}
}

// head returns the lines of b within its first claimWindow bytes, all of
// b when it is short.
func head(b []byte) []byte {
	if len(b) <= claimWindow {
		return b
	}
	return b[:bytes.LastIndexByte(b[:claimWindow], '\n')+1]
}

// tail returns the lines of b within its last claimWindow bytes, all of b
// when it is short.
func tail(b []byte) []byte {
	if len(b) <= claimWindow {
		return b
	}
	from := len(b) - claimWindow
	return b[from+bytes.IndexByte(b[from:], '\n')+1:]
}

// OutputCut is what may be missing from an output recognized by output,
// whose command c is: what its filter stages cut (classify.Result.Cuts),
// or, when the command could not be taken apart (cd x && pytest | tail),
// lines anywhere, by filters that cannot be seen: its counts of lines are
// then counts of lines seen (summarize.Run.Partial), under "cut_by:
// unknown".
func OutputCut(c classify.Result) summarize.Cut {
	if len(c.Stages) == 0 {
		return summarize.Cut{By: []string{unknownCut}, Start: true, End: true, Any: true}
	}
	return summarize.Cut(c.Cuts())
}

// unknownCut is the cut_by of a command whose filters could not be seen.
const unknownCut = "unknown"

// family returns the name of the family that has the rule id.
func family(id string) string {
	for _, f := range Table {
		for _, r := range f.Rules {
			if r.ID == id {
				return f.Name
			}
		}
	}
	return ""
}

// Commands lists the command forms of every rule, as --help shows them:
// a family's forms joined by ", ", the first in full and the others
// without the command name they share with it ("git status, diff, log
// --oneline"), and the families joined by "; ".
func Commands() string {
	return commands(func(Rule) bool { return true })
}

// changes marks a rule whose command changes a repository, a remote or the
// environment (Rule.Changes).
func changes(r Rule) Rule {
	r.Changes = true
	return r
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
