package deny

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/deny/denytest"
)

var names = []clients.Name{clients.Claude, clients.Codex, clients.Gemini}

// install writes a set's rule files where the client reads them, in a
// scratch home laid out as agents/e2e lays out the real client's, and
// returns the Env that reads them.
func install(t testing.TB, client clients.Name, files map[string]string) Env {
	t.Helper()
	root := t.TempDir()
	env := Env{Home: filepath.Join(root, "home"), Cwd: filepath.Join(root, "repo"), System: filepath.Join(root, "system")}
	write := func(path, data string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(env.Cwd, 0o755)
	switch client {
	case clients.Claude:
		var deny []string
		for _, line := range strings.Split(strings.TrimSpace(files[".rules"]), "\n") {
			b, _ := json.Marshal(line)
			deny = append(deny, string(b))
		}
		write(filepath.Join(env.Home, ".claude", "settings.json"), fmt.Sprintf(`{"permissions": {"allow": ["Bash"], "deny": [%s]}}`, strings.Join(deny, ", ")))
	case clients.Codex:
		write(filepath.Join(env.Home, ".codex", "rules", "default.rules"), files[".rules"])
	case clients.Gemini:
		if p, ok := files[".toml"]; ok {
			write(filepath.Join(env.Home, ".gemini", "policies", "deny.toml"), p)
		}
		if s, ok := files[".json"]; ok {
			write(filepath.Join(env.Home, ".gemini", "settings.json"), s)
		}
	}
	return env
}

// TestDecisions holds each matcher to the real client's recorded
// decisions: every command the client denied is refused, and every
// command it ran is let through, unless the corpus says why shrinkrun
// refuses it all the same (the side a refusal errs on).
func TestDecisions(t *testing.T) {
	for _, name := range names {
		corpus, err := denytest.Load(string(name))
		if err != nil {
			t.Fatal(err)
		}
		for _, set := range corpus.Sets {
			rules := Load(name, install(t, name, set.Files))
			if len(rules.broken) > 0 {
				t.Fatalf("%s %s: %v", name, set.Name, rules.broken)
			}
			for _, c := range set.Cases {
				v := rules.Check(c.Command)
				switch {
				case c.Verdict == "deny" && !v.Denied:
					t.Errorf("%s %s: %q: %s denies it, shrinkrun lets it run", name, set.Name, c.Command, name)
				case c.Verdict == "run" && c.Refused == "" && v.Denied:
					t.Errorf("%s %s: %q: %s runs it, shrinkrun refuses it (%s: %s)", name, set.Name, c.Command, name, v.Why, v.Message)
				case c.Verdict == "run" && c.Refused != "" && !v.Denied:
					t.Errorf("%s %s: %q: recorded as refused by shrinkrun (%s), but it runs", name, set.Name, c.Command, c.Refused)
				case c.Verdict != "deny" && c.Verdict != "run":
					t.Errorf("%s %s: %q: no verdict recorded (%q): run agents/e2e TestDecisions -record", name, set.Name, c.Command, c.Verdict)
				}
			}
		}
	}
}

// FuzzCheck holds the matchers to the recorded decisions and to what
// must follow from them for any command and any added rule:
//
//   - a recorded command gets the recorded answer (as in TestDecisions);
//   - adding a rule never lets through a command that was denied: deny
//     rules only remove;
//   - a denied simple command is still denied inside a list or a
//     pipeline (echo ok && CMD, CMD | cat), as each client checks every
//     command of one (for Codex, a command it reads as plain words);
//   - the answer is the same every time.
func FuzzCheck(f *testing.F) {
	type set struct {
		client clients.Name
		files  map[string]string
		want   map[string]denytest.Case
		rules  *Rules
	}
	var sets []set
	for _, name := range names {
		corpus, err := denytest.Load(string(name))
		if err != nil {
			f.Fatal(err)
		}
		for _, s := range corpus.Sets {
			want := map[string]denytest.Case{}
			for _, c := range s.Cases {
				want[c.Command] = c
				f.Add(uint8(len(sets)), c.Command, "")
			}
			sets = append(sets, set{name, s.Files, want, Load(name, install(f, name, s.Files))})
		}
	}
	f.Add(uint8(0), "git push", "Bash(git:*)")
	f.Add(uint8(2), "git push", `prefix_rule(pattern = ["git"], decision = "forbidden")`)
	f.Fuzz(func(t *testing.T, which uint8, command, extra string) {
		s := sets[int(which)%len(sets)]
		rules := s.rules
		v := rules.Check(command)
		if again := rules.Check(command); again != v {
			t.Fatalf("%q: %+v, then %+v", command, v, again)
		}
		if c, ok := s.want[command]; ok {
			if want := c.Verdict == "deny" || c.Refused != ""; v.Denied != want {
				t.Fatalf("%s: %q: denied=%v, recorded %s (%s)", s.client, command, v.Denied, c.Verdict, c.Refused)
			}
		}
		if v.Denied {
			if extra != "" {
				more := addRule(t, s.client, install(t, s.client, s.files), extra)
				if !more.Check(command).Denied {
					t.Fatalf("%s: %q was denied, and not with the rule %q added", s.client, command, extra)
				}
			}
			if p := parse(command); len(rules.broken) == 0 && p.file != nil && len(p.file.Stmts) == 1 && len(p.cmds) == 1 && isCall(p) && (s.client != clients.Codex || isPlain(p)) {
				for _, wrapped := range []string{"echo ok && " + command, command + " | cat"} {
					if parse(wrapped).file == nil {
						continue // "curl;" + " | cat" is not a script bash would run
					}
					if !rules.Check(wrapped).Denied {
						t.Fatalf("%s: %q is denied, %q is not", s.client, command, wrapped)
					}
				}
			}
		}
	})
}

// isCall reports whether a script is one plain call: no redirection,
// background or negation around it.
func isCall(s *script) bool {
	st := s.file.Stmts[0]
	return s.cmds[0].call != nil && len(st.Redirs) == 0 && !st.Background && !st.Negated && !st.Coprocess && !st.Disown && st.Cmd == s.cmds[0].call
}

func isPlain(s *script) bool {
	_, ok := codexPlain(s)
	return ok
}

// addRule adds one rule to the client's files in env and loads again.
func addRule(t *testing.T, client clients.Name, env Env, rule string) *Rules {
	var path, line string
	switch client {
	case clients.Claude:
		b, _ := json.Marshal(rule)
		path, line = filepath.Join(env.Cwd, ".claude", "settings.local.json"), `{"permissions": {"deny": [`+string(b)+`]}}`
	case clients.Codex:
		path, line = filepath.Join(env.Cwd, ".codex", "rules", "extra.rules"), rule
	case clients.Gemini:
		path, line = filepath.Join(env.Cwd, ".gemini", "policies", "extra.toml"), rule
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(client, env)
}

// BenchmarkCheck measures what the prompt route adds to a command for
// each client: reading its files and checking the command against the
// recorded rules.
func BenchmarkCheck(b *testing.B) {
	for _, name := range names {
		corpus, err := denytest.Load(string(name))
		if err != nil {
			b.Fatal(err)
		}
		set := corpus.Sets[0]
		env := install(b, name, set.Files)
		b.Run(string(name), func(b *testing.B) {
			for b.Loop() {
				if !Load(name, env).Check("git status && git push origin main").Denied {
					b.Fatal("git push is not denied")
				}
			}
		})
	}
}
