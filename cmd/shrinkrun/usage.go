package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/rules"
)

// usage is the text of --help; usageText fills in what the rule table
// recognizes.
const usage = `shrinkrun: run a command and print a short, faithful summary of its output

Usage:
  shrinkrun [flags] [--] CMD [ARG...]   run CMD directly (argv mode)
  shrinkrun [flags] -c 'COMMAND'        run COMMAND with bash -c (string mode)

Verbs:
  shrinkrun show [--stdout|--stderr] ID
      print the raw output a block names
  shrinkrun init claude|codex [--project|--user] [--dry-run] [--uninstall]
      claude: make shrinkrun Claude Code's shell prefix; codex: install
      Codex's PreToolUse hook (trust it with /hooks); Gemini CLI and other
      agents have no route that keeps their permissions: use shrinkrun prompt
  shrinkrun doctor [--command 'SAMPLE']
      say what is installed for each agent and whether it works
  shrinkrun hook AGENT
      the hook itself (reads the agent's payload)
  shrinkrun prompt
      print instructions for AGENTS.md / CLAUDE.md
  shrinkrun gain [--since D] [--project] [--json] [--runs] [--days N] [--top N]
      tokens saved, per rule and per command (shrinkrun gain --help)
  shrinkrun compress --command 'CMD' [--exit N] [--stdout F --stderr F]
      the block for output captured elsewhere
  shrinkrun rules list|test|eject
      your own rules, written in TOML (docs/rules.md)
  shrinkrun trust [--yes] [--list] / shrinkrun untrust
      let a repository's rules (.shrinkrun/rules) apply, or stop them
  shrinkrun help [VERB]
      this help, or a verb's
Each verb prints its own help with -h or --help. A command named like a
verb runs with shrinkrun -- NAME.

{{recognized}}

Flags:
  -c, --command          run the first argument as a shell string, like bash -c
  -l, --login            with -c, run a login shell (accepts -lc as bash does)
  -e, --errexit          with -c, pass -e to the shell (make's .POSIX -ec)
      --raw              never summarize; everything passes through
                         (same as SHRINKRUN_DISABLE=1, or true, yes, on)
      --explain          say on stderr which rule matched, or why the command
                         passes through, then run it
      --pty              run a captured command on a pseudo-terminal; its
                         stderr arrives merged into stdout, and terminal
                         escape sequences are removed before summarizing;
                         stdin stays the caller's
      --capture-limit N  bytes of each stream kept in memory (head and tail),
                         in at most N/16 lines; at least 1024, default
                         4194304
      --budget N         largest block in bytes; at least 512, default 16384
                         (or SHRINKRUN_BUDGET, or the --agent's)
      --cut-limit N      output no rule recognizes passes whole up to N
                         bytes (both streams together) and is cut by shape
                         past it, to at most the budget; at least 1024,
                         default the client's limit, else 30000 (or
                         SHRINKRUN_CUT_LIMIT); SHRINKRUN_CUT=0 turns the
                         cut off
      --agent NAME       the client the block is for (claude, codex, gemini,
                         opencode, copilot, qwen; or SHRINKRUN_AGENT): sizes
                         the block to what that client shows its model; with
                         claude, a lone argument is Claude Code's shell
                         prefix string
      --version          print the version
  -h, --help             print this help

When stderr is a terminal, a summarized command that runs for more than a
second shows a progress line there (elapsed time, lines and bytes captured),
erased before the block prints; not with NO_COLOR or TERM=dumb.

Signals sent to shrinkrun (HUP, INT, QUIT, ABRT, TERM, USR1, USR2, ALRM,
PIPE) reach the command and its process group.

Exit status: the command's exit code; 128+N when signal N killed it; 127 when
it was not found and 126 when it could not be executed. 2 for a mistake in
shrinkrun's own flags.

Examples:
  shrinkrun -- cargo test
  shrinkrun -c 'git diff 2>&1 | cat'
  shrinkrun --explain -c 'git status && ls'
`

// usageText is usage with the paragraph on the recognized commands, from
// the rule table.
func usageText() string {
	return strings.Replace(usage, "{{recognized}}\n", wrap("Recognized commands ("+rules.Commands()+
		"; docs/classify.md) are captured, and a [tool_output_compression] block replaces their output. "+
		"Everything else runs untouched: same bytes, same streams, live, until its output passes the limit where the agent's client would cut it; it is then cut by shape, failures kept and the raw output stored. "+
		"In a terminal, or with --raw, shrinkrun becomes the command (exec) and nothing is cut. The exit status is always the command's own.", textWidth), 1)
}

// textWidth is the width --help and shrinkrun prompt wrap their text to.
const textWidth = 76

// wrap breaks text into lines of at most width bytes at spaces, each
// ended by a newline; a longer word has a line of its own.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		switch {
		case n == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	b.WriteByte('\n')
	return b.String()
}

// helpVerb is `shrinkrun help [VERB]`: the usage, or a verb's own help, as
// --help prints them. It is not in subcommands, whose verbs it names.
func helpVerb(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, usageText())
		return 0
	case len(args) > 1:
		fmt.Fprintf(stderr, "shrinkrun: help: unexpected argument %q (usage: shrinkrun help [VERB])\n", args[1])
		return exitUsage
	}
	if verb, ok := subcommands[args[0]]; ok {
		return verb([]string{"--help"}, nil, stdout, stderr)
	}
	fmt.Fprintf(stderr, "shrinkrun: help: no verb %q; the verbs are %s (usage: shrinkrun help [VERB])\n", args[0], strings.Join(verbNames(), ", "))
	return exitUsage
}

// verbNames lists the verbs in alphabetical order.
func verbNames() []string {
	return slices.Sorted(maps.Keys(subcommands))
}
