package classify

import (
	"errors"
	"fmt"
	"strings"

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
// the first stage's assignments, and its words, kept for their positions.
type command struct {
	stages   [][]string
	assigns  []string
	first    []*syntax.Word
	filters  []Filter
	toStderr bool
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
// plain pipes, with static words, and returns each stage's argv.
func takeApart(src string, f *syntax.File) (*command, *refusal) {
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
	stmts, r := pipeline(f.Stmts[0])
	if r != nil {
		return nil, r
	}
	c := &command{}
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
			value := ""
			if a.Value != nil {
				if value, r = literal(a.Value); r != nil {
					return nil, r
				}
			}
			c.assigns = append(c.assigns, a.Name.Value+"="+value)
		}
		argv := make([]string, len(call.Args))
		for j, w := range call.Args {
			if argv[j], r = literal(w); r != nil {
				return nil, r
			}
		}
		for j, rd := range s.Redirs {
			if r := redirect(rd, call.Args[0]); r != nil {
				return nil, r
			}
			if rd.N.Value != "1" {
				continue
			}
			// bash applies redirects in order: after a first 2>&1 both
			// streams are on stdout and a 1>&2 changes nothing; a first
			// 1>&2 puts both on stderr. Only the first stage's output is
			// summarized, and only without a pipe is that form modeled.
			switch {
			case i > 0:
				return nil, refuse(rd.Pos(), "1>&2 on a filter")
			case len(stmts) > 1:
				return nil, refuse(rd.Pos(), "1>&2 before a pipe")
			case j == 0:
				c.toStderr = true
			}
		}
		if i == 0 {
			c.first = call.Args
		} else {
			f, at, err := filter(argv)
			if err != nil {
				return nil, refuse(call.Args[at].Pos(), "%v", err)
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

// literal returns the value bash passes on for a static word: unquoted and
// quoted literals only, concatenated as quote removal does.
func literal(w *syntax.Word) (string, *refusal) {
	var sb strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if r := plain(p, "*?[{~\\$"); r != nil {
				return "", r
			}
			sb.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", refuse(p.Pos(), "ANSI-C quoting $'...'")
			}
			sb.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", refuse(p.Pos(), `locale quoting $"..."`)
			}
			for _, qp := range p.Parts {
				lit, ok := qp.(*syntax.Lit)
				if !ok {
					return "", refuse(qp.Pos(), "%s", expansion(qp))
				}
				// Inside double quotes only \ and $ still mean something.
				if r := plain(lit, "\\$"); r != nil {
					return "", r
				}
				sb.WriteString(lit.Value)
			}
		default:
			return "", refuse(part.Pos(), "%s", expansion(part))
		}
	}
	return sb.String(), nil
}

// expanding names what each character that bash would not pass on as it is
// starts. The parser leaves globs, braces and tildes inside a Lit, and keeps
// backslash escapes raw, so they must be found by hand.
var expanding = map[byte]string{
	'*': "glob pattern", '?': "glob pattern", '[': "glob pattern",
	'{': "brace expansion", '~': "tilde expansion",
	'\\': "backslash escape", '$': "dollar sign",
}

// plain refuses a literal that contains one of the special characters.
// A tilde only expands at the start of a word or after '=' or ':', and the
// start of a Lit covers the start of a word, so HEAD~1 stays plain.
func plain(lit *syntax.Lit, special string) *refusal {
	v := lit.Value
	for i := range len(v) {
		if strings.IndexByte(special, v[i]) < 0 {
			continue
		}
		if v[i] == '~' && i > 0 && v[i-1] != '=' && v[i-1] != ':' {
			continue
		}
		return refuse(lit.Pos(), "%s", expanding[v[i]])
	}
	return nil
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

// redirect allows only the exact 2>&1 and 1>&2 after the command word: they
// move output between the two streams shrinkrun captures anyway. Written
// before the command word they would be easy to misread, so they pass.
func redirect(rd *syntax.Redirect, cmd *syntax.Word) *refusal {
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		return refuse(rd.Pos(), "here-document")
	case syntax.WordHdoc:
		return refuse(rd.Pos(), "here-string")
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
		return refuse(rd.Pos(), "redirect from a file")
	case syntax.DplOut:
		if !mergesStreams(rd) {
			return refuse(rd.Pos(), "redirect other than 2>&1 or 1>&2")
		}
		if !rd.Pos().After(cmd.Pos()) {
			return refuse(rd.Pos(), "redirect before the command word")
		}
		return nil
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
