// Package classify decides, without running anything, whether a command is
// one that shrinkrun summarizes and which rule applies. It is pure: no I/O.
//
// String mode parses the command with a real shell parser and accepts only
// the AST node types that contract §3 allows; anything else passes through.
// Argv mode classifies words that the caller's shell already split.
package classify

// Rule ids. Each has a summarizer in package summarize.
const (
	GitStatus  = "bash.git_status"
	GitDiff    = "bash.git_diff"
	GitLog     = "bash.git_log"
	CargoCheck = "bash.cargo_check"
	CargoTest  = "bash.cargo_test"
)

// Rules lists every rule id this package can return.
var Rules = []string{GitStatus, GitDiff, GitLog, CargoCheck, CargoTest}

// Result is the classification of one command.
type Result struct {
	// Rule is the matched rule id, or "" when the command passes through.
	Rule string
	// Stages holds the argv of each pipeline stage, assignments and the
	// allowed fd redirects removed. Empty when the command could not be
	// taken apart (parse error, unsupported construct).
	Stages [][]string
	// Assigns holds the leading NAME=value words of the first stage.
	Assigns []string
	// Reason says why the command passes through; empty when Rule is set.
	Reason string
	// Pos is the 1-based "line:col" of the token that caused the
	// pass-through in string mode, or "" when there is none.
	Pos string
}

// String classifies a command string (the -c form).
func String(src string) Result {
	return Result{Reason: "classifier not written yet"}
}

// Argv classifies words already split by the caller's shell.
func Argv(argv []string) Result {
	return Result{Reason: "classifier not written yet"}
}

// Explain renders r for --explain: the rule that matched, or the reason the
// command passes through, prefixed by the position when there is one.
func (r Result) Explain() string {
	if r.Rule != "" {
		return "rule " + r.Rule
	}
	if r.Pos != "" {
		return r.Pos + ": " + r.Reason + "; passing through"
	}
	return r.Reason + "; passing through"
}
