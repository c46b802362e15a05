package classify

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Gemini CLI 0.61 runs the model's command with `bash -c STRING`, where
// STRING wraps the command (its ShellToolInvocation and
// ShellExecutionService, docs/agents.md) so that bash's prompt expansion
// and glob options are off and the background jobs the command leaves are
// written to a file:
//
//	shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=FILE
//	(
//	  trap 'jobs -p > "$_bgpids_file"' EXIT
//	COMMAND
//	)
//	__code=$?
//	exit $__code
//
// Gemini CLI checked its policy on COMMAND before it built this string, so
// recognizing it only lets shrinkrun summarize COMMAND; the whole string
// still runs as given.
const (
	geminiHead = "shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file="
	geminiTrap = "\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n"
	geminiTail = "\n)\n__code=$?\nexit $__code"
)

// GeminiEnvelope returns the model's command inside the string Gemini CLI
// passes to bash -c, or false when s is not exactly that shape: the setup
// line with a static file name, a subshell holding the trap and one
// statement, the exit status kept. The one statement is returned as
// written; whether it is a command shrinkrun recognizes is for the caller
// to decide.
func GeminiEnvelope(s string) (inner string, ok bool) {
	rest, ok := strings.CutPrefix(s, geminiHead)
	if !ok {
		return "", false
	}
	file, body, ok := strings.Cut(rest, geminiTrap)
	if !ok || strings.ContainsAny(file, "\n\r") {
		return "", false
	}
	inner, ok = strings.CutSuffix(body, geminiTail)
	if !ok || strings.TrimSpace(inner) == "" {
		return "", false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil || len(f.Stmts) != 5 {
		return "", false
	}
	// The parse must see the same five statements the text shows: the
	// shopt, the assignment of a static name, the subshell with the trap and
	// exactly one statement, which the text between them is.
	assign, ok := f.Stmts[1].Cmd.(*syntax.CallExpr)
	if !ok || len(assign.Args) != 0 || len(assign.Assigns) != 1 || assign.Assigns[0].Value == nil {
		return "", false
	}
	if _, r := literal(assign.Assigns[0].Value); r != nil {
		return "", false
	}
	sub, ok := f.Stmts[2].Cmd.(*syntax.Subshell)
	if !ok || len(sub.Stmts) != 2 || len(f.Stmts[2].Redirs) > 0 || !bareStmt(f.Stmts[2]) {
		return "", false
	}
	stmt := sub.Stmts[1]
	start, end := int(stmt.Pos().Offset()), int(stmt.End().Offset())
	bodyStart := len(geminiHead) + len(file) + len(geminiTrap)
	if start != bodyStart || end > len(s) || strings.TrimSpace(s[end:bodyStart+len(inner)]) != "" {
		return "", false
	}
	return inner, true
}
