package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
)

// TestDetect has each client run env for the model and checks that
// clients.Detect, given that environment, names the client: the markers
// are the ones the installed versions set for their commands.
func TestDetect(t *testing.T) {
	for _, name := range []clients.Name{clients.Claude, clients.Codex, clients.Gemini} {
		t.Run(string(name), func(t *testing.T) {
			client(t, string(name))
			s := newScratch(t, "env")
			var r runResult
			switch name {
			case clients.Claude:
				r = s.runClaude(s.repo, "--allowedTools", "Bash").runResult
			case clients.Codex:
				s.codexConfig("")
				r = s.runCodex(s.repo)
			case clients.Gemini:
				s.geminiSettings("", false)
				s.write(filepath.Join(s.home, ".gemini", "policies", "e2e.toml"),
					"[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"allow\"\npriority = 100\n")
				r = s.runGemini(s.repo)
			}
			env := map[string]string{}
			for _, line := range strings.Split(r.result(), "\n") {
				// Gemini CLI puts "Output: " before the first line.
				k, v, ok := strings.Cut(strings.TrimPrefix(line, "Output: "), "=")
				if ok {
					env[k] = v
				}
			}
			if len(env) == 0 {
				t.Fatalf("the model got no environment:\n%s", r.result())
			}
			if got := clients.Detect(func(k string) string { return env[k] }); got != name {
				t.Errorf("Detect = %q, want %q; the environment:\n%s", got, name, r.result())
			}
		})
	}
}
