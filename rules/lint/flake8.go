package lint

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchFlake8 recognizes flake8 and python -m flake8 (matchFlake8).
func MatchFlake8(argv []string) classify.Answer { return matchPyTool(argv, "flake8", matchFlake8) }

// flake8Formats are the flake8 options whose output the rule does not
// read: another report format, file names only (-q), source lines and
// carets under each finding, the report written to a file, timings, the
// bug-report JSON, help and the version. --format=default is flake8's own
// format and is kept. flake8 accepts any unambiguous abbreviation of a long
// option, so a word that abbreviates one of these matches it too.
var flake8Formats = []string{
	"--format", "--quiet", "--show-source", "--output-file", "--tee", "--benchmark",
	"--bug-report", "--help", "--version",
}

// matchFlake8 accepts flake8 with any options except flake8Formats and a
// short-option cluster with q or h (-j takes a value).
func matchFlake8(argv []string, from int) classify.Answer {
	return matchFormats(argv, from, flake8Formats, "j")
}

// matchFormats accepts a tool of flake8's kind (flake8, pycodestyle) with
// any options except formats, or an abbreviation of one, and a short-option
// cluster with q or h before a letter of takesValue; --format=default is
// the default format and is kept.
func matchFormats(argv []string, from int, formats []string, takesValue string) classify.Answer {
	for j := from; j < len(argv); j++ {
		if v, ok := optionValue(argv, j, "--format"); ok && v == "default" {
			if argv[j] == "--format" {
				j++
			}
			continue
		}
		if abbreviates(argv[j:j+1], 0, formats) >= 0 {
			return classify.Refuse(j, "option %q changes the output format", argv[j])
		}
		if argv[j] == "--" {
			break
		}
	}
	if j := shortCluster(argv, from, "qh", takesValue); j >= 0 {
		return classify.Refuse(j, "option %q changes the output format", argv[j])
	}
	return classify.Accept()
}

// Flake8 summarizes bash.flake8 (flake8's default format,
// "PATH:ROW:COL: CODE TEXT"): the findings by code and by file, and what
// --count and --statistics add (the total and each code's count, which
// flake8 prints after the findings). flake8 prints no summary line of its
// own. Lines of neither shape (a usage error, a crash's traceback, a
// BrokenPipeError when a pipe into head closed) are kept as messages.
func Flake8(r *summarize.Run) *summarize.Body {
	rep := newReport()
	var total string
	stats := summarize.NewCapped(maxToolStats)
	for _, stream := range [][]byte{r.Stdout, r.Stderr} {
		for l := range summarize.EachLine(stream) {
			if f, ok := flake8Finding(l); ok {
				rep.add(f)
				continue
			}
			switch {
			case l == "":
			case summarize.IsDigits(l):
				total = l
			case isFlake8Statistic(l):
				stats.Add(l)
			default:
				rep.other(l)
			}
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

// flake8Finding reads a line of flake8's default format,
// "pkg/a.py:12:80: E501 line too long (82 > 79 characters)": what the
// regexp ^(.+?):(\d+):(\d+): ([A-Z]+[0-9]+) (.*)$ matches, the path
// ending at the first ":ROW:COL: CODE " that follows a byte of it. An
// error-level finding is one of the codes of flake8's "syntax errors or
// undefined names" selection (E9, F63, F7, F82).
func flake8Finding(l string) (finding, bool) {
	i, rest, ok := locatedAt(l, func(rest string) bool {
		code := flake8Code(strings.TrimPrefix(rest, " "))
		return strings.HasPrefix(rest, " ") && code != "" && len(rest) > 1+len(code) && rest[1+len(code)] == ' '
	})
	if !ok || strings.IndexByte(l, '\n') >= 0 {
		return finding{}, false
	}
	code := flake8Code(rest[1:])
	return finding{
		file:  l[:i],
		loc:   l[:len(l)-len(rest)-1],
		rule:  code,
		msg:   rest[2+len(code):],
		error: isFlake8Error(code),
	}, true
}

// locatedAt finds the first ":ROW:COL:" after a byte of l whose remainder
// accept takes (flake8's and pylint's default formats): i is where the path
// ends, rest what follows the colon after COL.
func locatedAt(l string, accept func(rest string) bool) (i int, rest string, ok bool) {
	for start := 1; start < len(l); {
		j := strings.IndexByte(l[start:], ':')
		if j < 0 {
			return 0, "", false
		}
		i = start + j
		start = i + 1
		if rest, ok = cutNumber(l[i+1:], ':'); !ok {
			continue
		}
		if rest, ok = cutNumber(rest, ':'); ok && accept(rest) {
			return i, rest, true
		}
	}
	return 0, "", false
}

// cutNumber cuts the digits that s starts with and the byte sep after
// them.
func cutNumber(s string, sep byte) (string, bool) {
	d := summarize.DigitsPrefix(s)
	if d == "" || len(d) == len(s) || s[len(d)] != sep {
		return "", false
	}
	return s[len(d)+1:], true
}

// flake8Code returns the code s starts with: capital letters, then
// digits.
func flake8Code(s string) string {
	i := 0
	for i < len(s) && 'A' <= s[i] && s[i] <= 'Z' {
		i++
	}
	if i == 0 {
		return ""
	}
	d := summarize.DigitsPrefix(s[i:])
	if d == "" {
		return ""
	}
	return s[:i+len(d)]
}

// isFlake8Error reports whether a code is one of the checks that find
// code that cannot run: syntax errors (E9), comparisons that are always
// wrong (F63), statements out of place (F7) and undefined names (F82),
// the selection flake8's own documentation and CI templates use to stop
// a build.
func isFlake8Error(code string) bool {
	return strings.HasPrefix(code, "E9") || strings.HasPrefix(code, "F63") ||
		strings.HasPrefix(code, "F7") || strings.HasPrefix(code, "F82")
}

// isFlake8Statistic reports whether l is a line of --statistics,
// "2     E111 indentation is not a multiple of 4": the count, blanks, a
// code and its first message; what the regexp ^\d+ +[A-Z]+[0-9]+ matches.
func isFlake8Statistic(l string) bool {
	d := summarize.DigitsPrefix(l)
	rest := strings.TrimLeft(l[len(d):], " ")
	return d != "" && len(rest) < len(l)-len(d) && flake8Code(rest) != ""
}
