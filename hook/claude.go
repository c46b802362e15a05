package hook

import (
	"github.com/shrinkrun/shrinkrun/classify"
)

// claudePolicy leaves every command alone. Claude Code checks its
// permission rules against the command a PreToolUse hook returns, and
// against nothing the hook can read in full (--allowedTools and
// --disallowedTools on its command line, the session's own "always allow",
// its built-in read-only commands). Measured with Claude Code 2.1.332
// (agents/e2e, docs/agents.md): a rewrite made `git diff` (read-only) and a
// command allowed by --allowedTools need approval, and an allow rule in the
// settings let a command that --disallowedTools denies run. No answer keeps
// every outcome, so there is none: Claude Code's route is its shell prefix
// (shrinkrun init claude), which runs the command after Claude Code has
// decided. The payload is still read, to say why in doctor and tests.
func claudePolicy(env Env, _ *request, _ classify.Result) policy {
	if env.Getenv("SHRINKRUN_AGENT") == "claude" {
		return policy{leave: "Claude Code runs its commands through shrinkrun as its shell prefix"}
	}
	return policy{leave: "Claude Code checks its permission rules against the command a hook returns: shrinkrun init claude installs the shell prefix instead"}
}
