package classify

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Claude Code runs every Bash tool command through CLAUDE_CODE_SHELL_PREFIX
// when that is set, as the prefix program's one argument: a string that sets
// up Claude Code's shell, evals the model's command and records the working
// directory, all joined by &&. In 2.1.x it reads
//
//	source SNAPSHOT 2>/dev/null || true
//	  && { \builtin shopt -u extglob || \builtin setopt ...; } >/dev/null 2>&1 || true
//	  && { \builtin unalias -- 'which'; \builtin unset -f -- 'which'; } >/dev/null 2>&1 || true
//	  && ...
//	  && eval 'MODEL COMMAND' < /dev/null
//	  && pwd -P >| /tmp/claude-XXXX-cwd
//
// on one line (docs/agents.md has the version that was read and how).
// Permissions were decided on the model's command before this string was
// built, so recognizing it changes nothing about what runs; it only lets
// shrinkrun summarize the model's command, while the whole string still
// runs as given.
//
// Envelope accepts exactly that shape: setup statements that cannot print
// anything when they succeed (a sourced file with stderr silenced, a
// { \builtin ...; } group with both streams sent to /dev/null, a \builtin
// with stderr silenced, each followed by || true), then one eval of one
// static word, with at most stdin from /dev/null, then pwd -P >| a static
// path. Anything else is not an envelope, and the caller runs the string as
// a plain pass-through: a setup statement of a kind not listed here could
// print, and its output would be read as the model's command's.

// Envelope returns the model's command inside a string Claude Code passes
// to its shell prefix, or false when s is not exactly such a string.
func Envelope(s string) (inner string, ok bool) {
	if strings.ContainsAny(s, "\r\n\x00") {
		return "", false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil || len(f.Stmts) != 1 || !bareStmt(f.Stmts[0]) || len(f.Stmts[0].Redirs) > 0 {
		return "", false
	}
	ops, items := chain(f.Stmts[0])
	n := len(items)
	if n < 2 || ops[n-2] != syntax.AndStmt || !cwdRecord(items[n-1]) {
		return "", false
	}
	inner, ok = evalOf(items[n-2])
	if !ok || inner == "" {
		return "", false
	}
	// Setup: statements joined by &&, each optionally followed by || true.
	for i := 0; i < n-2; {
		if !setup(items[i]) {
			return "", false
		}
		next := i + 1
		if ops[i] == syntax.OrStmt {
			if next >= n-2 || !isTrue(items[next]) || ops[next] != syntax.AndStmt {
				return "", false
			}
			next++
		} else if ops[i] != syntax.AndStmt {
			return "", false
		}
		i = next
	}
	return inner, true
}

// chain flattens a left-deep list of && and || into its operands and the
// operator after each one (bash gives && and || the same precedence).
func chain(s *syntax.Stmt) (ops []syntax.BinCmdOperator, items []*syntax.Stmt) {
	b, ok := s.Cmd.(*syntax.BinaryCmd)
	if !ok || (b.Op != syntax.AndStmt && b.Op != syntax.OrStmt) || len(s.Redirs) > 0 {
		return nil, []*syntax.Stmt{s}
	}
	ops, items = chain(b.X)
	return append(ops, b.Op), append(items, b.Y)
}

// bareStmt is a statement with no !, &, coproc or disown around it.
func bareStmt(s *syntax.Stmt) bool {
	return !s.Negated && !s.Background && !s.Coprocess && !s.Disown
}

// call returns a statement's simple command: its words, raw as written,
// when it has no assignments.
func call(s *syntax.Stmt) (*syntax.CallExpr, bool) {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || !bareStmt(s) || len(c.Assigns) > 0 || len(c.Args) == 0 {
		return nil, false
	}
	return c, true
}

// words returns the static values of a call's words.
func words(c *syntax.CallExpr) ([]string, bool) {
	out := make([]string, len(c.Args))
	for i, w := range c.Args {
		v, r := literal(w)
		if r != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// rawWord is a word as written, when it is one unquoted literal (\builtin
// is kept with its backslash).
func rawWord(w *syntax.Word) string {
	if len(w.Parts) != 1 {
		return ""
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok {
		return l.Value
	}
	return ""
}

// redirects reports whether a statement's redirects are exactly want, each
// written "N>WORD" or ">WORD" with a static word.
func redirects(s *syntax.Stmt, want ...string) bool {
	if len(s.Redirs) != len(want) {
		return false
	}
	for i, rd := range s.Redirs {
		v, r := literal(rd.Word)
		if r != nil {
			return false
		}
		n := ""
		if rd.N != nil {
			n = rd.N.Value
		}
		if n+rd.Op.String()+v != want[i] {
			return false
		}
	}
	return true
}

// isTrue is the bare `true` after ||.
func isTrue(s *syntax.Stmt) bool {
	c, ok := call(s)
	return ok && len(s.Redirs) == 0 && len(c.Args) == 1 && rawWord(c.Args[0]) == "true"
}

// cwdRecord is `pwd -P >| FILE`, the statement that tells Claude Code where
// the command left the shell.
func cwdRecord(s *syntax.Stmt) bool {
	c, ok := call(s)
	if !ok || len(s.Redirs) != 1 || s.Redirs[0].Op != syntax.RdrClob || s.Redirs[0].N != nil {
		return false
	}
	if _, r := literal(s.Redirs[0].Word); r != nil {
		return false
	}
	w, ok := words(c)
	return ok && len(w) == 2 && w[0] == "pwd" && w[1] == "-P"
}

// evalOf returns the static string of `eval WORD` or `eval WORD < /dev/null`.
func evalOf(s *syntax.Stmt) (string, bool) {
	c, ok := call(s)
	if !ok || len(c.Args) != 2 || rawWord(c.Args[0]) != "eval" {
		return "", false
	}
	if len(s.Redirs) > 0 && !redirects(s, "</dev/null") {
		return "", false
	}
	v, r := literal(c.Args[1])
	return v, r == nil
}

// setup reports whether a statement is one of the setup kinds that print
// nothing when they succeed.
func setup(s *syntax.Stmt) bool {
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		c, ok := call(s)
		if !ok || !redirects(s, "2>/dev/null") {
			return false
		}
		if rawWord(c.Args[0]) == `\builtin` {
			return builtinCall(c)
		}
		w, ok := words(c)
		return ok && len(w) == 2 && (w[0] == "source" || w[0] == ".")
	case *syntax.Block:
		if !bareStmt(s) || !redirects(s, ">/dev/null", "2>&1") {
			return false
		}
		for _, st := range cmd.Stmts {
			if !builtinList(st) {
				return false
			}
		}
		return len(cmd.Stmts) > 0
	}
	return false
}

// builtinList is a statement inside a silenced group: \builtin calls joined
// by &&, || or ;, with no redirects of their own.
func builtinList(s *syntax.Stmt) bool {
	if !bareStmt(s) || len(s.Redirs) > 0 {
		return false
	}
	switch cmd := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		return (cmd.Op == syntax.AndStmt || cmd.Op == syntax.OrStmt) && builtinList(cmd.X) && builtinList(cmd.Y)
	case *syntax.CallExpr:
		c, ok := call(s)
		return ok && rawWord(c.Args[0]) == `\builtin` && builtinCall(c)
	}
	return false
}

// builtinCall is `\builtin NAME ARGS...` with static arguments, NAME one
// of the builtins that only change the shell's options, aliases and
// functions.
func builtinCall(c *syntax.CallExpr) bool {
	if len(c.Args) < 2 {
		return false
	}
	rest := &syntax.CallExpr{Args: c.Args[1:]}
	w, ok := words(rest)
	if !ok {
		return false
	}
	switch w[0] {
	case "shopt", "setopt", "unalias", "unset":
		return true
	}
	return false
}
