package deny

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// script is a command string taken apart for the matchers: every simple
// command in it, wherever it is (a list, a pipeline, a subshell, a command
// substitution, a function or loop body), in source order.
type script struct {
	src  string
	file *syntax.File // nil when the string does not parse
	cmds []simple
}

// simple is one simple command.
type simple struct {
	// text is its source text: assignments and words, without the
	// redirections around it.
	text string
	// words are its words after the assignments, each as the pattern of
	// what bash may pass for it.
	words []pattern
	// raw are the same words as written.
	raw []string
	// assigns is true when assignments precede the words.
	assigns bool
	call    *syntax.CallExpr // nil for a declaration (export, local)
}

func parse(src string) *script {
	s := &script{src: src}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil {
		return s
	}
	s.file = f
	// `time CMD` is one command to a reader that, like Gemini CLI's, takes
	// time for a program: its text starts at time.
	timed := map[*syntax.CallExpr]string{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.TimeClause:
			if n.Stmt != nil {
				if call, ok := n.Stmt.Cmd.(*syntax.CallExpr); ok && len(n.Stmt.Redirs) == 0 {
					timed[call] = s.src[n.Pos().Offset():call.End().Offset()]
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			c := simple{text: s.slice(n), assigns: len(n.Assigns) > 0, call: n}
			if t, ok := timed[n]; ok {
				c.text = t
			}
			for _, w := range n.Args {
				c.words = append(c.words, wordPattern(w))
				c.raw = append(c.raw, s.slice(w))
			}
			s.cmds = append(s.cmds, c)
		case *syntax.DeclClause:
			c := simple{text: s.slice(n)}
			c.words = append(c.words, literal(n.Variant.Value))
			c.raw = append(c.raw, n.Variant.Value)
			for _, a := range n.Args {
				c.words = append(c.words, pattern{star})
				c.raw = append(c.raw, s.slice(a))
			}
			s.cmds = append(s.cmds, c)
		}
		return true
	})
	return s
}

func (s *script) slice(n syntax.Node) string {
	return s.src[n.Pos().Offset():n.End().Offset()]
}

// pattern is a string some of whose parts are unknown: a sequence of
// literal bytes and stars, each star standing for any string (an
// expansion, a glob). A fully literal pattern is one string.
type pattern []elem

type elem struct {
	star bool
	b    byte
}

var star = elem{star: true}

func literal(s string) pattern {
	p := make(pattern, len(s))
	for i := 0; i < len(s); i++ {
		p[i] = elem{b: s[i]}
	}
	return p
}

// static returns the pattern's string when it has no star.
func (p pattern) static() (string, bool) {
	b := make([]byte, len(p))
	for i, e := range p {
		if e.star {
			return "", false
		}
		b[i] = e.b
	}
	return string(b), true
}

// key is a string that tells patterns apart.
func (p pattern) key() string {
	var b strings.Builder
	for _, e := range p {
		switch {
		case e.star:
			b.WriteString("\x00\x01")
		case e.b == 0:
			b.WriteString("\x00\x00")
		default:
			b.WriteByte(e.b)
		}
	}
	return b.String()
}

// join puts patterns together with sep between them.
func join(ps []pattern, sep string) pattern {
	var out pattern
	for i, p := range ps {
		if i > 0 {
			out = append(out, literal(sep)...)
		}
		out = append(out, p...)
	}
	return out
}

// wordPattern is what bash may pass for a word: quoted and escaped text
// as the literal it stands for; an expansion, a command substitution, and
// the parts of an unquoted word that bash expands (a glob, a brace list, a
// leading tilde) as stars.
func wordPattern(w *syntax.Word) pattern {
	var p pattern
	for i, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			p = append(p, litPattern(x.Value, i == 0)...)
		case *syntax.SglQuoted:
			if x.Dollar {
				p = append(p, star)
			} else {
				p = append(p, literal(x.Value)...)
			}
		case *syntax.DblQuoted:
			for _, dp := range x.Parts {
				if l, ok := dp.(*syntax.Lit); ok {
					p = append(p, literal(unescapeDouble(l.Value))...)
				} else {
					p = append(p, star)
				}
			}
		default:
			p = append(p, star)
		}
	}
	return p
}

// litPattern reads an unquoted literal: a backslash escapes the next
// byte; *, ? and a bracket expression are globs; a brace list with a comma
// or .. expands; a tilde at the start of the word is a home directory.
// Each of those becomes a star.
func litPattern(v string, first bool) pattern {
	var p pattern
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			if v[i] != '\n' {
				p = append(p, elem{b: v[i]})
			}
		case c == '*' || c == '?':
			p = append(p, star)
		case c == '[' && strings.IndexByte(v[i+1:], ']') >= 0:
			p = append(p, star)
			i += 1 + strings.IndexByte(v[i+1:], ']')
		case c == '{' && braceList(v[i:]):
			p = append(p, star)
			i += strings.IndexByte(v[i:], '}')
		case c == '~' && i == 0 && first:
			end := strings.IndexByte(v, '/')
			if end < 0 {
				end = len(v)
			}
			p = append(p, star)
			i = end - 1
		default:
			p = append(p, elem{b: c})
		}
	}
	return p
}

// braceList reports whether s starts with a brace expression bash expands:
// {a,b} or {1..3}.
func braceList(s string) bool {
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return false
	}
	in := s[1:end]
	return strings.Contains(in, ",") || strings.Contains(in, "..")
}

// unescapeDouble removes the backslashes bash removes inside double
// quotes: before $, `, ", \ and a newline.
func unescapeDouble(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\"\\\n", v[i+1]) >= 0 {
			i++
			if v[i] == '\n' {
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// intersects reports whether some string matches both patterns.
//
// It runs a's positions as the states of an automaton over b: a literal
// of b moves each state past an equal literal of a, a star of a loops on
// anything, and a star of b (any string) reaches every position of a from
// the first state it holds.
func intersects(a, b pattern) bool {
	cur := make([]bool, len(a)+1)
	next := make([]bool, len(a)+1)
	cur[0] = true
	closeStars(a, cur)
	for _, e := range b {
		clear(next)
		if e.star {
			for i, on := range cur {
				if on {
					for j := i; j <= len(a); j++ {
						next[j] = true
					}
					break
				}
			}
		} else {
			for i, on := range cur {
				if !on || i == len(a) {
					continue
				}
				switch {
				case a[i].star:
					next[i] = true
				case a[i].b == e.b:
					next[i+1] = true
				}
			}
		}
		closeStars(a, next)
		cur, next = next, cur
	}
	return cur[len(a)]
}

// closeStars adds the states a star of a may be skipped to.
func closeStars(a pattern, states []bool) {
	for i := 0; i < len(a); i++ {
		if states[i] && a[i].star {
			states[i+1] = true
		}
	}
}
