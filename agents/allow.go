package agents

import (
	"errors"
	"path/filepath"
	"slices"
)

// A block's last line, raw_output: shrinkrun show ID, names the command
// that prints the raw output. The agent should be able to run it under the
// permissions that ran the command the block is about, without a new
// approval: so a route that can, adds an allow rule for the read-only
// shrinkrun show alone (docs/agents.md, "The raw output"). The rules are
// prefixes of the command as written, so `shrinkrun -- CMD` and anything
// joined to a show still need their own permission; agents/e2e checks that
// with the real clients.

// ClaudeShowRule is the rule `init claude` adds to permissions.allow.
const ClaudeShowRule = "Bash(shrinkrun show:*)"

// addedAllow returns src with rule in permissions.allow, or src itself when
// it is there already.
func addedAllow(src []byte, rule string) ([]byte, error) {
	src = orEmpty(src)
	root, err := parseSettings(src)
	if err != nil {
		return nil, err
	}
	st := fileStyle(src, root)
	perms := root.member("permissions")
	switch {
	case perms == nil:
		return appendItem(src, root, st, "permissions", map[string][]string{"allow": {rule}})
	case perms.kind != '{':
		return nil, errors.New(`"permissions" is not an object`)
	}
	allow := perms.member("allow")
	switch {
	case allow == nil:
		return appendItem(src, perms, st, "allow", []string{rule})
	case allow.kind != '[':
		return nil, errors.New(`"permissions.allow" is not an array`)
	case allowIndex(allow, rule) >= 0:
		return src, nil
	}
	return appendItem(src, allow, st, "", rule)
}

// removedAllow returns src without rule in permissions.allow; an allow
// array and a permissions object left empty go too.
func removedAllow(src []byte, rule string) ([]byte, error) {
	root, err := parseSettings(src)
	if err != nil {
		return nil, err
	}
	perms := root.member("permissions")
	allow := perms.member("allow")
	if perms == nil || perms.kind != '{' || allow == nil || allow.kind != '[' {
		return src, nil
	}
	i := allowIndex(allow, rule)
	switch {
	case i < 0:
		return src, nil
	case len(allow.vals) > 1:
		return removeItem(src, allow, i), nil
	case len(perms.vals) > 1:
		return removeItem(src, perms, slices.Index(perms.keys, "allow")), nil
	}
	return removeItem(src, root, slices.Index(root.keys, "permissions")), nil
}

func allowIndex(allow *node, rule string) int {
	for i, v := range allow.vals {
		if v.kind == '"' && v.str == rule {
			return i
		}
	}
	return -1
}

// geminiShowPolicy is the policy `init gemini` writes: Gemini CLI reads
// every file in ~/.gemini/policies, and a rule's commandPrefix is matched
// against each command of the line as written.
const geminiShowPolicy = `# shrinkrun init gemini: the read-only shrinkrun show, which a block's
# raw_output line names, runs without a new approval (docs/agents.md).
[[rule]]
toolName = "run_shell_command"
commandPrefix = "shrinkrun show"
decision = "allow"
priority = 100
`

// ShowInstall plans the allow rule for shrinkrun show in the settings of a
// client of the launch route: a policy file of its own for Gemini CLI; nil
// for the others, where no rule allows the show alone: Copilot CLI's
// shell(shrinkrun) allows shrinkrun -- CMD too, and any allow rule makes
// Qwen Code offer its shell tool in -p mode, where it then runs the
// commands it takes for read-only without asking (agents/e2e
// TestCopilotShowRule, TestQwenShowRule).
func ShowInstall(name string, e Env) (*Change, error) {
	if name != "gemini" {
		return nil, nil
	}
	path, old, existed, err := read(geminiPolicyPath(e))
	if err != nil {
		return nil, err
	}
	c := &Change{Path: path, Existed: existed, Old: old, New: []byte(geminiShowPolicy), KeepDir: true,
		Note: "allowed shrinkrun show in " + path}
	if !c.Changed() {
		c.Note = "shrinkrun show is allowed in " + path
	}
	return c, nil
}

// ShowUninstall plans removing what ShowInstall added: the policy file
// when it is still shrinkrun's.
func ShowUninstall(name string, e Env) (*Change, error) {
	if name != "gemini" {
		return nil, nil
	}
	path, old, existed, err := read(geminiPolicyPath(e))
	if err != nil {
		return nil, err
	}
	c := &Change{Path: path, Existed: existed, Old: old, New: old, KeepDir: true}
	if existed && string(old) == geminiShowPolicy {
		c.New, c.Note = nil, "removed "+path
	}
	return c, nil
}

func geminiPolicyPath(e Env) string {
	return filepath.Join(e.Home, ".gemini", "policies", "shrinkrun.toml")
}
