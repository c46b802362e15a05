package classify

import (
	"errors"
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// This file is the allowlist over the syntax tree: every node type and
// field that docs/classify.md permits (the shape of a recognized command)
// is accepted explicitly, and everything else is refused with the reason
// and the position of the node at fault.

// refusal is why a command string passes through, and where.
type refusal struct {
	reason string
	pos    syntax.Pos
}

func refuse(pos syntax.Pos, format string, args ...any) *refusal {
	return &refusal{reason: fmt.Sprintf(format, args...), pos: pos}
}

// command is one statement taken apart: the argv of each pipeline stage,
// the first stage's assignments, and where each of its fields came from.
type command struct {
	stages  [][]string
	assigns []string
	// at holds the position of the word each field of the first stage's
	// argv was expanded from.
	at       []syntax.Pos
	filters  []Filter
	toStderr bool
	// discarded is the redirect that discards the first stage's stderr,
	// as written ("2>/dev/null", "2>&-"), or "".
	discarded string
	// plain tells that bash would run exactly the first stage's argv with
	// the assignments: one stage, no redirect, no word taken from the
	// world (Result.Plain).
	plain bool
}

func parseFailure(err error) Result {
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		return Result{Reason: "parse error: " + pe.Text, Pos: posString(pe.Pos)}
	case errors.As(err, &le):
		return Result{Reason: "parse error: " + le.Feature + " not supported in bash", Pos: posString(le.Pos)}
	}
	return Result{Reason: "parse error: " + err.Error()}
}

// takeApart accepts exactly one statement made of simple commands joined by
// plain pipes, with words bash expands as env allows, and returns each
// stage's argv.
func takeApart(src string, f *syntax.File, env Env) (*command, *refusal) {
	switch len(f.Stmts) {
	case 0:
		return nil, &refusal{reason: "empty command"}
	case 1:
	default:
		// The separator is ';' or '&' when the parser saw one, else a newline.
		if semi := f.Stmts[0].Semicolon; semi.IsValid() {
			return nil, refuse(semi, "more than one command (%c)", src[semi.Offset()])
		}
		return nil, refuse(f.Stmts[1].Pos(), "more than one command (newline)")
	}
	return takeStmt(src, f.Stmts[0], env)
}

// takeStmt takes one statement apart: simple commands joined by plain
// pipes.
func takeStmt(src string, stmt *syntax.Stmt, env Env) (*command, *refusal) {
	stmts, r := pipeline(stmt)
	if r != nil {
		return nil, r
	}
	c := &command{}
	x := &expander{env: env}
	for i, s := range stmts {
		if s.Cmd == nil { // a statement of redirects alone, like >f
			return nil, refuse(s.Pos(), "redirect without a command")
		}
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			return nil, refuse(s.Cmd.Pos(), "%s", compound(s.Cmd))
		}
		if len(call.Args) == 0 {
			return nil, refuse(call.Pos(), "assignment without a command")
		}
		if i > 0 && len(call.Assigns) > 0 {
			return nil, refuse(call.Pos(), "assignment before a filter")
		}
		for _, a := range call.Assigns {
			// Append (+=) and array forms are not plain NAME=value.
			if a.Append || a.Naked || a.Index != nil || a.Array != nil {
				return nil, refuse(a.Pos(), "assignment that is not NAME=value")
			}
			value, r := x.assignment(a.Value)
			if r != nil {
				return nil, r
			}
			c.assigns = append(c.assigns, a.Name.Value+"="+value)
		}
		var argv []string
		var at []syntax.Pos
		for _, w := range call.Args {
			fields, r := x.fields(w)
			if r != nil {
				return nil, r
			}
			argv = append(argv, fields...)
			for range fields {
				at = append(at, w.Pos())
			}
		}
		if len(argv) == 0 {
			return nil, refuse(call.Pos(), "words that expand to no command")
		}
		fds, r := applyRedirects(src, s.Redirs, call.Args[0])
		if r != nil {
			return nil, r
		}
		switch {
		case fds.out != toOut && fds.out != toErr:
			return nil, refuse(fds.moved, "1>&2 with stderr discarded: no output left")
		case fds.out == toErr && i > 0:
			return nil, refuse(fds.moved, "1>&2 on a filter")
		case fds.out == toErr && len(stmts) > 1:
			return nil, refuse(fds.moved, "1>&2 before a pipe")
		case fds.out == toErr && fds.err != toErr:
			return nil, refuse(fds.moved, "1>&2 with stderr discarded")
		}
		if i == 0 {
			c.at = at
			c.toStderr = fds.out == toErr
			c.discarded = fds.discarded
			c.plain = len(stmts) == 1 && len(s.Redirs) == 0 && !x.dynamic
		} else {
			f, at, err := filter(argv)
			if err != nil {
				return nil, refuse(call.Args[min(at, len(call.Args)-1)].Pos(), "%v", err)
			}
			f.Text = src[s.Pos().Offset():s.End().Offset()]
			c.filters = append(c.filters, f)
		}
		c.stages = append(c.stages, argv)
	}
	return c, nil
}

// pipeline flattens a statement into its pipeline stages, left to right,
// refusing any other way of joining commands.
func pipeline(s *syntax.Stmt) ([]*syntax.Stmt, *refusal) {
	switch {
	case s.Negated:
		return nil, refuse(s.Pos(), "negated command (!)")
	case s.Background, s.Coprocess, s.Disown:
		return nil, refuse(s.Semicolon, "background command (&)")
	}
	b, ok := s.Cmd.(*syntax.BinaryCmd)
	if !ok {
		return []*syntax.Stmt{s}, nil
	}
	switch b.Op {
	case syntax.Pipe:
	case syntax.PipeAll:
		return nil, refuse(b.OpPos, "pipe of stderr (|&)")
	default:
		return nil, refuse(b.OpPos, "more than one command (%s)", b.Op)
	}
	// The parser attaches redirects to the last stage; one on the whole
	// pipeline is a shape this allowlist does not know.
	if len(s.Redirs) > 0 {
		return nil, refuse(s.Redirs[0].Pos(), "redirect on a pipeline")
	}
	left, r := pipeline(b.X)
	if r != nil {
		return nil, r
	}
	right, r := pipeline(b.Y)
	if r != nil {
		return nil, r
	}
	return append(left, right...), nil
}

// compound names a command that is not a simple command.
func compound(cmd syntax.Command) string {
	switch c := cmd.(type) {
	case *syntax.Subshell:
		return "subshell"
	case *syntax.Block:
		return "command group { }"
	case *syntax.IfClause:
		return "if statement"
	case *syntax.WhileClause:
		return "while or until loop"
	case *syntax.ForClause:
		return "for loop"
	case *syntax.CaseClause:
		return "case statement"
	case *syntax.FuncDecl:
		return "function definition"
	case *syntax.ArithmCmd:
		return "arithmetic command (( ))"
	case *syntax.TestClause:
		return "test command [[ ]]"
	case *syntax.DeclClause:
		return c.Variant.Value + " builtin"
	case *syntax.LetClause:
		return "let builtin"
	case *syntax.TimeClause:
		return "time prefix"
	case *syntax.CoprocClause:
		return "coprocess"
	}
	return "compound command"
}

// expansion names a word part that is not a literal.
func expansion(part syntax.WordPart) string {
	switch p := part.(type) {
	case *syntax.ParamExp:
		return "parameter expansion"
	case *syntax.CmdSubst:
		if p.Backquotes {
			return "command substitution (backticks)"
		}
		return "command substitution"
	case *syntax.ArithmExp:
		return "arithmetic expansion"
	case *syntax.ProcSubst:
		return "process substitution"
	case *syntax.ExtGlob:
		return "extended glob"
	}
	return "dynamic word"
}

// dest is where one of the command's two output descriptors goes.
type dest int

const (
	toOut  dest = iota // the caller's stdout (or the pipe)
	toErr              // the caller's stderr
	toNull             // /dev/null
	closed             // closed (2>&-)
)

// fds is where a command's stdout and stderr end up after its redirects.
type fds struct {
	out, err dest
	// discarded is the redirect, as written, that last sent stderr to
	// /dev/null or closed it.
	discarded string
	// moved is the position of a 1>&2.
	moved syntax.Pos
}

// applyRedirects applies a command's redirects in order, as bash does, allowing
// only those that move output between the two streams shrinkrun captures
// (2>&1, 1>&2) or discard stderr (2>/dev/null, also with >> or >|, and
// 2>&-), written with the fd number after the command word. Written before
// the command word they would be easy to misread, so they pass.
func applyRedirects(src string, rds []*syntax.Redirect, cmd *syntax.Word) (fds, *refusal) {
	f := fds{out: toOut, err: toErr}
	for _, rd := range rds {
		if r := redirect(rd); r != nil {
			return f, r
		}
		if !rd.Pos().After(cmd.Pos()) {
			return f, refuse(rd.Pos(), "redirect before the command word")
		}
		switch target := rd.Word.Lit(); {
		case rd.N.Value == "1":
			f.out, f.moved = f.err, rd.Pos()
		case target == "1":
			f.err = f.out
		case target == "-":
			f.err, f.discarded = closed, src[rd.Pos().Offset():rd.End().Offset()]
		default:
			f.err, f.discarded = toNull, src[rd.Pos().Offset():rd.End().Offset()]
		}
	}
	if f.err != toNull && f.err != closed {
		f.discarded = ""
	}
	return f, nil
}

// redirect refuses a redirect other than 2>&1, 1>&2, 2>&-, and 2>/dev/null
// (2>>/dev/null, 2>|/dev/null), with the fd number and the target written
// as one plain word.
func redirect(rd *syntax.Redirect) *refusal {
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		return refuse(rd.Pos(), "here-document")
	case syntax.WordHdoc:
		return refuse(rd.Pos(), "here-string")
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
		return refuse(rd.Pos(), "redirect from a file")
	case syntax.DplOut:
		if !mergesStreams(rd) && !closesStderr(rd) {
			return refuse(rd.Pos(), "redirect other than 2>&1, 1>&2 or 2>&-")
		}
		return nil
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob:
		if rd.N != nil && rd.N.Value == "2" && len(rd.Word.Parts) == 1 && rd.Word.Lit() == "/dev/null" {
			return nil
		}
	}
	return refuse(rd.Pos(), "redirect to a file")
}

// mergesStreams reports whether rd is exactly 2>&1 or 1>&2.
func mergesStreams(rd *syntax.Redirect) bool {
	if rd.N == nil || len(rd.Word.Parts) != 1 {
		return false
	}
	lit, ok := rd.Word.Parts[0].(*syntax.Lit)
	return ok && (rd.N.Value == "2" && lit.Value == "1" || rd.N.Value == "1" && lit.Value == "2")
}

// closesStderr reports whether rd is exactly 2>&-.
func closesStderr(rd *syntax.Redirect) bool {
	return rd.N != nil && rd.N.Value == "2" && len(rd.Word.Parts) == 1 && rd.Word.Lit() == "-"
}
