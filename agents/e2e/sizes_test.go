package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
)

// allowAll sets a client up to run any command without asking, with
// shrinkrun's route installed when on: what the measurements and the
// session benchmark run under. It returns how to run the client.
func (s *scratch) allowAll(name clients.Name, on bool) func(dir string) runResult {
	s.t.Helper()
	if on {
		s.write(filepath.Join(s.home, ".bashrc"), "# scratch\n")
	}
	allowPolicy := "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"allow\"\nallowRedirection = true\npriority = 100\n"
	switch name {
	case clients.Claude:
		if on {
			s.shrinkrun(s.home, "init", "claude")
		}
		return func(dir string) runResult { return s.runClaude(dir, "--allowedTools", "Bash").runResult }
	case clients.Codex:
		s.codexConfig("")
		if on {
			s.shrinkrun(s.home, "init", "codex")
		}
		return func(dir string) runResult {
			if on {
				s.trustCodexHooks(dir)
			}
			return s.runCodex(dir, "--dangerously-bypass-approvals-and-sandbox")
		}
	case clients.Gemini:
		s.geminiSettings("", false)
		s.write(filepath.Join(s.home, ".gemini", "policies", "e2e.toml"), allowPolicy)
		if on {
			s.shrinkrun(s.home, "init", "gemini")
		}
		return func(dir string) runResult { return s.runGeminiShell(dir, on) }
	case clients.Opencode:
		s.opencodeConfig(`{"bash": "allow", "external_directory": "allow"}`)
		if on {
			s.shrinkrun(s.home, "init", "opencode")
		}
		return func(dir string) runResult { return s.runOpencode(dir) }
	case clients.Copilot:
		if on {
			s.shrinkrun(s.home, "init", "copilot")
		}
		return func(dir string) runResult { return s.runCopilot(dir, on, "--allow-all-tools") }
	case clients.Qwen:
		// Its allow rule for the tool leaves out commands it takes for
		// writes (go build, cargo test): only --yolo allows everything.
		s.qwenSettings("")
		if on {
			s.shrinkrun(s.home, "init", "qwen")
		}
		return func(dir string) runResult { return s.runQwen(dir, on, "--yolo") }
	}
	s.t.Fatalf("no client %s", name)
	return nil
}

// numbered is n bytes of numbered lines: the model got everything when it
// got every whole line.
func numbered(n int) (string, []string) {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%06d abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV\n", i)
	}
	content := b.String()[:n]
	lines := strings.Split(content, "\n")
	return content, lines[:len(lines)-1]
}

// seen is what a client's model got of numbered output: how many of its
// whole lines, whether the first and the last came through.
type seen struct {
	bytes, lines      int
	first, last, file bool
}

func see(result string, lines []string) seen {
	v := seen{bytes: len(result)}
	for _, l := range lines {
		if strings.Contains(result, l+"\n") || strings.HasSuffix(result, l) {
			v.lines++
		}
	}
	v.first = len(lines) > 0 && strings.Contains(result, lines[0])
	v.last = len(lines) > 0 && strings.Contains(result, lines[len(lines)-1])
	v.file = strings.Contains(result, "saved to") || strings.Contains(result, "Saved to") || strings.Contains(result, "see: /")
	return v
}

// TestClientLimitsMore is TestClientLimits for opencode, Copilot CLI and
// Qwen Code: output 500 bytes under the client's cut reaches the model
// whole, 500 over it does not, and the budget fits under the cut.
func TestClientLimitsMore(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	for _, tc := range []struct {
		name  clients.Name
		limit int
	}{
		{clients.Opencode, 51200},
		{clients.Copilot, 20400},
		// Qwen Code's 30,000 characters hold its own lines around the
		// output too.
		{clients.Qwen, 29800},
	} {
		t.Run(string(tc.name), func(t *testing.T) {
			client(t, string(tc.name))
			if b := clients.Budget(tc.name); b >= tc.limit {
				t.Errorf("the %s budget %d does not fit under its cut at %d", tc.name, b, tc.limit)
			}
			for _, n := range []int{tc.limit - 500, tc.limit + 500} {
				s := newScratch(t, "cat big.txt")
				content, lines := numbered(n)
				if err := os.WriteFile(filepath.Join(s.repo, "big.txt"), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				r := s.allowAll(tc.name, false)(s.repo)
				v := see(r.result(), lines)
				cut := v.lines < len(lines)
				t.Logf("%d bytes out: %d bytes to the model, cut=%v", n, v.bytes, cut)
				if cut != (n > tc.limit) {
					t.Errorf("%d bytes: cut=%v, want %v:\n%.400s", n, cut, n > tc.limit, r.result())
				}
			}
		})
	}
}

// TestClientSizes measures what each client's model receives of outputs of
// 1 KB to 10 MB without shrinkrun (`cat` of numbered lines): the table of
// docs/agents.md, "What each client shows", and the figures package clients
// sizes blocks by. It takes minutes, so it runs when asked (a list of
// clients in place of 1 measures only those):
//
//	SHRINKRUN_E2E=1 SHRINKRUN_E2E_SIZES=1 go test ./agents/e2e -run TestClientSizes -v
func TestClientSizes(t *testing.T) {
	only := os.Getenv("SHRINKRUN_E2E_SIZES")
	if only == "" {
		t.Skip("measurement: SHRINKRUN_E2E_SIZES=1")
	}
	sizes := []int{1 << 10, 10 << 10, 20 << 10, 30 << 10, 40 << 10, 50 << 10, 100 << 10, 1 << 20, 10 << 20}
	var table strings.Builder
	table.WriteString("| client | output | model got | whole lines | first line | last line | file named |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, name := range measuredClients(t, only) {
		for _, n := range sizes {
			s := newScratch(t, "cat big.txt")
			content, lines := numbered(n)
			if err := os.WriteFile(filepath.Join(s.repo, "big.txt"), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			r := s.allowAll(name, false)(s.repo)
			v := see(r.result(), lines)
			if v.lines == 0 {
				t.Logf("%s, %s: %q\nstderr: %.500s", name, size(n), r.result(), r.stderr)
			}
			fmt.Fprintf(&table, "| %s | %s | %d B | %d of %d | %s | %s | %s |\n", name, size(n), v.bytes, v.lines, len(lines), yes(v.first), yes(v.last), yes(v.file))
		}
	}
	t.Log("\n" + table.String())
}

// measuredClients are the clients a measurement runs in: all of them for
// "1", else those of a comma-separated list, each only when installed.
func measuredClients(t *testing.T, only string) []clients.Name {
	var names []clients.Name
	for _, name := range clients.All {
		if only != "1" && !slices.Contains(strings.Split(only, ","), string(name)) {
			continue
		}
		if _, err := clientPath(string(name)); err != nil {
			t.Logf("%s is not installed: not measured", name)
			continue
		}
		client(t, string(name))
		names = append(names, name)
	}
	return names
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
