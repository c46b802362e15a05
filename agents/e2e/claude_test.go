package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// claudeRun is one run of Claude Code in -p mode: what the model got and
// whether Claude Code denied the call.
type claudeRun struct {
	runResult
	denied bool
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
		Denials []json.RawMessage `json:"permission_denials"`
		IsError bool              `json:"is_error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		s.t.Fatalf("claude printed no JSON result (exit %d): %v\nstdout: %s\nstderr: %s", r.exit, err, r.stdout, r.stderr)
	}
	return claudeRun{runResult: r, denied: len(out.Denials) > 0}
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
}{
	{name: "read-only, no rules", command: "git diff", block: true},
	{name: "allowed by --allowedTools", command: "cargo test", args: []string{"--allowedTools", "Bash(cargo test:*)"}, block: true},
	{name: "allowed in settings", command: "cargo test", settings: `{"permissions": {"allow": ["Bash(cargo test:*)"]}}`, block: true},
	{name: "needs approval, none given", command: "cargo test", denied: true},
	{name: "denied in settings", command: "git log --oneline", settings: `{"permissions": {"deny": ["Bash(git log:*)"]}}`, denied: true},
}

// TestClaude runs every case without shrinkrun, then with `shrinkrun init
// claude`, and compares.
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
			var got [2]claudeRun
			for i, with := range []bool{false, true} {
				s := newScratch(t, tc.command)
				if tc.settings != "" {
					s.write(filepath.Join(s.home, ".claude", "settings.json"), tc.settings)
				}
				if with {
					s.shrinkrun(s.home, "init", "claude")
				}
				got[i] = s.runClaude(dir(s), tc.args...)
				r := got[i]
				t.Logf("shrinkrun=%v: denied=%v, %d bytes to the model", with, r.denied, len(r.result()))
				if r.denied != tc.denied {
					t.Errorf("shrinkrun=%v: denied=%v, want %v; the model got:\n%s", with, r.denied, tc.denied, r.result())
				}
				switch {
				case with && !tc.denied && tc.block && (!strings.Contains(r.result(), blockMark) || !r.curated(tc.command)):
					t.Errorf("with shrinkrun the model got no block for %q:\n%s\nhistory: %v", tc.command, r.result(), r.history)
				case !with && strings.Contains(r.result(), blockMark):
					t.Errorf("without shrinkrun the model got a block")
				case with && tc.denied && r.ranUnder(tc.command):
					t.Errorf("a denied command ran under shrinkrun: %v", r.history)
				}
			}
		})
	}
}
