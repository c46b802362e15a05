package hook

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/hook/*.txtar from the current answers")

// testBin is the shrinkrun path the golden rewrites name.
const testBin = "/opt/shrinkrun/bin/shrinkrun"

// goldenDir holds one case per file: a txtar archive whose comment names
// the agent (`agent: claude`) and optional environment (`env: K=V`), with
// the payload in payload.json, settings files under home/, project/ and
// managed/, and the expected answer in want (empty: the hook prints
// nothing) and the reason in reason. In the payload and the answers,
// $HOME, $PROJECT and $MANAGED stand for those directories.
const goldenDir = "../testdata/hook"

type goldenCase struct {
	name, file string
	ar         *txtar.Archive
	agent      Agent
	env        map[string]string
}

func loadGolden(t testing.TB) []goldenCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases in %s: %v", goldenDir, err)
	}
	var cases []goldenCase
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := goldenCase{name: strings.TrimSuffix(filepath.Base(f), ".txtar"), file: f, ar: ar, env: map[string]string{}}
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if v, ok := strings.CutPrefix(line, "agent: "); ok {
				c.agent = Agent(v)
			}
			if v, ok := strings.CutPrefix(line, "env: "); ok {
				k, val, _ := strings.Cut(v, "=")
				c.env[k] = val
			}
		}
		if !Known(c.agent) {
			t.Fatalf("%s: no known agent in the comment", f)
		}
		cases = append(cases, c)
	}
	return cases
}

// setup writes the case's settings files and returns the payload and Env.
func (c goldenCase) setup(t *testing.T) ([]byte, Env, *strings.Replacer) {
	root := t.TempDir()
	dirs := map[string]string{"$HOME": filepath.Join(root, "home"), "$PROJECT": filepath.Join(root, "project"), "$MANAGED": filepath.Join(root, "managed")}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	in := strings.NewReplacer("$HOME", dirs["$HOME"], "$PROJECT", dirs["$PROJECT"], "$MANAGED", dirs["$MANAGED"])
	out := strings.NewReplacer(dirs["$HOME"], "$HOME", dirs["$PROJECT"], "$PROJECT", dirs["$MANAGED"], "$MANAGED")
	var payload []byte
	for _, f := range c.ar.Files {
		switch {
		case f.Name == "payload.json":
			payload = []byte(in.Replace(string(f.Data)))
		case strings.HasPrefix(f.Name, "home/"), strings.HasPrefix(f.Name, "project/"), strings.HasPrefix(f.Name, "managed/"):
			p := filepath.Join(root, f.Name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if payload == nil {
		t.Fatalf("%s: no payload.json", c.file)
	}
	env := Env{
		Bin:         testBin,
		Home:        dirs["$HOME"],
		Getenv:      func(k string) string { return in.Replace(c.env[k]) },
		CodexSystem: filepath.Join(dirs["$MANAGED"], "codex"),
	}
	return payload, env, out
}

func section(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

func TestGolden(t *testing.T) {
	for _, c := range loadGolden(t) {
		t.Run(c.name, func(t *testing.T) {
			payload, env, out := c.setup(t)
			r := Run(c.agent, payload, env)
			got := []byte(out.Replace(string(r.Output)))
			reason := out.Replace(r.Reason) + "\n"
			if *update {
				setSection(c.ar, "want", got)
				setSection(c.ar, "reason", []byte(reason))
				if err := os.WriteFile(c.file, txtar.Format(c.ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := section(c.ar, "want"); !bytes.Equal(got, want) {
				t.Errorf("answer:\n%s\nwant:\n%s", got, want)
			}
			if want := string(section(c.ar, "reason")); reason != want {
				t.Errorf("reason %q, want %q", reason, want)
			}
			if r.Output != nil {
				checkAnswer(t, c.agent, payload, r, env.Bin)
			}
		})
	}
}

func setSection(ar *txtar.Archive, name string, data []byte) {
	for i, f := range ar.Files {
		if f.Name == name {
			ar.Files[i].Data = data
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
}

func TestWrap(t *testing.T) {
	tests := []struct {
		bin, cmd, want string
	}{
		{"/usr/bin/shrinkrun", "git status", "/usr/bin/shrinkrun --agent codex -c 'git status'"},
		{"/opt/my tools/shrinkrun", "git diff", "'/opt/my tools/shrinkrun' --agent codex -c 'git diff'"},
		{"/usr/bin/shrinkrun", "git log --oneline --author='Jane Doe'", `/usr/bin/shrinkrun --agent codex -c "git log --oneline --author='Jane Doe'"`},
		{"/usr/bin/shrinkrun", "git diff 2>&1 | head -n 40", "/usr/bin/shrinkrun --agent codex -c 'git diff 2>&1 | head -n 40'"},
		{"/usr/bin/shrinkrun", `git log --grep "it's" --oneline`, `/usr/bin/shrinkrun --agent codex -c "git log --grep \"it's\" --oneline"`}, // \" inside "...", read back as bash reads it
		{"/usr/bin/shrinkrun", "git log --grep 'a\tb' --oneline", ""},                                                                        // needs $'...': refused
		{"shrinkrun", "git status", ""}, // not absolute
	}
	for _, tt := range tests {
		got, err := Wrap(tt.bin, Codex, tt.cmd)
		if tt.want == "" {
			if err == nil {
				t.Errorf("Wrap(%q, %q) = %q, want an error", tt.bin, tt.cmd, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Wrap(%q, %q) = %q, %v, want %q", tt.bin, tt.cmd, got, err, tt.want)
		}
	}
}

func TestWrapped(t *testing.T) {
	for cmd, want := range map[string]bool{
		"shrinkrun -- git status":                     true,
		"/opt/x/shrinkrun -c 'git status'":            true,
		"'/opt/my tools/shrinkrun' -lc 'git diff'":    true,
		"SHRINKRUN_BUDGET=4000 shrinkrun -- git diff": true,
		"shrinkrun --explain -c 'cargo test' | head":  true,
		"git status":                                     false,
		"git log --grep shrinkrun --oneline":             false,
		"echo shrinkrun":                                 false,
		"./shrinkrun-dev -c 'git status'":                false,
		"shrinkrun -c 'git status' && git diff":          false, // not one command: passes through anyway
		"bash -c '/usr/bin/shrinkrun -c \"git status\"'": false,
	} {
		if got := Wrapped(cmd); got != want {
			t.Errorf("Wrapped(%q) = %v, want %v", cmd, got, want)
		}
	}
}
