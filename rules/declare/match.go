package declare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// option is one entry of [match]'s accept or refuse lists: "--name" (the
// word, or --name=VALUE), "-x" (the word, or the letter in a cluster such
// as -xy), "-D*" (every word that starts with -D), and any of these
// followed by a space and a placeholder ("-o OPTION"): the option takes
// the next word as its value.
type option struct {
	text   string
	prefix bool
	value  bool
}

func readOptions(key string, specs []string) ([]option, error) {
	var opts []option
	for _, s := range specs {
		text, placeholder, hasValue := strings.Cut(strings.TrimSpace(s), " ")
		o := option{value: hasValue && strings.TrimSpace(placeholder) != ""}
		o.text, o.prefix = strings.CutSuffix(text, "*")
		if len(o.text) < 2 || o.text[0] != '-' || o.text == "--" || strings.ContainsAny(o.text, "*= \t") {
			return nil, fmt.Errorf("%s %q: an option (--name, -x, -D*, or one of these and a placeholder for its value: \"-o VALUE\")", key, s)
		}
		opts = append(opts, o)
	}
	return opts, nil
}

// short reports whether o is a one-letter option (-x).
func (o option) short() bool { return len(o.text) == 2 && o.text[1] != '-' }

// matches reports whether the word w is o: the option itself, its
// --name=VALUE form, or a word o's prefix starts.
func (o option) matches(w string) bool {
	switch {
	case o.prefix:
		return strings.HasPrefix(w, o.text)
	case w == o.text:
		return true
	case strings.HasPrefix(o.text, "--"):
		return strings.HasPrefix(w, o.text+"=")
	}
	return false
}

// find returns the option of opts that the word w is.
func find(opts []option, w string) (option, bool) {
	for _, o := range opts {
		if o.matches(w) {
			return o, true
		}
	}
	return option{}, false
}

// refused returns the option of the refuse list that w is, or that one of
// its letters is when w is a cluster of short options (-ys) that accept
// does not name as a whole (-DskipTests for -D*): a false match only
// passes the command through. Letters after one that accept says takes a
// value are that value.
func (r *Rule) refused(w string) (option, bool) {
	if o, ok := find(r.refuse, w); ok || strings.HasPrefix(w, "--") {
		return o, ok
	}
	if _, ok := find(r.accept, w); ok {
		return option{}, false
	}
	for k := 1; k < len(w); k++ {
		if o, ok := find(r.refuse, "-"+w[k:k+1]); ok && o.short() {
			return o, true
		}
		if o, ok := find(r.accept, "-"+w[k:k+1]); ok && o.short() && o.value {
			break
		}
	}
	return option{}, false
}

// Match is the rule's classify matcher (rules.Rule.Match): it reads argv,
// the first stage of a command whose argv[0] is one of Commands.
//
// The subcommand is the first words that are not options (an option of
// accept or refuse with a value skips its value); a command whose first
// words are none of the rule's subcommands is not the rule's (Other), so
// the rules after it are asked. Then every option up to a "--" must be
// one the rule reads: help or version passes through, an option refuse
// names passes through, and so does one that accept, when given, does not
// name (Refuse). Clusters of short options (-qy) are read letter by
// letter.
func (r *Rule) Match(argv []string) classify.Answer {
	known := append(slices.Clip(r.accept), r.refuse...)
	var words []int
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		switch {
		case w == "--":
			for j := i + 1; j < len(argv); j++ {
				words = append(words, j)
			}
			i = len(argv)
		case w == "-" || !strings.HasPrefix(w, "-"):
			words = append(words, i)
		default:
			if o, ok := find(known, w); ok && o.value && w == o.text {
				i++
			}
		}
	}
	if len(r.subcommands) > 0 && !r.subcommand(argv, words) {
		at := 1
		if len(words) > 0 {
			at = words[0]
		}
		if at >= len(argv) {
			at = len(argv) - 1
		}
		return classify.Other(at, "not a recognized command")
	}
	if a, ok := classify.HelpFlag(argv, 1); ok {
		return a
	}
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if w == "--" {
			break
		}
		if w == "-" || !strings.HasPrefix(w, "-") {
			continue
		}
		if o, ok := r.refused(w); ok {
			return classify.Refuse(i, "%s makes rule %s pass through (its refuse list)", o.text, r.ID)
		}
		if r.accept == nil {
			if o, ok := find(known, w); ok && o.value && w == o.text {
				i++
			}
			continue
		}
		o, ok := r.accepted(w)
		if !ok {
			return classify.Refuse(i, "option %s is not one rule %s reads (its accept list)", w, r.ID)
		}
		if o.value && w == o.text {
			i++
		}
	}
	if err := r.compile(); err != nil {
		return classify.Other(0, "rule file %v", err)
	}
	return classify.Accept()
}

// accepted finds w in the accept list, as a whole or, for a cluster of
// short options (-qy), letter by letter: each letter must be accepted, and
// a letter that takes a value takes the rest of the word, or the next word
// when it is the last. The option returned says whether the next word is
// a value.
func (r *Rule) accepted(w string) (option, bool) {
	if o, ok := find(r.accept, w); ok {
		return o, true
	}
	if strings.HasPrefix(w, "--") || len(w) < 3 {
		return option{}, false
	}
	for k := 1; k < len(w); k++ {
		o, ok := find(r.accept, "-"+w[k:k+1])
		if !ok || !o.short() {
			return option{}, false
		}
		if o.value {
			if k == len(w)-1 {
				return option{text: w, value: true}, true
			}
			return option{}, true
		}
	}
	return option{}, true
}

// subcommand reports whether the words that are not options begin with
// one of the rule's subcommands.
func (r *Rule) subcommand(argv []string, words []int) bool {
	for _, sub := range r.subcommands {
		if len(words) < len(sub) {
			continue
		}
		ok := true
		for j, w := range sub {
			if argv[words[j]] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
