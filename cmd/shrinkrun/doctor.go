package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/shrinkrun/shrinkrun/agents"
	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/deny"
	"github.com/shrinkrun/shrinkrun/history"
	"github.com/shrinkrun/shrinkrun/hook"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/setting"
	"github.com/shrinkrun/shrinkrun/store"
)

const doctorHelp = `Usage: shrinkrun doctor [--command 'SAMPLE']

Says, for every agent and scope, whether shrinkrun is installed (Claude
Code's shell prefix, Codex's hook, opencode's shell setting, the launch
function of Gemini CLI, Qwen Code and Copilot CLI with its bash link),
whether the binary it runs is this shrinkrun (the same version, VCS revision and, for a build with uncommitted
changes, the same bytes), whether the agent runs it (Codex: whether the hook
is trusted), and what happens to a sample command; then whether the state
directory can keep raw output and history, which rule files apply here
(yours and the repository's trusted ones) and why any does not, and any
boolean setting it cannot read. Exits 1 when an installed entry does not work: its binary or
bash link is missing or another build, Codex skips the hook, or it is a Claude Code or Gemini CLI
hook from an older shrinkrun; else 0.

  --command 'SAMPLE'  the command to ask about (default "git status")
`

// doctorVerb reports, for every agent and scope, whether shrinkrun is
// installed (Claude Code's shell prefix, the Codex hook), whether the
// binary it runs is this shrinkrun, whether the agent runs it, and what
// happens to a sample command. It exits 1 when an installed entry does not
// work (its binary is missing or another build, Codex does not trust the
// hook, an older shrinkrun's Claude Code or Gemini CLI hook), else 0.
func doctorVerb(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := newVerbFlags("doctor", doctorHelp)
	sample := fl.String("command", "git status", "")
	if code, done := fl.parse(args, exactly(0), stdout, stderr); done {
		return code
	}
	env, err := agentsEnv()
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: doctor: %v\n", err)
		return 1
	}
	self := selfPath()
	v, _ := version()
	fmt.Fprintf(stdout, "this shrinkrun: %s, version %s\n", self, v)
	if setting.Disabled(os.Getenv) {
		fmt.Fprintf(stdout, "SHRINKRUN_DISABLE=%s is set here: hooks started from this environment leave every command alone\n", os.Getenv("SHRINKRUN_DISABLE"))
	}
	for _, e := range setting.Check(os.Getenv) {
		fmt.Fprintf(stdout, "note: %v\n", e)
	}
	if why := summariesOff(true); why != "" {
		fmt.Fprintf(stdout, "summaries: off on this system, every command passes through: %s\n", why)
	}
	fmt.Fprintf(stdout, "state directory: %s\n", stateStatus())
	for _, l := range ruleFilesStatus() {
		fmt.Fprintln(stdout, l)
	}
	problems, installed := 0, 0
	for _, a := range agents.All {
		fmt.Fprintf(stdout, "%s:\n", a.Name)
		for _, scope := range []agents.Scope{agents.User, agents.Project} {
			path, err := a.Path(scope, env)
			if err != nil {
				fmt.Fprintf(stdout, "  %-7s %v\n", scope, err)
				continue
			}
			found, err := a.Status(path)
			switch {
			case err != nil:
				fmt.Fprintf(stdout, "  %-7s %v\n", scope, err)
				problems++
				continue
			case len(found) == 0:
				fmt.Fprintf(stdout, "  %-7s %s: no shrinkrun %s\n", scope, path, a.Route())
				continue
			}
			for _, f := range found {
				installed++
				switch {
				case f.Prefix:
					fmt.Fprintf(stdout, "  %-7s %s: shell prefix %s\n", scope, path, f.Command)
				case f.Shell:
					fmt.Fprintf(stdout, "  %-7s %s: shell %s\n", scope, path, f.Command)
				default:
					fmt.Fprintf(stdout, "  %-7s %s: %s\n", scope, path, f.Command)
				}
				bin := f.Bin
				if p, err := exec.LookPath(bin); err == nil && !filepath.IsAbs(bin) {
					// A hand-written entry: the agent's shell finds it on PATH.
					bin, _ = filepath.Abs(p)
				}
				if f.Shell {
					target, ok := linkState(f.Bin)
					if !ok {
						problems++
						continue
					}
					bin = target
				}
				state, ok := binaryState(bin, self)
				fmt.Fprintf(stdout, "          binary: %s\n", state)
				if !ok {
					problems++
					continue
				}
				if note, bad := routeState(a, f, path, env); note != "" {
					fmt.Fprintf(stdout, "          %s\n", note)
					if bad {
						problems++
						continue
					}
				}
				if f.Prefix || f.Shell {
					fmt.Fprintf(stdout, "          %s\n", asWrittenAnswer(*sample, a.Client()))
					continue
				}
				fmt.Fprintf(stdout, "          %s\n", sampleAnswer(a.Name, bin, *sample, env.Dir))
			}
		}
		if a.Name == hook.Codex {
			if off := codexHooksOff(env); off != "" {
				fmt.Fprintf(stdout, "  note: %s turns hooks off\n", off)
			}
		}
		if l, ok := agents.LookupLaunch(string(a.Name)); ok {
			n, bad := launchStatus(stdout, l, env, self, *sample)
			installed, problems = installed+n, problems+bad
		}
		if title, ok := clientTitles[clients.Name(a.Name)]; ok {
			fmt.Fprintf(stdout, "  prompt route: shrinkrun refuses what %s would deny: %s\n", title, denyState(clients.Name(a.Name)))
		}
	}
	for _, l := range agents.Launches {
		if _, ok := agents.Lookup(l.Name); !ok {
			fmt.Fprintf(stdout, "%s:\n", l.Name)
			n, bad := launchStatus(stdout, l, env, self, *sample)
			installed, problems = installed+n, problems+bad
		}
	}
	fmt.Fprintln(stdout, "cursor: no hook (beforeShellExecution cannot rewrite a command); `shrinkrun prompt` in AGENTS.md covers it")
	if installed == 0 {
		fmt.Fprintln(stdout, "nothing installed: shrinkrun init claude makes shrinkrun Claude Code's shell prefix; shrinkrun init codex installs Codex's PreToolUse hook; shrinkrun init opencode, gemini, qwen or copilot makes shrinkrun the bash that client runs; for other agents, put shrinkrun prompt's text in AGENTS.md")
	}
	if problems > 0 {
		return 1
	}
	return 0
}

// denyState says what the prompt route's deny check reads for a client
// from here: how many deny rules, from how many files, and any file it
// cannot read (every command is then refused).
func denyState(c clients.Name) string {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return deny.Load(c, deny.Env{Home: home, Cwd: cwd, Getenv: os.Getenv}).Summary()
}

// routeState says what the agent makes of an installed entry, when that is
// worth a line, and whether it is a problem: a Claude Code hook from an
// older shrinkrun (it changes permission outcomes; init replaces it), a
// Gemini CLI hook (it rewrites nothing now), a Codex hook Codex does not
// run (untrusted, changed since it was trusted, or turned off).
func routeState(a *agents.Agent, f agents.Installed, path string, env agents.Env) (string, bool) {
	switch {
	case a.Refused != "":
		return "an older shrinkrun's hook, which rewrites nothing now: " + a.Refused + "; remove it with shrinkrun init " + string(a.Name) + " --uninstall", true
	case a.Name == hook.Claude && !f.Prefix:
		return "an older shrinkrun's hook: Claude Code checks its permission rules against the rewritten command, so commands it would run can need approval; shrinkrun init claude replaces it with the shell prefix", true
	case a.Name == hook.Codex:
		home := env.Getenv("CODEX_HOME")
		if home == "" {
			home = filepath.Join(env.Home, ".codex")
		}
		cfg := filepath.Join(home, "config.toml")
		trust, err := a.CodexTrust(f, path, cfg)
		switch {
		case err != nil:
			return fmt.Sprintf("trust: cannot tell (%v)", err), true
		case trust == agents.Trusted:
			return "trust: trusted in " + cfg, false
		case trust == agents.Modified:
			return "installed, changed since it was trusted: Codex skips it; trust it again with /hooks in Codex", true
		case trust == agents.Disabled:
			return "installed, turned off in Codex's /hooks: Codex skips it", true
		}
		return "installed, not trusted: Codex skips it; start codex, type /hooks and trust the shrinkrun hook", true
	}
	return "", false
}

// asWrittenAnswer says what a route that runs after the client's own
// permission check (Claude Code's shell prefix, the bash link) does with a
// sample command: the client has already decided its permission, on the
// command as written.
func asWrittenAnswer(cmd, client string) string {
	c := rules.String(cmd)
	if c.Rule == "" {
		return fmt.Sprintf("%q: runs unchanged (%s); %s decides its permission on the command as written", cmd, c.Explain(), client)
	}
	return fmt.Sprintf("%q: summarized (rule %s); %s decides its permission on the command as written", cmd, c.Rule, client)
}

// linkState prints where a bash link points and returns its target, or
// false when the link is missing or broken.
func linkState(link string) (string, bool) {
	target, err := agents.LinkTarget(link)
	if err != nil {
		return "", false
	}
	if _, err := os.Stat(target); err != nil {
		return target, false
	}
	return target, true
}

// launchStatus reports a client's launch route: the function in the
// shell's startup file, the link it sets up and the binary behind it, the
// real bash the link runs, and a sample command. It returns how many
// routes it found and how many problems.
func launchStatus(stdout io.Writer, l *agents.Launch, env agents.Env, self, sample string) (installed, problems int) {
	link, err := agents.LinkPath(env, l.Name)
	if err != nil {
		fmt.Fprintf(stdout, "  launch  %v\n", err)
		return 0, 0
	}
	rc, err := l.RCFile(env, link)
	if err != nil {
		fmt.Fprintf(stdout, "  launch  %v\n", err)
		return 0, 0
	}
	got, found, err := l.Status(rc)
	switch {
	case err != nil:
		fmt.Fprintf(stdout, "  launch  %s: %v\n", rc, err)
		return 0, 1
	case !found:
		fmt.Fprintf(stdout, "  launch  %s: no shrinkrun %s() function\n", rc, l.Program)
		return 0, 0
	case got == "":
		fmt.Fprintf(stdout, "  launch  %s: a shrinkrun %s() function in a shape init does not write: run shrinkrun init %s again\n", rc, l.Program, l.Name)
		return 1, 1
	}
	fmt.Fprintf(stdout, "  launch  %s: %s() starts %s with %s set to %s\n", rc, l.Program, l.Client, l.Var, linkSetting(l, got))
	target, ok := linkState(got)
	if !ok {
		fmt.Fprintf(stdout, "          link: %s is missing or broken: run shrinkrun init %s again\n", got, l.Name)
		return 1, 1
	}
	state, ok := binaryState(target, self)
	fmt.Fprintf(stdout, "          link: %s -> %s (%s)\n", got, target, state)
	if !ok {
		return 1, 1
	}
	sh, err := findBash(got, os.Getenv("PATH"))
	if err != nil {
		fmt.Fprintf(stdout, "          real bash: %v\n", err)
		return 1, 1
	}
	fmt.Fprintf(stdout, "          real bash: %s\n", sh.real)
	fmt.Fprintf(stdout, "          %s\n", asWrittenAnswer(sample, l.Client))
	return 1, 0
}

// linkSetting is what the launch function sets its variable to.
func linkSetting(l *agents.Launch, link string) string {
	if l.Var == "PATH" {
		return filepath.Dir(link) + " first"
	}
	return link
}

// binaryState says whether bin is this shrinkrun, another copy of the same
// build, or a problem. Versions name builds by VCS revision; where they
// cannot (uncommitted changes, no revision stamped), the bytes decide.
func binaryState(bin, self string) (string, bool) {
	bi, err := os.Stat(bin)
	if err != nil {
		return "missing (" + err.Error() + "): run shrinkrun init again", false
	}
	if si, err := os.Stat(self); err == nil && os.SameFile(bi, si) {
		return "this shrinkrun", true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return fmt.Sprintf("%s does not run (%v)", bin, err), false
	}
	got, want := strings.TrimSpace(string(out)), versionLine()
	if got != want {
		return fmt.Sprintf("another shrinkrun: %q, this one is %q; run shrinkrun init again to use this one", got, want), false
	}
	if _, exact := version(); exact {
		return "another copy of this version", true
	}
	if same, err := sameContent(bin, self); err != nil {
		return fmt.Sprintf("cannot compare it with this one (%v)", err), false
	} else if !same {
		return fmt.Sprintf("another build of %q: a version without a revision, or with uncommitted changes, does not tell builds apart, and the two binaries differ; run shrinkrun init again to use this one", got), false
	}
	return "a copy of this binary", true
}

// sameContent reports whether two files hold the same bytes.
func sameContent(a, b string) (bool, error) {
	var sums [2][sha256.Size]byte
	for i, p := range []string{a, b} {
		f, err := os.Open(p)
		if err != nil {
			return false, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return false, err
		}
		copy(sums[i][:], h.Sum(nil))
	}
	return sums[0] == sums[1], nil
}

// stateStatus says where raw output and history are kept, or why they
// cannot be: what every run meets, said once here. It opens the
// directories as a run does, creating them.
func stateStatus() string {
	path, err := store.Dir()
	if err != nil {
		return err.Error()
	}
	state, err := store.OpenDir(path, true)
	if err != nil {
		return "raw output and history cannot be kept: " + err.Error()
	}
	defer state.Close()
	if !history.Enabled(os.Getenv) {
		return path + " (history off: SHRINKRUN_HISTORY=" + os.Getenv("SHRINKRUN_HISTORY") + ")"
	}
	hist, err := history.Open(state, true)
	if err == nil {
		err = history.CheckWritable(hist)
		hist.Close()
	}
	if err != nil {
		return path + "; runs are not being recorded: " + err.Error()
	}
	return path
}

// sampleAnswer runs the hook decision on a sample payload, as the agent
// would send it from the current directory.
func sampleAnswer(agent hook.Agent, bin, cmd, dir string) string {
	p := map[string]any{
		"session_id":      "shrinkrun-doctor",
		"cwd":             dir,
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": cmd},
	}
	switch agent {
	case hook.Claude:
		p["permission_mode"] = "default"
	case hook.Gemini:
		p["hook_event_name"], p["tool_name"] = "BeforeTool", "run_shell_command"
	}
	payload, err := json.Marshal(p)
	if err != nil {
		return err.Error()
	}
	r := hook.Run(agent, payload, hookEnv(bin))
	if r.Output == nil {
		return fmt.Sprintf("%q: left alone (%s)", cmd, r.Reason)
	}
	return fmt.Sprintf("%q: rewritten to %s; permission left to the agent (%s)", cmd, r.Rewrite, r.Reason)
}

// hooksOff is compiled on first use: only doctor needs it, and a regexp
// compiled at package initialization would cost every run.
var hooksOff = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(codex_)?hooks\s*=\s*false\b`)
})

// codexHooksOff names the Codex config.toml that turns hooks off, if any.
// A plain line scan: a `hooks = false` anywhere is worth a look.
func codexHooksOff(env agents.Env) string {
	home := os.Getenv("CODEX_HOME")
	if home == "" {
		home = filepath.Join(env.Home, ".codex")
	}
	for _, f := range []string{filepath.Join(home, "config.toml"), filepath.Join(env.Dir, ".codex", "config.toml")} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if hooksOff().MatchString(sc.Text()) {
				return f
			}
		}
	}
	return ""
}
