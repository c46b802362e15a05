package e2e

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
)

// TestDetect has each client run env for the model and checks that
// clients.Detect, given that environment, names the client: the markers
// are the ones the installed versions set for their commands.
func TestDetect(t *testing.T) {
	for _, name := range clients.All {
		t.Run(string(name), func(t *testing.T) {
			client(t, string(name))
			s := newScratch(t, "env")
			r := s.allowAll(name, false)(s.repo)
			env := map[string]string{}
			for _, line := range strings.Split(r.result(), "\n") {
				// Gemini CLI and Qwen Code put "Output: " before the first
				// line.
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
