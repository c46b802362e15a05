package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/shrinkrun/shrinkrun/agents"
	"github.com/shrinkrun/shrinkrun/hook"
)

const initHelp = `Usage: shrinkrun init AGENT [--user|--project] [--dry-run] [--uninstall]

Installs what runs the agent's recognized commands through shrinkrun
(docs/agents.md). Each agent decides a command's permission on the command
as written, before shrinkrun sees it:

  claude    Claude Code's shell prefix (CLAUDE_CODE_SHELL_PREFIX), and an
            allow rule for the read-only shrinkrun show
  codex     a PreToolUse hook, which Codex runs once you trust it (/hooks)
  opencode  its shell setting, naming shrinkrun's bash link
  gemini    shrinkrun's bash link first on the PATH Gemini CLI starts with:
            a gemini() function in ~/.bashrc (or ~/.zshrc)
  qwen      the same for Qwen Code: a qwen() function
  copilot   COPILOT_BASH_PATH naming the link: a copilot() function

The link (~/.local/share/shrinkrun/shell/AGENT/bash) is shrinkrun under the
name bash: it summarizes the commands it recognizes and is the real bash
for everything else. Cursor has no route that keeps its permissions: init
refuses and says why. The entry names this binary by its absolute path, so
install shrinkrun where it stays, on PATH (go install ./cmd/shrinkrun),
before running init: init warns when the binary is not the one PATH finds,
or lives in a temporary or build folder.

  --user       the user's settings (the default)
  --project    the current directory's project settings
  --dry-run    print what would change, and change nothing
  --uninstall  remove the entry shrinkrun added
`

// initVerb installs (or with --uninstall removes) the hook in an agent's
// settings: `shrinkrun init AGENT [--user|--project] [--dry-run]
// [--uninstall]`. The user scope is the default.
func initVerb(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := newVerbFlags("init", initHelp)
	user := fl.Bool("user", false, "")
	project := fl.Bool("project", false, "")
	dry := fl.Bool("dry-run", false, "")
	uninstall := fl.Bool("uninstall", false, "")
	if code, done := fl.parse(args, exactly(1), stdout, stderr); done {
		return code
	}
	if *user && *project {
		return fl.fail(stderr, errors.New("--user and --project exclude each other"))
	}
	name := fl.Arg(0)
	if l, ok := agents.LookupLaunch(name); ok {
		// --project --uninstall still removes the project hook an older
		// shrinkrun put in Gemini CLI's settings.
		if _, old := agents.Lookup(name); !(*project && *uninstall && old) {
			return initLaunch(l, *project, *dry, *uninstall, stdout, stderr)
		}
	}
	a, ok := agents.Lookup(name)
	if !ok {
		if name == "cursor" {
			fmt.Fprintln(stderr, "shrinkrun: Cursor's beforeShellExecution hook can allow or deny a command but not rewrite it, so there is no hook to install; add `shrinkrun prompt` to AGENTS.md instead (see docs/agents.md)")
			return exitUsage
		}
		return fl.fail(stderr, fmt.Errorf("unknown agent %q", name))
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
	self := selfPath()
	entry, link := self, ""
	if a.Shell {
		if link, err = agents.LinkPath(env, name); err != nil {
			fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
			return 1
		}
		entry = link
	}
	if *uninstall {
		c, err = a.Uninstall(path)
	} else {
		for _, w := range installWarnings(self, exec.LookPath, os.TempDir()) {
			fmt.Fprintf(stderr, "shrinkrun: warning: %s\n", w)
		}
		c, err = a.Install(path, entry)
	}
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
		return 1
	}
	if *dry {
		printDryRun(stdout, c)
		return 0
	}
	if link != "" && !*uninstall {
		if err := agents.Link(link, self); err != nil {
			fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
			return 1
		}
	}
	if err := c.Apply(); err != nil {
		fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
		return 1
	}
	if link != "" && *uninstall {
		if err := unlinkUnused(link, env); err != nil {
			fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
			return 1
		}
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

// printDryRun says what a planned change would do, and the file it would
// leave.
func printDryRun(stdout io.Writer, c *agents.Change) {
	if !c.Changed() {
		fmt.Fprintf(stdout, "nothing to do: %s\n", c.Note)
		return
	}
	fmt.Fprintf(stdout, "would have %s; the file would read:\n", c.Note)
	if c.New == nil {
		fmt.Fprintln(stdout, "(removed)")
	} else {
		stdout.Write(c.New)
	}
}

// afterInstall is what the user must know once the entry is written.
var afterInstall = map[hook.Agent]string{
	"opencode":  "opencode now runs its bash tool's commands with shrinkrun's bash link, which summarizes the commands shrinkrun recognizes and is the real bash for everything else; opencode decides each command's permission on the command as written, before that. New sessions pick it up.",
	hook.Claude: "Claude Code now runs its Bash commands through shrinkrun (its hooks and MCP servers too, which pass through unchanged); it decides each command's permission on the command as written, before that. New sessions pick it up.",
	hook.Codex:  "Codex skips a new hook until you trust it, without a word: start codex, type /hooks and trust the shrinkrun hook. shrinkrun doctor says whether Codex runs it.",
}

// installWarnings says what would break the hook that names self: a
// binary PATH does not find (prompts and agents run a bare shrinkrun), or
// one in a temporary folder (go run's binary, deleted when it exits) or a
// build folder (a source checkout, which may move or go).
func installWarnings(self string, lookPath func(string) (string, error), tmp string) []string {
	const fix = "install it on PATH with go install ./cmd/shrinkrun (it lands in $(go env GOBIN), or $(go env GOPATH)/bin) and run init from there"
	var w []string
	switch onPath, err := lookPath("shrinkrun"); {
	case err != nil:
		w = append(w, fmt.Sprintf("the agent will run %s, but PATH finds no shrinkrun: %s", self, fix))
	case !sameFile(onPath, self):
		w = append(w, fmt.Sprintf("the agent will run %s, but PATH finds %s: run init with the one you mean to keep", self, onPath))
	}
	dir := filepath.Dir(self)
	switch {
	case within(dir, tmp) || strings.Contains(dir, string(filepath.Separator)+"go-build"):
		w = append(w, fmt.Sprintf("%s is in a temporary folder, which is deleted: the agent's entry will stop working; %s", self, fix))
	case isFile(filepath.Join(dir, "go.mod")):
		w = append(w, fmt.Sprintf("%s is in the source folder %s: moving or deleting it breaks the agent's entry; %s", self, dir, fix))
	}
	return w
}

func sameFile(a, b string) bool {
	ai, err := os.Stat(a)
	if err != nil {
		return false
	}
	bi, err := os.Stat(b)
	return err == nil && os.SameFile(ai, bi)
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
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
