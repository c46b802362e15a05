package deny

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/shrinkrun/shrinkrun/agents/clients"
)

// Env is where a client keeps its files, and what the environment says.
type Env struct {
	// Home is the user's home directory.
	Home string
	// Cwd is the working directory: the project settings of it and of
	// every directory above it are read.
	Cwd string
	// Getenv reads the environment (CLAUDE_CONFIG_DIR, CODEX_HOME,
	// GEMINI_CLI_HOME and the like).
	Getenv func(string) string
	// System is put before the system-wide directories (/etc/claude-code,
	// /etc/codex, /etc/gemini-cli); "" for the real ones.
	System string
	// Session is the directory the client's session started in, when it
	// is known and differs from Cwd: Claude Code reads the project
	// settings there.
	Session string
}

// Rules are the deny rules one client reads, and the files they came
// from.
type Rules struct {
	Client clients.Name
	// Files are the files that were read.
	Files  []string
	claude []claudeRule
	codex  []codexDeny
	gemini []geminiRule
	// broken are the files that exist but could not be read: what they
	// deny is unknown, so every command is denied.
	broken []error
}

type codexDeny struct {
	CodexRule
	source string
}

// Verdict is the answer for one command.
type Verdict struct {
	Denied bool
	// Message is what the client itself says of a command it denies.
	Message string
	// Why names the rule and the file it came from, or the file that
	// could not be read.
	Why string
}

// Check tells whether the client would deny command, typed as it is
// without shrinkrun.
func (r *Rules) Check(command string) Verdict {
	if r == nil {
		return Verdict{}
	}
	if len(r.broken) > 0 {
		return Verdict{Denied: true, Message: r.message(command), Why: r.broken[0].Error() + ": shrinkrun cannot tell what it denies"}
	}
	switch r.Client {
	case clients.Claude:
		if rule, _, ok := claudeDenies(r.claude, parse(command)); ok {
			return Verdict{Denied: true, Message: claudeMessage(command), Why: rule.text}
		}
	case clients.Codex:
		rules := make([]CodexRule, len(r.codex))
		for i, c := range r.codex {
			rules[i] = c.CodexRule
		}
		if i, _, ok := codexDenies(rules, parse(command)); ok {
			return Verdict{Denied: true, Message: codexMessage(command, rules[i]), Why: "a forbidden prefix_rule in " + r.codex[i].source}
		}
	case clients.Gemini:
		if rule, _, ok := geminiDenies(r.gemini, command); ok {
			return Verdict{Denied: true, Message: geminiMessage(rule), Why: rule.text}
		}
	}
	return Verdict{}
}

// message is the client's kind of message for a command denied without
// a rule (an unreadable file).
func (r *Rules) message(command string) string {
	switch r.Client {
	case clients.Claude:
		return claudeMessage(command)
	case clients.Codex:
		return "`" + command + "` rejected: blocked by policy"
	}
	return "Tool execution denied by policy."
}

// Load reads the deny rules client reads, from the same files.
func Load(client clients.Name, env Env) *Rules {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	r := &Rules{Client: client}
	switch client {
	case clients.Claude:
		r.loadClaude(env)
	case clients.Codex:
		r.loadCodex(env)
	case clients.Gemini:
		r.loadGemini(env)
	}
	return r
}

// read reads one file for the rules; a missing file is nothing, one that
// cannot be read or parsed is broken.
func (r *Rules) read(path string, parse func([]byte) error) {
	data, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err == nil {
		err = parse(data)
	}
	if err != nil {
		r.broken = append(r.broken, fmt.Errorf("%s could not be read (%v)", path, err))
		return
	}
	r.Files = append(r.Files, path)
}

// list reads each file of a directory ending in suffix.
func (r *Rules) list(dir, suffix string, parse func(string, []byte) error) {
	files, err := ListFiles(dir, suffix)
	if err != nil {
		r.broken = append(r.broken, fmt.Errorf("%s could not be listed (%v)", dir, err))
	}
	for _, f := range files {
		r.read(f, func(data []byte) error { return parse(f, data) })
	}
}

func (env Env) system(dir string) string {
	return filepath.Join(cmpOr(env.System, "/"), dir)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// projectDirs are the directories whose project settings are read: the
// working directory and every one above it, then the session's.
func (env Env) projectDirs(elem ...string) []string {
	dirs := upward(env.Cwd, elem...)
	for _, d := range upward(env.Session, elem...) {
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// loadClaude reads permissions.deny from Claude Code's settings: managed
// (/etc/claude-code/managed-settings.json and managed-settings.d/*.json),
// user ($CLAUDE_CONFIG_DIR, else ~/.claude, settings.json), project and
// local (.claude/settings.json and settings.local.json of the project; of
// the working directory and every directory above it, and of the session's
// directory).
func (r *Rules) loadClaude(env Env) {
	parse := func(path string, data []byte) error {
		deny, err := parseClaudeSettings(data)
		for _, d := range deny {
			if rule, ok := parseClaudeRule(d); ok {
				rule.text = fmt.Sprintf("%s in %s", d, path)
				r.claude = append(r.claude, rule)
			}
		}
		return err
	}
	add := func(path string) {
		r.read(path, func(data []byte) error { return parse(path, data) })
	}
	managed := env.system("etc/claude-code")
	add(filepath.Join(managed, "managed-settings.json"))
	r.list(filepath.Join(managed, "managed-settings.d"), ".json", parse)
	user := env.Getenv("CLAUDE_CONFIG_DIR")
	if user == "" && env.Home != "" {
		user = filepath.Join(env.Home, ".claude")
	}
	var files []string
	if user != "" {
		files = append(files, filepath.Join(user, "settings.json"))
	}
	for _, d := range env.projectDirs(".claude") {
		files = append(files, filepath.Join(d, "settings.json"), filepath.Join(d, "settings.local.json"))
	}
	seen := map[string]bool{}
	for _, f := range files {
		if !seen[f] {
			seen[f] = true
			add(f)
		}
	}
}

// loadCodex reads the forbidden prefix rules of every rules file Codex
// could load (CodexRulesDirs) and of /etc/codex/requirements.toml.
func (r *Rules) loadCodex(env Env) {
	system := env.system("etc/codex")
	for _, dir := range CodexRulesDirs(system, env.Home, env.Getenv("CODEX_HOME"), env.Cwd) {
		r.list(dir, ".rules", func(path string, data []byte) error {
			rules, err := ParseCodexRules(string(data))
			for _, c := range rules {
				if c.Decision == "forbidden" {
					r.codex = append(r.codex, codexDeny{c, path})
				}
			}
			return err
		})
	}
	req := filepath.Join(system, "requirements.toml")
	r.read(req, func(data []byte) error {
		var q codexRequirements
		if _, err := toml.Decode(string(data), &q); err != nil {
			return err
		}
		for _, pr := range q.Rules.PrefixRules {
			if pr.Decision != "forbidden" {
				continue
			}
			c := CodexRule{Decision: pr.Decision, Justification: pr.Justification}
			for _, t := range pr.Pattern {
				if t.Token != "" {
					c.Pattern = append(c.Pattern, []string{t.Token})
				} else {
					c.Pattern = append(c.Pattern, t.AnyOf)
				}
			}
			if len(c.Pattern) == 0 || slices.ContainsFunc(c.Pattern, func(alts []string) bool { return len(alts) == 0 }) {
				return errors.New("a prefix rule with an empty pattern")
			}
			r.codex = append(r.codex, codexDeny{c, req})
		}
		return nil
	})
}

// loadGemini reads Gemini CLI's deny policies and excluded tools: the
// settings files (system, system defaults, user, and .gemini/settings.json
// of the working directory and every directory above it) and the policy
// files (/etc/gemini-cli/policies, the user's ~/.gemini/policies or the
// settings' policyPaths, the workspace's .gemini/policies, which 0.61.0
// does not load yet, and the extensions').
func (r *Rules) loadGemini(env Env) {
	system := env.system("etc/gemini-cli")
	home := cmpOr(env.Getenv("GEMINI_CLI_HOME"), env.Home)
	settings := []string{
		cmpOr(env.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"), filepath.Join(system, "settings.json")),
		cmpOr(env.Getenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"), filepath.Join(system, "system-defaults.json")),
	}
	if home != "" {
		settings = append(settings, filepath.Join(home, ".gemini", "settings.json"))
	}
	settings = append(settings, upward(env.Cwd, ".gemini", "settings.json")...)
	seen := map[string]bool{}
	var policyPaths []string
	for _, f := range settings {
		if seen[f] {
			continue
		}
		seen[f] = true
		r.read(f, func(data []byte) error {
			s, err := geminiSettings(data)
			if err != nil {
				return err
			}
			rules, err := geminiExcluded(s.excluded, f)
			r.gemini = append(r.gemini, rules...)
			policyPaths = append(policyPaths, s.policyPaths...)
			return err
		})
	}
	dirs := []string{filepath.Join(system, "policies")}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".gemini", "policies"))
		if ext, err := ListDirs(filepath.Join(home, ".gemini", "extensions")); err != nil {
			r.broken = append(r.broken, err)
		} else {
			for _, e := range ext {
				dirs = append(dirs, filepath.Join(e, "policies"))
			}
		}
	}
	dirs = append(dirs, upward(env.Cwd, ".gemini", "policies")...)
	policy := func(path string, data []byte) error {
		var p geminiPolicy
		if _, err := toml.Decode(string(data), &p); err != nil {
			return err
		}
		rules, err := geminiPolicyRules(p, path)
		r.gemini = append(r.gemini, rules...)
		return err
	}
	for _, p := range policyPaths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			dirs = append(dirs, p)
		} else {
			r.read(p, func(data []byte) error { return policy(p, data) })
		}
	}
	for _, d := range dirs {
		if !seen[d] {
			seen[d] = true
			r.list(d, ".toml", policy)
		}
	}
}

// geminiSettingsFile is what a Gemini CLI settings file says about
// denying.
type geminiSettingsFile struct {
	excluded    []string
	policyPaths []string
}

func geminiSettings(data []byte) (geminiSettingsFile, error) {
	var s geminiSettingsFile
	err := eachMember(stripJSONComments(data), func(key string, dec *json.Decoder) error {
		var err error
		var v []string
		switch key {
		case "excludeTools":
			v, err = decodeStrings(dec)
			s.excluded = append(s.excluded, v...)
		case "policyPaths", "adminPolicyPaths":
			v, err = decodeStrings(dec)
			s.policyPaths = append(s.policyPaths, v...)
		case "tools":
			err = eachMemberOf(dec, func(key string, dec *json.Decoder) error {
				if key != "exclude" {
					return skipValue(dec)
				}
				v, err := decodeStrings(dec)
				s.excluded = append(s.excluded, v...)
				return err
			})
		default:
			err = skipValue(dec)
		}
		return err
	})
	return s, err
}

// ListDirs lists the directories in dir (links to directories
// included), sorted; a missing dir lists nothing.
func ListDirs(dir string) ([]string, error) {
	entries, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			dirs = append(dirs, p)
		}
	}
	slices.Sort(dirs)
	return dirs, nil
}

// Summary says, for doctor, what was read.
func (r *Rules) Summary() string {
	n := len(r.claude) + len(r.codex) + len(r.gemini)
	var b strings.Builder
	fmt.Fprintf(&b, "%d deny rule", n)
	if n != 1 {
		b.WriteString("s")
	}
	fmt.Fprintf(&b, " from %d file", len(r.Files))
	if len(r.Files) != 1 {
		b.WriteString("s")
	}
	for _, err := range r.broken {
		fmt.Fprintf(&b, "; %v: every command is refused", err)
	}
	return b.String()
}
