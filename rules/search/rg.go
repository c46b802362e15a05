package search

import (
	"sync"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// rgOptions are ripgrep's options (13.0) the rule knows. The ones that only
// choose what is searched and how it matches are accepted with no setting;
// the ones that set the layout give one; and the ones that print something
// else than result lines pass through.
var rgOptions = sync.OnceValue(func() options {
	o := options{}
	for _, n := range []string{
		"-i", "--ignore-case", "-S", "--smart-case", "-s", "--case-sensitive",
		"-v", "--invert-match", "-F", "--fixed-strings", "-w", "--word-regexp",
		"-x", "--line-regexp", "-a", "--text", "-P", "--pcre2", "--auto-hybrid-regex",
		"--binary", "--block-buffered", "--line-buffered", "--crlf", "-L", "--follow",
		"--glob-case-insensitive", "-.", "--hidden", "--ignore-file-case-insensitive",
		"--max-columns-preview", "--mmap", "--no-mmap", "-U", "--multiline", "--multiline-dotall",
		"--no-ignore", "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-files",
		"--no-ignore-global", "--no-ignore-messages", "--no-ignore-parent", "--no-ignore-vcs",
		"--no-messages", "--no-pcre2-unicode", "--no-require-git", "--no-unicode",
		"--one-file-system", "-z", "--search-zip", "--trim", "-u", "--unrestricted",
		"--no-context-separator",
	} {
		o[n] = opt{kind: flag}
	}
	for _, n := range []string{
		"--colors", "--dfa-size-limit", "-E", "--encoding", "--engine",
		"-g", "--glob", "--iglob", "--ignore-file", "-M", "--max-columns", "-m", "--max-count",
		"--max-depth", "--max-filesize", "--regex-size-limit", "-r", "--replace",
		"--sort", "--sortr", "-j", "--threads", "-t", "--type", "--type-add", "--type-clear",
		"-T", "--type-not",
	} {
		o[n] = opt{kind: valued}
	}
	o.spell(opt{kind: valued, name: "pattern"}, "-e", "--regexp", "-f", "--file")
	o.spell(opt{kind: valued, name: "context"}, "-A", "--after-context", "-B", "--before-context", "-C", "--context")
	o.spell(opt{kind: valued, name: "color"}, "--color")
	o.spell(opt{name: "noconfig"}, "--no-config")
	o.spell(opt{name: "names"}, "-H", "--with-filename")
	o.spell(opt{name: "nonames"}, "-I", "--no-filename")
	o.spell(opt{name: "numbers"}, "-n", "--line-number")
	o.spell(opt{name: "nonumbers"}, "-N", "--no-line-number")
	o.spell(opt{name: "column"}, "--column")
	o.spell(opt{name: "heading"}, "--heading")
	o.spell(opt{name: "noheading"}, "--no-heading")
	o.spell(opt{name: "pretty"}, "-p", "--pretty")
	o.spell(opt{name: "vimgrep"}, "--vimgrep")
	o.spell(opt{name: "only"}, "-o", "--only-matching")
	o.spell(opt{name: "count"}, "-c", "--count")
	o.spell(opt{name: "countmatches"}, "--count-matches")
	o.spell(opt{name: "files"}, "-l", "--files-with-matches")
	o.spell(opt{name: "without"}, "--files-without-match")
	o.refuse(map[[2]string]string{
		{"--json", ""}:                         "prints JSON events",
		{"--files", ""}:                        "lists the files it would search",
		{"--type-list", ""}:                    "lists file types",
		{"-q", "--quiet"}:                      "prints nothing",
		{"-0", "--null"}:                       "ends file names with NUL bytes",
		{"--null-data", ""}:                    "reads and prints NUL-separated records",
		{"--passthru", ""}:                     "prints every line of every file",
		{"-b", "--byte-offset"}:                "adds a byte offset to each line",
		{"--stats", ""}:                        "adds statistics after the results",
		{"--debug", ""}:                        "adds debug messages",
		{"--trace", ""}:                        "adds trace messages",
		{"--pre", "--pre-glob"}:                "runs a program over each file",
		{"--context-separator", ""}:            "replaces the -- between groups of lines",
		{"--field-context-separator", ""}:      "replaces the - after a context line's file and number",
		{"--field-match-separator", ""}:        "replaces the : after a match's file and number",
		{"--path-separator", ""}:               "rewrites the file names",
		{"--include-zero", ""}:                 "counts files without matches too",
		{"--pcre2-version", "--generate"}:      "prints no search",
		{"--hyperlink-format", "--sort-files"}: "is not one the rule reads",
	})
	return o
})

// MatchRg recognizes rg PATTERN [PATH...] with the options in rgOptions.
func MatchRg(argv []string) classify.Answer {
	if a, ok := classify.HelpFlag(argv, 1); ok {
		return a
	}
	p, a := walk(argv, 1, rgOptions(), false)
	if !a.Accepted {
		return a
	}
	if !p.pattern && len(p.operands) == 0 {
		return classify.Refuse(0, "rg without a pattern")
	}
	if a, ok := unreadable(rgLayout(argv, false), 0); ok {
		return a
	}
	return a
}

// Rg summarizes bash.rg: ripgrep's results, file by file (docs/format.md).
func Rg(r *summarize.Run) *summarize.Body {
	return summary(r, rgLayout(r.Argv, r.Terminal))
}

// rgLayout reads what argv asks of rg's output. On a terminal rg numbers
// lines and prints each file's name once, as a heading over its lines;
// through a pipe it prints "file:" before each line and no numbers.
func rgLayout(argv []string, terminal bool) layout {
	l := layout{tool: "rg"}
	if len(argv) == 0 {
		return l
	}
	p, _ := walk(argv, 1, rgOptions(), false)
	l.numbers = terminal
	l.heading = terminal
	for _, s := range p.settings {
		switch s.name {
		case "numbers":
			l.numbers = true
		case "nonumbers":
			l.numbers = false
		case "heading":
			l.heading = true
		case "noheading":
			l.heading = false
		case "pretty":
			l.heading, l.numbers = true, true
		case "vimgrep":
			l.numbers, l.column, l.only, l.heading = true, true, true, false
		case "column":
			l.numbers, l.column = true, true
		case "only":
			l.only = true
		}
	}
	switch p.last("count", "countmatches", "files", "without") {
	case "count":
		l.mode = countMode
		if l.only {
			l.matchCounts = true // rg -c -o counts matches, as --count-matches
		}
	case "countmatches":
		l.mode, l.matchCounts = countMode, true
	case "files":
		l.mode = filesMode
	case "without":
		l.mode = withoutMode
	}
	l.context = p.context() && l.mode == linesMode
	paths := p.paths()
	switch p.last("names", "nonames") {
	case "names":
		l.names = withNames
	case "nonames":
		l.names = noNames
	default:
		switch len(paths) {
		case 0:
			l.names = withNames // the working directory, searched recursively
		case 1:
			// A directory is searched recursively, with names; a file alone
			// without.
			l.names, l.root = guessNames, paths[0]
		default:
			l.names = withNames
		}
	}
	if l.names == noNames || l.mode != linesMode {
		l.heading = false
	}
	if len(paths) == 1 {
		l.only1 = paths[0]
	}
	return l
}

// RgEnv says why the environment changes rg's output: RIPGREP_CONFIG_PATH
// names a file of options that rg reads before its argv's (--json,
// --heading, a --path-separator), unless --no-config is given.
func RgEnv(argv []string, getenv func(string) string) string {
	if getenv("RIPGREP_CONFIG_PATH") == "" {
		return ""
	}
	if p, _ := walk(argv, 1, rgOptions(), false); p.has("noconfig") {
		return ""
	}
	return "RIPGREP_CONFIG_PATH gives rg options from a file"
}
