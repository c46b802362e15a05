package e2e

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
)

// TestDetectMore is TestDetect for opencode, Copilot CLI and Qwen Code:
// each runs env for the model, and clients.Detect, given that environment,
// names the client.
func TestDetectMore(t *testing.T) {
	for _, name := range []clients.Name{clients.Opencode, clients.Copilot, clients.Qwen} {
		t.Run(string(name), func(t *testing.T) {
			client(t, string(name))
			s := newScratch(t, "env")
			var r runResult
			switch name {
			case clients.Opencode:
				s.opencodeConfig(`{"bash": "allow"}`)
				r = s.runOpencode(s.repo)
			case clients.Copilot:
				r = s.runCopilot(s.repo, false, "--allow-all-tools")
			case clients.Qwen:
				s.qwenSettings(`"permissions": {"allow": ["run_shell_command(env)"]}`)
				r = s.runQwen(s.repo, false)
			}
			env := map[string]string{}
			for _, line := range strings.Split(r.result(), "\n") {
				// Qwen Code puts "Output: " before the first line.
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
