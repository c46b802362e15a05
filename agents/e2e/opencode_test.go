package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
)

// opencodeConfig writes ~/.config/opencode/opencode.json: the fake model as
// the Anthropic provider's endpoint, and the case's permission setting.
func (s *scratch) opencodeConfig(permission string) {
	if permission != "" {
		permission = `, "permission": ` + permission
	}
	s.write(filepath.Join(s.home, ".config", "opencode", "opencode.json"), fmt.Sprintf(`{
  "$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-sonnet-4-5",
  "autoupdate": false,
  "share": "disabled",
  "provider": {"anthropic": {"options": {"baseURL": "%s/v1", "apiKey": "sk-ant-e2e"}}}%s
}
`, s.model.URL(), permission))
}

// runOpencode runs `opencode run` in dir. opencode answers a permission it
// would ask for with a rejection in this mode (it says "auto-rejecting").
func (s *scratch) runOpencode(dir string, args ...string) runResult {
	s.t.Helper()
	bin := client(s.t, "opencode")
	argv := append(append([]string{bin, "run"}, args...), "run the command")
	return s.runClient(dir, []string{"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1"}, argv...)
}

// opencodeCases are opencode's permission situations: its bash permission,
// a string or patterns of the command as written, last match wins.
var opencodeCases = []shellCase{
	{name: "allowed by pattern", measure: true, command: "git diff", want: "ran", block: true,
		setup: func(s *scratch) { s.opencodeConfig(`{"bash": {"*": "ask", "git diff*": "allow"}}`) }},
	{name: "all allowed", measure: true, command: "cargo test", want: "ran", block: true,
		setup: func(s *scratch) { s.opencodeConfig(`{"bash": "allow"}`) }},
	{name: "asked, rejected in run", command: "cargo test", want: "refused",
		setup: func(s *scratch) { s.opencodeConfig(`{"bash": "ask"}`) }},
	{name: "denied by pattern", command: "git log --oneline", want: "refused",
		setup: func(s *scratch) { s.opencodeConfig(`{"bash": {"*": "allow", "git log*": "deny"}}`) }},
	{name: "default permissions", command: "git diff", want: "ran", block: true,
		setup: func(s *scratch) { s.opencodeConfig("") }},
}

// TestOpencode runs every case without shrinkrun and with `shrinkrun init
// opencode` (the shell setting names shrinkrun's bash link): the same
// outcome, and a block for a recognized command that ran.
func TestOpencode(t *testing.T) {
	client(t, "opencode")
	for _, tc := range opencodeCases {
		t.Run(tc.name, func(t *testing.T) {
			checkShellCase(t, "opencode", tc, func(s *scratch, dir string, on bool) runResult {
				if on {
					s.shrinkrun(s.home, "init", "opencode")
				}
				return s.runOpencode(dir, tc.args...)
			})
		})
	}
}
