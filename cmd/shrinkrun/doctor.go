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
	"github.com/shrinkrun/shrinkrun/history"
	"github.com/shrinkrun/shrinkrun/hook"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/setting"
	"github.com/shrinkrun/shrinkrun/store"
)

const doctorHelp = `Usage: shrinkrun doctor [--command 'SAMPLE']

Says, for every agent and scope, whether shrinkrun is installed (Claude
Code's shell prefix, Codex's hook), whether the binary it runs is this
shrinkrun (the same version, VCS revision and, for a build with uncommitted
changes, the same bytes), whether the agent runs it (Codex: whether the hook
is trusted), and what happens to a sample command; then whether the state
directory can keep raw output and history, which rule files apply here
(yours and the repository's trusted ones) and why any does not, and any
boolean setting it cannot read. Exits 1 when an installed entry does not work: its binary is missing
or another build, Codex skips the hook, or it is a Claude Code or Gemini CLI
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
	for _, name := range setting.Booleans {
		if val := os.Getenv(name); val != "" {
			if _, ok := setting.Bool(val); !ok {
				fmt.Fprintf(stdout, "note: %s=%s is not a boolean and is ignored: use 1 or 0 (true/false, yes/no, on/off)\n", name, val)
			}
		}
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
				if f.Prefix {
					fmt.Fprintf(stdout, "  %-7s %s: shell prefix %s\n", scope, path, f.Command)
				} else {
					fmt.Fprintf(stdout, "  %-7s %s: %s\n", scope, path, f.Command)
				}
				bin := f.Bin
				if p, err := exec.LookPath(bin); err == nil && !filepath.IsAbs(bin) {
					// A hand-written entry: the agent's shell finds it on PATH.
					bin, _ = filepath.Abs(p)
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
				if f.Prefix {
					fmt.Fprintf(stdout, "          %s\n", prefixAnswer(*sample))
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
	}
	fmt.Fprintln(stdout, "cursor: no hook (beforeShellExecution cannot rewrite a command); `shrinkrun prompt` in AGENTS.md covers it")
	if installed == 0 {
		fmt.Fprintln(stdout, "nothing installed: shrinkrun init claude makes shrinkrun Claude Code's shell prefix; shrinkrun init codex installs Codex's PreToolUse hook; for Gemini CLI and other agents, put shrinkrun prompt's text in GEMINI.md or AGENTS.md")
	}
	if problems > 0 {
		return 1
	}
	return 0
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

// prefixAnswer says what Claude Code's shell prefix does with a sample
// command: Claude Code has already decided its permission, on the command
// as written.
func prefixAnswer(cmd string) string {
	c := rules.String(cmd)
	if c.Rule == "" {
		return fmt.Sprintf("%q: runs unchanged (%s); Claude Code decides its permission on the command as written", cmd, c.Explain())
	}
	return fmt.Sprintf("%q: summarized (rule %s); Claude Code decides its permission on the command as written", cmd, c.Rule)
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
