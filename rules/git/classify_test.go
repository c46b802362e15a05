package git_test

import (
	"strings"
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
	GitStatus = "bash.git_status"
	GitDiff   = "bash.git_diff"
	GitLog    = "bash.git_log"
	GitShow   = "bash.git_show"
	GitPush   = "bash.git_push"
	GitPull   = "bash.git_pull"
	GitFetch  = "bash.git_fetch"
	GitClone  = "bash.git_clone"
)

// TestEnv: settings in the environment that act as an option the matcher
// refuses, from the command's own assignments or inherited, pass a
// recognized command through (issue 14 item 10); others leave the rule.
func TestEnv(t *testing.T) {
	for _, c := range []struct {
		cmd     string
		environ map[string]string
		want    string // the rule, or "" to pass through
		reason  string // part of the reason
	}{
		{cmd: "git diff", want: GitDiff},
		{cmd: "GIT_EXTERNAL_DIFF=difft git diff", reason: "GIT_EXTERNAL_DIFF=difft runs an external diff program"},
		{cmd: "git diff", environ: map[string]string{"GIT_EXTERNAL_DIFF": "difft"}, reason: "GIT_EXTERNAL_DIFF=difft"},
		{cmd: "GIT_EXTERNAL_DIFF=difft git diff --no-ext-diff", want: GitDiff},
		{cmd: "GIT_EXTERNAL_DIFF=difft git diff -- --no-ext-diff", reason: "GIT_EXTERNAL_DIFF=difft"},
		{cmd: "GIT_EXTERNAL_DIFF=difft git diff | tail -40", reason: "GIT_EXTERNAL_DIFF=difft"},
		// git show prints its patch itself unless --ext-diff, which
		// passes through on its own.
		{cmd: "GIT_EXTERNAL_DIFF=difft git show", want: GitShow},
		{cmd: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0=difft git diff", reason: "GIT_CONFIG_KEY_0 sets diff.external=difft"},
		{cmd: "GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0=auto GIT_CONFIG_KEY_1=Diff.External GIT_CONFIG_VALUE_1=x git diff", reason: "GIT_CONFIG_KEY_1 sets diff.external=x"},
		{cmd: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0=auto git diff", want: GitDiff},
		// The rules read colored output as a terminal shows it.
		{cmd: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0=always git diff", want: GitDiff},
		{cmd: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=Diff.NoPrefix GIT_CONFIG_VALUE_0=YES git diff", reason: "GIT_CONFIG_KEY_0 sets diff.noprefix=YES"},
		{cmd: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.noprefix GIT_CONFIG_VALUE_0=0 git diff", want: GitDiff},
		{cmd: "git diff", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'diff.external'='difft'"}, reason: "GIT_CONFIG_PARAMETERS sets diff.external=difft"},
		{cmd: "git diff", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'diff.srcPrefix=x/'"}, reason: "GIT_CONFIG_PARAMETERS sets diff.srcprefix=x/"},
		{cmd: "git diff", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'diff.noprefix'"}, reason: "sets diff.noprefix=true"},
		{cmd: "git diff", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'diff.noprefix'='false' 'core.x'='it'\\''s'"}, want: GitDiff},
		{cmd: "git diff", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "diff.noprefix"}, reason: "GIT_CONFIG_PARAMETERS is not in the quoted form"},
		// PARAMETERS come after the COUNT pairs: the later value wins.
		{cmd: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.noprefix GIT_CONFIG_VALUE_0=true git diff", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'diff.noprefix'='false'"}, want: GitDiff},
		{cmd: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.noprefix GIT_CONFIG_VALUE_0=false git diff", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'diff.noprefix'='true'"}, reason: "GIT_CONFIG_PARAMETERS sets diff.noprefix=true"},
		{cmd: "GIT_CONFIG_COUNT=many git diff", reason: "GIT_CONFIG_COUNT=many"},
		{cmd: "git diff --no-ext-diff", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'diff.external'='x'"}, want: GitDiff},
		{cmd: "git status", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'diff.external'='difft'"}, want: GitStatus},
		{cmd: "git status", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'status.short'='true' 'status.branch'='true'"}, want: GitStatus},
		{cmd: "git status", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'status.showUntrackedFiles'='no'"}, reason: "as with -uno"},
		{cmd: "git status", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'status.showUntrackedFiles'='all'"}, want: GitStatus},
		{cmd: "git status", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'status.displayCommentPrefix'='yes'"}, reason: "status.displaycommentprefix=yes"},
		{cmd: "git log --oneline", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'format.pretty'='fuller'"}, want: GitLog},
		{cmd: "git log --oneline", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'log.showSignature'='true'"}, reason: "as --show-signature prints"},
		{cmd: "git show", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'format.pretty'='oneline'"}, reason: "as --pretty does"},
		{cmd: "git show", environ: map[string]string{"GIT_CONFIG_PARAMETERS": "'diff.mnemonicPrefix'='true'"}, reason: "diff.mnemonicprefix"},
		// On a pipe git starts no pager; GIT_DIFF_OPTS sets context lines.
		{cmd: "GIT_PAGER='less -R' git log --oneline", want: GitLog},
		{cmd: "GIT_DIFF_OPTS=--unified=0 git diff", want: GitDiff},
	} {
		environ := func(k string) string { return c.environ[k] }
		got := rules.String(c.cmd).InEnviron(environ)
		if got.Rule != c.want || !strings.Contains(got.Reason, c.reason) {
			t.Errorf("%s (%v): %q %q, want %q %q", c.cmd, c.environ, got.Rule, got.Reason, c.want, c.reason)
		}
		if got.Rule == "" && got.Pos != "" {
			t.Errorf("%s: position %s for a reason about the environment", c.cmd, got.Pos)
		}
	}
}
