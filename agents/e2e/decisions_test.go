package e2e

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/deny/denytest"
)

// fakeBin puts harmless stand-ins for names first on the scratch PATH:
// each prints "ran: NAME ARGS" and exits 0, so a client's decision can be
// read from the result without running anything real.
func (s *scratch) fakeBin(names ...string) {
	s.t.Helper()
	dir := filepath.Join(filepath.Dir(s.home), "fakebin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.t.Fatal(err)
	}
	// shrinkrun itself, as the prompt route's model types it.
	os.Symlink(work.shrinkrun, filepath.Join(dir, "shrinkrun"))
	for _, n := range names {
		s.write(filepath.Join(dir, n), "#!/bin/sh\necho \"ran: $(basename \"$0\") $*\"\n")
		if err := os.Chmod(filepath.Join(dir, n), 0o755); err != nil {
			s.t.Fatal(err)
		}
	}
	path := dir + ":" + os.Getenv("PATH")
	for i, e := range s.env {
		if strings.HasPrefix(e, "PATH=") {
			s.env[i] = "PATH=" + path
		}
	}
	s.write(filepath.Join(s.home, ".bash_profile"), "export PATH="+shellQuote(path)+"\n")
}

// decide has one client run every command, in one session, with the deny
// rules of files (a set of deny/testdata/decisions) and everything else
// allowed, and returns for each command whether the client refused it,
// and what the model got.
//
// For Claude Code, a ".settings" file replaces the settings that allow
// Bash; args are the client's own (Gemini CLI's --yolo).
func (s *scratch) decide(client string, files map[string]string, commands []string, args ...string) (refused []bool, results []string) {
	s.t.Helper()
	s.model.command, s.model.more = commands[0], commands[1:]
	var r runResult
	var claudeDenied map[string]bool
	switch client {
	case "claude":
		settings, ok := files[".settings"]
		if !ok {
			var deny []string
			for _, line := range strings.Split(strings.TrimSpace(files[".rules"]), "\n") {
				deny = append(deny, js(line))
			}
			settings = fmt.Sprintf(`{"permissions": {"allow": ["Bash"], "deny": [%s]}}`, strings.Join(deny, ", "))
		}
		if !strings.Contains(s.read(filepath.Join(s.home, ".claude", "settings.json")), "CLAUDE_CODE_SHELL_PREFIX") {
			s.write(filepath.Join(s.home, ".claude", "settings.json"), settings)
		}
		cr := s.runClaude(s.repo, args...)
		r, claudeDenied = cr.runResult, cr.deniedIDs
	case "codex":
		if s.read(filepath.Join(s.home, ".codex", "config.toml")) == "" {
			s.codexConfig("")
		}
		s.write(filepath.Join(s.home, ".codex", "rules", "default.rules"), files[".rules"])
		r = s.runCodex(s.repo, append([]string{"--dangerously-bypass-approvals-and-sandbox"}, args...)...)
	case "gemini":
		extra := strings.TrimSpace(files[".json"])
		extra = strings.TrimSuffix(strings.TrimPrefix(extra, "{"), "}")
		s.geminiSettings(extra, false)
		if p, ok := files[".toml"]; ok {
			s.write(filepath.Join(s.home, ".gemini", "policies", "deny.toml"), p)
		}
		r = s.runGemini(s.repo, args...)
	}
	if r.calls == 0 {
		// The client did not offer the model its shell at all (Claude Code
		// drops Bash when a rule denies all of it): nothing runs.
		for range commands {
			refused, results = append(refused, true), append(results, "(no shell tool offered)")
		}
		return refused, results
	}
	if len(r.results) != len(commands) {
		s.t.Fatalf("%s: %d results for %d commands:\n%q\nstdout: %s\nstderr: %s", client, len(r.results), len(commands), r.results, r.stdout, r.stderr)
	}
	for i, res := range r.results {
		if client == "claude" {
			refused = append(refused, claudeDenied[fmt.Sprintf("toolu_%02d", i+1)])
		} else {
			refused = append(refused, clientRefused(client, res))
		}
	}
	return refused, r.results
}

// clientRefused reads Codex's or Gemini CLI's refusal in a tool result.
func clientRefused(client, result string) bool {
	if client == "codex" {
		return !codexRan(result)
	}
	return !strings.Contains(result, "Output:")
}

var record = flag.Bool("record", false, "rewrite the verdicts of deny/testdata/decisions from the real clients' decisions")

// TestDecisions has each client decide, without shrinkrun, on every
// command of the recorded corpus with the corpus's rules, and compares
// with the recorded verdicts (-record rewrites them). Package deny's
// matchers are held to the same file, so this is what ties them to the
// real clients.
func TestDecisions(t *testing.T) {
	for _, name := range []string{"claude", "codex", "gemini"} {
		t.Run(name, func(t *testing.T) {
			client(t, name)
			corpus, err := denytest.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			// Gemini CLI takes seconds a call: a session holds fewer, so it
			// ends well within the 120 s bound.
			chunk := map[string]int{"gemini": 12}[name]
			for _, set := range corpus.Sets {
				for start := 0; start < len(set.Cases); {
					end := len(set.Cases)
					if chunk > 0 {
						end = min(end, start+chunk)
					}
					var cmds []string
					for _, c := range set.Cases[start:end] {
						cmds = append(cmds, c.Command)
					}
					s := newScratch(t, "")
					s.fakeBin("git", "npm", "tool", "deploy", "curl")
					var args []string
					if name == "gemini" {
						args = []string{"--yolo"}
					}
					refused, results := s.decide(name, set.Files, cmds, args...)
					for i := range cmds {
						c := &set.Cases[start+i]
						got := map[bool]string{true: "deny", false: "run"}[refused[i]]
						if *record {
							c.Verdict = got
						} else if got != c.Verdict {
							t.Errorf("%s %s: %q: %s, recorded %s; the model got %.300q", name, set.Name, c.Command, got, c.Verdict, results[i])
						}
					}
					start = end
				}
			}
			if *record {
				if err := corpus.Save(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
