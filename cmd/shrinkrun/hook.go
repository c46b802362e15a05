package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/shrinkrun/shrinkrun/hook"
)

const hookHelp = `Usage: shrinkrun hook claude|codex|gemini

The hook itself, as shrinkrun init installs it: reads the agent's hook
payload on stdin and prints the rewrite of a recognized command, or nothing
to leave the command alone (docs/agents.md). It always exits 0: for the
agents, another status blocks the tool call.
`

// hookVerb answers an agent's pre-tool-use hook: `shrinkrun hook AGENT`
// reads the payload on stdin and prints the rewrite, or nothing. It always
// exits 0 and never writes half an answer: for the agents, exit 2 means
// "block this tool call", and a hook that blocked the agent's commands on
// its own failure would be worse than no hook.
func hookVerb(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if recover() != nil {
			code = 0
		}
	}()
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, hookHelp)
		return 0
	}
	if len(args) != 1 || !hook.Known(hook.Agent(args[0])) {
		fmt.Fprintln(stderr, "shrinkrun: hook: usage: shrinkrun hook claude|codex|gemini (reads the agent's hook payload on stdin; shrinkrun hook --help)")
		return 0
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, hook.MaxPayload+1))
	if err != nil {
		return 0
	}
	// The rules that apply where the agent runs the command, as they will
	// when it runs under shrinkrun; their notices are for the command.
	declareRules(nil)
	r := hook.Run(hook.Agent(args[0]), payload, hookEnv(selfPath()))
	if r.Output != nil {
		stdout.Write(r.Output)
	}
	return 0
}

// hookEnv is the decision's view of this machine.
func hookEnv(bin string) hook.Env {
	home, _ := os.UserHomeDir()
	return hook.Env{Bin: bin, Home: home, Getenv: os.Getenv, CodexSystem: "/etc/codex"}
}

// selfPath is the absolute path this shrinkrun was started by: the path
// the agent's hook entry names, or the one found on PATH. It is preferred
// to the resolved executable so that a stable symlink (a package manager's
// bin directory) stays what rewrites and hook entries name across upgrades.
func selfPath() string {
	arg0 := os.Args[0]
	if filepath.IsAbs(arg0) {
		return arg0
	}
	if filepath.Base(arg0) != arg0 {
		if p, err := filepath.Abs(arg0); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath(arg0); err == nil {
		if p, err := filepath.Abs(p); err == nil {
			return p
		}
	}
	p, _ := os.Executable()
	return p
}
