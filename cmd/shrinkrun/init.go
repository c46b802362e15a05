package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/shrinkrun/shrinkrun/agents"
	"github.com/shrinkrun/shrinkrun/hook"
)

// initVerb installs (or with --uninstall removes) the hook in an agent's
// settings: `shrinkrun init AGENT [--user|--project] [--dry-run]
// [--uninstall]`. The user scope is the default.
func initVerb(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("init", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	user := fs.Bool("user", false, "")
	project := fs.Bool("project", false, "")
	dry := fs.Bool("dry-run", false, "")
	uninstall := fs.Bool("uninstall", false, "")
	usage := "shrinkrun: usage: shrinkrun init claude|codex|gemini [--user|--project] [--dry-run] [--uninstall]"
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || *user && *project {
		fmt.Fprintln(stderr, usage)
		return exitUsage
	}
	name := fs.Arg(0)
	a, ok := agents.Lookup(name)
	if !ok {
		if name == "cursor" {
			fmt.Fprintln(stderr, "shrinkrun: Cursor's beforeShellExecution hook can allow or deny a command but not rewrite it, so there is no hook to install; add `shrinkrun prompt` to AGENTS.md instead (see docs/agents.md)")
		} else {
			fmt.Fprintln(stderr, usage)
		}
		return exitUsage
	}
	scope := agents.User
	if *project {
		scope = agents.Project
	}
	env, err := agentsEnv()
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
		return 1
	}
	path, err := a.Path(scope, env)
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
		return 1
	}
	var c *agents.Change
	if *uninstall {
		c, err = a.Uninstall(path)
	} else {
		c, err = a.Install(path, selfPath())
	}
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
		return 1
	}
	if *dry {
		if c.Changed() {
			fmt.Fprintf(stdout, "would have %s; the file would read:\n", c.Note)
			if c.New == nil {
				fmt.Fprintln(stdout, "(removed)")
			} else {
				stdout.Write(c.New)
			}
		} else {
			fmt.Fprintf(stdout, "nothing to do: %s\n", c.Note)
		}
		return 0
	}
	if err := c.Apply(); err != nil {
		fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
		return 1
	}
	if !c.Changed() {
		fmt.Fprintf(stdout, "nothing to do: %s\n", c.Note)
		return 0
	}
	fmt.Fprintln(stdout, c.Note)
	if !*uninstall {
		if note := afterInstall[a.Name]; note != "" {
			fmt.Fprintln(stdout, note)
		}
		fmt.Fprintf(stdout, "check it with: shrinkrun doctor; bypass it with SHRINKRUN_DISABLE=1; remove it with: shrinkrun init %s%s --uninstall\n", name, scopeFlag(scope))
	}
	return 0
}

// afterInstall is what the user must know once the entry is written.
var afterInstall = map[hook.Agent]string{
	hook.Claude: "Claude Code now runs its Bash commands through shrinkrun (its hooks and MCP servers too, which pass through unchanged); it decides each command's permission on the command as written, before that. New sessions pick it up.",
	hook.Codex:  "Codex skips a new hook until you trust it, without a word: start codex, type /hooks and trust the shrinkrun hook. shrinkrun doctor says whether Codex runs it.",
}

func scopeFlag(s agents.Scope) string {
	if s == agents.Project {
		return " --project"
	}
	return ""
}

// agentsEnv is where agents keep their settings on this machine: the home
// directory, and the current directory as the project.
func agentsEnv() (agents.Env, error) {
	home, _ := os.UserHomeDir()
	dir, err := os.Getwd()
	return agents.Env{Home: home, Dir: dir, Getenv: os.Getenv}, err
}
