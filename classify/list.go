package classify

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A list is commands bash runs one after another: statements separated by
// `;` or newlines, each a chain of `&&` and `||`. shrinkrun runs such a
// string part by part (docs/classify.md, "Lists"), each part with its own
// block or live, which is exactly what bash does as long as no part
// changes the shell's state for the next: a variable, an option, a
// function, the directory. So Split accepts a list only when every part is
// a plain command (simple commands, joined by pipes) that cannot: no
// assignment alone, no builtin that changes the shell, no `$?`, `$_` or
// other parameter whose value is the shell's own, no command substitution
// but `$(nproc)`, no here-document (its body lies outside the part's
// text). `cd DIR` is the one exception, a part of its own that shrinkrun
// reproduces (or hands to bash, with everything after it). Anything else
// passes through as a whole.

// Op is how a part follows the one before it.
type Op int

const (
	Then Op = iota // the first part, or after `;` or a newline: it runs
	And            // after `&&`: it runs when the status so far is 0
	Or             // after `||`: it runs when the status so far is not 0
)

// List is a command string taken apart into its parts, in order.
type List struct {
	Parts []Part
	// ExecsLast tells that bash would replace itself with the last part's
	// command (when it gets to run it) rather than fork it: the part is
	// Exec, it is the second half of the last command bash parses (the
	// last line's list, read as `(first ; last)`, `(first && last)`,
	// `(first || last)`, or the part alone) and nothing but a `;`, blanks,
	// a comment and a newline follow it (bash 5.2's
	// should_suppress_fork and can_optimize_connection).
	ExecsLast bool
	src       string
}

// Part is one command of a list.
type Part struct {
	Op Op
	// Text is the part as written.
	Text string
	// Offset is the byte offset where the part starts in the string, and
	// Line the line it starts on (1-based): bash names the line in its
	// messages, and Rest runs the string from there.
	Offset, Line int
	// Ends tells that the part ends its chain of && and ||: it is followed
	// by `;`, a newline or nothing. Under `bash -e` a failure there ends
	// the list.
	Ends bool
	// Cd tells that the part is `cd DIR`: Dir expands DIR.
	Cd bool
	// Name is the command word (after the assignments), as bash reads it
	// without expanding anything; "" when it needs expanding.
	Name string
	// Exec tells that the part is one simple command, with no redirect,
	// that is not a builtin: bash replaces itself with such a command when
	// it is the last thing left to run (List.ExecsLast), which then sees
	// bash's own SHLVL, one less than a command bash forks.
	Exec bool

	src  string
	stmt *syntax.Stmt
}

// Split takes a command string apart into the parts of a list. A string
// that cannot be split passes through as a whole: res says why. A string
// of one part is not checked as a list: that part's own classification
// (Part.Classify) decides.
func Split(src string) (l *List, res Result) {
	if i := strings.IndexAny(src, "\r\x00"); i >= 0 {
		return nil, String(src, nil)
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, parseFailure(err)
	}
	if len(f.Stmts) == 0 {
		return nil, Result{Reason: "empty command"}
	}
	l = &List{src: src}
	for _, s := range f.Stmts {
		ops, items := chain(s)
		if len(items) > 1 && (s.Negated || s.Background || s.Coprocess || s.Disown) {
			return nil, Result{Reason: "background command (&)", Pos: posString(s.Semicolon)}
		}
		for i, item := range items {
			p := Part{Op: Then, src: src, stmt: item, Ends: i == len(items)-1}
			if i > 0 {
				p.Op = And
				if ops[i-1] == syntax.OrStmt {
					p.Op = Or
				}
			}
			p.Offset, p.Line = int(item.Pos().Offset()), int(item.Pos().Line())
			p.Text = src[item.Pos().Offset():stmtEnd(item).Offset()]
			l.Parts = append(l.Parts, p)
		}
	}
	for i := range l.Parts {
		l.Parts[i].simple()
	}
	l.ExecsLast = l.Parts[len(l.Parts)-1].Exec && execsLast(src, f.Stmts)
	if len(l.Parts) == 1 {
		return l, Result{}
	}
	for i := range l.Parts {
		if r := l.Parts[i].check(); r != nil {
			return nil, Result{Reason: r.reason, Pos: posString(r.pos)}
		}
	}
	if l.Parts[len(l.Parts)-1].Cd {
		last := l.Parts[len(l.Parts)-1]
		return nil, Result{Reason: "list ending in cd", Pos: posString(last.stmt.Pos())}
	}
	return l, Result{}
}

// execsLast reports whether the last statement is the last command bash
// parses on its own (alone, or on a line of its own), with only a `;`,
// blanks, a comment and one newline after it.
func execsLast(src string, stmts []*syntax.Stmt) bool {
	last := stmts[len(stmts)-1]
	if _, items := chain(last); len(items) > 1 && len(stmts) > 1 {
		// An && or || chain after a `;` on the same line: bash reads
		// `(first ; (chain))`, whose second half is not a simple command.
		between := src[stmts[len(stmts)-2].End().Offset():last.Pos().Offset()]
		if !strings.Contains(strings.ReplaceAll(between, "\\\n", ""), "\n") {
			return false
		}
	}
	rest := strings.TrimLeft(src[last.End().Offset():], " \t")
	rest = strings.TrimLeft(strings.TrimPrefix(rest, ";"), " \t")
	if strings.HasPrefix(rest, "#") {
		_, after, found := strings.Cut(rest, "\n")
		rest = after
		if found {
			rest = "\n" + after
		}
	}
	return rest == "" || rest == "\n"
}

// stmtEnd is where a statement's command and redirects end, before the
// `;` or `&` that may follow.
func stmtEnd(s *syntax.Stmt) syntax.Pos {
	end := s.End()
	if s.Cmd != nil {
		end = s.Cmd.End()
	}
	for _, rd := range s.Redirs {
		if rd.End().After(end) {
			end = rd.End()
		}
	}
	return end
}

// Text is the string from the start of the i-th part to the end of the
// j-th, as written.
func (l *List) Text(i, j int) string {
	end := l.Parts[j].Offset + len(l.Parts[j].Text)
	return l.src[l.Parts[i].Offset:end]
}

// Script is the part as a string for `bash -c`, with the lines before it
// left empty, so that bash's messages name the line they would.
func (p Part) Script() string {
	return strings.Repeat("\n", p.Line-1) + p.Text
}

// Classify classifies the part as String does a whole string, with its
// words expanded in env as bash would expand them there; m picks the rule.
func (p Part) Classify(m Matcher, env Env) Result {
	c, r := takeStmt(p.src, p.stmt, env)
	if r != nil {
		return Result{Reason: r.reason, Pos: posString(r.pos)}
	}
	return match(c, m)
}

// Dir is the directory `cd DIR` names, expanded in env as bash would;
// false when it is not one word there (bash's cd would then fail or
// complain), or needs what env cannot tell.
func (p Part) Dir(env Env) (string, bool) {
	call := p.stmt.Cmd.(*syntax.CallExpr)
	fields, r := (&expander{env: env}).fields(call.Args[1])
	if r != nil || len(fields) != 1 {
		return "", false
	}
	return fields[0], true
}

// stateful are the builtins whose effect a later part could see, or that
// read what an earlier part left (jobs, the directory stack, options): a
// list holding one passes through as a whole. cd is reproduced.
var stateful = map[string]bool{
	"alias": true, "bg": true, "bind": true, "break": true, "builtin": true, "caller": true,
	"command": true, "compgen": true, "complete": true, "compopt": true, "continue": true,
	"declare": true, "dirs": true, "disown": true, "enable": true, "eval": true, "exec": true,
	"exit": true, "export": true, "fc": true, "fg": true, "getopts": true, "hash": true,
	"history": true, "jobs": true, "let": true, "local": true, "logout": true, "mapfile": true,
	"popd": true, "pushd": true, "read": true, "readarray": true, "readonly": true,
	"return": true, "set": true, "shift": true, "shopt": true, "source": true, ".": true,
	"suspend": true, "times": true, "trap": true, "typeset": true, "ulimit": true,
	"umask": true, "unalias": true, "unset": true, "wait": true,
}

// builtins are bash's builtins that change nothing: they run inside bash,
// which never replaces itself with them.
var builtins = map[string]bool{
	"echo": true, "printf": true, "true": true, "false": true, ":": true, "test": true,
	"[": true, "pwd": true, "type": true, "help": true, "kill": true, "cd": true,
}

// shellParams are the variables whose value is the shell's own and changes
// from one command to the next, or from one bash to another: a part that
// reads one passes the list through.
var shellParams = map[string]bool{
	"_": true, "LINENO": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true,
	"BASHPID": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true, "BASH_COMMAND": true,
	"BASH_LINENO": true, "BASH_SOURCE": true, "FUNCNAME": true, "PIPESTATUS": true,
	"HISTCMD": true, "BASH_SUBSHELL": true, "BASH_ARGC": true, "BASH_ARGV": true,
	"DIRSTACK": true, "REPLY": true, "OPTARG": true, "OPTIND": true, "MAPFILE": true,
	"BASH_REMATCH": true, "COPROC": true,
}

// check refuses a part of a list that bash would not run the same way on
// its own.
func (p *Part) check() *refusal {
	s := p.stmt
	switch {
	case s.Negated:
		return refuse(s.Pos(), "negated command (!)")
	case s.Background, s.Coprocess, s.Disown:
		return refuse(s.Semicolon, "background command (&)")
	}
	stages, r := pipeline(s)
	if r != nil {
		return r
	}
	for _, st := range stages {
		if st.Cmd == nil {
			return refuse(st.Pos(), "redirect without a command")
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			return refuse(st.Cmd.Pos(), "%s", compound(st.Cmd))
		}
		if len(call.Args) == 0 {
			return refuse(call.Pos(), "assignment without a command, which sets a shell variable")
		}
		name, r := literal(call.Args[0])
		if r != nil {
			return refuse(call.Args[0].Pos(), "command word bash expands, which could name a builtin")
		}
		if stateful[name] || name == "printf" && len(call.Args) > 1 && strings.HasPrefix(rawLit(call.Args[1]), "-v") {
			return refuse(call.Args[0].Pos(), "%s changes the shell's state", name)
		}
		if name == "cd" {
			if len(stages) > 1 || len(call.Args) != 2 || len(call.Assigns) > 0 || len(st.Redirs) > 0 {
				return refuse(call.Args[0].Pos(), "cd in a form shrinkrun does not reproduce")
			}
			if strings.HasPrefix(rawLit(call.Args[1]), "-") {
				return refuse(call.Args[1].Pos(), "cd in a form shrinkrun does not reproduce")
			}
			p.Cd = true
		}
		for _, a := range call.Assigns {
			if a.Append || a.Naked || a.Index != nil || a.Array != nil {
				return refuse(a.Pos(), "assignment that is not NAME=value")
			}
			if a.Value != nil {
				if r := listWord(a.Value); r != nil {
					return r
				}
			}
		}
		for _, w := range call.Args {
			if r := listWord(w); r != nil {
				return r
			}
		}
		for _, rd := range st.Redirs {
			switch rd.Op {
			case syntax.Hdoc, syntax.DashHdoc:
				return refuse(rd.Pos(), "here-document")
			}
			if r := listWord(rd.Word); r != nil {
				return r
			}
		}
	}
	return nil
}

// simple sets Name and Exec from the part's first command.
func (p *Part) simple() {
	call, ok := p.stmt.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || p.stmt.Negated || p.stmt.Background || p.stmt.Coprocess {
		return
	}
	name, r := literal(call.Args[0])
	if r != nil {
		return
	}
	p.Name = name
	p.Exec = len(p.stmt.Redirs) == 0 && !builtins[name] && !stateful[name]
}

// rawLit is a word's text when it is one unquoted literal, else "".
func rawLit(w *syntax.Word) string {
	if len(w.Parts) == 1 {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok {
			return lit.Value
		}
	}
	return ""
}

// listWord refuses a word of a list's part whose value bash takes from the
// shell's own state: a parameter other than a plain environment variable,
// a command substitution other than `$(nproc)`, arithmetic (which can
// assign), a process substitution, an extended glob.
func listWord(w *syntax.Word) *refusal {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, qp := range p.Parts {
				if r := listWord(&syntax.Word{Parts: []syntax.WordPart{qp}}); r != nil {
					return r
				}
			}
		case *syntax.ParamExp:
			if !plainParam(p) {
				return refuse(p.Pos(), "parameter whose value is the shell's own")
			}
		case *syntax.CmdSubst:
			if !isNproc(p) {
				return refuse(p.Pos(), "%s", expansion(p))
			}
		default:
			return refuse(part.Pos(), "%s", expansion(part))
		}
	}
	return nil
}

// plainParam reports whether a parameter expansion is `$NAME` or `${NAME}`
// of a variable bash takes from the environment as it is.
func plainParam(p *syntax.ParamExp) bool {
	if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil ||
		p.Names != 0 || p.Exp != nil || p.Param == nil {
		return false
	}
	name := p.Param.Value
	return syntax.ValidName(name) && !shellParams[name]
}
