package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/shrinkrun/shrinkrun/rules"
)

// promptText is the snippet for AGENTS.md or CLAUDE.md: the route that
// works with every agent, hook or no hook. It is short because it costs
// tokens in every session. promptVerb fills in the recognized commands
// that change nothing (rules.PromptCommands): a user allows `shrinkrun` in
// the client to save the summaries, and that allow must not be what lets a
// push or an install run.
const promptText = `## Command output: shrinkrun

{{recognized}}

    shrinkrun -- git diff
    shrinkrun -- cargo test
    shrinkrun -c 'cargo test 2>&1 | tail -n 100'   # pipes or 2>&1: one quoted string

Run every other command as usual. The exit status is always the command's own.

A summary starts with [tool_output_compression]; its fields are exact counts
and copied lines (every failing test, error code and file:line:col), and a
list that was cut says how many items it left out (KEY_omitted: N). Its last
line reads "raw_output: shrinkrun show ID": run "shrinkrun show ID" to read
the full raw output (--stdout or --stderr for one stream) instead of running
the command again. To get the raw output directly, run the command without
shrinkrun, or prefix it with SHRINKRUN_DISABLE=1.
`

const promptHelp = `Usage: shrinkrun prompt

Prints instructions for agents to paste into AGENTS.md or CLAUDE.md: which
commands to run through shrinkrun, how to read the block, and how to get
the raw output back. It is the route that works with every agent, hook or
no hook (docs/agents.md).
`

// promptVerb prints the snippet.
func promptVerb(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if code, done := newVerbFlags("prompt", promptHelp).parse(args, exactly(0), stdout, stderr); done {
		return code
	}
	fmt.Fprint(stdout, strings.Replace(promptText, "{{recognized}}\n", wrap("Run these commands through shrinkrun, which prints a short, exact summary instead of their full output: "+
		rules.PromptCommands()+".", textWidth), 1))
	return 0
}
