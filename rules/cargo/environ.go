package cargo

import "strings"

// Environ is the cargo family's environment check (rules.Family.Environ):
// getenv looks a variable up as the child will see it. It says why cargo
// would print what the rules cannot read, or "".
//
// Of cargo's CARGO_TERM_ settings only a progress bar forced onto a pipe
// (CARGO_TERM_PROGRESS_WHEN=always) does: cargo then redraws its progress
// line with a carriage return but never erases it, so every message that
// follows is printed over the bar's remains and its line ends with them
// ("error[E0308]: mismatched types    ] 0/1: demo(bin)"). The others keep
// the lines the rules read: COLOR and HYPERLINKS add escapes that are
// removed before a rule reads a line (summarize.Readable), VERBOSE and
// QUIET are -v and -q, which the rules read, and UNICODE and the other
// PROGRESS settings change nothing on a pipe. The format options have no
// variables (docs/classify.md).
func Environ(getenv func(string) string) string {
	if v := getenv("CARGO_TERM_PROGRESS_WHEN"); strings.EqualFold(v, "always") {
		return "CARGO_TERM_PROGRESS_WHEN=" + v + " draws cargo's progress bar over its messages"
	}
	return ""
}
