// Package agents installs shrinkrun into the settings files of AI coding
// agents (Claude Code's shell prefix, Codex's hook), removes it again, and
// reports what is installed where and whether the agent runs it.
//
// It is separate from package hook because its concern and its failure
// modes are different: hook runs on every tool call, reads, and must stay
// silent whatever happens; this package runs once, on the user's request,
// and edits files the user and the agent own, so it must be careful, loud,
// and exactly reversible. Edits splice text into the file (see jsonedit.go),
// so nothing outside shrinkrun's entry changes; a backup of the file as it was
// is kept next to it; writes are atomic; installing twice changes nothing;
// and uninstalling right after installing restores the file byte for byte.
package agents

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shrinkrun/shrinkrun/hook"
	"github.com/shrinkrun/shrinkrun/rules"
)

// BackupSuffix is appended to a settings file's name for the copy kept
// before the hook was added.
const BackupSuffix = ".shrinkrun-backup"

// Scope is where a hook is installed: for the user, or for one project.
type Scope string

// The two scopes.
const (
	User    Scope = "user"
	Project Scope = "project"
)

// Env is where files are looked for.
type Env struct {
	Home   string              // the user's home directory
	Dir    string              // the project directory, for Project scope
	Getenv func(string) string // CLAUDE_CONFIG_DIR, CODEX_HOME
}

// Agent is one agent's hook configuration: the file it reads per scope and
// the entry that runs `shrinkrun hook NAME`.
type Agent struct {
	Name    hook.Agent
	Title   string // the agent's name in messages
	Event   string // the key under "hooks"
	Matcher string // the tool name the entry matches
	Timeout int    // seconds, or milliseconds for Gemini CLI
	Named   bool   // whether entries carry a "name" (Gemini CLI)
	// Prefix is set for Claude Code, whose route is no hook but its shell
	// prefix: the settings' env names shrinkrun as CLAUDE_CODE_SHELL_PREFIX,
	// with SHRINKRUN_AGENT=claude. Claude Code decides permissions on the
	// command the model wrote and only then runs it through the prefix, so
	// no permission outcome changes. A shrinkrun hook found in the file
	// (from an older shrinkrun) is removed by Install.
	Prefix bool
	// Shell is set for opencode, whose route is its shell setting: the
	// settings' "shell" names shrinkrun's bash link (LinkPath, made by init),
	// which opencode's bash tool runs as `SHELL -c COMMAND` once it has
	// decided the command's permission on the command as written. Install's
	// bin is then the link.
	Shell bool
	// Refused says why Install refuses this agent's route, when it does:
	// the route would change permission outcomes (Gemini CLI). Uninstall
	// and Status still work, for what an older shrinkrun installed.
	Refused string
	user    func(Env) string
	project string // path relative to the project directory
}

// All lists the agents whose hook can rewrite a command.
var All = []*Agent{
	{
		// ~/.claude/settings.json; for a project, settings.local.json, which
		// Claude Code keeps out of git: the entry holds a path on this
		// machine.
		Name: hook.Claude, Title: "Claude Code", Event: "PreToolUse", Matcher: "Bash", Timeout: 10, Prefix: true,
		user:    func(e Env) string { return filepath.Join(dirOr(e, "CLAUDE_CONFIG_DIR", ".claude"), "settings.json") },
		project: filepath.Join(".claude", "settings.local.json"),
	},
	{
		Name: hook.Codex, Title: "Codex", Event: "PreToolUse", Matcher: "Bash", Timeout: 10,
		user:    func(e Env) string { return filepath.Join(dirOr(e, "CODEX_HOME", ".codex"), "hooks.json") },
		project: filepath.Join(".codex", "hooks.json"),
	},
	{
		Name: hook.Gemini, Title: "Gemini CLI", Event: "BeforeTool", Matcher: "run_shell_command", Timeout: 10000, Named: true,
		Refused: "Gemini CLI 0.61 checks its policy against the command a BeforeTool hook returns, so rewriting a command changes which of your rules apply " +
			"(an allowed `cargo test` is refused, a denied one would run); the hook therefore rewrites nothing. " +
			"shrinkrun init gemini installs the shell route instead: shrinkrun's bash first on the PATH Gemini CLI starts with (docs/agents.md)",
		user:    func(e Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") },
		project: filepath.Join(".gemini", "settings.json"),
	},
	{
		// opencode's global config, or opencode.json in the project.
		Name: "opencode", Title: "opencode", Shell: true,
		user: func(e Env) string {
			return filepath.Join(dirOr(e, "XDG_CONFIG_HOME", ".config"), "opencode", "opencode.json")
		},
		project: "opencode.json",
	},
}

// dirOr is $name when set, else ~/def.
func dirOr(e Env, name, def string) string {
	if d := e.Getenv(name); d != "" {
		return d
	}
	return filepath.Join(e.Home, def)
}

// Client is the agent's name in messages.
func (a *Agent) Client() string { return a.Title }

// Route names what shrinkrun installs for this agent, for messages.
func (a *Agent) Route() string {
	switch {
	case a.Prefix:
		return "shell prefix"
	case a.Shell:
		return "shell setting"
	}
	return "hook"
}

// Lookup finds an agent by name.
func Lookup(name string) (*Agent, bool) {
	for _, a := range All {
		if string(a.Name) == name {
			return a, true
		}
	}
	return nil, false
}

// Path is the settings file for a scope, made absolute.
func (a *Agent) Path(s Scope, e Env) (string, error) {
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	var p string
	switch s {
	case User:
		if e.Home == "" {
			return "", errors.New("no home directory")
		}
		p = a.user(e)
	case Project:
		p = filepath.Join(e.Dir, a.project)
	default:
		return "", fmt.Errorf("unknown scope %q", s)
	}
	return filepath.Abs(p)
}

// HookCommand is the command the agent runs for the hook: the binary's
// absolute path, quoted for sh, then `hook NAME`.
func (a *Agent) HookCommand(bin string) (string, error) {
	if !filepath.IsAbs(bin) {
		return "", fmt.Errorf("%q is not an absolute path", bin)
	}
	q, err := syntax.Quote(bin, syntax.LangPOSIX)
	if err != nil {
		return "", fmt.Errorf("cannot quote %q for sh: %v", bin, err)
	}
	return q + " hook " + string(a.Name), nil
}

// entry is the hook group this package adds: one matcher, one command.
type entry struct {
	Matcher string    `json:"matcher"`
	Hooks   []command `json:"hooks"`
}

type command struct {
	Name    string `json:"name,omitempty"`
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

func (a *Agent) entry(cmd string) entry {
	c := command{Type: "command", Command: cmd, Timeout: a.Timeout}
	if a.Named {
		c.Name = "shrinkrun"
	}
	return entry{Matcher: a.Matcher, Hooks: []command{c}}
}

// Installed is one shrinkrun entry found in a settings file: a hook, or
// Claude Code's shell prefix.
type Installed struct {
	Command string // as written in the file
	Bin     string // the binary it runs
	Prefix  bool   // the CLAUDE_CODE_SHELL_PREFIX entry, not a hook
	Shell   bool   // opencode's shell setting naming the bash link (Bin)
	group   int    // index in the event array
	hook    int    // index in the group's hooks array
	alone   bool   // the group holds only shrinkrun hooks
}

// The env entries of Claude Code's route.
const (
	prefixKey = "CLAUDE_CODE_SHELL_PREFIX"
	agentKey  = "SHRINKRUN_AGENT"
)

// prefixOf returns the shrinkrun binary a CLAUDE_CODE_SHELL_PREFIX entry
// names, if it names one. Claude Code runs the prefix as one word (and
// splits it at its last " -", which a shrinkrun prefix never holds).
func (a *Agent) prefixOf(root *node) (*node, string, bool) {
	if !a.Prefix {
		return nil, "", false
	}
	v := root.member("env").member(prefixKey)
	if v == nil || v.kind != '"' || filepath.Base(v.str) != "shrinkrun" {
		return v, "", false
	}
	return v, v.str, true
}

// find lists the shrinkrun entries for this agent: its shell prefix, then
// the hooks under hooks.EVENT.
func (a *Agent) find(root *node) []Installed {
	var found []Installed
	if _, bin, ok := a.prefixOf(root); ok {
		found = append(found, Installed{Command: bin, Bin: bin, Prefix: true})
	}
	if _, link, ok := a.shellOf(root); ok {
		found = append(found, Installed{Command: link, Bin: link, Shell: true})
	}
	ev := root.member("hooks").member(a.Event)
	if ev == nil || ev.kind != '[' {
		return found
	}
	for gi, g := range ev.vals {
		hs := g.member("hooks")
		if hs == nil || hs.kind != '[' {
			continue
		}
		var mine []Installed
		for hi, h := range hs.vals {
			c := h.member("command")
			if c == nil || c.kind != '"' {
				continue
			}
			if bin, ok := a.runs(c.str); ok {
				mine = append(mine, Installed{Command: c.str, Bin: bin, group: gi, hook: hi})
			}
		}
		for i := range mine {
			mine[i].alone = len(mine) == len(hs.vals)
		}
		found = append(found, mine...)
	}
	return found
}

// runs reports whether a hook command is `SHRINKRUN hook NAME` for this
// agent, and the binary it names.
func (a *Agent) runs(cmd string) (string, bool) {
	c := rules.String(cmd)
	if len(c.Stages) != 1 || len(c.Assigns) != 0 {
		return "", false
	}
	w := c.Stages[0]
	if len(w) == 3 && filepath.Base(w[0]) == "shrinkrun" && w[1] == "hook" && w[2] == string(a.Name) {
		return w[0], true
	}
	return "", false
}

// Status reads a settings file and lists the shrinkrun hooks in it. A
// missing file has none.
func (a *Agent) Status(path string) ([]Installed, error) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	root, err := parseSettings(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return a.find(root), nil
}

// parseSettings parses a settings file, which must hold a JSON object; an
// empty file counts as {}.
func parseSettings(src []byte) (*node, error) {
	root, err := parseJSON(orEmpty(src))
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, errors.New("not a JSON object")
	}
	return root, nil
}

func orEmpty(src []byte) []byte {
	for _, b := range src {
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return src
		}
	}
	return []byte("{}\n")
}

// added returns src with the hook entry for bin added, or src itself when
// exactly that entry is already there. Entries that run another shrinkrun
// binary are replaced.
func (a *Agent) added(src []byte, bin string) ([]byte, error) {
	switch {
	case a.Prefix:
		return a.addedPrefix(src, bin)
	case a.Shell:
		return a.addedShell(src, bin)
	}
	cmd, err := a.HookCommand(bin)
	if err != nil {
		return nil, err
	}
	src = orEmpty(src)
	root, err := parseSettings(src)
	if err != nil {
		return nil, err
	}
	found := a.find(root)
	if len(found) == 1 && found[0].Command == cmd {
		return src, nil
	}
	if len(found) > 0 {
		if src, err = a.removed(src); err != nil {
			return nil, err
		}
		if root, err = parseSettings(src); err != nil {
			return nil, err
		}
	}
	st := fileStyle(src, root)
	hooks := root.member("hooks")
	switch {
	case hooks == nil:
		return appendItem(src, root, st, "hooks", map[string][]entry{a.Event: {a.entry(cmd)}})
	case hooks.kind != '{':
		return nil, errors.New(`"hooks" is not an object`)
	}
	ev := hooks.member(a.Event)
	switch {
	case ev == nil:
		return appendItem(src, hooks, st, a.Event, []entry{a.entry(cmd)})
	case ev.kind != '[':
		return nil, fmt.Errorf(`"hooks.%s" is not an array`, a.Event)
	}
	return appendItem(src, ev, st, "", a.entry(cmd))
}

// removed returns src without any shrinkrun entry of this agent. A group
// that held only shrinkrun hooks goes with them, and so do an event array
// and a hooks object left empty by the removal; for Claude Code, the env
// entries of its shell prefix go, and the env object if they were all it
// held.
func (a *Agent) removed(src []byte) ([]byte, error) {
	for {
		root, err := parseSettings(src)
		if err != nil {
			return nil, err
		}
		if a.Prefix {
			out, err := removedAllow(src, ClaudeShowRule)
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(out, src) {
				src = out
				continue
			}
		}
		if env := root.member("env"); a.Prefix && env != nil && env.kind == '{' {
			if i := a.ownEnv(root); i >= 0 {
				if len(env.vals) == 1 {
					src = removeItem(src, root, slices.Index(root.keys, "env"))
				} else {
					src = removeItem(src, env, i)
				}
				continue
			}
		}
		if _, _, ok := a.shellOf(root); ok {
			src = removeItem(src, root, slices.Index(root.keys, "shell"))
			continue
		}
		var found []Installed
		for _, f := range a.find(root) {
			if !f.Prefix && !f.Shell {
				found = append(found, f)
			}
		}
		if len(found) == 0 {
			return src, nil
		}
		hooks := root.member("hooks")
		ev := hooks.member(a.Event)
		f := found[0]
		switch {
		case !f.alone:
			src = removeItem(src, ev.vals[f.group].member("hooks"), f.hook)
		case len(ev.vals) > 1:
			src = removeItem(src, ev, f.group)
		case len(hooks.vals) > 1:
			src = removeItem(src, hooks, slices.Index(hooks.keys, a.Event))
		default:
			src = removeItem(src, root, slices.Index(root.keys, "hooks"))
		}
	}
}

// ownEnv is the index in env of an entry of shrinkrun's shell prefix: a
// CLAUDE_CODE_SHELL_PREFIX naming shrinkrun, or SHRINKRUN_AGENT=claude;
// -1 when there is none.
func (a *Agent) ownEnv(root *node) int {
	env := root.member("env")
	_, _, ours := a.prefixOf(root)
	for i, k := range env.keys {
		v := env.vals[i]
		if k == prefixKey && ours || k == agentKey && v.kind == '"' && v.str == string(a.Name) {
			return i
		}
	}
	return -1
}

// addedPrefix is added for Claude Code: the env entries that make shrinkrun
// its shell prefix, in place of any shrinkrun hook.
func (a *Agent) addedPrefix(src []byte, bin string) ([]byte, error) {
	if !filepath.IsAbs(bin) {
		return nil, fmt.Errorf("%q is not an absolute path", bin)
	}
	if strings.Contains(bin, " -") {
		// Claude Code splits its prefix at the last " -" into a program
		// and its options.
		return nil, fmt.Errorf("%q holds \" -\", which Claude Code reads as the start of the prefix's options; install shrinkrun at a path without it", bin)
	}
	src = orEmpty(src)
	root, err := parseSettings(src)
	if err != nil {
		return nil, err
	}
	env := root.member("env")
	if env != nil && env.kind != '{' {
		return nil, errors.New(`"env" is not an object`)
	}
	v, cur, ours := a.prefixOf(root)
	if v != nil && !ours {
		return nil, fmt.Errorf("env.%s is already set (%s): shrinkrun would replace your prefix; remove it first, or run shrinkrun from it", prefixKey, src[v.start:v.end])
	}
	found := a.find(root)
	if ag := env.member(agentKey); cur == bin && len(found) == 1 && ag != nil && ag.kind == '"' && ag.str == string(a.Name) {
		return addedAllow(src, ClaudeShowRule)
	}
	if src, err = a.removed(src); err != nil {
		return nil, err
	}
	if root, err = parseSettings(src); err != nil {
		return nil, err
	}
	st := fileStyle(src, root)
	env = root.member("env")
	if env == nil {
		if src, err = appendItem(src, root, st, "env", map[string]string{prefixKey: bin, agentKey: string(a.Name)}); err != nil {
			return nil, err
		}
		return addedAllow(src, ClaudeShowRule)
	}
	if src, err = appendItem(src, env, st, prefixKey, bin); err != nil {
		return nil, err
	}
	if root, err = parseSettings(src); err != nil {
		return nil, err
	}
	if src, err = appendItem(src, root.member("env"), st, agentKey, string(a.Name)); err != nil {
		return nil, err
	}
	return addedAllow(src, ClaudeShowRule)
}

// shellOf returns the "shell" setting and the bash link it names, when it
// names one shrinkrun made for this agent.
func (a *Agent) shellOf(root *node) (*node, string, bool) {
	if !a.Shell {
		return nil, "", false
	}
	v := root.member("shell")
	if v == nil || v.kind != '"' || !isLinkPath(v.str, string(a.Name)) {
		return v, "", false
	}
	return v, v.str, true
}

// addedShell is added for opencode: the "shell" setting naming the bash
// link. A shell the user set is not replaced.
func (a *Agent) addedShell(src []byte, link string) ([]byte, error) {
	if !filepath.IsAbs(link) || !isLinkPath(link, string(a.Name)) {
		return nil, fmt.Errorf("%q is not a bash link shrinkrun makes for %s", link, a.Name)
	}
	src = orEmpty(src)
	root, err := parseSettings(src)
	if err != nil {
		return nil, err
	}
	v, cur, ours := a.shellOf(root)
	switch {
	case v != nil && !ours:
		return nil, fmt.Errorf("\"shell\" is already set (%s): shrinkrun would replace your shell; remove it first", src[v.start:v.end])
	case cur == link:
		return src, nil
	}
	if src, err = a.removed(src); err != nil {
		return nil, err
	}
	if root, err = parseSettings(src); err != nil {
		return nil, err
	}
	return appendItem(src, root, fileStyle(src, root), "shell", link)
}
