package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func launch(t *testing.T, name string) *Launch {
	t.Helper()
	l, ok := LookupLaunch(name)
	if !ok {
		t.Fatalf("no launch route %s", name)
	}
	return l
}

// TestLaunchBlock pins the function each launch route writes.
func TestLaunchBlock(t *testing.T) {
	for name, want := range map[string]string{
		"gemini": `# >>> shrinkrun init gemini >>>
# Gemini CLI runs its shell commands with the bash this sets: shrinkrun's (docs/agents.md).
gemini() { PATH=/home/u/.local/share/shrinkrun/shell/gemini:"$PATH" command gemini "$@"; }
# <<< shrinkrun init gemini <<<
`,
		"copilot": `# >>> shrinkrun init copilot >>>
# Copilot CLI runs its shell commands with the bash this sets: shrinkrun's (docs/agents.md).
copilot() { COPILOT_BASH_PATH=/home/u/.local/share/shrinkrun/shell/copilot/bash command copilot "$@"; }
# <<< shrinkrun init copilot <<<
`,
	} {
		got, err := launch(t, name).Block("/home/u/.local/share/shrinkrun/shell/" + name + "/bash")
		if err != nil || got != want {
			t.Errorf("%s: %v\n%s\nwant\n%s", name, err, got, want)
		}
	}
	got, _ := launch(t, "qwen").Block("/home/my user/.local/share/shrinkrun/shell/qwen/bash")
	if !strings.Contains(got, `qwen() { PATH='/home/my user/.local/share/shrinkrun/shell/qwen':"$PATH" command qwen "$@"; }`) {
		t.Errorf("a path with a space is not quoted:\n%s", got)
	}
	if _, err := launch(t, "qwen").Block("/home/it's/bash"); err == nil {
		t.Error("a path holding a quote was accepted")
	}
}

// TestLaunchRoundTrip installs into several startup files: installing twice
// changes nothing, Status reads the link back, and uninstalling restores
// the file byte for byte (or removes the one init created).
func TestLaunchRoundTrip(t *testing.T) {
	starts := map[string]string{
		"empty":           "",
		"no newline":      "alias ll='ls -l'",
		"lines":           "# .bashrc\n[ -z \"$PS1\" ] && return\nexport EDITOR=vi\n",
		"other block":     "# >>> conda initialize >>>\nfoo\n# <<< conda initialize <<<\n",
		"another launch":  "# >>> shrinkrun init qwen >>>\nqwen() { PATH='/x/shell/qwen':\"$PATH\" command qwen \"$@\"; }\n# <<< shrinkrun init qwen <<<\n",
		"missing (no rc)": "-",
	}
	for _, l := range Launches {
		for name, start := range starts {
			if l.Name == "qwen" && name == "another launch" {
				continue // a repoint, TestLaunchAfterEdits
			}
			t.Run(l.Name+"/"+name, func(t *testing.T) {
				rc := filepath.Join(t.TempDir(), ".bashrc")
				if start != "-" {
					if err := os.WriteFile(rc, []byte(start), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				link := "/home/u/.local/share/shrinkrun/shell/" + l.Name + "/bash"
				c, err := l.Install(rc, link)
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Apply(); err != nil {
					t.Fatal(err)
				}
				after := readFile(t, rc)
				if got, found, err := l.Status(rc); err != nil || !found || got != link {
					t.Fatalf("status: %q %v %v\n%s", got, found, err, after)
				}
				if start != "-" && !strings.HasPrefix(after, strings.TrimSuffix(start, "\n")) {
					t.Errorf("install changed what was there:\n%s", after)
				}
				if c, err := l.Install(rc, link); err != nil || c.Changed() {
					t.Fatalf("second install: %v %v", c.Note, err)
				}
				c, err = l.Uninstall(rc)
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Apply(); err != nil {
					t.Fatal(err)
				}
				if start == "-" {
					if _, err := os.Stat(rc); !os.IsNotExist(err) {
						t.Errorf("the startup file init created is still there")
					}
					if _, err := os.Stat(filepath.Dir(rc)); err != nil {
						t.Errorf("its directory went too: %v", err)
					}
					return
				}
				if got := readFile(t, rc); got != start {
					t.Errorf("uninstall left\n%q\nwant\n%q", got, start)
				}
			})
		}
	}
}

// TestLaunchAfterEdits: a startup file edited after init keeps the edits;
// only the block goes, and the backup stays. A repoint replaces the block
// in place.
func TestLaunchAfterEdits(t *testing.T) {
	l := launch(t, "gemini")
	rc := filepath.Join(t.TempDir(), ".zshrc")
	os.WriteFile(rc, []byte("export A=1\n"), 0o644)
	c, _ := l.Install(rc, "/a/shrinkrun/shell/gemini/bash")
	c.Apply()
	f, _ := os.OpenFile(rc, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("export B=2\n")
	f.Close()
	c, err := l.Install(rc, "/b/shrinkrun/shell/gemini/bash")
	if err != nil || c.Backup != "" {
		t.Fatalf("repoint: %v, backup %q", err, c.Backup)
	}
	c.Apply()
	if got, _, _ := l.Status(rc); got != "/b/shrinkrun/shell/gemini/bash" {
		t.Errorf("repointed to %q", got)
	}
	c, _ = l.Uninstall(rc)
	c.Apply()
	if got := readFile(t, rc); got != "export A=1\nexport B=2\n" {
		t.Errorf("uninstall left %q", got)
	}
	if _, err := os.Stat(rc + BackupSuffix); err != nil {
		t.Errorf("the backup went: %v", err)
	}
	// A begin marker without its end is left for the user to fix.
	os.WriteFile(rc, []byte("# >>> shrinkrun init gemini >>>\ngemini() { :; }\n"), 0o644)
	if _, err := l.Install(rc, "/b/shrinkrun/shell/gemini/bash"); err == nil {
		t.Error("install accepted a block without its end marker")
	}
}

func TestRCFile(t *testing.T) {
	l := launch(t, "gemini")
	for shell, want := range map[string]string{
		"/bin/bash": "/home/u/.bashrc",
		"":          "/home/u/.bashrc",
		"/bin/zsh":  "/z/.zshrc",
	} {
		env := Env{Home: "/home/u", Getenv: func(k string) string {
			return map[string]string{"SHELL": shell, "ZDOTDIR": "/z"}[k]
		}}
		if got, err := l.RCFile(env, "/l/gemini/bash"); err != nil || got != want {
			t.Errorf("SHELL=%s: %s %v, want %s", shell, got, err, want)
		}
	}
	env := Env{Home: "/home/u", Getenv: func(k string) string { return map[string]string{"SHELL": "/usr/bin/fish"}[k] }}
	if _, err := l.RCFile(env, "/l/gemini/bash"); err == nil || !strings.Contains(err.Error(), "PATH set as /l/gemini:$PATH") {
		t.Errorf("fish: %v", err)
	}
}

func TestLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "shrinkrun", "shell", "qwen", "bash")
	if err := Link(link, "/opt/a/shrinkrun"); err != nil {
		t.Fatal(err)
	}
	if err := Link(link, "/opt/b/shrinkrun"); err != nil {
		t.Fatal(err)
	}
	if got, err := LinkTarget(link); err != nil || got != "/opt/b/shrinkrun" {
		t.Errorf("target %q %v", got, err)
	}
	if err := Unlink(link); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "shrinkrun", "shell")); !os.IsNotExist(err) {
		t.Errorf("the emptied shell directory is still there")
	}
	os.MkdirAll(filepath.Dir(link), 0o755)
	os.WriteFile(link, []byte("#!/bin/sh\n"), 0o755)
	if Link(link, "/opt/a/shrinkrun") == nil || Unlink(link) == nil {
		t.Error("a file that is not a link was replaced or removed")
	}
}

// TestShellSetting covers opencode's route: the shell setting naming the
// link, and a shell the user set left alone.
func TestShellSetting(t *testing.T) {
	a, _ := Lookup("opencode")
	link := "/home/u/.local/share/shrinkrun/shell/opencode/bash"
	got, err := a.added([]byte("{\n  \"model\": \"m\"\n}\n"), link)
	if want := "{\n  \"model\": \"m\",\n  \"shell\": \"" + link + "\"\n}\n"; err != nil || string(got) != want {
		t.Errorf("added: %v\n%s", err, got)
	}
	if _, err := a.added([]byte(`{"shell": "/bin/zsh"}`), link); err == nil || !strings.Contains(err.Error(), "already set") {
		t.Errorf("a shell the user set: %v", err)
	}
	if _, err := a.added([]byte(`{}`), "/usr/local/bin/shrinkrun"); err == nil {
		t.Error("a shell that is not the link was accepted")
	}
}
