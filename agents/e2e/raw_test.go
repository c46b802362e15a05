package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
)

// rawOutputMark in a command the fake model calls stands for the ID of
// the last raw_output line it received: the model following the block's
// last line.
const rawOutputMark = "{raw_output}"

var rawOutputLine = regexp.MustCompile(`(?m)^raw_output: shrinkrun show (\S+)$`)

// withRawOutput puts the ID of the last raw_output line among results in
// place of rawOutputMark.
func withRawOutput(cmd string, results []string) string {
	if !strings.Contains(cmd, rawOutputMark) {
		return cmd
	}
	id := "none"
	for _, r := range results {
		if m := rawOutputLine.FindStringSubmatch(r); m != nil {
			id = m[1]
		}
	}
	return strings.ReplaceAll(cmd, rawOutputMark, id)
}

// onPath puts the shrinkrun under test on the scratch PATH, as an
// installed shrinkrun is: the block's last line names `shrinkrun show`.
func (s *scratch) onPath() {
	path := filepath.Dir(work.shrinkrun) + string(filepath.ListSeparator) + os.Getenv("PATH")
	for i, e := range s.env {
		if strings.HasPrefix(e, "PATH=") {
			s.env[i] = "PATH=" + path
		}
	}
	s.write(filepath.Join(s.home, ".bash_profile"), "export PATH="+shellQuote(path)+"\n")
}

// TestRawOutput follows a block's raw_output line in each client with
// only the permissions that ran the command and what `shrinkrun init`
// adds: `shrinkrun show ID` runs without a new approval (Claude Code's
// allow rule, Gemini CLI's policy file), and the rule allows nothing else:
// `shrinkrun -- CMD`, and a show joined to another command, are refused as
// they were. Copilot CLI and Qwen Code have no rule that would allow the
// show alone (TestCopilotShowRule, TestQwenShowRule).
func TestRawOutput(t *testing.T) {
	commands := []string{
		"git diff",
		"shrinkrun show " + rawOutputMark,
		"shrinkrun -- touch made-by-dashdash",
		"shrinkrun show " + rawOutputMark + " && touch made-by-and",
	}
	for _, name := range []clients.Name{clients.Claude, clients.Gemini} {
		t.Run(string(name), func(t *testing.T) {
			client(t, string(name))
			s := newScratch(t, commands[0])
			s.model.more = commands[1:]
			s.onPath()
			s.write(filepath.Join(s.home, ".bashrc"), "# scratch\n")
			first := commands[0]
			var r runResult
			switch name {
			case clients.Claude:
				s.shrinkrun(s.home, "init", "claude")
				r = s.runClaude(s.repo).runResult
			case clients.Gemini:
				first = "git diff --no-ext-diff"
				s.model.command = first
				s.geminiSettings("", false)
				s.write(filepath.Join(s.home, ".gemini", "policies", "e2e.toml"),
					"[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git diff\"\ndecision = \"allow\"\npriority = 100\n")
				s.shrinkrun(s.home, "init", "gemini")
				r = s.runGeminiShell(s.repo, true)
			}
			if len(r.results) != len(commands) {
				t.Fatalf("the model got %d results, want %d:\n%q\nstderr:\n%.2000s", len(r.results), len(commands), r.results, r.stderr)
			}
			if !strings.Contains(r.results[0], blockMark) || !r.curated(first) {
				t.Errorf("no block for %s:\n%.1000s", first, r.results[0])
			}
			if !strings.Contains(r.results[1], "diff --git a/file1.go b/file1.go") {
				t.Errorf("shrinkrun show did not run, or printed something else:\n%.1000s\nthe block: %.3000s", r.results[1], r.results[0])
			}
			for i, made := range []string{"made-by-dashdash", "made-by-and"} {
				if _, err := os.Stat(filepath.Join(s.repo, made)); err == nil || outcome(r.results[2+i]) == "ran" {
					t.Errorf("%q ran on the strength of the show rule:\n%.500s", commands[2+i], r.results[2+i])
				}
			}
			t.Logf("show: %d bytes; refused: %.120q, %.120q", len(r.results[1]), r.results[2], r.results[3])
		})
	}
}

// TestCopilotShowRule is why `init copilot` adds no allow rule for
// shrinkrun show: Copilot CLI matches --allow-tool 'shell(PROGRAM SUB)' by
// subcommand only for programs it knows, so 'shell(shrinkrun show)' does
// not allow `shrinkrun show ID`, and 'shell(shrinkrun)', which does, allows
// `shrinkrun -- CMD` too.
func TestCopilotShowRule(t *testing.T) {
	client(t, "copilot")
	for _, tc := range []struct {
		rule, command string
		ran           bool
	}{
		{"shell(shrinkrun show)", "shrinkrun show none", false},
		{"shell(shrinkrun show:*)", "shrinkrun show none", false},
		{"shell(shrinkrun)", "shrinkrun show none", true},
		{"shell(shrinkrun)", "shrinkrun -- touch made-by-dashdash", true},
	} {
		s := newScratch(t, tc.command)
		s.onPath()
		r := s.runCopilot(s.repo, false, "--allow-tool", tc.rule)
		ran := strings.Contains(r.result(), "<shellId:")
		t.Logf("%s, %s: ran=%v: %.120q", tc.rule, tc.command, ran, r.result())
		if ran != tc.ran {
			t.Errorf("%s, %s: ran=%v, want %v", tc.rule, tc.command, ran, tc.ran)
		}
	}
}
