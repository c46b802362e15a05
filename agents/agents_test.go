package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/hook"
)

const bin = "/opt/shrinkrun/bin/shrinkrun"

// entryFor is what Install is given for a: the shrinkrun binary, or the
// bash link for a shell setting.
func entryFor(a *Agent) string {
	if a.Shell {
		return "/home/u/.local/share/shrinkrun/shell/" + string(a.Name) + "/bash"
	}
	return bin
}

func agent(t *testing.T, name hook.Agent) *Agent {
	t.Helper()
	a, ok := Lookup(string(name))
	if !ok {
		t.Fatalf("no agent %s", name)
	}
	return a
}

// install and uninstall apply a planned change and fail the test on error.
func install(t *testing.T, a *Agent, path, bin string) *Change {
	t.Helper()
	c, err := a.Install(path, bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	return c
}

func uninstall(t *testing.T, a *Agent, path string) *Change {
	t.Helper()
	c, err := a.Uninstall(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	return c
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRoundTrip installs into many starting files, checks the result reads
// as JSON with exactly one shrinkrun hook, that installing again changes
// nothing, and that uninstalling restores the file byte for byte.
func TestRoundTrip(t *testing.T) {
	starts := map[string]string{
		"empty object":     "{}\n",
		"empty file":       "",
		"pretty, 4 spaces": "{\n    \"model\": \"opus\",\n    \"permissions\": {\n        \"allow\": [\"Bash(git status:*)\"]\n    }\n}\n",
		"one line":         `{"env":{"A":"1"},"permissions":{"deny":[]}}`,
		"tabs":             "{\n\t\"theme\": \"dark\"\n}",
		"empty hooks":      "{\n  \"hooks\": {}\n}\n",
		"empty event":      "{\n  \"hooks\": {\n    \"PreToolUse\": [],\n    \"BeforeTool\": []\n  }\n}\n",
		"other hooks":      "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"fmt.sh\"}]}\n    ],\n    \"BeforeTool\": [\n      {\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint.sh\"}]}\n    ],\n    \"Stop\": []\n  },\n  \"z\": 1.50\n}\n",
		"unicode, escapes": "{\"note\": \"caf\\u00e9 <b>\", \"n\": 1e3}\n",
	}
	for _, a := range All {
		if a.Refused != "" {
			continue // TestRefusedRoute
		}
		for name, start := range starts {
			t.Run(string(a.Name)+"/"+name, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "settings.json")
				if err := os.WriteFile(path, []byte(start), 0o600); err != nil {
					t.Fatal(err)
				}
				bin := entryFor(a)
				c := install(t, a, path, bin)
				if !c.Changed() || c.Backup != path+BackupSuffix {
					t.Fatalf("install: changed=%v backup=%q", c.Changed(), c.Backup)
				}
				after := readFile(t, path)
				found, err := a.Status(path)
				if err != nil || len(found) != 1 || found[0].Bin != bin {
					t.Fatalf("after install: %v %v\n%s", found, err, after)
				}
				if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
					t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
				}
				if got := readFile(t, path+BackupSuffix); got != start {
					t.Errorf("backup %q, want %q", got, start)
				}
				if c := install(t, a, path, bin); c.Changed() || readFile(t, path) != after {
					t.Fatalf("second install changed the file: %s", c.Note)
				}
				uninstall(t, a, path)
				if got := readFile(t, path); got != start {
					t.Fatalf("uninstall left\n%s\nwant\n%s", got, start)
				}
				if _, err := os.Stat(path + BackupSuffix); !os.IsNotExist(err) {
					t.Errorf("backup still there after an exact restore")
				}
			})
		}
	}
}

// TestInsertLayout pins what an install adds, for each agent's entry shape
// and the file's own indentation.
func TestInsertLayout(t *testing.T) {
	tests := []struct {
		agent hook.Agent
		start string
		want  string
	}{
		{hook.Claude, "", `{
  "env": {
    "CLAUDE_CODE_SHELL_PREFIX": "/opt/shrinkrun/bin/shrinkrun",
    "SHRINKRUN_AGENT": "claude"
  },
  "permissions": {
    "allow": [
      "Bash(shrinkrun show:*)"
    ]
  }
}
`},
		{hook.Claude, "{\n\t\"env\": {\n\t\t\"FOO\": \"1\"\n\t}\n}\n", "{\n\t\"env\": {\n\t\t\"FOO\": \"1\",\n\t\t\"CLAUDE_CODE_SHELL_PREFIX\": \"/opt/shrinkrun/bin/shrinkrun\",\n\t\t\"SHRINKRUN_AGENT\": \"claude\"\n\t},\n\t\"permissions\": {\n\t\t\"allow\": [\n\t\t\t\"Bash(shrinkrun show:*)\"\n\t\t]\n\t}\n}\n"},
		// The rule joins the user's allow list.
		{hook.Claude, "{\n  \"permissions\": {\n    \"allow\": [\"Bash(git status:*)\"]\n  }\n}\n", "{\n  \"permissions\": {\n    \"allow\": [\"Bash(git status:*)\", \"Bash(shrinkrun show:*)\"]\n  },\n  \"env\": {\n    \"CLAUDE_CODE_SHELL_PREFIX\": \"/opt/shrinkrun/bin/shrinkrun\",\n    \"SHRINKRUN_AGENT\": \"claude\"\n  }\n}\n"},
		// An older shrinkrun's hook goes; the prefix takes its place.
		{hook.Claude, `{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/old/shrinkrun hook claude","timeout":10}]}]}}`,
			`{"model":"opus", "env": {"CLAUDE_CODE_SHELL_PREFIX":"/opt/shrinkrun/bin/shrinkrun","SHRINKRUN_AGENT":"claude"}, "permissions": {"allow":["Bash(shrinkrun show:*)"]}}`},
		{hook.Gemini, "{\n    \"hooks\": {\n        \"BeforeTool\": [\n            {\"matcher\": \"x\", \"hooks\": []}\n        ]\n    }\n}\n", `{
    "hooks": {
        "BeforeTool": [
            {"matcher": "x", "hooks": []},
            {
                "matcher": "run_shell_command",
                "hooks": [
                    {
                        "name": "shrinkrun",
                        "type": "command",
                        "command": "/opt/shrinkrun/bin/shrinkrun hook gemini",
                        "timeout": 10000
                    }
                ]
            }
        ]
    }
}
`},
		{hook.Codex, `{"hooks":{"Stop":[]}}`, `{"hooks":{"Stop":[], "PreToolUse": [{"matcher":"Bash","hooks":[{"type":"command","command":"/opt/shrinkrun/bin/shrinkrun hook codex","timeout":10}]}]}}`},
	}
	for _, tt := range tests {
		got, err := agent(t, tt.agent).added([]byte(tt.start), bin)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s from %q:\n%s\nwant\n%s (err %v)", tt.agent, tt.start, got, tt.want, err)
		}
	}
}

// TestRefusedRoute: Gemini CLI's hook is no longer installed, but what an
// older shrinkrun installed is still found and removed byte for byte.
func TestRefusedRoute(t *testing.T) {
	a := agent(t, hook.Gemini)
	path := filepath.Join(t.TempDir(), "settings.json")
	start := "{\n  \"theme\": \"GitHub\"\n}\n"
	os.WriteFile(path, []byte(start), 0o644)
	if _, err := a.Install(path, bin); err == nil || !strings.Contains(err.Error(), "checks its policy against the command a BeforeTool hook returns") {
		t.Fatalf("install of the Gemini CLI hook: %v", err)
	}
	old, err := a.added([]byte(start), bin)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path+BackupSuffix, []byte(start), 0o644)
	os.WriteFile(path, old, 0o644)
	if found, err := a.Status(path); err != nil || len(found) != 1 {
		t.Fatalf("status of an older install: %v %v", found, err)
	}
	uninstall(t, a, path)
	if got := readFile(t, path); got != start {
		t.Fatalf("uninstall left %q", got)
	}
}

func TestMissingFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".claude")
	path := filepath.Join(dir, "settings.local.json")
	a := agent(t, hook.Claude)
	c := install(t, a, path, bin)
	if c.Backup != "" || !strings.HasPrefix(c.Note, "created ") {
		t.Fatalf("install into no file: %+v", c)
	}
	uninstall(t, a, path)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("uninstall left %s behind: %v", dir, err)
	}
}

// TestUninstallAfterEdits: when the file changed after the install (the
// agent added a permission rule), only the hook goes, the edit stays, and
// so does the backup.
func TestUninstallAfterEdits(t *testing.T) {
	start := "{\n  \"permissions\": {\n    \"allow\": [\"Bash(git status:*)\"]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"fmt.sh\"}]}\n    ]\n  }\n}\n"
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(start), 0o644)
	a := agent(t, hook.Claude)
	install(t, a, path, bin)
	edited := strings.Replace(readFile(t, path), `"Bash(git status:*)"`, `"Bash(npm test)", "Bash(git status:*)"`, 1)
	os.WriteFile(path, []byte(edited), 0o644)
	c := uninstall(t, a, path)
	want := strings.Replace(start, `"Bash(git status:*)"`, `"Bash(npm test)", "Bash(git status:*)"`, 1)
	if got := readFile(t, path); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := os.Stat(path + BackupSuffix); err != nil || !strings.Contains(c.Note, "is kept") {
		t.Fatalf("backup should stay: %v, %s", err, c.Note)
	}
}

// TestSharedGroup: a shrinkrun hook the user moved into a group of their
// own goes alone; the group and their hook stay.
func TestSharedGroup(t *testing.T) {
	src := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}, {"type": "command", "command": "'/usr/local/bin/shrinkrun' hook claude"}]}]}}`
	got, err := agent(t, hook.Claude).removed([]byte(src))
	want := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}]}}`
	if err != nil || string(got) != want {
		t.Fatalf("got %s, %v", got, err)
	}
}

// TestRepoint: installing from another binary replaces the entry and writes
// no backup (the file already holds a shrinkrun hook, so it is not the file
// from before shrinkrun): uninstall still restores the original file, or
// removes the file when init created it.
func TestRepoint(t *testing.T) {
	for _, start := range []string{"{\n  \"model\": \"sonnet\"\n}\n", ""} {
		dir := filepath.Join(t.TempDir(), ".claude")
		path := filepath.Join(dir, "settings.json")
		if start != "" {
			os.Mkdir(dir, 0o755)
			os.WriteFile(path, []byte(start), 0o644)
		}
		a := agent(t, hook.Claude)
		install(t, a, path, "/old/shrinkrun")
		c := install(t, a, path, "/new/shrinkrun")
		if c.Backup != "" || !strings.HasPrefix(c.Note, "pointed ") {
			t.Fatalf("re-point from %q: %+v", start, c)
		}
		found, _ := a.Status(path)
		if len(found) != 1 || found[0].Bin != "/new/shrinkrun" {
			t.Fatalf("found %+v", found)
		}
		uninstall(t, a, path)
		if start == "" {
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("uninstall of a file init created left %s behind: %v", dir, err)
			}
			continue
		}
		if got := readFile(t, path); got != start {
			t.Fatalf("got %q, want %q", got, start)
		}
	}
}

func TestSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "settings.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("{}\n"), 0o644)
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	a := agent(t, hook.Claude)
	install(t, a, link, bin)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	if !strings.Contains(readFile(t, real), `"CLAUDE_CODE_SHELL_PREFIX": "`+bin+`"`) {
		t.Fatal("the prefix did not reach the link's target")
	}
}

func TestRefusals(t *testing.T) {
	for _, tt := range []struct {
		agent     hook.Agent
		name, src string
	}{
		{hook.Claude, "not JSON", "{\"a\": 1,}\n"},
		{hook.Claude, "comments", "// settings\n{}\n"},
		{hook.Claude, "array", "[]\n"},
		{hook.Claude, "env not object", `{"env": []}`},
		{hook.Claude, "another shell prefix", `{"env": {"CLAUDE_CODE_SHELL_PREFIX": "/usr/local/bin/audit-shell"}}`},
		{hook.Codex, "hooks not object", `{"hooks": []}`},
		{hook.Codex, "event not array", `{"hooks": {"PreToolUse": {}}}`},
	} {
		a := agent(t, tt.agent)
		path := filepath.Join(t.TempDir(), "settings.json")
		os.WriteFile(path, []byte(tt.src), 0o644)
		if _, err := a.Install(path, bin); err == nil {
			t.Errorf("%s %s: install accepted %q", tt.agent, tt.name, tt.src)
		}
		if got := readFile(t, path); got != tt.src {
			t.Errorf("%s: file changed", tt.name)
		}
	}
	for _, a := range All {
		if a.Refused != "" {
			continue
		}
		if _, err := a.Install(filepath.Join(t.TempDir(), "s.json"), "shrinkrun"); err == nil {
			t.Errorf("%s: install accepted a relative binary path", a.Name)
		}
	}
	// Claude Code would split this prefix at " -" into "/opt/my" and options.
	if _, err := agent(t, hook.Claude).Install(filepath.Join(t.TempDir(), "s.json"), "/opt/my -tools/shrinkrun"); err == nil {
		t.Error(`install accepted a path holding " -"`)
	}
}

func TestPaths(t *testing.T) {
	env := Env{Home: "/home/u", Dir: "/src/p", Getenv: func(k string) string {
		if k == "CODEX_HOME" {
			return "/cfg/codex"
		}
		return ""
	}}
	want := map[hook.Agent][2]string{
		hook.Claude: {"/home/u/.claude/settings.json", "/src/p/.claude/settings.local.json"},
		hook.Codex:  {"/cfg/codex/hooks.json", "/src/p/.codex/hooks.json"},
		hook.Gemini: {"/home/u/.gemini/settings.json", "/src/p/.gemini/settings.json"},
		"opencode":  {"/home/u/.config/opencode/opencode.json", "/src/p/opencode.json"},
	}
	for _, a := range All {
		u, err1 := a.Path(User, env)
		p, err2 := a.Path(Project, env)
		if err1 != nil || err2 != nil || u != want[a.Name][0] || p != want[a.Name][1] {
			t.Errorf("%s: %s %s (%v %v)", a.Name, u, p, err1, err2)
		}
	}
}

// TestParseJSONPosition: a settings file that is not JSON is refused with
// the line and column of what is wrong, counted in characters.
func TestParseJSONPosition(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"{\n  \"env\": {\n    // a comment\n    \"A\": \"1\"\n  }\n}\n", "not valid JSON at line 3, column 5: invalid character '/' looking for beginning of object key string"},
		{`{"a": 1,}`, "not valid JSON at line 1, column 9: invalid character '}' looking for beginning of object key string"},
		{"{\"é\": 1 \"b\": 2}", "not valid JSON at line 1, column 9: invalid character '\"' after object key:value pair"},
		{"{\n  \"a\": [1, 2\n", "not valid JSON at line 2, column 13: unexpected end of JSON input"},
		{"{} {}", "not valid JSON at line 1, column 4: invalid character '{' after top-level value"},
	} {
		_, err := parseJSON([]byte(c.src))
		if err == nil || err.Error() != c.want {
			t.Errorf("parseJSON(%q) = %v, want %q", c.src, err, c.want)
		}
	}
}
