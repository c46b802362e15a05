package search

import (
	"sync"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// grepOptions are GNU grep's options (3.8) the rule knows, as rgOptions
// are rg's.
var grepOptions = sync.OnceValue(func() options {
	o := options{}
	for _, n := range []string{
		"-E", "--extended-regexp", "-F", "--fixed-strings", "-G", "--basic-regexp",
		"-P", "--perl-regexp", "-i", "-y", "--ignore-case", "--no-ignore-case",
		"-w", "--word-regexp", "-x", "--line-regexp", "-s", "--no-messages",
		"-v", "--invert-match", "--line-buffered", "-a", "--text", "-I",
		"-U", "--binary", "-u", "--no-group-separator",
	} {
		o[n] = opt{kind: flag}
	}
	for _, n := range []string{
		"-m", "--max-count", "--binary-files", "-d", "--directories", "-D", "--devices",
		"--include", "--exclude", "--exclude-from", "--exclude-dir", "--label",
	} {
		o[n] = opt{kind: valued}
	}
	o.spell(opt{kind: optional, name: "color"}, "--color", "--colour")
	o.spell(opt{kind: valued, name: "pattern"}, "-e", "--regexp", "-f", "--file")
	o.spell(opt{kind: valued, name: "context"}, "-A", "--after-context", "-B", "--before-context", "-C", "--context")
	o.spell(opt{name: "recursive"}, "-r", "--recursive", "-R", "--dereference-recursive")
	o.spell(opt{name: "names"}, "-H", "--with-filename")
	o.spell(opt{name: "nonames"}, "-h", "--no-filename")
	o.spell(opt{name: "numbers"}, "-n", "--line-number")
	o.spell(opt{name: "only"}, "-o", "--only-matching")
	o.spell(opt{name: "count"}, "-c", "--count")
	o.spell(opt{name: "files"}, "-l", "--files-with-matches")
	o.spell(opt{name: "without"}, "-L", "--files-without-match")
	o.refuse(map[[2]string]string{
		{"-q", "--quiet"}:         "prints nothing",
		{"--silent", ""}:          "prints nothing",
		{"-z", "--null-data"}:     "reads and prints NUL-separated records",
		{"-Z", "--null"}:          "ends file names with NUL bytes",
		{"-b", "--byte-offset"}:   "adds a byte offset to each line",
		{"-T", "--initial-tab"}:   "pads the file name and line number with tabs",
		{"--group-separator", ""}: "replaces the -- between groups of lines",
		{"--help", ""}:            "prints help",
		{"-V", "--version"}:       "prints the version",
	})
	return o
})

// MatchGrep recognizes grep searching files: with -r (the working
// directory when no path is given) or with path operands. grep without
// either reads its standard input, which is not a search of files.
func MatchGrep(argv []string) classify.Answer {
	if !classify.GNUTools {
		return classify.Refuse(0, "grep here is not GNU grep, whose options and messages the rule reads")
	}
	p, a := walk(argv, 1, grepOptions(), true)
	if !a.Accepted {
		return a
	}
	if !p.pattern && len(p.operands) == 0 {
		return classify.Refuse(0, "grep without a pattern")
	}
	if len(p.paths()) == 0 && !p.has("recursive") {
		return classify.Refuse(0, "grep without -r or a file reads its standard input")
	}
	if a, ok := unreadable(grepLayout(argv), 0); ok {
		return a
	}
	return a
}

// Grep summarizes bash.grep: GNU grep's results, file by file
// (docs/format.md).
func Grep(r *summarize.Run) *summarize.Body {
	return summary(r, grepLayout(r.Argv))
}

// grepLayout reads what argv asks of grep's output. grep names the file
// on each line when it searches more than one: with -r (unless the one
// path given is a file) or several paths.
func grepLayout(argv []string) layout {
	l := layout{tool: "grep"}
	if len(argv) == 0 {
		return l
	}
	p, _ := walk(argv, 1, grepOptions(), true)
	l.numbers = p.has("numbers")
	l.only = p.has("only")
	switch p.last("count", "files", "without") {
	case "count":
		l.mode = countMode
	case "files":
		l.mode = filesMode
	case "without":
		l.mode = withoutMode
	}
	l.context = p.context() && l.mode == linesMode && !l.only
	paths := p.paths()
	switch p.last("names", "nonames") {
	case "names":
		l.names = withNames
	case "nonames":
		l.names = noNames
	default:
		switch {
		case len(paths) > 1:
			l.names = withNames
		case !p.has("recursive"):
			l.names = noNames
		case len(paths) == 0:
			l.names = withNames
		default:
			l.names, l.root = guessNames, paths[0]
		}
	}
	if len(paths) == 1 {
		l.only1 = paths[0]
	}
	return l
}
