package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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

// claudeSettings is the part of a settings file read here.
type claudeSettings struct {
	Permissions struct {
		Allow []string `json:"allow"`
		Ask   []string `json:"ask"`
		Deny  []string `json:"deny"`
	} `json:"permissions"`
	ManagedOnly bool `json:"allowManagedPermissionRulesOnly"`
}

// claudeSettingsFiles lists the settings files Claude Code reads, managed
// first: managed-settings.json, the user's settings.json (under
// CLAUDE_CONFIG_DIR when set), and the project's settings.json and
// settings.local.json. The project is CLAUDE_PROJECT_DIR, which Claude Code
// sets for hooks, else the payload's cwd; when both are known and differ,
// both are read, so no deny rule is missed.
func claudeSettingsFiles(env Env, cwd string) (managed, other []string) {
	managed = env.ClaudeManaged
	user := env.Getenv("CLAUDE_CONFIG_DIR")
	if user == "" && env.Home != "" {
		user = filepath.Join(env.Home, ".claude")
	}
	if user != "" {
		other = append(other, filepath.Join(user, "settings.json"))
	}
	var projects []string
	if d := env.Getenv("CLAUDE_PROJECT_DIR"); filepath.IsAbs(d) {
		projects = append(projects, d)
	}
	if filepath.IsAbs(cwd) && (len(projects) == 0 || filepath.Clean(cwd) != filepath.Clean(projects[0])) {
		projects = append(projects, cwd)
	}
	for _, p := range projects {
		other = append(other,
			filepath.Join(p, ".claude", "settings.json"),
			filepath.Join(p, ".claude", "settings.local.json"))
	}
	return managed, other
}

// loadClaudeRules reads the Bash rules of every file. A missing file has no
// rules; a file that exists but cannot be read or parsed is an error, since
// its deny rules would be unknown. When managed settings set
// allowManagedPermissionRulesOnly, allow rules of other files do not count.
func loadClaudeRules(managed, other []string) (claudeRules, error) {
	var r claudeRules
	managedOnly := false
	for i, f := range append(append([]string{}, managed...), other...) {
		data, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return r, err
		}
		var s claudeSettings
		if err := json.Unmarshal(data, &s); err != nil {
			return r, fmt.Errorf("%s: %v", f, err)
		}
		isManaged := i < len(managed)
		if isManaged && s.ManagedOnly {
			managedOnly = true
		}
		r.deny = appendBash(r.deny, s.Permissions.Deny, f)
		r.ask = appendBash(r.ask, s.Permissions.Ask, f)
		if isManaged || !managedOnly {
			r.allow = appendBash(r.allow, s.Permissions.Allow, f)
		}
	}
	return r, nil
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
	switch req.mode {
	case "", "default", "acceptEdits", "auto", "dontAsk", "bypassPermissions":
	default:
		// plan mode runs nothing that changes state, and a mode this code
		// does not know may refuse what it cannot see is allowed.
		return policy{leave: "permission mode " + req.mode}
	}
	managed, other := claudeSettingsFiles(env, req.cwd)
	rules, err := loadClaudeRules(managed, other)
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
