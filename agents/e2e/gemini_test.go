package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// geminiSettings writes ~/.gemini/settings.json: API-key auth (the key and
// GOOGLE_GEMINI_BASE_URL point at the fake model) and the case's own
// settings.
func (s *scratch) geminiSettings(extra string, hooked bool) {
	if extra != "" {
		extra = ", " + extra
	}
	if hooked {
		// The entry an older `shrinkrun init gemini` wrote.
		extra += fmt.Sprintf(`, "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"name": "shrinkrun", "type": "command", "command": "%s hook gemini", "timeout": 10000}]}]}`, work.shrinkrun)
	}
	// Usage statistics off: Gemini CLI otherwise waits seconds on a host
	// the sandbox cannot reach.
	s.write(filepath.Join(s.home, ".gemini", "settings.json"), `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": false}`+extra+"}\n")
}

// runGemini runs `gemini -p` in dir. The model is named, so Gemini CLI
// does not ask a router model which one to use; GEMINI_CLI_NO_RELAUNCH
// saves the second Node process it starts to raise its memory limit.
func (s *scratch) runGemini(dir string, args ...string) runResult {
	s.t.Helper()
	bin := client(s.t, "gemini")
	argv := append(append([]string{bin, "-m", "gemini-2.5-flash"}, args...), "-p", "run the command")
	return s.runClient(dir, []string{
		"GEMINI_API_KEY=e2e-key",
		"GOOGLE_GEMINI_BASE_URL=" + s.model.URL(),
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"GEMINI_CLI_NO_RELAUNCH=true",
	}, argv...)
}

// geminiOutcome is what Gemini CLI did with the call: "not offered" when
// the model was never given the shell tool (non-interactive mode leaves out
// the tools that would need a confirmation), "ran", or "refused".
func geminiOutcome(r runResult) string {
	switch {
	case r.calls == 0:
		return "not offered"
	case strings.Contains(r.result(), "Output:") || strings.Contains(r.result(), blockMark):
		return "ran"
	}
	return "refused"
}

var geminiCases = []struct {
	name     string
	command  string
	args     []string
	settings string // more of ~/.gemini/settings.json
	policy   string // ~/.gemini/policies/e2e.toml
	want     string // geminiOutcome, with and without shrinkrun
	hooked   bool   // run with an older shrinkrun's hook too
}{
	{name: "read-only, no rules", command: "git diff", want: "not offered"},
	{name: "allowed by --allowed-tools", command: "git diff", args: []string{"--allowed-tools", "run_shell_command(git diff)"}, want: "ran", hooked: true},
	{name: "allowed in settings", command: "cargo test", settings: `"tools": {"allowed": ["run_shell_command(cargo test)"]}`, want: "ran"},
	{name: "allowed by a policy rule", command: "cargo test",
		policy: "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"cargo test\"\ndecision = \"allow\"\npriority = 100\n", want: "ran"},
	{name: "denied by a policy rule", command: "git log --oneline", args: []string{"--allowed-tools", "run_shell_command(git log)"},
		policy: "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git log\"\ndecision = \"deny\"\npriority = 900\n", want: "refused", hooked: true},
}

// TestGemini runs every case without shrinkrun and with the hook an older
// shrinkrun installed, and compares. Gemini CLI 0.61 checks its policy
// against the command a BeforeTool hook returns, so a rewrite made the
// allowed cases refused; the hook now rewrites nothing, and `shrinkrun init
// gemini` installs the shell route instead (TestGeminiShell).
func TestGemini(t *testing.T) {
	client(t, "gemini")
	for _, tc := range geminiCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, with := range []bool{false, true} {
				if with && !tc.hooked {
					continue
				}
				s := newScratch(t, tc.command)
				s.geminiSettings(tc.settings, with)
				if tc.policy != "" {
					s.write(filepath.Join(s.home, ".gemini", "policies", "e2e.toml"), tc.policy)
				}
				dir := s.repo
				if strings.HasPrefix(tc.command, "cargo") {
					dir = s.crate
				}
				r := s.runGemini(dir, tc.args...)
				got := geminiOutcome(r)
				t.Logf("shrinkrun=%v: %s, %d bytes to the model", with, got, len(r.result()))
				if got != tc.want {
					t.Errorf("shrinkrun=%v: %s, want %s; the model got:\n%s\nstderr:\n%s", with, got, tc.want, r.result(), r.stderr)
				}
				if strings.Contains(r.result(), blockMark) || r.ranUnder(tc.command) {
					t.Errorf("shrinkrun=%v: the command ran under shrinkrun:\n%s", with, r.result())
				}
			}
		})
	}
}
