package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// promptOutcome is what became of one command: "client" when the client
// refused it (or, in Claude Code's -p, would have asked), "shrinkrun"
// when shrinkrun did, "ran" otherwise.
func promptOutcome(refused bool, result string) string {
	switch {
	case refused:
		return "client"
	case strings.Contains(result, "shrinkrun refuses what"):
		return "shrinkrun"
	}
	return "ran"
}

// promptCases are issue 21's table: the prompt route, where the model
// types shrinkrun itself, under each client's rules, beside the same
// command typed without shrinkrun. Each command is typed in one session,
// in order; want is each one's outcome.
var promptCases = []struct {
	client, name string
	files        map[string]string // as decide takes them
	args         []string
	// route installs shrinkrun's native route first: "prefix" (Claude
	// Code's shell prefix) or "hook" (Codex's hook, trusted).
	route    string
	commands []string
	want     []string
}{
	{client: "claude", name: "deny Bash(git push:*), allow Bash",
		files:    map[string]string{".rules": "Bash(git push:*)"},
		commands: []string{"git push", "shrinkrun -- git push", "shrinkrun -c 'git fetch && git push origin'", "shrinkrun -- git status"},
		want:     []string{"client", "shrinkrun", "shrinkrun", "ran"}},
	{client: "claude", name: "the same rules with the shell prefix installed", route: "prefix",
		files: map[string]string{".rules": "Bash(git push:*)"},
		// shrinkrun 'git push' is one argument, as the prefix gets its
		// string: the prefix runs it, and the shrinkrun inside is checked.
		commands: []string{"git push", "git status", "shrinkrun -- git push", "shrinkrun 'git push'"},
		want:     []string{"client", "ran", "shrinkrun", "shrinkrun"}},
	{client: "claude", name: "allow Bash(shrinkrun:*): allowing shrinkrun allows every command",
		files:    map[string]string{".settings": `{"permissions": {"allow": ["Bash(shrinkrun:*)"]}}`},
		commands: []string{"touch x", "shrinkrun -- touch x"},
		want:     []string{"client", "ran"}},
	{client: "claude", name: "allow Bash(cargo test:*): the prompt route asks where the command runs",
		files:    map[string]string{".settings": `{"permissions": {"allow": ["Bash(cargo test:*)"]}}`},
		commands: []string{"cargo test", "shrinkrun -- cargo test"},
		want:     []string{"ran", "client"}},
	{client: "codex", name: `prefix_rule(["git","push"], "forbidden")`,
		files:    map[string]string{".rules": `prefix_rule(pattern = ["git", "push"], decision = "forbidden")`},
		commands: []string{"git push", "shrinkrun -- git push", "shrinkrun -c 'git push origin'", "shrinkrun -- git status"},
		want:     []string{"client", "shrinkrun", "shrinkrun", "ran"}},
	{client: "codex", name: "the same rule with the hook installed and trusted", route: "hook",
		files:    map[string]string{".rules": `prefix_rule(pattern = ["git", "push"], decision = "forbidden")`},
		commands: []string{"git push", "git status", "shrinkrun -- git push"},
		want:     []string{"client", "ran", "shrinkrun"}},
	{client: "gemini", name: `policy deny commandPrefix = "git push", --yolo`, args: []string{"--yolo"},
		files:    map[string]string{".toml": "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\ndecision = \"deny\"\npriority = 900\n"},
		commands: []string{"git push", "shrinkrun -- git push", "shrinkrun -- git status"},
		want:     []string{"client", "shrinkrun", "ran"}},
	{client: "gemini", name: "allow run_shell_command(shrinkrun): allowing shrinkrun allows every command",
		files:    map[string]string{".json": `{"tools": {"allowed": ["run_shell_command(shrinkrun)"]}}`},
		commands: []string{"touch x", "shrinkrun -- touch x"},
		want:     []string{"client", "ran"}},
}

// TestPromptRoute runs issue 21's table with the real clients. A command
// the client denies typed without shrinkrun is refused by shrinkrun when
// the model types it through shrinkrun, on every route; the last rows
// pin what docs/agents.md says an allow rule for shrinkrun means.
func TestPromptRoute(t *testing.T) {
	for _, tc := range promptCases {
		t.Run(tc.client+": "+tc.name, func(t *testing.T) {
			client(t, tc.client)
			s := newScratch(t, "")
			s.fakeBin("git", "cargo", "touch")
			switch tc.route {
			case "prefix":
				var deny []string
				for _, line := range strings.Split(tc.files[".rules"], "\n") {
					deny = append(deny, js(line))
				}
				s.write(filepath.Join(s.home, ".claude", "settings.json"), fmt.Sprintf(`{"permissions": {"allow": ["Bash"], "deny": [%s]}}`, strings.Join(deny, ", ")))
				s.shrinkrun(s.home, "init", "claude")
			case "hook":
				s.codexConfig("")
				s.shrinkrun(s.home, "init", "codex")
				s.trustCodexHooks(s.repo)
			}
			refused, results := s.decide(tc.client, tc.files, tc.commands, tc.args...)
			for i, cmd := range tc.commands {
				if got := promptOutcome(refused[i], results[i]); got != tc.want[i] {
					t.Errorf("%q: %s, want %s; the model got:\n%s", cmd, got, tc.want[i], results[i])
				}
			}
		})
	}
}
