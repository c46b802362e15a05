package lint

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchPylint recognizes pylint and python -m pylint (matchPylint).
func MatchPylint(argv []string) classify.Answer { return matchPyTool(argv, "pylint", matchPylint) }

// pylintFormats are the pylint options whose output the rule does not
// read: another output format (--output-format=text, the default, is kept),
// a message template, the report tables (--reports=n is kept), the report
// written to a file, and the options that print help, documentation, lists
// of messages or a configuration instead of checking. pylint accepts any
// unambiguous abbreviation of a long option, so a word that abbreviates one
// of these matches it too.
var pylintFormats = []string{
	"--output-format", "--msg-template", "--reports", "--output",
	"--help", "--long-help", "--help-msg", "--version", "--full-documentation",
	"--list-msgs", "--list-msgs-enabled", "--list-groups", "--list-conf-levels", "--list-extensions",
	"--generate-rcfile", "--generate-toml-config",
}

// pylintKept are the values of --output-format (-f) and --reports (-r)
// that keep pylint's default report.
var pylintKept = map[string]map[string]bool{
	"--output-format": {"text": true},
	"--reports":       {"n": true, "no": true, "false": true},
}

// matchPylint accepts pylint with any options except pylintFormats and a
// short-option cluster with h, or with -f or -r giving another value than
// pylintKept's.
func matchPylint(argv []string, from int) classify.Answer {
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if a == "--" {
			break
		}
		if long, v, n, ok := pylintValue(argv, j); ok {
			if !pylintKept[long][v] {
				return classify.Refuse(j, "option %q changes the output format", a)
			}
			j += n
			continue
		}
		if abbreviates(argv[j:j+1], 0, pylintFormats) >= 0 {
			return classify.Refuse(j, "option %q changes the output format", a)
		}
		if shortCluster(argv[j:j+1], 0, "h", "jsed") >= 0 {
			return classify.Refuse(j, "help requested (%s)", a)
		}
	}
	return classify.Accept()
}

// pylintValue reads argv[j] when it sets the output format or the reports,
// in full (--output-format=json, --reports n) or short (-fjson, -f json,
// -rn, or a cluster ending in the letter: -Ef json): the long option's name,
// its value, and how many words after argv[j] the value took.
func pylintValue(argv []string, j int) (long, v string, n int, ok bool) {
	a := argv[j]
	for _, long := range []string{"--output-format", "--reports"} {
		if v, ok := strings.CutPrefix(a, long+"="); ok {
			return long, v, 0, true
		}
		if a == long {
			if j+1 == len(argv) {
				return long, "", 0, true
			}
			return long, argv[j+1], 1, true
		}
	}
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return "", "", 0, false
	}
	for i := 1; i < len(a); i++ {
		switch a[i] {
		case 'f', 'r':
			long = "--output-format"
			if a[i] == 'r' {
				long = "--reports"
			}
			if i+1 < len(a) {
				return long, a[i+1:], 0, true
			}
			if j+1 == len(argv) {
				return long, "", 0, true
			}
			return long, argv[j+1], 1, true
		case 'j', 's', 'e', 'd':
			return "", "", 0, false // the rest of the word is this option's value
		}
	}
	return "", "", 0, false
}

// Pylint summarizes bash.pylint (pylint's text format,
// "PATH:LINE:COL: MSGID: MESSAGE (SYMBOL)"): the findings by message and by
// file, and pylint's "Your code has been rated at ..." line. A message may
// go on over several lines (duplicate-code lists the similar lines, blank
// ones among them): the lines after a finding that ends without its
// "(symbol)" belong to it, up to the one that ends with it, the next
// finding, module header or rating (a grep may have left out the line with
// the symbol). The "************* Module NAME" headers and the rule above
// the rating are pylint's framing.
// Other lines (a usage error, a crash) are kept as messages.
func Pylint(r *summarize.Run) *summarize.Body {
	rep := newReport()
	var rating string
	for _, stream := range [][]byte{r.Stdout, r.Stderr} {
		var open *ruleGroup // the rule of a finding whose message goes on
		for l := range summarize.EachLine(stream) {
			f, ok := pylintFinding(l)
			if !ok && open != nil && !isPylintModule(l) && !isPylintRating(l) {
				if sym := pylintSymbol(l); sym != "" {
					open.name(sym)
					open = nil
				}
				continue
			}
			open = nil
			switch {
			case ok:
				g := rep.add(f)
				sym := pylintSymbol(l)
				if sym == "" {
					open = g
				} else {
					g.name(sym)
				}
			case l == "" || isPylintModule(l) || isPylintRule(l):
			case isPylintRating(l):
				rating = l
			default:
				rep.other(l)
			}
		}
	}
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	if rating != "" {
		b.Field("rating", rating)
	}
	rep.render(r, b)
	return b
}

// pylintFinding reads the first line of a message in pylint's text format,
// "pkg/a.py:12:4: W0612: Unused variable 'y' (unused-variable)": what the
// regexp ^(.+?):(\d+):(\d+): ([CRWEFI]\d{4}): (.*)$ matches. The finding's
// rule is its message id; errors and fatal errors (E, F) are error-level.
func pylintFinding(l string) (finding, bool) {
	i, rest, ok := locatedAt(l, func(rest string) bool {
		return strings.HasPrefix(rest, " ") && isPylintID(rest[1:])
	})
	if !ok || strings.IndexByte(l, '\n') >= 0 {
		return finding{}, false
	}
	return finding{
		file:  l[:i],
		loc:   l[:len(l)-len(rest)-1],
		rule:  rest[1:6],
		msg:   rest[8:],
		line:  l,
		error: rest[1] == 'E' || rest[1] == 'F',
	}, true
}

// isPylintID reports whether s starts with a message id and ": ": a
// category letter and four digits.
func isPylintID(s string) bool {
	return len(s) >= 7 && strings.IndexByte("CRWEFI", s[0]) >= 0 && summarize.IsDigits(s[1:5]) && s[5:7] == ": "
}

// pylintSymbol returns the symbol a message's last line ends with, in
// parentheses: lower-case letters and digits in words joined by hyphens
// ("unused-variable"), what the regexp \(([a-z0-9]+(?:-[a-z0-9]+)*)\)$
// captures; "" when it ends with none.
func pylintSymbol(l string) string {
	if !strings.HasSuffix(l, ")") {
		return ""
	}
	open := strings.LastIndexByte(l, '(')
	if open < 0 {
		return ""
	}
	sym := l[open+1 : len(l)-1]
	if sym == "" || sym[0] == '-' || sym[len(sym)-1] == '-' || strings.Contains(sym, "--") {
		return ""
	}
	for i := 0; i < len(sym); i++ {
		if c := sym[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return ""
		}
	}
	return sym
}

// isPylintRating reports whether l is pylint's score line, "Your code has
// been rated at 9.29/10" (and the previous run's score when it kept one).
func isPylintRating(l string) bool {
	return strings.HasPrefix(l, "Your code has been rated at ")
}

// isPylintModule reports whether l is pylint's header of a module's
// messages, "************* Module pkg.a".
func isPylintModule(l string) bool {
	return strings.HasPrefix(l, "************* Module ")
}

// isPylintRule reports whether l is the rule of dashes pylint prints
// above the rating.
func isPylintRule(l string) bool {
	return len(l) > 10 && strings.Trim(l, "-") == ""
}
