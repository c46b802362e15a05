package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// claudeRun is one run of Claude Code in -p mode: what the model got and
// whether Claude Code denied the call.
type claudeRun struct {
	runResult
	denied bool
	// deniedIDs are the tool calls Claude Code denied or, in -p, would
	// have asked about (the model's calls are toolu_01, toolu_02...).
	deniedIDs map[string]bool
}

// runClaude runs `claude -p` in dir with the fake model behind
// ANTHROPIC_BASE_URL.
func (s *scratch) runClaude(dir string, args ...string) claudeRun {
	s.t.Helper()
	bin := client(s.t, "claude")
	argv := append([]string{bin, "-p", "run the command", "--output-format", "json"}, args...)
	r := s.runClient(dir, []string{
		"ANTHROPIC_BASE_URL=" + s.model.URL(),
		"ANTHROPIC_API_KEY=sk-ant-e2e",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
	}, argv...)
	var out struct {
		Denials []struct {
			ID string `json:"tool_use_id"`
		} `json:"permission_denials"`
		IsError bool `json:"is_error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		s.t.Fatalf("claude printed no JSON result (exit %d): %v\nstdout: %s\nstderr: %s", r.exit, err, r.stdout, r.stderr)
	}
	ids := map[string]bool{}
	for _, d := range out.Denials {
		ids[d.ID] = true
	}
	return claudeRun{runResult: r, denied: len(out.Denials) > 0, deniedIDs: ids}
}

// claudeCases are the permission situations of issue 13, each run with and
// without shrinkrun: the outcome must be the same, and with shrinkrun a
// command it recognizes must reach the model as a block.
var claudeCases = []struct {
	name     string
	command  string
	args     []string // Claude Code's command line
	settings string   // ~/.claude/settings.json, "" for none
	denied   bool     // Claude Code's outcome, with and without shrinkrun
	block    bool     // with shrinkrun the model gets a block
	// hookChanged marks the cases where the PreToolUse hook of an older
	// shrinkrun changed the outcome: they are run with it too.
	hookChanged bool
	// measure names the case TestModelVisible reports for the command.
	measure bool
}{
	{name: "read-only, no rules", command: "git diff", block: true, hookChanged: true, measure: true},
	{name: "allowed by --allowedTools", command: "cargo test", args: []string{"--allowedTools", "Bash(cargo test:*)"}, block: true, hookChanged: true, measure: true},
	{name: "allowed in settings", command: "cargo test", settings: `{"permissions": {"allow": ["Bash(cargo test:*)"]}}`, block: true},
	{name: "needs approval, none given", command: "cargo test", denied: true},
	{name: "denied in settings", command: "git log --oneline", settings: `{"permissions": {"deny": ["Bash(git log:*)"]}}`, denied: true},
	{name: "denied by --disallowedTools, allowed in settings", command: "cargo test", settings: `{"permissions": {"allow": ["Bash(cargo test:*)"]}}`,
		args: []string{"--disallowedTools", "Bash(cargo test:*)"}, denied: true, hookChanged: true},
}

// TestClaude runs every case without shrinkrun, with `shrinkrun init
// claude` (the shell prefix), and with the PreToolUse hook an older
// shrinkrun installed, and compares. The hook rewrote commands, which
// changed outcomes both ways (docs/agents.md has the measurement); it now
// leaves every command alone.
func TestClaude(t *testing.T) {
	client(t, "claude")
	for _, tc := range claudeCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := func(s *scratch) string {
				if strings.HasPrefix(tc.command, "cargo") {
					return s.crate
				}
				return s.repo
			}
			modes := []string{"without", "prefix"}
			if tc.hookChanged {
				modes = append(modes, "hook")
			}
			var results [2]string
			for _, mode := range modes {
				with := mode == "prefix"
				s := newScratch(t, tc.command)
				settings := tc.settings
				if mode == "hook" {
					settings = withOldHook(settings)
				}
				if settings != "" {
					s.write(filepath.Join(s.home, ".claude", "settings.json"), settings)
				}
				if with {
					s.shrinkrun(s.home, "init", "claude")
				}
				r := s.runClaude(dir(s), tc.args...)
				if mode != "hook" {
					results[b2i(with)] = r.result()
				}
				t.Logf("%s: denied=%v, %d bytes to the model", mode, r.denied, len(r.result()))
				if r.denied != tc.denied {
					t.Errorf("shrinkrun=%v: denied=%v, want %v; the model got:\n%s", with, r.denied, tc.denied, r.result())
				}
				switch {
				case with && !tc.denied && tc.block && (!strings.Contains(r.result(), blockMark) || !r.curated(tc.command)):
					t.Errorf("with shrinkrun the model got no block for %q:\n%s\nhistory: %v", tc.command, r.result(), r.history)
				case !with && (strings.Contains(r.result(), blockMark) || r.ranUnder(tc.command)):
					t.Errorf("%s: the command ran under shrinkrun", mode)
				case with && tc.denied && r.ranUnder(tc.command):
					t.Errorf("a denied command ran under shrinkrun: %v", r.history)
				}
			}
			if tc.measure {
				measured.put("claude", tc.command, results)
			}
		})
	}
}

// withOldHook adds the PreToolUse entry an older `shrinkrun init claude`
// wrote to a settings file's text.
func withOldHook(settings string) string {
	entry := fmt.Sprintf(`"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "%s hook claude", "timeout": 10}]}]}`, work.shrinkrun)
	if settings == "" {
		return "{" + entry + "}"
	}
	return strings.TrimSuffix(strings.TrimSpace(settings), "}") + ", " + entry + "}"
}

// TestClaudeSnapshotAlias runs issue 21's alias with the real client: an
// alias for git in the user's ~/.bashrc reaches Claude Code's shell
// snapshot, which the envelope sources before it evals the command, so
// git there is not the program a rule reads. With the shell prefix the
// command passes through; without the alias the same command gets a block.
func TestClaudeSnapshotAlias(t *testing.T) {
	client(t, "claude")
	for _, alias := range []bool{true, false} {
		s := newScratch(t, "git diff")
		if alias {
			s.write(filepath.Join(s.home, ".bashrc"), "alias git='git -c status.showUntrackedFiles=no'\n")
		}
		s.shrinkrun(s.home, "init", "claude")
		r := s.runClaude(s.repo, "--allowedTools", "Bash")
		block := strings.Contains(r.result(), blockMark)
		t.Logf("alias=%v: block=%v, %d bytes to the model", alias, block, len(r.result()))
		if block == alias || !r.ranUnder("git diff") {
			t.Errorf("alias=%v: block=%v, want %v; history %v; the model got:\n%.500s", alias, block, !alias, r.history, r.result())
		}
	}
}
