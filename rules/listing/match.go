package listing

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The listing tools' matchers (but find's, whose expression is read in
// find.go) read their options from an allowlist per tool, as the search
// family's do (docs/classify.md, listing rules): an option is accepted
// when it only chooses what is listed or how the listing is sorted, sets
// part of the layout the rule reads (name gives it), or passes through
// with its reason. An unknown option, or an abbreviation of a long one,
// passes through.

type kind int

const (
	flag    kind = iota // no value
	valued              // a value: glued (-L2, --level=2) or the next word
	refused             // passes through: reason says why
)

type opt struct {
	kind   kind
	reason string
}

type options map[string]opt

// spell adds an option under each of its spellings.
func (o options) spell(v opt, names ...string) options {
	for _, n := range names {
		o[n] = v
	}
	return o
}

// flags adds options that take no value and set nothing.
func (o options) flags(names ...string) options { return o.spell(opt{kind: flag}, names...) }

// values adds options that take a value and set nothing.
func (o options) values(names ...string) options { return o.spell(opt{kind: valued}, names...) }

// refuse adds options that pass through with the reason.
func (o options) refuse(reason string, names ...string) options {
	return o.spell(opt{kind: refused, reason: reason}, names...)
}

// walk reads argv[from:] with opts: short options cluster (-la), a short
// option with a value takes the rest of its word or the next word, long
// ones "=value" or the next word; "--" ends the options.
func walk(argv []string, from int, opts options) classify.Answer {
	return scan(argv, from, opts, func(string) {})
}

// scan is walk that also calls seen with each option's name ("-l",
// "--recursive") and with "" for each operand, for the rules whose
// reading depends on them (ls).
func scan(argv []string, from int, opts options, seen func(string)) classify.Answer {
	for i := from; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			for range argv[i+1:] {
				seen("")
			}
			return classify.Accept()
		case strings.HasPrefix(a, "--"):
			name, _, glued := strings.Cut(a, "=")
			o, ok := opts[name]
			switch {
			case !ok:
				return classify.Refuse(i, "%s option %q is not one the rule reads", argv[0], name)
			case o.kind == refused:
				return classify.Refuse(i, "option %q %s", name, o.reason)
			case o.kind == flag && glued:
				return classify.Refuse(i, "%s option %q takes no value", argv[0], name)
			case o.kind == valued && !glued:
				if i+1 == len(argv) {
					return classify.Refuse(i, "%s option %q without a value", argv[0], name)
				}
				i++ // its value
			}
			seen(name)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				name := "-" + a[j:j+1]
				o, ok := opts[name]
				switch {
				case !ok:
					return classify.Refuse(i, "%s option %q is not one the rule reads", argv[0], name)
				case o.kind == refused:
					return classify.Refuse(i, "option %q %s", name, o.reason)
				case o.kind == valued:
					if j+1 == len(a) { // the value is the next word
						if i+1 == len(argv) {
							return classify.Refuse(i, "%s option %q without a value", argv[0], name)
						}
						i++
					}
					j = len(a)
				}
				seen(name)
			}
		default:
			seen("")
		}
	}
	return classify.Accept()
}
