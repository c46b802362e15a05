package main

import (
	"fmt"
	"io"
	"os"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/deny"
)

// exitDenied is the status of a command shrinkrun refuses because the
// agent client it runs under would deny it: 126, as bash reports a
// command it may not execute.
const exitDenied = 126

// prefixedEnv is set by shrinkrun running as Claude Code's shell prefix
// for the command string it runs: a shrinkrun started inside it (the model
// typed `shrinkrun 'git push'`) is not the prefix, and is checked.
const prefixedEnv = "SHRINKRUN_PREFIXED"

// clientTitles name the clients in messages.
var clientTitles = map[clients.Name]string{clients.Claude: "Claude Code", clients.Codex: "Codex", clients.Gemini: "Gemini CLI"}

// denied checks the command, as the model would have typed it without
// shrinkrun, against the deny rules of the client whose shell this is
// (of each, when clients run inside each other), and reports a refusal.
//
// The check runs on every route but one: Claude Code's shell prefix
// itself, which runs only what Claude Code already allowed as written (and
// its hooks and MCP servers, which its Bash rules do not govern). On the
// Codex hook's rewrite it never denies: the hook rewrites only commands no
// rule of Codex's concerns (docs/agents.md, "The prompt route").
func (inv *invocation) denied(stderr io.Writer) bool {
	if inv.opts.prefix && os.Getenv(prefixedEnv) == "" {
		return false
	}
	names := clients.Marked(os.Getenv)
	if len(names) == 0 {
		return false
	}
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	env := deny.Env{Home: home, Cwd: cwd, Getenv: os.Getenv, Session: claudeSession()}
	for _, n := range names {
		if v := deny.Load(n, env).Check(inv.typed); v.Denied {
			fmt.Fprintf(stderr, "shrinkrun: %s (%s: shrinkrun refuses what %s would refuse without it)\n", v.Message, v.Why, clientTitles[n])
			return true
		}
	}
	return false
}

// claudeSession is the directory Claude Code's session started in, whose
// project settings it reads: the working directory of its process, which
// it names in CLAUDE_PID (Linux; elsewhere "").
func claudeSession() string {
	pid := os.Getenv("CLAUDE_PID")
	if pid == "" || os.Getenv("CLAUDECODE") == "" {
		return ""
	}
	dir, err := os.Readlink("/proc/" + pid + "/cwd")
	if err != nil {
		return ""
	}
	return dir
}
