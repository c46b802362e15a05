package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shrinkrun/shrinkrun/classify"
)

// Claude Code checks its permission rules against the command a hook
// returns, not the one Claude wrote (docs/agents.md cites the reference).
// A rewritten command matches none of the user's Bash rules, so:
//
//   - an ask or deny rule that matches the original would no longer apply:
//     such a command is left alone;
//   - an allow rule that matches the original would no longer apply either:
//     the answer then says "allow" itself, with the rule as the reason;
//   - any other command is rewritten without a decision, and Claude Code
//     asks the user about the rewritten command as it would have about the
//     original (or refuses it, in the modes that refuse what no rule
//     allows: those are left alone).

// claudeRules are the Bash permission rules of every settings file Claude
// Code reads, with the file each came from.
type claudeRules struct {
	allow, ask, deny []claudeRule
}

type claudeRule struct {
	spec string // what is inside Bash(...); "" for a bare Bash
	file string
}

// claudeFile is one settings file the hook reads.
type claudeFile struct {
	path string
	// applied is set for the files Claude Code itself applies: only their
	// allow rules count. Deny and ask rules are read from every file, since
	// reading one too many can only leave a command alone.
	applied bool
	managed bool
}

// claudeSettingsFiles lists the settings files read, managed first.
//
// Claude Code applies managed settings (managed-settings.json and the
// files of managed-settings.d), the user's settings.json (under
// CLAUDE_CONFIG_DIR when set), and the project's .claude/settings.json and
// .claude/settings.local.json, where the project is the directory Claude
// Code was started in: CLAUDE_PROJECT_DIR, which it sets for hooks. Without
// CLAUDE_PROJECT_DIR no project file is applied. The .claude files of the
// payload's working directory and of every directory above it are read
// for their deny and ask rules only: a cloned dependency's settings must
// not grant anything (issue 14).
func claudeSettingsFiles(env Env, cwd string) []claudeFile {
	var files []claudeFile
	seen := map[string]int{}
	add := func(path string, applied, managed bool) {
		path = filepath.Clean(path)
		if i, ok := seen[path]; ok {
			files[i].applied = files[i].applied || applied
			return
		}
		seen[path] = len(files)
		files = append(files, claudeFile{path: path, applied: applied, managed: managed})
	}
	for _, m := range env.ClaudeManaged {
		add(m, true, true)
		dropIns, _ := filepath.Glob(filepath.Join(filepath.Dir(m), "managed-settings.d", "*.json"))
		for _, d := range dropIns {
			add(d, true, true)
		}
	}
	user := env.Getenv("CLAUDE_CONFIG_DIR")
	if user == "" && env.Home != "" {
		user = filepath.Join(env.Home, ".claude")
	}
	if user != "" {
		add(filepath.Join(user, "settings.json"), true, false)
	}
	if p := env.Getenv("CLAUDE_PROJECT_DIR"); filepath.IsAbs(p) {
		add(filepath.Join(p, ".claude", "settings.json"), true, false)
		add(filepath.Join(p, ".claude", "settings.local.json"), true, false)
	}
	if filepath.IsAbs(cwd) {
		for d := filepath.Clean(cwd); ; d = filepath.Dir(d) {
			add(filepath.Join(d, ".claude", "settings.json"), false, false)
			add(filepath.Join(d, ".claude", "settings.local.json"), false, false)
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	return files
}

// loadClaudeRules reads the Bash rules of every file. A missing file has no
// rules; a file that exists but cannot be read or parsed is an error, since
// its deny rules would be unknown. When managed settings set
// allowManagedPermissionRulesOnly, allow rules of other files do not count.
func loadClaudeRules(files []claudeFile) (claudeRules, error) {
	var r claudeRules
	managedOnly := false
	for _, f := range files {
		data, err := os.ReadFile(f.path)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			continue
		}
		if err != nil {
			return r, err
		}
		s, err := parseClaudeSettings(data)
		if err != nil {
			return r, fmt.Errorf("%s: %v", f.path, err)
		}
		if f.managed && s.managedOnly {
			managedOnly = true
		}
		r.deny = appendBash(r.deny, s.deny, f.path)
		r.ask = appendBash(r.ask, s.ask, f.path)
		if f.applied && (f.managed || !managedOnly) {
			r.allow = appendBash(r.allow, s.allow, f.path)
		}
	}
	return r, nil
}

// claudeSettings is the part of a settings file read here.
type claudeSettings struct {
	allow, ask, deny []string
	managedOnly      bool
}

// parseClaudeSettings reads permissions.allow, .ask, .deny and
// allowManagedPermissionRulesOnly with their keys matched exactly, as
// Claude Code's JavaScript reads them (encoding/json into a struct would
// also take "PERMISSIONS"). A duplicate key anywhere, or a rule list that
// is not a list of strings, is an error.
func parseClaudeSettings(data []byte) (claudeSettings, error) {
	var s claudeSettings
	if err := checkJSON(data); err != nil {
		return s, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return s, err
	}
	if v, ok := top["allowManagedPermissionRulesOnly"]; ok {
		if err := json.Unmarshal(v, &s.managedOnly); err != nil {
			return s, errors.New("allowManagedPermissionRulesOnly is not a boolean")
		}
	}
	raw, ok := top["permissions"]
	if !ok || string(raw) == "null" {
		return s, nil
	}
	var perms map[string]json.RawMessage
	if err := json.Unmarshal(raw, &perms); err != nil {
		return s, errors.New("permissions is not an object")
	}
	for key, dst := range map[string]*[]string{"allow": &s.allow, "ask": &s.ask, "deny": &s.deny} {
		v, ok := perms[key]
		if !ok || string(v) == "null" {
			continue
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return s, fmt.Errorf("permissions.%s is not a list of strings", key)
		}
	}
	return s, nil
}

// appendBash keeps the Bash rules: "Bash", "Bash(*)" and "Bash(spec)".
func appendBash(rules []claudeRule, list []string, file string) []claudeRule {
	for _, s := range list {
		s = strings.TrimSpace(s)
		switch {
		case s == "Bash":
			rules = append(rules, claudeRule{file: file})
		case strings.HasPrefix(s, "Bash(") && strings.HasSuffix(s, ")"):
			rules = append(rules, claudeRule{spec: s[len("Bash(") : len(s)-1], file: file})
		}
	}
	return rules
}

// claudePolicy applies the rules above to a recognized command.
func claudePolicy(env Env, req *request, c classify.Result) policy {
	if env.Getenv("SHRINKRUN_AGENT") == "claude" {
		// The shell prefix route is on (shrinkrun init claude): Claude Code
		// already runs the command under shrinkrun, after deciding its
		// permission on the command as written.
		return policy{leave: "Claude Code runs its commands through shrinkrun as its shell prefix"}
	}
	switch req.mode {
	case "", "default", "acceptEdits", "auto", "dontAsk", "bypassPermissions":
	default:
		// plan mode runs nothing that changes state, and a mode this code
		// does not know may refuse what it cannot see is allowed.
		return policy{leave: "permission mode " + req.mode}
	}
	rules, err := loadClaudeRules(claudeSettingsFiles(env, req.cwd))
	if err != nil {
		return policy{leave: "cannot read Claude Code settings: " + err.Error()}
	}
	texts := claudeTexts(req.command, c)
	for _, list := range [][]claudeRule{rules.deny, rules.ask} {
		for _, rule := range list {
			for _, t := range texts.any {
				if matchBash(rule.spec, t) {
					return policy{leave: fmt.Sprintf("rule Bash(%s) in %s covers it", rule.spec, rule.file)}
				}
			}
		}
	}
	if allowedBy := allowAll(rules.allow, texts.stages); allowedBy != "" {
		if req.mode == "bypassPermissions" {
			// Everything runs in this mode; and with a decision present,
			// Claude Code has been seen to drop the rewrite.
			return policy{reason: "bypassPermissions mode: Claude Code decides"}
		}
		return policy{allow: true, reason: "shrinkrun: " + allowedBy}
	}
	if req.mode == "dontAsk" {
		return policy{leave: "dontAsk mode would refuse the rewritten command, which no allow rule matches"}
	}
	return policy{reason: "no allow rule matches: Claude Code decides"}
}

// commandTexts are the spellings of a command that rules are matched
// against. stages holds each pipeline stage as written (assignments
// included); any holds every spelling a deny or ask rule could match.
type commandTexts struct {
	stages []string
	any    []string
}

// claudeTexts spells the command for rule matching. Claude Code matches
// each stage of a pipeline on its own, and ask and deny rules past leading
// assignments; the stage texts come from the source so quoting is kept, and
// the argv joined with spaces is added for rules written without quotes.
func claudeTexts(src string, c classify.Result) commandTexts {
	t := commandTexts{any: []string{strings.TrimSpace(src)}}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err == nil && len(f.Stmts) == 1 {
		var walk func(syntax.Command)
		walk = func(cmd syntax.Command) {
			switch x := cmd.(type) {
			case *syntax.BinaryCmd:
				walk(x.X.Cmd)
				walk(x.Y.Cmd)
			case *syntax.CallExpr:
				if len(x.Args) == 0 {
					return
				}
				end := x.Args[len(x.Args)-1].End().Offset()
				start := x.Args[0].Pos().Offset()
				if len(x.Assigns) > 0 {
					start = x.Assigns[0].Pos().Offset()
				}
				t.stages = append(t.stages, src[start:end])
				t.any = append(t.any, src[start:end], src[x.Args[0].Pos().Offset():end])
			}
		}
		walk(f.Stmts[0].Cmd)
	}
	if len(t.stages) != len(c.Stages) {
		// Not the shape classify saw: no stage can be allowed on its own.
		t.stages = nil
	}
	for _, st := range c.Stages {
		t.any = append(t.any, strings.Join(st, " "))
	}
	return t
}

// allowAll returns the rule that allows the first stage when every stage
// is matched by some allow rule, or "" when one is not.
func allowAll(allow []claudeRule, stages []string) string {
	var first string
	for i, st := range stages {
		found := ""
		for _, rule := range allow {
			if matchBash(rule.spec, st) {
				found = fmt.Sprintf("allowed by Bash(%s) in %s", rule.spec, rule.file)
				break
			}
		}
		if found == "" {
			return ""
		}
		if i == 0 {
			first = found
		}
	}
	return first
}

// matchBash reports whether a Bash rule specifier matches a command, as
// Claude Code's permissions reference describes it: "" and "*" match
// everything; `*` matches any run of characters, spaces included; a
// trailing " *" (or ":*") also matches the bare prefix, so `git diff *`
// matches `git diff` and `git diff HEAD` but not `git diff-index`.
func matchBash(spec, cmd string) bool {
	if p, ok := strings.CutSuffix(spec, ":*"); ok {
		spec = p + " *"
	}
	if spec == "" || spec == "*" {
		return true
	}
	if p, ok := strings.CutSuffix(spec, " *"); ok && glob(p, cmd) {
		return true
	}
	return glob(spec, cmd)
}

// glob matches s against a pattern whose only special character is '*'.
func glob(pattern, s string) bool {
	px, sx := 0, 0
	star, mark := -1, 0
	for sx < len(s) {
		switch {
		case px < len(pattern) && pattern[px] == '*':
			star, mark = px, sx
			px++
		case px < len(pattern) && pattern[px] == s[sx]:
			px++
			sx++
		case star >= 0:
			px = star + 1
			mark++
			sx = mark
		default:
			return false
		}
	}
	for px < len(pattern) && pattern[px] == '*' {
		px++
	}
	return px == len(pattern)
}
