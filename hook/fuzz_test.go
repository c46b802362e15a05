package hook

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
)

// FuzzRun feeds arbitrary payloads to every agent's decision. Whatever the
// input, an answer is either nothing or one complete JSON document that
// changes only the command, to exactly `BIN --agent AGENT -c ORIGINAL` where ORIGINAL is
// a command shrinkrun summarizes.
func FuzzRun(f *testing.F) {
	for _, c := range loadGolden(f) {
		f.Add(string(c.agent), section(c.ar, "payload.json"))
	}
	f.Add("claude", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","command":"rm -rf /"}}`))
	f.Add("claude", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"}} {}`))
	f.Add("gemini", []byte(`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git diff","x":[1,{"y":null}]}}`))
	f.Add("codex", append([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git diff","pad":"`), append(bytes.Repeat([]byte("x"), MaxPayload), `"}}`...)...))
	f.Fuzz(func(t *testing.T, agent string, payload []byte) {
		a := Agent(agent)
		if !Known(a) {
			return
		}
		env := Env{Bin: testBin, Getenv: func(string) string { return "" }}
		r := Run(a, payload, env)
		if r.Output == nil {
			if r.Rewrite != "" {
				t.Fatalf("no output but rewrite %q", r.Rewrite)
			}
			return
		}
		checkAnswer(t, a, payload, r, testBin)
	})
}

// checkAnswer verifies an answer against the payload it answers.
func checkAnswer(t *testing.T, a Agent, payload []byte, r Result, bin string) {
	t.Helper()
	out := r.Output
	if !bytes.HasSuffix(out, []byte("\n")) || bytes.Count(out, []byte("\n")) != 1 || !json.Valid(out) {
		t.Fatalf("answer is not one line of JSON: %q", out)
	}
	var in struct {
		Input map[string]json.RawMessage `json:"tool_input"`
	}
	if err := json.Unmarshal(payload, &in); err != nil {
		t.Fatalf("answered a payload that does not decode: %v", err)
	}
	var ans struct {
		Out struct {
			Event    string                     `json:"hookEventName"`
			Decision string                     `json:"permissionDecision"`
			Updated  map[string]json.RawMessage `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatal(err)
	}
	updated := ans.Out.Updated
	switch a {
	case Claude:
		t.Fatalf("answered a Claude Code payload, which is always left alone: %s", out)
	case Codex:
		if ans.Out.Event != "PreToolUse" || ans.Out.Decision != "allow" {
			t.Fatalf("codex answer %s", out)
		}
	case Gemini:
		t.Fatalf("answered a Gemini CLI payload, which is always left alone: %s", out)
	}
	if !slices.Equal(slices.Sorted(maps.Keys(updated)), slices.Sorted(maps.Keys(in.Input))) {
		t.Fatalf("fields changed: %s", out)
	}
	for k, v := range in.Input {
		if k != "command" && !jsonEqual(v, updated[k]) {
			t.Fatalf("field %s changed from %s to %s", k, v, updated[k])
		}
	}
	var orig, rewrite string
	if json.Unmarshal(in.Input["command"], &orig) != nil || json.Unmarshal(updated["command"], &rewrite) != nil {
		t.Fatalf("command is not a string: %s", out)
	}
	if orig != r.Command || rewrite != r.Rewrite {
		t.Fatalf("command %q -> %q, result says %q -> %q", orig, rewrite, r.Command, r.Rewrite)
	}
	if c := rules.String(orig); c.Rule == "" {
		t.Fatalf("rewrote %q, which shrinkrun passes through (%s)", orig, c.Reason)
	}
	back := rules.String(rewrite)
	if len(back.Stages) != 1 || !slices.Equal(back.Stages[0], []string{bin, "--agent", string(a), "-c", orig}) {
		t.Fatalf("rewrite %q does not run %q under %s", rewrite, orig, bin)
	}
	if strings.HasPrefix(strings.TrimSpace(orig), "SHRINKRUN_") {
		t.Fatalf("rewrote a command that talks to shrinkrun: %q", orig)
	}
}

// jsonEqual compares two JSON texts by value.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
