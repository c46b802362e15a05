package git

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestLogCommitLine(t *testing.T) {
	tests := []struct {
		line    string
		commit  bool
		subject string
	}{
		{"088996c small: edit file 3", true, "small: edit file 3"},
		{"088996c (HEAD -> main, tag: v1) Merge branch 'x'", true, "(HEAD -> main, tag: v1) Merge branch 'x'"},
		{"*   61db60a Merge branch 'fix/header'", true, "Merge branch 'fix/header'"},
		{"| * dd6ab82 header: say what it writes", true, "header: say what it writes"},
		{"*-.   0123abcd Merge branches 'a' and 'b'", true, "Merge branches 'a' and 'b'"},
		{"0123abcd", true, ""}, // an empty subject
		{"|\\  ", false, ""},
		{"| * ", false, ""},
		{" gen/small/f003.txt | 2 +-", false, ""},
		{"| cafe", false, ""}, // graph without a commit mark
		{"Merge branch 'x'", false, ""},
		{"abc subject", false, ""}, // too short for a hash
		{"088996G subject", false, ""},
	}
	for _, tt := range tests {
		subject, ok := logCommitLine(tt.line)
		if ok != tt.commit || subject != tt.subject {
			t.Errorf("logCommitLine(%q) = %q, %v; want %q, %v", tt.line, subject, ok, tt.subject, tt.commit)
		}
	}
}

func TestGitLogBody(t *testing.T) {
	var sb strings.Builder
	for i := range 20 {
		switch i {
		case 2, 17:
			fmt.Fprintf(&sb, "%07x Merge branch 'b%d'\n", 0xa000+i, i)
		case 18:
			fmt.Fprintf(&sb, "%07x (tag: v1.0) release\n", 0xa000+i)
		default:
			fmt.Fprintf(&sb, "%07x change %d\n", 0xa000+i, i)
		}
	}
	r := &summarize.Run{Rule: "bash.git_log", Stdout: []byte(sb.String()), Exited: true}
	got := string(Log(r).Render())
	for _, want := range []string{
		"commits: 20\nmerge_subjects: 2\nsubjects:\n- 000a000 change 0\n",
		"- 000a002 Merge branch 'b2'\n",
		"- 000a00e change 14\nsubjects_omitted: 5\n",
		"later_merge_subjects:\n- 000a011 Merge branch 'b17'\n",
		"later_decorated_subjects:\n- 000a012 (tag: v1.0) release\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}

	// Graph-only lines are neither commits nor other lines; --stat lines
	// are other lines.
	r.Stdout = []byte("*   aaaa111 Merge branch 'x'\n|\\  \n| * bbbb222 work\n|/  \n* cccc333 base\n file | 2 +-\n")
	got = string(Log(r).Render())
	if want := "commits: 3\nmerge_subjects: 1\n"; !strings.HasPrefix(got, want) {
		t.Errorf("graph body does not start with %q:\n%s", want, got)
	}
	if want := "other_lines:\n-  file | 2 +-\n"; !strings.Contains(got, want) {
		t.Errorf("graph body lacks %q:\n%s", want, got)
	}

	// A failure: git's message, no counts.
	r = &summarize.Run{Rule: "bash.git_log", Stderr: []byte("fatal: bad revision 'nope'\n"), ExitCode: 128, Exited: true}
	if got := string(Log(r).Render()); got != "stderr:\n- fatal: bad revision 'nope'\n" {
		t.Errorf("failure body:\n%s", got)
	}
}
