package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codexConfig points Codex at the fake model through a custom provider. The
// model name is one Codex has no metadata for, as with any custom
// provider: Codex then cuts tool output at its fallback size.
func (s *scratch) codexConfig(extra string) {
	s.write(filepath.Join(s.home, ".codex", "config.toml"), fmt.Sprintf(`model = "e2e-model"
model_provider = "e2e"
%s
[model_providers.e2e]
name = "e2e"
base_url = "%s/v1"
wire_api = "responses"
env_key = "E2E_API_KEY"
`, extra, s.model.URL()))
}

// runCodex runs `codex exec` in dir.
func (s *scratch) runCodex(dir string, args ...string) runResult {
	s.t.Helper()
	bin := client(s.t, "codex")
	argv := append(append([]string{bin, "exec", "--skip-git-repo-check"}, args...), "run the command")
	return s.runClient(dir, []string{"E2E_API_KEY=sk-e2e"}, argv...)
}

// codexRan reports whether Codex ran the command: its exec_command result
// says how the process exited.
func codexRan(result string) bool {
	return strings.Contains(result, "Process exited with code")
}

// codexHook is one entry of Codex's own view of its hooks (app-server
// hooks/list).
type codexHook struct {
	Key         string `json:"key"`
	Command     string `json:"command"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
}

// codexHooks asks the installed Codex which hooks it sees from dir and what
// it makes of their trust.
func (s *scratch) codexHooks(dir string) []codexHook {
	s.t.Helper()
	cmd := exec.Command(client(s.t, "codex"), "app-server")
	cmd.Env, cmd.Dir = s.env, dir
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for _, req := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"shrinkrun-e2e","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"initialized"}`,
		fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[%q]}}`, dir),
	} {
		fmt.Fprintln(in, req)
	}
	done := make(chan []codexHook, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var msg struct {
				ID     int `json:"id"`
				Result struct {
					Data []struct {
						Hooks []codexHook `json:"hooks"`
					} `json:"data"`
				} `json:"result"`
			}
			if json.Unmarshal(sc.Bytes(), &msg) == nil && msg.ID == 2 {
				var hooks []codexHook
				for _, d := range msg.Result.Data {
					hooks = append(hooks, d.Hooks...)
				}
				done <- hooks
				return
			}
		}
		done <- nil
	}()
	select {
	case h := <-done:
		return h
	case <-time.After(60 * time.Second):
		s.t.Fatal("codex app-server did not answer hooks/list")
	}
	return nil
}

// trustCodexHooks records trust for every hook Codex lists, as /hooks does
// when the user trusts them: the hash Codex computes, in config.toml.
func (s *scratch) trustCodexHooks(dir string) {
	s.t.Helper()
	var b strings.Builder
	for _, h := range s.codexHooks(dir) {
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", h.Key, h.CurrentHash)
	}
	f, err := os.OpenFile(filepath.Join(s.home, ".codex", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		s.t.Fatal(err)
	}
	f.WriteString(b.String())
	f.Close()
}

// codexCases are the permission situations of issue 13 for Codex: its
// approval policy and its rules files.
var codexCases = []struct {
	name    string
	command string
	rules   string // ~/.codex/rules/default.rules
	args    []string
	ran     bool // Codex runs the command, with and without shrinkrun
	block   bool // with shrinkrun (trusted) the model gets a block
	// untrusted runs the case with the hook installed but not trusted too
	// (Codex skips it, doctor must say so); measure names the case
	// TestModelVisible reports for the command.
	untrusted, measure bool
}{
	{name: "read-only, no rules", command: "git diff", ran: true, block: true, untrusted: true, measure: true},
	// cargo test writes its target directory, which Codex's default
	// read-only sandbox refuses: the hook's "allow" must not lift that.
	{name: "sandboxed, no rules", command: "cargo test", ran: true},
	{name: "allowed by --dangerously-bypass-approvals-and-sandbox", command: "cargo test",
		args: []string{"--dangerously-bypass-approvals-and-sandbox"}, ran: true, block: true, measure: true},
	{name: "allowed in rules", command: "cargo test", rules: `prefix_rule(pattern = ["cargo", "test"], decision = "allow")`, ran: true},
	{name: "needs approval by rule, none given", command: "cargo test", rules: `prefix_rule(pattern = ["cargo", "test"], decision = "prompt")`},
	{name: "forbidden in rules", command: "git log --oneline", rules: `prefix_rule(pattern = ["git", "log"], decision = "forbidden")`},
}

// TestCodex runs every case without shrinkrun, with the hook installed but
// not trusted (Codex skips it: doctor must say so), and trusted.
func TestCodex(t *testing.T) {
	client(t, "codex")
	for _, tc := range codexCases {
		t.Run(tc.name, func(t *testing.T) {
			modes := []string{"without", "trusted"}
			if tc.untrusted {
				modes = []string{"without", "untrusted", "trusted"}
			}
			var results [2]string
			for _, mode := range modes {
				s := newScratch(t, tc.command)
				s.codexConfig("")
				if tc.rules != "" {
					s.write(filepath.Join(s.home, ".codex", "rules", "default.rules"), tc.rules+"\n")
				}
				dir := s.repo
				if strings.HasPrefix(tc.command, "cargo") {
					dir = s.crate
				}
				if mode != "without" {
					out := s.shrinkrun(s.home, "init", "codex")
					if !strings.Contains(out, "/hooks") {
						t.Errorf("init codex does not say how to trust the hook:\n%s", out)
					}
				}
				if mode == "trusted" {
					s.trustCodexHooks(dir)
				}
				if mode != "without" {
					// doctor's reading of the trust state, against Codex's.
					doc := s.doctor(dir)
					want := map[string]string{"untrusted": "installed, not trusted: Codex skips it", "trusted": "trust: trusted in "}[mode]
					if !strings.Contains(doc, want) {
						t.Errorf("%s: doctor does not say %q:\n%s", mode, want, doc)
					}
				}
				r := s.runCodex(dir, tc.args...)
				if mode != "untrusted" {
					results[b2i(mode == "trusted")] = r.result()
				}
				t.Logf("%s: ran=%v, %d bytes to the model: %.300q", mode, codexRan(r.result()), len(r.result()), r.result())
				if codexRan(r.result()) != tc.ran {
					t.Errorf("%s: ran=%v, want %v; the model got:\n%s\nstderr:\n%s", mode, codexRan(r.result()), tc.ran, r.result(), r.stderr)
				}
				gotBlock := strings.Contains(r.result(), blockMark)
				if want := mode == "trusted" && tc.block; gotBlock != want {
					t.Errorf("%s: block=%v, want %v:\n%s", mode, gotBlock, want, r.result())
				}
			}
			if a, b := codexExit(results[0]), codexExit(results[1]); a != b {
				t.Errorf("exit status %q without shrinkrun, %q with it", a, b)
			}
			if tc.measure {
				measured.put("codex", tc.command, results)
			}
		})
	}
}

// codexExit is the exit status Codex reports in a result, or "".
func codexExit(result string) string {
	_, rest, ok := strings.Cut(result, "Process exited with code ")
	if !ok {
		return ""
	}
	code, _, _ := strings.Cut(rest, "\n")
	return code
}
