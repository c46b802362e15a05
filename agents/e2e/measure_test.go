package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/history/tokens"
)

// visible runs command in one client, without shrinkrun and with its
// route, everything allowed, and returns what the model received each
// time.
func visible(t *testing.T, name, command string) (without, with string) {
	for i, on := range []bool{false, true} {
		s := newScratch(t, command)
		dir := s.repo
		if strings.HasPrefix(command, "cargo") {
			dir = s.crate
		}
		r := s.allowAll(clients.Name(name), on)(dir)
		if i == 0 {
			without = r.result()
		} else {
			with = r.result()
		}
	}
	return without, with
}

// measured holds what the model read in the runs of TestClaude, TestCodex
// and the shell route's tests that TestModelVisible reports, so they are
// not run twice.
var measured = &results{m: map[string][2]string{}}

type results struct {
	mu sync.Mutex
	m  map[string][2]string
}

func (r *results) put(client, command string, got [2]string) {
	r.mu.Lock()
	r.m[client+" "+command] = got
	r.mu.Unlock()
}

func (r *results) get(client, command string) (without, with string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	got, ok := r.m[client+" "+command]
	return got[0], got[1], ok
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestModelVisible measures what each client's model reads for a failing
// cargo test and an 86 KB git diff, with and without shrinkrun (its route
// in each client), in bytes and o200k_base tokens. The block must reach the
// model whole: no client may cut it.
func TestModelVisible(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	var table strings.Builder
	table.WriteString("| client | command | without shrinkrun | with shrinkrun |\n| --- | --- | --- | --- |\n")
	for _, name := range clientNames(t) {
		for _, command := range []string{"cargo test", "git diff"} {
			if name == "gemini" && command == "git diff" {
				// Gemini CLI 0.61 sets git's diff.external to "" for the
				// commands it runs, and git then fails to run that external
				// diff: --no-ext-diff is how git diff works there at all.
				command = "git diff --no-ext-diff"
			}
			without, with, ok := measured.get(name, command)
			if !ok {
				without, with = visible(t, name, command)
			}
			fmt.Fprintf(&table, "| %s | `%s` | %d B, %d tokens | %d B, %d tokens |\n", name, command,
				len(without), tokens.CountString(without), len(with), tokens.CountString(with))
			if !strings.Contains(with, blockMark) || !strings.Contains(with, "\nraw_output: ") {
				t.Errorf("%s %s: the model did not get the whole block:\n%s", name, command, with)
			}
		}
	}
	t.Log("\n" + table.String())
}

// TestClientLimits checks the cut each client applies to large output, the
// figures package clients sizes blocks by: output just under the limit
// reaches the model whole, output just over it is cut.
func TestClientLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	cases := []struct {
		client string
		limit  int
	}{
		{"claude", 30000},
		{"codex", 9950},
		{"gemini", 40000},
	}
	for _, tc := range cases {
		t.Run(tc.client, func(t *testing.T) {
			client(t, tc.client)
			if b := clients.Budget(clients.Name(tc.client)); b >= tc.limit {
				t.Errorf("the %s budget %d does not fit under its cut at %d", tc.client, b, tc.limit)
			}
			for _, n := range []int{tc.limit - 500, tc.limit + 500} {
				s := newScratch(t, "")
				var b strings.Builder
				for i := 0; b.Len() < n; i++ {
					fmt.Fprintf(&b, "%06d abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV\n", i)
				}
				content := b.String()[:n]
				if err := os.WriteFile(filepath.Join(s.repo, "big.txt"), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				// Numbered lines: the model got everything when it got every
				// whole line.
				lines := strings.Split(content, "\n")
				lines = lines[:len(lines)-1]
				s.model.command = "cat big.txt"
				var r runResult
				switch tc.client {
				case "claude":
					r = s.runClaude(s.repo, "--allowedTools", "Bash").runResult
				case "codex":
					s.codexConfig("")
					r = s.runCodex(s.repo)
				case "gemini":
					s.geminiSettings("", false)
					s.write(filepath.Join(s.home, ".gemini", "policies", "e2e.toml"),
						"[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"allow\"\npriority = 100\n")
					r = s.runGemini(s.repo)
				}
				cut := false
				for _, l := range lines {
					cut = cut || !strings.Contains(r.result(), l+"\n")
				}
				t.Logf("%d bytes out: %d bytes to the model, cut=%v", n, len(r.result()), cut)
				if cut != (n > tc.limit) {
					t.Errorf("%d bytes: cut=%v, want %v:\n%.400s", n, cut, n > tc.limit, r.result())
				}
			}
		})
	}
}

// clientNames are the clients installed here; the others are skipped with
// a note.
func clientNames(t *testing.T) []string {
	var names []string
	for _, c := range clients.All {
		n := string(c)
		if _, err := clientPath(n); err == nil {
			names = append(names, n)
		} else {
			t.Logf("%s is not installed: not measured", n)
		}
	}
	if len(names) == 0 {
		t.Skip("no client installed (.ci/deps.d/agents.sh installs them)")
	}
	prepare(t)
	return names
}
