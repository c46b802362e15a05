package search

import (
	"sync"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// gitGrepOptions are git grep's options (git 2.39) the rule knows, as
// rgOptions are rg's. git grep names the file on every line, whatever it
// searches, unless -h.
var gitGrepOptions = sync.OnceValue(func() options {
	o := options{}
	for _, n := range []string{
		"--cached", "--no-index", "--untracked", "--exclude-standard", "--no-exclude-standard",
		"--recurse-submodules", "-v", "--invert-match", "-i", "--ignore-case",
		"-w", "--word-regexp", "-a", "--text", "-I", "--textconv", "--no-textconv",
		"-r", "--recursive", "--no-recursive", "-E", "--extended-regexp", "-G", "--basic-regexp",
		"-F", "--fixed-strings", "-P", "--perl-regexp", "--full-name", "--no-color",
		"--and", "--or", "--not", "--all-match",
	} {
		o[n] = opt{kind: flag}
	}
	for _, n := range []string{"--max-depth", "--threads", "-m", "--max-count"} {
		o[n] = opt{kind: valued}
	}
	o.spell(opt{kind: optional, name: "color"}, "--color")
	o.spell(opt{kind: valued, name: "pattern"}, "-e", "-f")
	o.spell(opt{kind: valued, name: "context"}, "-A", "--after-context", "-B", "--before-context", "-C", "--context")
	o.spell(opt{name: "names"}, "-H")
	o.spell(opt{name: "nonames"}, "-h")
	o.spell(opt{name: "numbers"}, "-n", "--line-number")
	o.spell(opt{name: "column"}, "--column")
	o.spell(opt{name: "only"}, "-o", "--only-matching")
	o.spell(opt{name: "count"}, "-c", "--count")
	o.spell(opt{name: "files"}, "-l", "--files-with-matches", "--name-only")
	o.spell(opt{name: "without"}, "-L", "--files-without-match")
	o.refuse(map[[2]string]string{
		{"-z", "--null"}:                "ends file names with NUL bytes",
		{"-q", "--quiet"}:               "prints nothing",
		{"-p", "--show-function"}:       "adds a line naming the function before matches",
		{"-W", "--function-context"}:    "prints whole functions around matches",
		{"-O", "--open-files-in-pager"}: "opens the files in a pager",
		{"--heading", "--break"}:        "changes how files are separated",
		{"--help", "--ext-grep"}:        "prints no search",
	})
	return o
})

// MatchGitGrep recognizes git [--no-pager] grep with the options in
// gitGrepOptions. It is asked after the git family's rules, which answer
// Other for a subcommand they do not know: another subcommand, or an
// option before it, is not this rule's either.
func MatchGitGrep(argv []string) classify.Answer {
	sub, ok := gitSub(argv, "grep")
	if !ok {
		return classify.Other(min(sub, len(argv)-1), "not a recognized command")
	}
	p, a := walk(argv, sub+1, gitGrepOptions(), true)
	if !a.Accepted {
		return a
	}
	if !p.pattern && len(p.operands) == 0 {
		return classify.Refuse(sub, "git grep without a pattern")
	}
	if a, ok := unreadable(gitGrepLayout(argv), 0); ok {
		return a
	}
	return a
}

// gitSub finds git's subcommand after one optional --no-pager, the only
// global option the git rules take: it reports its index, and whether it
// is name.
func gitSub(argv []string, name string) (int, bool) {
	i := 1
	if i < len(argv) && argv[i] == "--no-pager" {
		i++
	}
	return i, i < len(argv) && argv[i] == name
}

// GitGrep summarizes bash.git_grep: git grep's results, file by file
// (docs/format.md).
func GitGrep(r *summarize.Run) *summarize.Body {
	return summary(r, gitGrepLayout(r.Argv))
}

// gitGrepLayout reads what argv asks of git grep's output. The operands
// after the pattern and before "--" are revisions or paths, as git finds
// them: a revision's lines start with "REV:", which the parser takes as
// part of the file's name.
func gitGrepLayout(argv []string) layout {
	l := layout{tool: "git grep"}
	sub, ok := gitSub(argv, "grep")
	if !ok {
		return l
	}
	p, _ := walk(argv, sub+1, gitGrepOptions(), true)
	l.numbers = p.has("numbers") || p.has("column")
	l.column = p.has("column")
	l.only = p.has("only")
	switch p.last("count", "files", "without") {
	case "count":
		l.mode = countMode
	case "files":
		l.mode = filesMode
	case "without":
		l.mode = withoutMode
	}
	l.context = p.context() && l.mode == linesMode
	if p.last("names", "nonames") == "nonames" {
		l.names = noNames
	}
	ops := p.paths()
	if before := len(ops) - p.afterDash; before > 0 {
		for _, op := range ops[:before] {
			if op != "(" && op != ")" {
				l.revs = append(l.revs, op)
			}
		}
	}
	return l
}
