package agents

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shrinkrun/shrinkrun/hook"
)

// TestCodexHookHash pins the hash against the currentHash Codex 0.171.0's
// app-server (hooks/list) reported for this entry; the end-to-end test
// checks it against the installed Codex on every run.
func TestCodexHookHash(t *testing.T) {
	got, err := codexHookHash("pre_tool_use", "Bash", "/tmp/sr hook codex", 10)
	if want := "sha256:81cf505d9d7b3fe811089ea3e55ede99cb8fc5d2e78507a43281de1fd0fb389a"; err != nil || got != want {
		t.Fatalf("hash %q, %v; want %q", got, err, want)
	}
	if _, err := codexHookHash("pre_tool_use", "Bash", "/x\u2028/shrinkrun hook codex", 10); err == nil {
		t.Error("a command Go and serde_json encode differently was hashed")
	}
}

func TestCodexTrust(t *testing.T) {
	a := agent(t, hook.Codex)
	dir := t.TempDir()
	hooks := filepath.Join(dir, "hooks.json")
	install(t, a, hooks, bin)
	found, err := a.Status(hooks)
	if err != nil || len(found) != 1 {
		t.Fatal(found, err)
	}
	hash, _ := codexHookHash("pre_tool_use", "Bash", found[0].Command, 10)
	key := hooks + ":pre_tool_use:0:0"
	for name, tt := range map[string]struct {
		config string
		want   Trust
	}{
		"no config.toml":  {"", Untrusted},
		"no state":        {"model = \"o3\"\n[hooks.state.\"/elsewhere/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"" + hash + "\"\n", Untrusted},
		"table":           {"model = \"o3\"\n\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"" + hash + "\" # by /hooks\n[other]\nx = 1\n", Trusted},
		"literal key":     {"[hooks.state.'" + key + "']\ntrusted_hash = '" + hash + "'\n", Trusted},
		"dotted in hooks": {"[hooks]\nstate.\"" + key + "\".trusted_hash = \"" + hash + "\"\n", Trusted},
		"changed since":   {"[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:00\"\n", Modified},
		"turned off":      {"[hooks.state.\"" + key + "\"]\nenabled = false\ntrusted_hash = \"" + hash + "\"\n", Disabled},
		"another table":   {"[hooks.state.\"" + key + "\"]\n[features]\ntrusted_hash = \"" + hash + "\"\n", Untrusted},
	} {
		cfg := filepath.Join(t.TempDir(), "config.toml")
		if tt.config != "" {
			os.WriteFile(cfg, []byte(tt.config), 0o644)
		}
		got, err := a.CodexTrust(found[0], hooks, cfg)
		if err != nil || got != tt.want {
			t.Errorf("%s: %v, %v; want %v", name, got, err, tt.want)
		}
	}
}
