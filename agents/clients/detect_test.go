package clients

import (
	"slices"
	"testing"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		env    map[string]string
		want   Name
		marked []Name
	}{
		{env: nil, want: ""},
		{env: map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_ENTRYPOINT": "cli"}, want: Claude, marked: []Name{Claude}},
		{env: map[string]string{"CODEX_THREAD_ID": "01a2", "CODEX_SANDBOX_NETWORK_DISABLED": "1"}, want: Codex, marked: []Name{Codex}},
		{env: map[string]string{"GEMINI_CLI": "1"}, want: Gemini, marked: []Name{Gemini}},
		{env: map[string]string{"OPENCODE": "1", "AGENT": "1", "OPENCODE_PID": "7"}, want: Opencode, marked: []Name{Opencode}},
		{env: map[string]string{"COPILOT_CLI": "1", "COPILOT_AGENT_SESSION_ID": "s"}, want: Copilot, marked: []Name{Copilot}},
		{env: map[string]string{"QWEN_CODE": "1", "QWEN_CODE_SESSION_ID": "s"}, want: Qwen, marked: []Name{Qwen}},
		// Copilot CLI's own call for its login environment carries no marker.
		{env: map[string]string{"COPILOT_DISABLE_LOGIN_SHELL_ENV": "1", "COPILOT_MODEL": "m"}, want: ""},
		// Variables that only name a client's configuration say nothing.
		{env: map[string]string{"CODEX_HOME": "/x", "GEMINI_API_KEY": "k", "CLAUDE_CONFIG_DIR": "/y"}, want: ""},
		// Nested clients: which one runs this shell is not known.
		{env: map[string]string{"CLAUDECODE": "1", "CODEX_THREAD_ID": "01a2"}, want: "", marked: []Name{Claude, Codex}},
	} {
		getenv := func(k string) string { return tc.env[k] }
		if got := Detect(getenv); got != tc.want {
			t.Errorf("Detect(%v) = %q, want %q", tc.env, got, tc.want)
		}
		if got := Marked(getenv); !slices.Equal(got, tc.marked) {
			t.Errorf("Marked(%v) = %q, want %q", tc.env, got, tc.marked)
		}
	}
}

func TestMarkersKnown(t *testing.T) {
	for _, m := range markers {
		if !Known(m.name) {
			t.Errorf("marker %s names %q, which has no limits", m.env, m.name)
		}
	}
}
