package classify

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// This file turns a command's words into the fields bash passes on, with
// the parser's own expansion package (mvdan.cc/sh/v3/expand): quote
// removal, backslash escapes, a `$` bash reads literally and brace
// expansion everywhere; globs, `~` and `$(nproc)` only where the Env says
// what bash would find (the directory, HOME, nproc's output). Every word
// part is checked against an allowlist first: a part this file does not
// list (a parameter expansion, any other command substitution) passes the
// command through, as do the cases where the expansion package and bash
// are known to part ways. FuzzClassify holds the result to bash's.

// Env is the world a command's words expand in, as bash would expand them:
// what a glob lists, what `~` names, what `$(nproc)` prints. The zero Env
// knows nothing of it: the words that depend on it (globs, `~`,
// `$(nproc)`) pass through, and the rest expand as everywhere.
type Env struct {
	// Dir is the directory the command runs in, where relative globs read.
	Dir string
	// LookupEnv reads the environment bash starts with (HOME for `~`, the
	// locale globs are sorted in, the variables that set bash's options),
	// as os.LookupEnv does.
	LookupEnv func(string) (string, bool)
	// ReadDir lists a directory for a glob, as os.ReadDir does.
	ReadDir func(string) ([]fs.DirEntry, error)
	// Nproc returns what `nproc` prints, run as bash would run it for
	// `$(nproc)` (in Dir, with the environment). nil refuses `$(nproc)`.
	Nproc func() (string, error)
}

// known reports whether e describes a world globs and `~` can expand in.
func (e Env) known() bool {
	return e.LookupEnv != nil && e.ReadDir != nil && e.Dir != ""
}

// getenv reads a variable of e's environment; "" when it is unset.
func (e Env) getenv(name string) string {
	if e.LookupEnv == nil {
		return ""
	}
	v, _ := e.LookupEnv(name)
	return v
}

// bashOptionVars are the variables through which the environment changes
// how bash expands words: its shell options (SHELLOPTS, BASHOPTS: noglob,
// nullglob, dotglob, globstar...), POSIX mode, a GLOBIGNORE, and a start-up
// file that may set any of them (BASH_ENV). With one of them set, a glob or
// `~` passes through.
var bashOptionVars = []string{"BASH_ENV", "SHELLOPTS", "BASHOPTS", "GLOBIGNORE", "POSIXLY_CORRECT"}

// expander expands the words of one command: what the expansion used of the
// world, and the first refusal.
type expander struct {
	env Env
	// dynamic is set once a word's value came from the world (a glob, a
	// `~`, `$(nproc)`): the argv is then bash's reading of that moment.
	dynamic bool
	// multi is set once a glob matched more than one name.
	multi bool
	// foreign is set once a glob read a directory holding a name that is
	// not ASCII.
	foreign bool
}

// fields returns the fields bash makes of w, or why w passes through.
func (x *expander) fields(w *syntax.Word) ([]string, *refusal) {
	if r := x.allowed(w.Parts, false); r != nil {
		return nil, r
	}
	alts, cp := 1, *w
	split := syntax.SplitBraces(&cp)
	if quirk := braceQuirk(&cp); quirk != "" {
		return nil, refuse(w.Pos(), "%s", quirk)
	}
	if split {
		// BracesSeq stops with an error where the words would be too many
		// to hold ({1..100000000}); Braces would allocate them all.
		alts = 0
		for alt, err := range expand.BracesSeq(nil, &cp) {
			if err != nil {
				return nil, refuse(w.Pos(), "word bash would not expand: %v", err)
			}
			if unquotedEmpty(alt) {
				// bash drops the empty word ({,b} is b), the expansion
				// package keeps it.
				return nil, refuse(w.Pos(), "brace expansion with an empty alternative")
			}
			alts++
		}
	}
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok && (strings.Contains(lit.Value, "[.") || strings.Contains(lit.Value, "[=")) {
			// bash matches [[.a.]] and [[=a=]] as a; the package takes
			// them for text and does not glob at all.
			return nil, refuse(w.Pos(), "glob pattern with a collating symbol or an equivalence class")
		}
	}
	if bracketQuirk(w) {
		return nil, refuse(w.Pos(), "glob bracket holding an escape, a quote or a [")
	}
	globbed := false
	cfg := &expand.Config{
		Env: expand.FuncEnviron(x.lookup),
		ReadDir2: func(dir string) ([]fs.DirEntry, error) {
			globbed = true
			if !x.env.known() {
				return nil, fs.ErrNotExist
			}
			return x.readDir(dir)
		},
		CmdSubst: func(out io.Writer, _ *syntax.CmdSubst) error {
			s, err := x.env.Nproc()
			if err == nil && !nprocOutput(s) {
				err = fmt.Errorf("nproc printed %q", s)
			}
			if err == nil {
				_, err = io.WriteString(out, s)
			}
			return err
		},
	}
	fields, err := expand.Fields(cfg, w)
	if globbed {
		// Each alternative of a brace expansion is one field, unless a glob
		// in it matched several names.
		x.multi = x.multi || len(fields) > alts
		if r := x.globbable(w); r != nil {
			return nil, r
		}
		x.dynamic = true
	}
	if err != nil {
		return nil, refuse(w.Pos(), "word bash would not expand: %v", err)
	}
	return fields, nil
}

// braceQuirk names what in w, its brace expansions taken apart, the
// expansion package reads otherwise than bash, or is "":
//   - a letter sequence from one case to the other ({A..a}) passes through
//     the characters between Z and a, and bash reads the backslash among
//     them as an escape, which leaves an empty word where the package keeps
//     the backslash;
//   - a `~` in a word with a brace expansion ({~,b}, {b,}~) is at the start
//     of a word once bash has expanded the braces, and bash expands it; the
//     package does not;
//   - an unquoted `{` the parser left alone with a `,` after it at the same
//     level: bash passes over a `}` until it has seen a comma, so it reads
//     {0},} as 0} and an empty word, which it drops, and x{a}b,c} as xa}b
//     and xc, where the parser reads no expansion at all. A `{}` alone, as
//     find and xargs take it, and HEAD@{1}..HEAD are not touched.
func braceQuirk(w *syntax.Word) string {
	quirk, braces, tilde := braceParts(w)
	if quirk == "" && braces && tilde {
		quirk = "tilde in a word with a brace expansion"
	}
	return quirk
}

// braceParts walks w and its alternatives for braceQuirk: the first quirk
// found, whether w holds a brace expansion, and whether it holds a `~`.
func braceParts(w *syntax.Word) (quirk string, braces, tilde bool) {
	var text strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			text.WriteString(p.Value)
		case *syntax.BraceExp:
			braces = true
			if p.Sequence && len(p.Elems) >= 2 {
				from, to := p.Elems[0].Lit(), p.Elems[1].Lit()
				if len(from) == 1 && len(to) == 1 && letterCase(from[0])*letterCase(to[0]) < 0 {
					return "brace sequence from a capital to a small letter", braces, tilde
				}
			}
			for _, elem := range p.Elems {
				q, _, t := braceParts(elem)
				if q != "" {
					return q, braces, tilde
				}
				tilde = tilde || t
			}
		}
	}
	lits := text.String()
	tilde = tilde || strings.Contains(lits, "~")
	if _, after, ok := strings.Cut(lits, "{"); ok && strings.Contains(after, ",") {
		return "brace that bash may expand otherwise", braces, tilde
	}
	return "", braces, tilde
}

// bracketQuirk reports whether an unquoted `[` that may open a glob
// bracket is followed, before a `]` closes it, by a backslash, a quoted
// part or another `[`. bash and the expansion package read those
// differently: [\!a] is a or ! to bash and not a to the package, [a\-c] is
// a, - or c to bash and a range to the package, [b\\\].c never closes for
// bash, and bash takes [[:alpha:b] for a set of characters where the
// package does not glob at all. Character classes ([[:alpha:]]) pass
// through with them.
func bracketQuirk(w *syntax.Word) bool {
	open, members := false, 0
	for _, part := range w.Parts {
		lit, ok := part.(*syntax.Lit)
		if !ok {
			if open {
				return true
			}
			continue
		}
		v := lit.Value
		for i := 0; i < len(v); i++ {
			switch c := v[i]; {
			case c == '\\':
				if open {
					return true
				}
				i++
			case !open && c == '[':
				open, members = true, 0
			case open && c == '[':
				return true
			case open && c == ']' && members > 0:
				open = false
			case open && members == 0 && (c == '!' || c == '^'):
			default:
				members++
			}
		}
	}
	return false
}

// letterCase is 1 for a capital ASCII letter, -1 for a small one, else 0.
func letterCase(c byte) int {
	switch {
	case 'A' <= c && c <= 'Z':
		return 1
	case 'a' <= c && c <= 'z':
		return -1
	}
	return 0
}

// unquotedEmpty reports whether a word is empty and unquoted: nothing but
// empty literals.
func unquotedEmpty(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); !ok || lit.Value != "" {
			return false
		}
	}
	return true
}

// literal returns the one field bash makes of a word that needs nothing of
// the world: quotes, escapes and a literal `$`.
func literal(w *syntax.Word) (string, *refusal) {
	fields, r := (&expander{}).fields(w)
	if r == nil && len(fields) != 1 {
		r = refuse(w.Pos(), "word that is not one field")
	}
	if r != nil {
		return "", r
	}
	return fields[0], nil
}

// nprocOutput reports whether s is what nproc prints: a number and a
// newline.
func nprocOutput(s string) bool {
	n, ok := strings.CutSuffix(s, "\n")
	if !ok || n == "" {
		return false
	}
	for i := range len(n) {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// assignment returns the value of an assignment's word: bash neither
// splits nor globs it, nor expands its braces.
func (x *expander) assignment(w *syntax.Word) (string, *refusal) {
	if w == nil {
		return "", nil
	}
	if r := x.allowed(w.Parts, true); r != nil {
		return "", r
	}
	v, err := expand.Literal(&expand.Config{Env: expand.FuncEnviron(x.lookup)}, w)
	if err != nil {
		return "", refuse(w.Pos(), "value bash would not expand: %v", err)
	}
	return v, nil
}

// lookup is the environment the expansion package sees: HOME for `~` and
// PWD, where it globs; no other variable, since no parameter expansion is
// allowed and bash takes no IFS from the environment.
func (x *expander) lookup(name string) string {
	switch name {
	case "HOME":
		return x.env.getenv("HOME")
	case "PWD":
		return x.env.Dir
	}
	return ""
}

// allowed checks a word's parts against the allowlist: literals (globs,
// braces, escapes and `$` included), single quotes, double quotes holding
// literals, and `$(nproc)`; a leading `~` only as `~` or `~/...` with HOME
// set. In an assignment's value, `~` passes through wherever it is.
func (x *expander) allowed(parts []syntax.WordPart, assign bool) *refusal {
	for i, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if continued(p.Value) {
				return refuse(p.Pos(), "line continuation after an escaped backslash")
			}
			if assign && strings.Contains(p.Value, `\`) {
				// bash takes the backslash out of A=\~ as of any word; the
				// package keeps it in a value before ~ ' " { # = and :.
				return refuse(p.Pos(), "backslash escape in an assignment's value")
			}
			if r := x.tilde(p, i == 0, len(parts) > 1, assign); r != nil {
				return r
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return refuse(p.Pos(), "ANSI-C quoting $'...'")
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return refuse(p.Pos(), `locale quoting $"..."`)
			}
			for _, qp := range p.Parts {
				switch q := qp.(type) {
				case *syntax.Lit:
					if continued(q.Value) {
						return refuse(q.Pos(), "line continuation after an escaped backslash")
					}
				case *syntax.CmdSubst:
					if r := x.nproc(q, assign); r != nil {
						return r
					}
				default:
					return refuse(qp.Pos(), "%s", expansion(qp))
				}
			}
		case *syntax.CmdSubst:
			if r := x.nproc(p, assign); r != nil {
				return r
			}
		default:
			return refuse(part.Pos(), "%s", expansion(part))
		}
	}
	return nil
}

// continued reports whether a literal still holds a line continuation, a
// newline after an odd run of backslashes. The parser takes `a\<newline>`
// out as bash does, but leaves it in after an escaped backslash at the end
// of the input (`a\\\<newline>`), where the expansion package then reads
// it as an escaped newline and bash as nothing.
func continued(v string) bool {
	for i := range len(v) {
		if v[i] != '\n' {
			continue
		}
		n := 0
		for j := i - 1; j >= 0 && v[j] == '\\'; j-- {
			n++
		}
		if n%2 == 1 {
			return true
		}
	}
	return false
}

// tilde checks the `~` of a literal: bash expands one that starts the word
// (first), up to the first slash, and, in a word that looks like an
// assignment, one after `=` or `:` (which passes through). A `~` followed
// by a quote (`~"/x"`) is literal. Only `~` alone, HOME, is expanded here:
// `~user`, `~+` and `~-` pass through, and so does `~` with HOME unset or
// empty (bash would ask the password database, or expand to nothing).
func (x *expander) tilde(lit *syntax.Lit, first, more, assign bool) *refusal {
	v := lit.Value
	for i := 1; i < len(v); i++ {
		if v[i] == '~' && (v[i-1] == '=' || v[i-1] == ':') {
			return refuse(lit.Pos(), "tilde expansion after %q", v[i-1:i])
		}
	}
	if !first || !strings.HasPrefix(v, "~") {
		return nil
	}
	if assign {
		return refuse(lit.Pos(), "tilde expansion")
	}
	prefix, _, slash := strings.Cut(v, "/")
	switch {
	case !slash && more:
		return nil // ~'x': a literal tilde
	case prefix != "~":
		return refuse(lit.Pos(), "tilde expansion of %q", prefix)
	}
	if r := x.world(lit.Pos(), "tilde expansion"); r != nil {
		return r
	}
	if home, _ := x.env.LookupEnv("HOME"); home == "" {
		return refuse(lit.Pos(), "tilde expansion without HOME")
	}
	x.dynamic = true
	return nil
}

// nproc accepts exactly `$(nproc)`, outside an assignment, with an Env
// that can ask nproc: the command is classified with the number bash will
// put there.
func (x *expander) nproc(cs *syntax.CmdSubst, assign bool) *refusal {
	if assign || !isNproc(cs) || x.env.Nproc == nil {
		return refuse(cs.Pos(), "%s", expansion(cs))
	}
	if r := x.world(cs.Pos(), "$(nproc)"); r != nil {
		return r
	}
	x.dynamic = true
	return nil
}

// isNproc reports whether cs is `$(nproc)`: one call of nproc with no
// argument, assignment or redirect.
func isNproc(cs *syntax.CmdSubst) bool {
	if cs.Backquotes || len(cs.Stmts) != 1 || len(cs.Last) > 0 {
		return false
	}
	s := cs.Stmts[0]
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || s.Coprocess || s.Disown || len(s.Redirs) > 0 ||
		len(call.Assigns) > 0 || len(call.Args) != 1 {
		return false
	}
	return rawLit(call.Args[0]) == "nproc"
}

// world refuses an expansion that depends on the world when the Env does
// not describe it, or when the environment changes bash's expansions.
func (x *expander) world(pos syntax.Pos, what string) *refusal {
	if !x.env.known() {
		return refuse(pos, "%s", what)
	}
	for _, name := range bashOptionVars {
		if v := x.env.getenv(name); v != "" {
			return refuse(pos, "%s with %s set, which changes how bash expands it", what, name)
		}
	}
	return nil
}

// readDir lists a directory for a glob. A directory that exists but cannot
// be listed (searchable, not readable) is empty, as bash finds it, and not
// missing: bash still reaches the names below it.
func (x *expander) readDir(dir string) ([]fs.DirEntry, error) {
	entries, err := x.env.ReadDir(dir)
	if errors.Is(err, fs.ErrPermission) {
		return nil, nil
	}
	for _, e := range entries {
		if !ascii(e.Name()) {
			x.foreign = true
		}
	}
	return entries, err
}

// globbable refuses a glob whose matches the expansion package cannot
// promise to be bash's: without the world, with bash's options set from the
// environment, next to names that are not ASCII (bash matches characters
// by the locale), with several matches in a locale that sorts names
// otherwise than by their bytes, or a pattern starting with a dot (which
// bash before 5.2 also lets match `.` and `..`).
func (x *expander) globbable(w *syntax.Word) *refusal {
	if r := x.world(w.Pos(), "glob pattern"); r != nil {
		return r
	}
	if x.foreign {
		return refuse(w.Pos(), "glob pattern next to a file name that is not ASCII")
	}
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok && dotGlob(lit.Value) {
			return refuse(w.Pos(), "glob pattern for dot files")
		}
	}
	if doubledSlash(w) {
		return refuse(w.Pos(), "glob pattern with a doubled slash")
	}
	if x.multi {
		if name, value, ok := collation(x.env.getenv); !ok {
			return refuse(w.Pos(), "glob pattern matching several names, which bash sorts by %s=%s", name, value)
		}
	}
	return nil
}

// dotGlob reports whether an unquoted literal holds a path element that
// starts with a dot and has a glob character (`.*`, `src/.?x`).
func dotGlob(v string) bool {
	for _, elem := range strings.Split(v, "/") {
		if strings.HasPrefix(elem, ".") && strings.ContainsAny(elem, "*?[") {
			return true
		}
	}
	return false
}

// doubledSlash reports whether a word's text, quotes and escapes taken
// out, holds `//`. bash keeps a doubled slash before a glob's first
// pattern character (src//*.c gives src//a.c) and the expansion package
// cleans it (src/a.c); the text is read generously, so some words that
// would agree are refused as well.
func doubledSlash(w *syntax.Word) bool {
	var b strings.Builder
	syntax.Walk(w, func(node syntax.Node) bool {
		switch n := node.(type) {
		case *syntax.Lit:
			b.WriteString(n.Value)
		case *syntax.SglQuoted:
			b.WriteString(n.Value)
		}
		return true
	})
	return strings.Contains(strings.ReplaceAll(b.String(), `\`, ""), "//")
}

// collation reports whether the locale bash sorts glob matches in
// (LC_ALL, else LC_COLLATE, else LANG) sorts names by their bytes, as the
// expansion package does: the C and POSIX locales and C.UTF-8, whose
// collation is by code point. It names the variable that decided.
func collation(getenv func(string) string) (name, value string, bytewise bool) {
	for _, name = range []string{"LC_ALL", "LC_COLLATE", "LANG"} {
		if value = getenv(name); value != "" {
			break
		}
	}
	switch value {
	case "", "C", "POSIX", "C.UTF-8", "C.utf8":
		return name, value, true
	}
	return name, value, false
}

func ascii(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
