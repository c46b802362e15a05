package search

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The search tools' matchers read their options from an allowlist per tool
// (docs/classify.md, search rules): each known option either only chooses
// what is searched and matched (accepted), or sets part of the layout the
// summarizer reads (file names, line numbers, context, a count or a file
// list instead of lines, rg's headings), or changes the output into a form
// it does not read (refused with the reason). An option the list does not
// know passes through, and so does an abbreviation of a long option, which
// GNU grep would accept: it is not in the list.

// kind says what an option does to the walk.
type kind int

const (
	flag     kind = iota // no value
	valued               // a value: glued (-A3, --context=3) or the next word
	optional             // a value only when glued with = (grep's --color[=WHEN])
	refused              // passes through: reason says why
)

// opt is one entry of a tool's option list. name is the setting it gives
// the layout ("" for an option that only chooses what is searched).
type opt struct {
	kind   kind
	name   string
	reason string
}

// options maps each spelling of a tool's options, "-n" and "--line-number",
// to its entry.
type options map[string]opt

// setting is one layout option as the command gives it, in order: later
// ones override earlier ones, as the tools read them.
type setting struct {
	name, value string
}

// parsed is a command's argv as a tool's option list reads it.
type parsed struct {
	settings []setting
	// operands are the words that are not options, the pattern first
	// unless -e or -f gave one (pattern is then true); afterDash counts
	// those given after "--".
	operands  []string
	afterDash int
	pattern   bool
}

// has reports whether a setting of that name was given.
func (p *parsed) has(name string) bool {
	for _, s := range p.settings {
		if s.name == name {
			return true
		}
	}
	return false
}

// last returns which of names was given last, or "".
func (p *parsed) last(names ...string) string {
	for i := len(p.settings) - 1; i >= 0; i-- {
		for _, n := range names {
			if p.settings[i].name == n {
				return n
			}
		}
	}
	return ""
}

// paths returns the operands that name what is searched: all of them but
// the pattern.
func (p *parsed) paths() []string {
	if p.pattern || len(p.operands) == 0 {
		return p.operands
	}
	return p.operands[1:]
}

// walk reads argv[from:] with the tool's options. Short options cluster
// (-rn, -iA3, -ie PAT), a short option with a value takes the rest of its
// word or the next word, long ones take "=value" or the next word. grep's
// -NUM is a context size. The answer is Accept unless an option is refused
// or unknown.
func walk(argv []string, from int, opts options, dashNum bool) (parsed, classify.Answer) {
	var p parsed
	for i := from; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			p.afterDash = len(argv) - i - 1
			p.operands = append(p.operands, argv[i+1:]...)
			return p, classify.Accept()
		case strings.HasPrefix(a, "--"):
			at := i
			name, value, glued := strings.Cut(a, "=")
			o, ok := opts[name]
			switch {
			case !ok:
				return p, classify.Refuse(i, "%s option %q is not one the rule reads", argv[0], name)
			case o.kind == refused:
				return p, classify.Refuse(i, "option %q %s", name, o.reason)
			case o.kind == flag && glued:
				return p, classify.Refuse(i, "%s option %q takes no value", argv[0], name)
			case o.kind == valued && !glued:
				if i+1 == len(argv) {
					return p, classify.Refuse(i, "%s option %q without a value", argv[0], name)
				}
				i++
				value = argv[i]
			}
			if o.name == "color" && (value == "always" || value == "ansi") {
				return p, classify.Refuse(at, "option %q puts color codes in the lines", name)
			}
			p.set(o, value)
		case len(a) > 1 && a[0] == '-':
			if dashNum && isDigits(a[1:]) {
				p.set(opt{name: "context"}, a[1:])
				continue
			}
			for j := 1; j < len(a); j++ {
				name := "-" + a[j:j+1]
				o, ok := opts[name]
				switch {
				case !ok:
					return p, classify.Refuse(i, "%s option %q is not one the rule reads", argv[0], name)
				case o.kind == refused:
					return p, classify.Refuse(i, "option %q %s", name, o.reason)
				case o.kind == valued:
					value := a[j+1:]
					if value == "" {
						if i+1 == len(argv) {
							return p, classify.Refuse(i, "%s option %q without a value", argv[0], name)
						}
						i++
						value = argv[i]
					}
					p.set(o, value)
					j = len(a)
					continue
				}
				p.set(o, "")
			}
		default:
			p.operands = append(p.operands, a)
		}
	}
	return p, classify.Accept()
}

func (p *parsed) set(o opt, value string) {
	if o.name == "pattern" {
		p.pattern = true
		return
	}
	if o.name != "" {
		p.settings = append(p.settings, setting{o.name, value})
	}
}

// spell adds an option under each of its spellings.
func (opts options) spell(o opt, names ...string) options {
	for _, n := range names {
		opts[n] = o
	}
	return opts
}

// refuse adds options that pass the command through, each under its one
// or two spellings ("" for none), with the reason --explain gives.
func (opts options) refuse(reasons map[[2]string]string) {
	for names, why := range reasons {
		for _, n := range names {
			if n != "" {
				opts[n] = opt{kind: refused, reason: why}
			}
		}
	}
}

// context reports whether the settings ask for context (-A, -B, -C,
// grep's -NUM): the tools then print "--" between groups of lines, even
// for a size of 0, and context lines with "-" after the file name or line
// number where a match has ":".
func (p *parsed) context() bool { return p.has("context") }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// unreadable refuses a layout whose lines cannot be told apart: context
// lines without line numbers, when the lines carry no file name (one file
// searched, -h): "text" is then a match or a context line alike. When that
// depends on whether the one path is a file, the rule finds out from the
// lines, and counts such lines as lines it cannot place.
func unreadable(l layout, at int) (classify.Answer, bool) {
	if l.context && !l.numbers && l.names == noNames {
		return classify.Refuse(at, "context lines without -n cannot be told from matches when no file name is printed"), true
	}
	return classify.Answer{}, false
}
