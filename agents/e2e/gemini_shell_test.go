package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// runGeminiShell runs `gemini -p` in dir as runGemini does; with on, it is
// started by the gemini() function `shrinkrun init gemini` wrote, which
// puts shrinkrun's bash link first on the PATH Gemini CLI starts with.
func (s *scratch) runGeminiShell(dir string, on bool, args ...string) runResult {
	s.t.Helper()
	bin := client(s.t, "gemini")
	argv := append(append([]string{bin, "-m", "gemini-2.5-flash"}, args...), "-p", "run the command")
	extra := []string{
		"GEMINI_API_KEY=e2e-key",
		"GOOGLE_GEMINI_BASE_URL=" + s.model.URL(),
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"GEMINI_CLI_NO_RELAUNCH=true",
	}
	if on {
		argv = s.launched("gemini", argv)
		extra = s.withClientBin(bin, extra)
	}
	return s.runClient(dir, extra, argv...)
}

// geminiShellCases are the permission situations of TestGemini for the
// shell route. Gemini CLI 0.61 sets git's diff.external to "" for its
// commands, which makes a plain git diff fail with or without shrinkrun:
// --no-ext-diff is how git diff works there.
var geminiShellCases = []struct {
	name     string
	command  string
	args     []string
	settings string // more of ~/.gemini/settings.json
	policy   string // ~/.gemini/policies/e2e.toml
	want     string // geminiOutcome, with and without shrinkrun
	// wantOn is the outcome with shrinkrun when it differs from want:
	// init's policy allowing shrinkrun show makes Gemini CLI offer its
	// shell tool in -p mode, so a command no rule allows is refused where
	// it was not offered. It runs in neither case.
	wantOn  string
	block   bool
	measure bool // TestModelVisible reports it
}{
	{name: "read-only, no rules", command: "git diff --no-ext-diff", want: "not offered", wantOn: "refused"},
	{name: "allowed by --allowed-tools", measure: true, command: "git diff --no-ext-diff", args: []string{"--allowed-tools", "run_shell_command(git diff)"}, want: "ran", block: true},
	{name: "allowed in settings", measure: true, command: "cargo test", settings: `"tools": {"allowed": ["run_shell_command(cargo test)"]}`, want: "ran", block: true},
	{name: "allowed by a policy rule", command: "cargo test",
		policy: "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"cargo test\"\ndecision = \"allow\"\npriority = 100\n", want: "ran", block: true},
	{name: "denied by a policy rule", command: "git log --oneline", args: []string{"--allowed-tools", "run_shell_command(git log)"},
		policy: "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git log\"\ndecision = \"deny\"\npriority = 900\n", want: "refused"},
}

// TestGeminiShell runs every case without shrinkrun and started by the
// function `shrinkrun init gemini` installs: Gemini CLI decides on the
// command as written, then runs its wrapper around it with shrinkrun's
// bash, which summarizes the command inside: the same outcome, and a block
// for a recognized command that ran.
func TestGeminiShell(t *testing.T) {
	client(t, "gemini")
	for _, tc := range geminiShellCases {
		t.Run(tc.name, func(t *testing.T) {
			var results [2]string
			for _, on := range []bool{false, true} {
				s := newScratch(t, tc.command)
				s.geminiSettings(tc.settings, false)
				if tc.policy != "" {
					s.write(filepath.Join(s.home, ".gemini", "policies", "e2e.toml"), tc.policy)
				}
				if on {
					s.write(filepath.Join(s.home, ".bashrc"), "# scratch\n")
					s.shrinkrun(s.home, "init", "gemini")
				}
				dir := s.repo
				if strings.HasPrefix(tc.command, "cargo") {
					dir = s.crate
				}
				r := s.runGeminiShell(dir, on, tc.args...)
				results[b2i(on)] = r.result()
				got, want := geminiOutcome(r), tc.want
				if on && tc.wantOn != "" {
					want = tc.wantOn
				}
				t.Logf("shrinkrun=%v: %s, %d bytes to the model: %.200q", on, got, len(r.result()), r.result())
				if got != want {
					t.Errorf("shrinkrun=%v: %s, want %s; the model got:\n%.2000s\nstderr:\n%.2000s", on, got, want, r.result(), r.stderr)
				}
				switch {
				case on && tc.block && (!strings.Contains(r.result(), blockMark) || !r.curated(tc.command)):
					t.Errorf("with shrinkrun the model got no block for %q:\n%.3000s\nhistory: %v", tc.command, r.result(), r.history)
				case !on && (strings.Contains(r.result(), blockMark) || r.ranUnder(tc.command)):
					t.Errorf("without shrinkrun the command ran under shrinkrun")
				case on && tc.want != "ran" && r.ranUnder(tc.command):
					t.Errorf("a refused command ran under shrinkrun: %v", r.history)
				}
			}
			if tc.measure {
				measured.put("gemini", tc.command, results)
			}
		})
	}
}
