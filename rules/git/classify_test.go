package git_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// gitCases are git's network verbs and git show in string mode: Want is the
// rule, or "" for a pass-through, and Explain the exact --explain text.
var gitCases = []ruletest.ExplainedCase{
	{In: "git push", Want: GitPush, Explain: ""},
	{In: "git push origin main", Want: GitPush, Explain: ""},
	{In: "git push -u origin feature/x", Want: GitPush, Explain: ""},
	{In: "git push --force-with-lease origin HEAD", Want: GitPush, Explain: ""},
	{In: "git push --progress origin main 2>&1", Want: GitPush, Explain: ""},
	{In: "git push -v --dry-run", Want: GitPush, Explain: ""},
	{In: "git push origin --delete old", Want: GitPush, Explain: ""},
	{In: "git push --tags", Want: GitPush, Explain: ""},
	{In: "git --no-pager push", Want: GitPush, Explain: ""},
	{In: "git pull", Want: GitPull, Explain: ""},
	{In: "git pull --rebase", Want: GitPull, Explain: ""},
	{In: "git pull --no-rebase origin main", Want: GitPull, Explain: ""},
	{In: "git pull --ff-only --progress 2>&1 | tail -20", Want: GitPull, Explain: ""},
	{In: "git fetch", Want: GitFetch, Explain: ""},
	{In: "git fetch --all --prune --tags", Want: GitFetch, Explain: ""},
	{In: "git fetch origin main:refs/remotes/origin/main", Want: GitFetch, Explain: ""},
	{In: "git fetch -q", Want: GitFetch, Explain: ""},
	{In: "git clone https://example.com/r.git", Want: GitClone, Explain: ""},
	{In: "git clone --depth 1 --progress file:///tmp/r.git dir", Want: GitClone, Explain: ""},
	{In: "git clone --bare r.git", Want: GitClone, Explain: ""},
	{In: "git show", Want: GitShow, Explain: ""},
	{In: "git show HEAD~1", Want: GitShow, Explain: ""},
	{In: "git show --stat v1.0", Want: GitShow, Explain: ""},
	{In: "git show abc123 -- src", Want: GitShow, Explain: ""},
	{In: "git show -m --first-parent HEAD", Want: GitShow, Explain: ""},
	{In: "git show --abbrev-commit --decorate", Want: GitShow, Explain: ""},
	{In: "git show HEAD~3..HEAD", Want: GitShow, Explain: ""},

	{In: "git push --porcelain", Want: "", Explain: `1:10: option "--porcelain" changes the output format; passing through`},
	{In: "git fetch --porcelain", Want: "", Explain: `1:11: option "--porcelain" changes the output format; passing through`},
	{In: "git fetch --negotiate-only --negotiation-tip=HEAD", Want: "", Explain: `1:11: option "--negotiate-only" changes the output format; passing through`},
	{In: "git pull --help", Want: "", Explain: "1:10: help or version requested (--help); passing through"},
	{In: "git clone -h", Want: "", Explain: "1:11: help or version requested (-h); passing through"},
	{In: "git -C repo push", Want: "", Explain: `1:5: git global option "-C"; passing through`},
	{In: "git show HEAD:src/main.rs", Want: "", Explain: `1:10: "HEAD:src/main.rs" names a file or tree, whose content git show prints; passing through`},
	{In: "git show v1.0:", Want: "", Explain: `1:10: "v1.0:" names a file or tree, whose content git show prints; passing through`},
	{In: "git show :0:a.go", Want: "", Explain: `1:10: ":0:a.go" names a file or tree, whose content git show prints; passing through`},
	{In: "git show --format=%H", Want: "", Explain: `1:10: option "--format=%H" changes the output format; passing through`},
	{In: "git show --pretty=fuller", Want: "", Explain: `1:10: option "--pretty=fuller" changes the output format; passing through`},
	{In: "git show --oneline", Want: "", Explain: `1:10: option "--oneline" changes the output format; passing through`},
	{In: "git show --name-only", Want: "", Explain: `1:10: option "--name-only" changes the output format; passing through`},
	{In: "git show --name-status HEAD", Want: "", Explain: `1:10: option "--name-status" changes the output format; passing through`},
	{In: "git show -s", Want: "", Explain: `1:10: option "-s" changes the output format; passing through`},
	{In: "git show --no-patch", Want: "", Explain: `1:10: option "--no-patch" changes the output format; passing through`},
	{In: "git show --word-diff", Want: "", Explain: `1:10: option "--word-diff" changes the output format; passing through`},
	{In: "git show --color=always", Want: "", Explain: `1:10: option "--color=always" changes the output format; passing through`},
	{In: "git show --graph", Want: "", Explain: `1:10: option "--graph" changes the output format; passing through`},
	{In: "git show --show-signature", Want: "", Explain: `1:10: option "--show-signature" changes the output format; passing through`},
	{In: "git show --help", Want: "", Explain: "1:10: help or version requested (--help); passing through"},
	{In: "git remote -v", Want: "", Explain: "1:5: not a recognized command; passing through"},
}

func TestClassify(t *testing.T) {
	table.CheckExplained(t, gitCases, []ruletest.ArgvCase{
		{In: []string{"git", "push", "origin", "HEAD:refs/for/main"}, Want: GitPush},
		{In: []string{"git", "show", "HEAD", "--", "a b.go"}, Want: GitShow},
		{In: []string{"git", "show", "HEAD:a b.go"}, Want: ""},
		{In: []string{"git", "show", "--format=%H %s"}, Want: ""},
	})
}

// table classifies commands as shrinkrun does.
var table = ruletest.Classifier{String: rules.String, Argv: rules.Argv, Has: rules.Has}

// Rule ids, as the block's rule: line shows them.
const (
	GitShow  = "bash.git_show"
	GitPush  = "bash.git_push"
	GitPull  = "bash.git_pull"
	GitFetch = "bash.git_fetch"
	GitClone = "bash.git_clone"
)
