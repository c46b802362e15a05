//go:build unix

package hook

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCodexRulesFilesBounded is issue 21's first defect: a cloned
// repository's .codex/rules held a rules file linked to /dev/zero, or a
// FIFO, and the hook read it without a bound, so every Bash call stalled
// until the hook's timeout and grew by gigabytes. Codex itself loads only
// the regular files of a rules directory, so the hook skips the others as
// Codex does, reads at most deny.MaxFile of a file, and answers at once.
func TestCodexRulesFilesBounded(t *testing.T) {
	payload := func(cwd string) []byte {
		return []byte(`{"cwd": ` + js(cwd) + `, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git status"}}`)
	}
	for _, tc := range []struct {
		name   string
		plant  func(t *testing.T, rules string)
		answer bool   // the hook rewrites
		reason string // part of the reason
	}{
		{"linked to /dev/zero", func(t *testing.T, rules string) {
			os.Symlink("/dev/zero", filepath.Join(rules, "zero.rules"))
		}, true, "no Codex rule concerns it"},
		{"a FIFO", func(t *testing.T, rules string) {
			if err := syscall.Mkfifo(filepath.Join(rules, "fifo.rules"), 0o644); err != nil {
				t.Skip(err)
			}
		}, true, "no Codex rule concerns it"},
		{"linked to a FIFO", func(t *testing.T, rules string) {
			fifo := filepath.Join(t.TempDir(), "fifo")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skip(err)
			}
			os.Symlink(fifo, filepath.Join(rules, "fifo.rules"))
		}, true, "no Codex rule concerns it"},
		{"a regular file too large to read", func(t *testing.T, rules string) {
			f, err := os.Create(filepath.Join(rules, "big.rules"))
			if err != nil {
				t.Fatal(err)
			}
			f.Truncate(1 << 30) // sparse: a gigabyte of NULs
			f.Close()
		}, false, "larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cwd := t.TempDir()
			rules := filepath.Join(cwd, ".codex", "rules")
			if err := os.MkdirAll(rules, 0o755); err != nil {
				t.Fatal(err)
			}
			tc.plant(t, rules)
			env := Env{Bin: testBin, Home: t.TempDir(), Getenv: func(string) string { return "" }}
			done := make(chan Result, 1)
			go func() { done <- Run(Codex, payload(cwd), env) }()
			select {
			case r := <-done:
				if (r.Output != nil) != tc.answer || !strings.Contains(r.Reason, tc.reason) {
					t.Errorf("rewrite=%v, reason %q; want rewrite=%v and a reason with %q", r.Output != nil, r.Reason, tc.answer, tc.reason)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the hook did not answer within 5 s")
			}
		})
	}
}

func js(s string) string {
	b, _ := marshal(s)
	return string(b)
}
