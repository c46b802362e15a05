package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/shrinkrun/shrinkrun/agents"
	"github.com/shrinkrun/shrinkrun/hook"
)

// initLaunch installs (or removes) the shell route of a client whose only
// way to shrinkrun's bash is its launch (Gemini CLI, Qwen Code, Copilot
// CLI): the bash link, and the function in the user's shell startup file
// that starts the client with it. It is per user: the function is the
// user's. Removing it also removes a Gemini CLI hook an older shrinkrun
// installed.
func initLaunch(l *agents.Launch, project, dry, uninstall bool, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
		return 1
	}
	if project {
		return fail(fmt.Errorf("%s's route is the function that starts it, in your shell's startup file: it is per user, there is no --project", l.Client))
	}
	env, err := agentsEnv()
	if err != nil {
		return fail(err)
	}
	link, err := agents.LinkPath(env, l.Name)
	if err != nil {
		return fail(err)
	}
	rc, err := l.RCFile(env, link)
	if err != nil {
		return fail(err)
	}
	self := selfPath()
	var c *agents.Change
	if uninstall {
		c, err = l.Uninstall(rc)
	} else {
		for _, w := range installWarnings(self, exec.LookPath, os.TempDir()) {
			fmt.Fprintf(stderr, "shrinkrun: warning: %s\n", w)
		}
		c, err = l.Install(rc, link)
	}
	if err != nil {
		return fail(err)
	}
	if dry {
		printDryRun(stdout, c)
		return 0
	}
	if uninstall {
		if err := c.Apply(); err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, c.Note)
		if err := agents.Unlink(link); err != nil {
			return fail(err)
		}
		if err := applyShow(agents.ShowUninstall(l.Name, env)); err != nil {
			return fail(err)
		}
		if l.Name == string(hook.Gemini) {
			return uninstallOldGeminiHook(env, stdout, stderr)
		}
		return 0
	}
	if err := agents.Link(link, self); err != nil {
		return fail(err)
	}
	if err := c.Apply(); err != nil {
		return fail(err)
	}
	show, err := agents.ShowInstall(l.Name, env)
	if err == nil {
		err = applyShow(show, nil)
	}
	if err != nil {
		return fail(err)
	}
	if !c.Changed() {
		fmt.Fprintf(stdout, "nothing to do: %s\n", c.Note)
		return 0
	}
	fmt.Fprintln(stdout, c.Note)
	if show != nil {
		fmt.Fprintln(stdout, show.Note)
	}
	fmt.Fprintf(stdout, "%s started as %s from a new shell runs its commands with %s, which is shrinkrun under the name bash: it summarizes the commands shrinkrun recognizes and is the real bash for everything else; %s decides each command's permission on the command as written, before that.\n",
		l.Client, l.Program, link, l.Client)
	fmt.Fprintf(stdout, "check it with: shrinkrun doctor; bypass it with SHRINKRUN_DISABLE=1 or `command %s`; remove it with: shrinkrun init %s --uninstall\n", l.Program, l.Name)
	return 0
}

// uninstallOldGeminiHook removes the BeforeTool hook an older shrinkrun
// put in Gemini CLI's user settings, when it is there.
func uninstallOldGeminiHook(env agents.Env, stdout, stderr io.Writer) int {
	a, _ := agents.Lookup(string(hook.Gemini))
	path, err := a.Path(agents.User, env)
	if err != nil {
		return 0
	}
	if found, err := a.Status(path); err != nil || len(found) == 0 {
		return 0
	}
	c, err := a.Uninstall(path)
	if err == nil {
		err = c.Apply()
	}
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: init: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, c.Note)
	return 0
}

// unlinkUnused removes opencode's bash link once no scope's settings name
// it.
func unlinkUnused(link string, env agents.Env) error {
	a, _ := agents.Lookup("opencode")
	for _, scope := range []agents.Scope{agents.User, agents.Project} {
		path, err := a.Path(scope, env)
		if err != nil {
			continue
		}
		found, err := a.Status(path)
		if err != nil {
			return errors.New("the link " + link + " is kept: " + err.Error())
		}
		for _, f := range found {
			if f.Bin == link {
				return nil
			}
		}
	}
	return agents.Unlink(link)
}

// applyShow applies the change of the allow rule for shrinkrun show, when
// there is one.
func applyShow(c *agents.Change, err error) error {
	if err != nil || c == nil {
		return err
	}
	return c.Apply()
}
