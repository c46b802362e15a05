// Package hook answers an AI coding agent's pre-tool-use hook: given the
// JSON payload the agent sends before it runs a shell command, it returns
// the agent-specific JSON that makes the agent run that command under
// shrinkrun instead, or nothing at all.
//
// Nothing is the answer whenever there is any doubt: a command shrinkrun
// would pass through, a payload that is not exactly what the agent
// documents, a permission rule that the rewrite could sidestep, an unreadable
// rules file. Saying nothing leaves the agent to do what it would have
// done without the hook, so a wrong "nothing" costs a summary and a wrong
// rewrite could change a permission outcome the user relied on.
//
// Only Codex gets rewrites. Claude Code and Gemini CLI check their
// permission rules against the command a hook returns, which no answer can
// make neutral, so their payloads are read and always left alone (measured
// with the real clients in agents/e2e; docs/agents.md).
//
// Whether a command is worth rewriting is decided by rules.String on the
// command exactly as the agent wrote it, and the rewrite runs that same
// string with `shrinkrun -c`, so shrinkrun classifies it the same way when
// it runs. docs/agents.md describes every agent's format and why each
// decision is made.
package hook

import (
	"path"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/setting"
)

// Agent names an agent whose hook format this package speaks.
type Agent string

// The agents with a hook that can rewrite a shell command.
const (
	Claude Agent = "claude" // Claude Code, PreToolUse on Bash
	Codex  Agent = "codex"  // Codex CLI, PreToolUse on Bash
	Gemini Agent = "gemini" // Gemini CLI, BeforeTool on run_shell_command
)

// Agents lists every supported agent, in the order docs and doctor use.
var Agents = []Agent{Claude, Codex, Gemini}

// Known reports whether a is a supported agent.
func Known(a Agent) bool {
	_, ok := formats[a]
	return ok
}

// Env is what the decision depends on outside the payload. The hook verb
// fills it from the process; tests and doctor fill it themselves.
type Env struct {
	// Bin is the absolute path of the shrinkrun binary that rewritten
	// commands run.
	Bin string
	// Home is the user's home directory, where agents keep user settings.
	Home string
	// Getenv reads the environment (SHRINKRUN_DISABLE, SHRINKRUN_AGENT,
	// CODEX_HOME).
	Getenv func(string) string
	// CodexSystem is Codex's system config directory (/etc/codex), whose
	// rules/ apply to every user.
	CodexSystem string
}

// Result is the answer to one payload.
type Result struct {
	// Output is what the hook prints: the agent's rewrite JSON, or nil to
	// print nothing.
	Output []byte
	// Command is the command the agent asked to run, when the payload had
	// one.
	Command string
	// Rewrite is the command that runs instead; "" when left alone.
	Rewrite string
	// Reason says why the command is left alone, or, for a rewrite, where
	// the permission decision comes from.
	Reason string
}

// Run decides what to answer to one hook payload.
func Run(agent Agent, payload []byte, env Env) Result {
	f, ok := formats[agent]
	if !ok {
		return Result{Reason: "unknown agent " + string(agent)}
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if setting.Disabled(env.Getenv) {
		return Result{Reason: "SHRINKRUN_DISABLE=" + env.Getenv("SHRINKRUN_DISABLE")}
	}
	req, err := parse(f, payload)
	if err != nil {
		return Result{Reason: err.Error()}
	}
	res := Result{Command: req.command}
	if req.background {
		res.Reason = "runs in the background: its output is read while it runs, a block would come only at the end"
		return res
	}
	if Wrapped(req.command) {
		res.Reason = "already runs under shrinkrun"
		return res
	}
	c := rules.String(req.command)
	if c.Rule == "" {
		res.Reason = "shrinkrun passes it through: " + c.Explain()
		return res
	}
	for _, a := range c.Assigns {
		if strings.HasPrefix(a, "SHRINKRUN_") {
			res.Reason = "the command sets " + a + " for shrinkrun itself"
			return res
		}
	}
	p := policies[agent](env, req, c)
	if p.leave != "" {
		res.Reason = p.leave
		return res
	}
	rewrite, err := Wrap(env.Bin, agent, req.command)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	out, err := f.answer(req, rewrite)
	if err != nil {
		res.Reason = "cannot encode the answer: " + err.Error()
		return res
	}
	res.Output, res.Rewrite, res.Reason = out, rewrite, p.reason
	return res
}

// policy is an agent's permission verdict on a recognized command: leave it
// alone (and why), or rewrite it (and why that keeps the outcome).
type policy struct {
	leave  string
	reason string
}

// policies holds each agent's permission check. Each must make sure the
// rewrite cannot run a command the user's own rules would have stopped or
// asked about, because the agent checks those rules against the rewritten
// command, which they no longer match.
var policies = map[Agent]func(Env, *request, classify.Result) policy{
	Claude: claudePolicy,
	Codex:  codexPolicy,
	Gemini: geminiPolicy,
}

// geminiPolicy leaves every command alone. Gemini CLI 0.61 fires
// BeforeTool before its policy check and checks the command the hook
// returns: a policy or --allowed-tools rule for `cargo test` no longer
// matches the rewrite, so a command the user allowed is refused (asked
// about, interactively), and a deny rule stops applying. No answer the
// hook can give keeps the outcome (a hook cannot answer allow there), so
// there is none; the payload is still read, to say so. docs/agents.md has
// the measurement.
func geminiPolicy(Env, *request, classify.Result) policy {
	return policy{leave: "Gemini CLI checks its policy against the command a BeforeTool hook returns: a rewrite would change which rules apply"}
}

// isShrinkrun reports whether a command word names a shrinkrun binary.
func isShrinkrun(word string) bool {
	return path.Base(word) == "shrinkrun"
}

// Wrapped reports whether cmd already runs under shrinkrun, in either form
// (`shrinkrun -c '...'`, `shrinkrun -- ...`, with any path or flags).
func Wrapped(cmd string) bool {
	c := rules.String(cmd)
	return len(c.Stages) > 0 && len(c.Stages[0]) > 0 && isShrinkrun(c.Stages[0][0])
}
