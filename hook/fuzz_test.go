package hook

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
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
			if r.Rewrite != "" || r.Allow {
				t.Fatalf("no output but rewrite %q allow %v", r.Rewrite, r.Allow)
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
			Gemini   map[string]json.RawMessage `json:"tool_input"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatal(err)
	}
	updated := ans.Out.Updated
	switch a {
	case Claude:
		if ans.Out.Event != "PreToolUse" || ans.Out.Decision != "" && ans.Out.Decision != "allow" || ans.Out.Decision == "allow" != r.Allow {
			t.Fatalf("claude answer %s", out)
		}
	case Codex:
		if ans.Out.Event != "PreToolUse" || ans.Out.Decision != "allow" {
			t.Fatalf("codex answer %s", out)
		}
	case Gemini:
		if ans.Out.Event != "" || ans.Out.Decision != "" || updated != nil {
			t.Fatalf("gemini answer %s", out)
		}
		updated = ans.Out.Gemini
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
	if c := classify.String(orig); c.Rule == "" {
		t.Fatalf("rewrote %q, which shrinkrun passes through (%s)", orig, c.Reason)
	}
	back := classify.String(rewrite)
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

// claudePlaces are where FuzzClaudeAllow puts settings files, relative to
// a root holding managed/, home/ and project/ (CLAUDE_PROJECT_DIR), with the
// payload's cwd at project/vendor/dep. applied marks the files Claude Code
// applies; the others are decoys whose allow rules must grant nothing.
// near marks the decoys in the working directory or above it, whose deny
// and ask rules the hook reads too.
var claudePlaces = []struct {
	path          string
	applied, near bool
}{
	{"managed/managed-settings.json", true, false},
	{"managed/managed-settings.d/10-team.json", true, false},
	{"home/.claude/settings.json", true, false},
	{"project/.claude/settings.json", true, true},
	{"project/.claude/settings.local.json", true, true},
	{"project/vendor/dep/.claude/settings.json", false, true},
	{"project/vendor/.claude/settings.local.json", false, true},
	{".claude/settings.json", false, true},
	{"home/.claude/settings.local.json", false, false},
}

// claudeRuleWords are the rules FuzzClaudeAllow writes, and the commands
// each one allows (by the permissions reference, written out by hand so
// the oracle does not share the hook's matcher).
var claudeRuleWords = []struct {
	rule   string
	allows []string
}{
	{"Bash", []string{"git status", "git push --force origin main", "cargo test --workspace", "git diff", "git diff | head -5"}},
	{"Bash(*)", []string{"git status", "git push --force origin main", "cargo test --workspace", "git diff", "git diff | head -5"}},
	{"Bash(git status:*)", []string{"git status"}},
	{"Bash(git push:*)", []string{"git push --force origin main"}},
	{"Bash(cargo test *)", []string{"cargo test --workspace"}},
	{"Bash(git diff)", []string{"git diff"}},
	{"Read(*)", nil},
}

var claudeFuzzCommands = []string{"git status", "git push --force origin main", "cargo test --workspace", "git diff", "git diff | head -5"}

// claudeKeys are the spellings of permissions.KIND a file may use; only
// the first, exact one means anything to Claude Code.
var claudeKeys = [][2]string{{"permissions", "allow"}, {"PERMISSIONS", "allow"}, {"permissions", "Allow"}, {"Permissions", "ALLOW"}, {"permissions", "deny"}, {"permissions", "ask"}}

// FuzzClaudeAllow builds a tree of Claude Code settings files from the
// input and checks the hook's answer against it. The oracle: never allow
// unless an exact permissions.allow rule in a file Claude Code applies
// allows the command, and never when a deny or ask rule in a file the hook
// reads (applied, or in the working directory or above) covers it.
func FuzzClaudeAllow(f *testing.F) {
	f.Add([]byte{5, 0, 3}, uint8(1), uint8(0))          // a dependency allows git push
	f.Add([]byte{2, 1, 2}, uint8(0), uint8(0))          // "PERMISSIONS" allows git status
	f.Add([]byte{2, 0, 2}, uint8(0), uint8(0))          // the user allows git status
	f.Add([]byte{3, 0, 0, 5, 4, 0}, uint8(3), uint8(0)) // allow all, a decoy denies all
	f.Add([]byte{0, 0, 4, 1, 0, 5}, uint8(4), uint8(1))
	f.Fuzz(func(t *testing.T, tree []byte, cmdIdx, modeIdx uint8) {
		if len(tree) > 60 {
			return
		}
		root := t.TempDir()
		type rules map[[2]string][]string
		files := map[int]rules{}
		for i := 0; i+2 < len(tree); i += 3 {
			place := int(tree[i]) % len(claudePlaces)
			key := claudeKeys[int(tree[i+1])%len(claudeKeys)]
			rule := claudeRuleWords[int(tree[i+2])%len(claudeRuleWords)].rule
			if files[place] == nil {
				files[place] = rules{}
			}
			files[place][key] = append(files[place][key], rule)
		}
		for place, rs := range files {
			doc := map[string]map[string][]string{}
			for k, list := range rs {
				if doc[k[0]] == nil {
					doc[k[0]] = map[string][]string{}
				}
				doc[k[0]][k[1]] = list
			}
			data, _ := json.Marshal(doc)
			p := filepath.Join(root, claudePlaces[place].path)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := claudeFuzzCommands[int(cmdIdx)%len(claudeFuzzCommands)]
		mode := []string{"default", "dontAsk", "acceptEdits", "bypassPermissions", "auto"}[int(modeIdx)%5]
		project := filepath.Join(root, "project")
		payload, _ := json.Marshal(map[string]any{
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "permission_mode": mode,
			"cwd": filepath.Join(project, "vendor", "dep"), "tool_input": map[string]any{"command": cmd},
		})
		env := Env{
			Bin:  testBin,
			Home: filepath.Join(root, "home"),
			Getenv: func(k string) string {
				if k == "CLAUDE_PROJECT_DIR" {
					return project
				}
				return ""
			},
			ClaudeManaged: []string{filepath.Join(root, "managed", "managed-settings.json")},
		}
		r := Run(Claude, payload, env)
		if !r.Allow {
			return
		}
		granted, blocked := false, false
		for place, rs := range files {
			for k, list := range rs {
				for _, rule := range list {
					for _, w := range claudeRuleWords {
						if w.rule != rule || !slices.Contains(w.allows, cmd) {
							continue
						}
						switch {
						case k == [2]string{"permissions", "allow"} && claudePlaces[place].applied:
							granted = true
						case (k == [2]string{"permissions", "deny"} || k == [2]string{"permissions", "ask"}) && (claudePlaces[place].applied || claudePlaces[place].near):
							blocked = true
						}
					}
				}
			}
		}
		if !granted || blocked {
			t.Fatalf("allowed %q (granted %v, blocked %v) with files %v: %s", cmd, granted, blocked, files, r.Reason)
		}
	})
}
