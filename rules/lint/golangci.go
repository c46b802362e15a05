package lint

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchGolangciLint recognizes golangci-lint run with its default text
// output. Another subcommand (linters, fmt, version, config) is no lint
// run and passes through as another rule's.
func MatchGolangciLint(argv []string) classify.Answer {
	switch {
	case argv[0] != "golangci-lint":
		return classify.Other(0, "not a recognized command")
	case len(argv) == 1 || argv[1] != "run":
		return classify.Other(min(1, len(argv)-1), "not golangci-lint run")
	}
	for j := 2; j < len(argv); j++ {
		a := argv[j]
		name, v, _ := strings.Cut(a, "=")
		switch {
		case name == "--output.text.print-issued-lines":
		case strings.HasPrefix(name, "--output."):
			return classify.Refuse(j, "option %q changes the output format", a)
		case name == "--help" || name == "--version" || name == "--fix":
			return classify.Refuse(j, "option %q does not print golangci-lint's findings as the rule reads them", a)
		case name == "--color" && (v == "always" || v == "" && j+1 < len(argv) && argv[j+1] == "always"):
			return classify.Refuse(j, "option %q colors the output", a)
		}
	}
	if j := shortCluster(argv, 2, "h", "cEDj"); j >= 0 {
		return classify.Refuse(j, "help requested (%s)", argv[j])
	}
	return classify.Accept()
}

// GolangciLint summarizes bash.golangci_lint (golangci-lint run's text
// output, "PATH:LINE:COL: MESSAGE (LINTER)", each finding followed by its
// source lines and a caret unless --output.text.print-issued-lines=false):
// the findings by linter and by file, and golangci-lint's own summary, the
// "N issues:" line (copied as total) and its "* LINTER: N" lines
// (statistics). A finding's message may go on over several lines
// (typecheck's compiler errors): a finding line that does not end with
// "(LINTER)" takes the lines after it up to the one that does, and those
// lines are kept as messages too (they name the compiler's own locations);
// one whose end a filter cut counts under the linter "unnamed". The lines
// between a finding and the next are its source lines, and a caret line
// is framing; lines before the first finding (a tail's cut source lines)
// and golangci-lint's log lines ("level=error msg=...") are kept as
// messages. typecheck findings are
// error level: the package does not compile.
func GolangciLint(r *summarize.Run) *summarize.Body {
	rep := newReport()
	var total string
	stats := summarize.NewCapped(maxToolStats)
	for _, stream := range [][]byte{r.Stdout, r.Stderr} {
		var open *finding // a finding whose message goes on
		afterFinding := false
		for l := range summarize.EachLine(stream) {
			if open != nil {
				if linter := golangciLinter(l); linter != "" {
					open.rule, open.error = linter, linter == "typecheck"
					rep.add(*open)
					open, afterFinding = nil, true
				}
				rep.other(l)
				continue
			}
			if f, ok := golangciFinding(l); ok {
				if f.rule == "" {
					open = &f
					continue
				}
				rep.add(f)
				afterFinding = true
				continue
			}
			switch {
			case l == "":
			case isGolangciTotal(l):
				total = golangciTotal(l)
				afterFinding = false
			case isGolangciStatistic(l):
				stats.Add(l[2:])
				afterFinding = false
			case isCaret(l), afterFinding && !strings.HasPrefix(l, "level="):
			default:
				rep.other(l)
			}
		}
		if open != nil {
			open.rule = "unnamed"
			rep.add(*open)
		}
	}
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	if total != "" {
		b.Field("total", total)
	}
	b.ListCapped("statistics", stats)
	rep.render(r, b)
	return b
}

// golangciFinding reads the first line of a finding,
// "load.go:12:15: Error return value of `f.Close` is not checked (errcheck)"
// (or "main.go:1: : # pkg" for a position without a column): what the
// regexp ^(.+?):(\d+)(?::(\d+))?: (.*)$ matches, the path ending at the
// first ":LINE: " or ":LINE:COL: " after a byte of it. The rule is the
// linter the line ends with, "" when the message goes on.
func golangciFinding(l string) (finding, bool) {
	for start := 1; start < len(l); {
		j := strings.IndexByte(l[start:], ':')
		if j < 0 {
			return finding{}, false
		}
		i := start + j
		start = i + 1
		d := summarize.DigitsPrefix(l[i+1:])
		rest := l[i+1+len(d):]
		if d == "" || !strings.HasPrefix(rest, ":") {
			continue
		}
		if d2 := summarize.DigitsPrefix(rest[1:]); d2 != "" && strings.HasPrefix(rest[1+len(d2):], ": ") {
			rest = rest[1+len(d2):]
		} else if !strings.HasPrefix(rest, ": ") {
			continue
		}
		linter := golangciLinter(l)
		msg := rest[2:]
		if linter != "" {
			msg = strings.TrimSuffix(msg[:len(msg)-len(linter)-2], " ")
		}
		return finding{
			file:  l[:i],
			loc:   l[:len(l)-len(rest)],
			rule:  linter,
			msg:   msg,
			line:  l,
			error: linter == "typecheck",
		}, true
	}
	return finding{}, false
}

// golangciLinter returns the linter a finding's last line ends with, " (NAME)"
// with NAME of letters, digits, '-' and '_'; "" when it ends with none.
func golangciLinter(l string) string {
	if !strings.HasSuffix(l, ")") {
		return ""
	}
	open := strings.LastIndex(l, " (")
	if open < 0 {
		return ""
	}
	name := l[open+2 : len(l)-1]
	if name == "" {
		return ""
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '-' && c != '_' {
			return ""
		}
	}
	return name
}

// isGolangciTotal reports whether l is golangci-lint's summary line, "6
// issues:" (before the per-linter counts) or "0 issues.".
func isGolangciTotal(l string) bool { return golangciTotal(l) != "" }

// golangciTotal returns the number of the summary line l, "" when l is
// none.
func golangciTotal(l string) string {
	d := summarize.DigitsPrefix(l)
	if d == "" || (l[len(d):] != " issues:" && l[len(d):] != " issues.") {
		return ""
	}
	return d
}

// isGolangciStatistic reports whether l is one of the summary's counts,
// "* errcheck: 3".
func isGolangciStatistic(l string) bool {
	name, n, ok := strings.Cut(strings.TrimPrefix(l, "* "), ": ")
	return ok && len(l) > 2 && l[:2] == "* " && name != "" && !strings.Contains(name, " ") && summarize.IsDigits(n)
}

// isCaret reports whether l is the caret golangci-lint prints under a
// finding's source line: blanks and tabs, then "^".
func isCaret(l string) bool {
	return strings.HasSuffix(l, "^") && strings.Trim(l[:len(l)-1], " \t") == ""
}
