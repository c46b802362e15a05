package e2e

import (
	"path/filepath"
	"testing"
)

// qwenSettings writes ~/.qwen/settings.json: the Anthropic API (the fake
// model, through ANTHROPIC_BASE_URL) and the case's own settings. Managed
// auto-memory is off: its background agent asks the model too, with the
// shell tool, and would take the call meant for the session.
func (s *scratch) qwenSettings(extra string) {
	if extra != "" {
		extra = ", " + extra
	}
	s.write(filepath.Join(s.home, ".qwen", "settings.json"),
		`{"security": {"auth": {"selectedType": "anthropic"}}, "model": {"name": "claude-sonnet-4-5"}, "privacy": {"usageStatisticsEnabled": false}, "memory": {"enableManagedAutoMemory": false, "enableManagedAutoDream": false}`+extra+"}\n")
}

// runQwen runs `qwen -p` in dir. With on, it is started by the qwen()
// function `shrinkrun init qwen` wrote, which puts shrinkrun's bash link
// first on the PATH Qwen Code starts with.
func (s *scratch) runQwen(dir string, on bool, args ...string) runResult {
	s.t.Helper()
	bin := client(s.t, "qwen")
	argv := append([]string{bin, "-p", "run the command"}, args...)
	extra := []string{
		"ANTHROPIC_BASE_URL=" + s.model.URL(),
		"ANTHROPIC_API_KEY=sk-ant-e2e",
		"ANTHROPIC_MODEL=claude-sonnet-4-5",
	}
	if on {
		argv = s.launched("qwen", argv)
		extra = s.withClientBin(bin, extra)
	}
	return s.runClient(dir, extra, argv...)
}

// qwenCases are Qwen Code's permission situations: its permissions rules
// (deny before ask before allow, on the command as written) and
// tools.allowed. In -p mode the shell tool is offered only when a rule
// allows some command, and a command that would need approval is refused.
var qwenCases = []shellCase{
	{name: "no rules", command: "git diff", want: "not offered",
		setup: func(s *scratch) { s.qwenSettings("") }},
	{name: "allowed by a rule", measure: true, command: "git diff", want: "ran", block: true,
		setup: func(s *scratch) { s.qwenSettings(`"permissions": {"allow": ["run_shell_command(git diff)"]}`) }},
	{name: "allowed in tools.allowed", measure: true, command: "cargo test", want: "ran", block: true,
		setup: func(s *scratch) { s.qwenSettings(`"tools": {"allowed": ["run_shell_command(cargo test)"]}`) }},
	{name: "needs approval, none given", command: "cargo test", want: "refused",
		setup: func(s *scratch) { s.qwenSettings(`"permissions": {"allow": ["run_shell_command(git status)"]}`) }},
	{name: "denied by a rule", command: "git log --oneline", want: "refused",
		setup: func(s *scratch) {
			s.qwenSettings(`"permissions": {"allow": ["run_shell_command"], "deny": ["run_shell_command(git log)"]}`)
		}},
}

// TestQwen runs every case without shrinkrun and started by the function
// `shrinkrun init qwen` installs: the same outcome, and a block for a
// recognized command that ran.
func TestQwen(t *testing.T) {
	client(t, "qwen")
	for _, tc := range qwenCases {
		t.Run(tc.name, func(t *testing.T) {
			checkShellCase(t, "qwen", tc, func(s *scratch, dir string, on bool) runResult {
				if on {
					s.write(filepath.Join(s.home, ".bashrc"), "# scratch\n")
					s.shrinkrun(s.home, "init", "qwen")
				}
				return s.runQwen(dir, on, tc.args...)
			})
		})
	}
}

// TestQwenShowRule is why `init qwen` adds no allow rule for shrinkrun
// show: in -p mode any allow rule makes Qwen Code offer its shell tool,
// and it then runs the commands it takes for read-only without asking: a
// git diff, not offered without the rule, runs with it.
func TestQwenShowRule(t *testing.T) {
	client(t, "qwen")
	s := newScratch(t, "git diff")
	s.qwenSettings(`"permissions": {"allow": ["run_shell_command(shrinkrun show)"]}`)
	r := s.runQwen(s.repo, false)
	got := outcome(r.result(), ranMarks...)
	t.Logf("git diff with only a shrinkrun show rule: %s, %.120q", got, r.result())
	if got != "ran" {
		t.Errorf("git diff %s: the rule no longer allows more than the show; init qwen could add it", got)
	}
}
