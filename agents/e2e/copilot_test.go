package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// copilotCache is where Copilot CLI unpacks its runtime (about 200 MB) on
// its first run: shared by every run, so that each scratch HOME does not
// unpack it again.
func copilotCache() string {
	return filepath.Join(work.dir, "copilot-cache")
}

// runCopilot runs `copilot -p` in dir against the fake model, offline
// (COPILOT_OFFLINE, COPILOT_PROVIDER_*). With on, it is started by the
// copilot() function `shrinkrun init copilot` wrote, which sets
// COPILOT_BASH_PATH to shrinkrun's bash link.
func (s *scratch) runCopilot(dir string, on bool, args ...string) runResult {
	s.t.Helper()
	bin := client(s.t, "copilot")
	argv := append([]string{bin, "-p", "run the command", "--no-color"}, args...)
	extra := []string{
		"COPILOT_OFFLINE=true",
		"COPILOT_PROVIDER_TYPE=anthropic",
		"COPILOT_PROVIDER_BASE_URL=" + s.model.URL(),
		"COPILOT_PROVIDER_API_KEY=sk-ant-e2e",
		"COPILOT_MODEL=claude-sonnet-4",
		"COPILOT_CACHE_HOME=" + copilotCache(),
		"COPILOT_AUTO_UPDATE=false",
	}
	if on {
		argv = s.launched("copilot", argv)
		extra = s.withClientBin(bin, extra)
	}
	return s.runClient(dir, extra, argv...)
}

// copilotCases are Copilot CLI's permission situations: --allow-tool and
// --deny-tool patterns on the command as written; in -p mode a command no
// rule allows is refused, there being nobody to ask.
var copilotCases = []shellCase{
	{name: "allowed by --allow-tool", measure: true, command: "git diff", args: []string{"--allow-tool", "shell(git diff)"}, want: "ran", block: true},
	{name: "all allowed", measure: true, command: "cargo test", args: []string{"--allow-all-tools"}, want: "ran", block: true},
	{name: "not allowed", command: "cargo test", want: "refused"},
	{name: "denied by --deny-tool", command: "git log --oneline", args: []string{"--allow-all-tools", "--deny-tool", "shell(git log)"}, want: "refused"},
}

// TestCopilot runs every case without shrinkrun and started by the
// function `shrinkrun init copilot` installs: the same outcome, and a
// block for a recognized command that ran. Copilot CLI's own call for its
// login shell's environment (bash -l -c, before the first command) goes
// through the link untouched.
func TestCopilot(t *testing.T) {
	client(t, "copilot")
	for _, tc := range copilotCases {
		t.Run(tc.name, func(t *testing.T) {
			checkShellCase(t, "copilot", tc, func(s *scratch, dir string, on bool) runResult {
				if on {
					s.write(filepath.Join(s.home, ".bashrc"), "# scratch\n")
					out := s.shrinkrun(s.home, "init", "copilot")
					if !strings.Contains(out, "copilot() launch function") {
						t.Errorf("init copilot: %s", out)
					}
				}
				return s.runCopilot(dir, on, tc.args...)
			})
		})
	}
}
