package git

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// TestStatusLongMatchesShort checks the long-form mapping against git
// itself: git.sh captures the long form and the short form (-sb when it can)
// of the same repository state, and both must give the same entries and,
// where the short form has one, the same branch line.
func TestStatusLongMatchesShort(t *testing.T) {
	pairs := []struct {
		long, short string
		quoted      []string // paths short form quotes and long form does not
	}{
		{"changes_long", "changes_sb", nil},
		{"changes_long_flag", "changes_short_branch", nil},
		{"ahead_long", "ahead_sb", nil},
		{"behind_long", "behind_sb", nil},
		{"diverged_long", "diverged_sb", nil},
		{"gone_long", "gone_sb", nil},
		{"initial_long", "initial_sb", nil},
		{"conflict_long", "conflict_short", nil},
		{"rebase_long", "rebase_sb", nil},
		{"detached_long", "detached_sb", nil},
		{"big_long", "big_short", []string{"notes draft.txt"}},
	}
	dir := filepath.Join("testdata", "git_status")
	for _, p := range pairs {
		long := parseStatus(summarize.Lines(readCorpus(t, dir, p.long)), false)
		short := parseStatus(summarize.Lines(readCorpus(t, dir, p.short)), false)
		if len(long.other) > 0 || len(short.other) > 0 {
			t.Errorf("%s/%s: unrecognized lines %q / %q", p.long, p.short, long.other, short.other)
		}
		render := func(st status) []string {
			var out []string
			for _, e := range st.entries {
				out = append(out, e.line())
			}
			return out
		}
		want := render(short)
		for i := range want {
			for _, q := range p.quoted {
				want[i] = strings.Replace(want[i], `"`+q+`"`, q, 1)
			}
		}
		if got := render(long); !slices.Equal(got, want) {
			t.Errorf("%s: entries\n%q\nwant (from %s)\n%q", p.long, got, p.short, want)
		}
		if long.counts != short.counts {
			t.Errorf("%s: counts %+v, want (from %s) %+v", p.long, long.counts, p.short, short.counts)
		}
		// Detached and rebasing states have "## HEAD (no branch)" in the
		// short form and no branch in the long form, which says
		// "HEAD detached at X" or nothing at all.
		if long.branch != "" && short.branch != "" && long.branch != short.branch {
			t.Errorf("%s: branch %q, %s has %q", p.long, long.branch, p.short, short.branch)
		}
		if long.branch == "" && long.detached == "" && !strings.HasPrefix(p.long, "rebase") {
			t.Errorf("%s: neither branch nor detached head", p.long)
		}
	}
}

func readCorpus(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name+".stdout"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseLongStatus(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		entries []string
		branch  string
		other   []string
	}{
		{
			name: "staged then unstaged on the same path gives both columns",
			in: "On branch main\n\nChanges to be committed:\n\tnew file:   a.go\n\trenamed:    old.go -> new.go\n\tmodified:   z.go\n\n" +
				"Changes not staged for commit:\n\tmodified:   a.go\n\tdeleted:    new.go\n\ttypechange: link\n\tmodified:   z.go\n\n",
			entries: []string{"AM a.go", " T link", "RD old.go -> new.go", "MM z.go"},
			branch:  "## main",
		},
		{
			name: "every unmerged label",
			in: "Unmerged paths:\n\tboth deleted:    dd\n\tadded by us:     au\n\tdeleted by them: ud\n" +
				"\tadded by them:   ua\n\tdeleted by us:   du\n\tboth added:      aa\n\tboth modified:   uu\n",
			entries: []string{"AA aa", "AU au", "DD dd", "DU du", "UA ua", "UD ud", "UU uu"},
		},
		{
			name:    "padding is removed but a path's own leading space is kept",
			in:      "Changes to be committed:\n\tmodified:    lead.txt\n\tnew file:   plain\n",
			entries: []string{"M   lead.txt", "A  plain"},
		},
		{
			name:    "a submodule's note is kept and does not stop the merge",
			in:      "Changes to be committed:\n\tmodified:   sub\n\nChanges not staged for commit:\n\tmodified:   sub (new commits, modified content)\n",
			entries: []string{"MM sub (new commits, modified content)"},
		},
		{
			name:    "untracked entries follow the tracked ones in printed order",
			in:      "Untracked files:\n\tz.txt\n\ta.txt\n\nChanges not staged for commit:\n\tdeleted:    m.go\n",
			entries: []string{" D m.go", "?? z.txt", "?? a.txt"},
		},
		{
			name:   "ahead",
			in:     "On branch dev\nYour branch is ahead of 'origin/dev' by 1 commit.\n",
			branch: "## dev...origin/dev [ahead 1]",
		},
		{
			name:   "behind",
			in:     "On branch dev\nYour branch is behind 'up/dev' by 12 commits, and can be fast-forwarded.\n",
			branch: "## dev...up/dev [behind 12]",
		},
		{
			name:   "diverged spans two lines",
			in:     "On branch dev\nYour branch and 'origin/dev' have diverged,\nand have 3 and 1 different commits each, respectively.\n",
			branch: "## dev...origin/dev [ahead 3, behind 1]",
		},
		{
			name:   "ahead/behind not computed",
			in:     "On branch dev\nYour branch and 'origin/dev' refer to different commits.\n",
			branch: "## dev...origin/dev [different]",
		},
		{
			name:   "initial commit, older git",
			in:     "On branch master\n\nInitial commit\n\nUntracked files:\n\tx\n",
			branch: "## Initial commit on master", entries: []string{"?? x"},
		},
		{
			name:   "a tracking sentence that does not parse is copied, not guessed",
			in:     "On branch dev\nYour branch and 'origin/dev' have diverged,\nand have many different commits each.\n",
			branch: "## dev",
			other:  []string{"Your branch and 'origin/dev' have diverged,", "and have many different commits each."},
		},
		{
			name:  "an unknown label is copied, not guessed",
			in:    "Changes to be committed:\n\tgeändert:   x\n",
			other: []string{"\tgeändert:   x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := parseStatus(summarize.Lines([]byte(tt.in)), false)
			var got []string
			for _, e := range st.entries {
				got = append(got, e.line())
			}
			if !slices.Equal(got, tt.entries) {
				t.Errorf("entries %q, want %q", got, tt.entries)
			}
			if st.branch != tt.branch {
				t.Errorf("branch %q, want %q", st.branch, tt.branch)
			}
			if !slices.Equal(st.other, tt.other) {
				t.Errorf("other %q, want %q", st.other, tt.other)
			}
		})
	}
}

func TestGitStatusBody(t *testing.T) {
	r := &summarize.Run{
		Rule:   "bash.git_status",
		Stdout: []byte("## main...origin/main [ahead 1]\nMM a\nUU b\n?? c\n D d\nR  e -> f\n"),
		Exited: true,
	}
	got := string(Status(r).Render())
	want := "changed_files: 5\nuntracked_files: 1\nstaged_files: 2\nunstaged_files: 2\nunmerged_files: 1\n" +
		"branch: ## main...origin/main [ahead 1]\n" +
		"status_lines:\n- MM a\n- UU b\n- ?? c\n-  D d\n- R  e -> f\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// A failure has no counts to report: only git's message.
	r = &summarize.Run{Rule: "bash.git_status", Stderr: []byte("fatal: not a git repository\n"), ExitCode: 128, Exited: true}
	if got := string(Status(r).Render()); got != "stderr:\n- fatal: not a git repository\n" {
		t.Errorf("failure body:\n%s", got)
	}

	// The cap keeps 200 lines and counts the rest.
	var sb strings.Builder
	for i := range 230 {
		sb.WriteString("?? f" + strings.Repeat("x", i%7) + "\n")
	}
	r = &summarize.Run{Rule: "bash.git_status", Stdout: []byte(sb.String()), Exited: true}
	body := string(Status(r).Render())
	if !strings.Contains(body, "changed_files: 230\n") || !strings.HasSuffix(body, "status_lines_omitted: 30\n") ||
		strings.Count(body, "\n- ?? ") != statusLinesCap {
		t.Errorf("capped body:\n%s", body)
	}
}

func TestAddStderrKeepsEveryFailure(t *testing.T) {
	var sb strings.Builder
	for range 30 {
		sb.WriteString("warning: noise\n")
	}
	sb.WriteString("error: the one that matters\n\nfatal: and this\n")
	var b summarize.Body
	addStderr(&b, []byte(sb.String()))
	got := string(b.Render())
	for _, want := range []string{"- error: the one that matters\n", "- fatal: and this\n", "stderr_omitted: 10\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if n := strings.Count(got, "- warning: noise\n"); n != stderrCap {
		t.Errorf("%d warnings kept, want %d", n, stderrCap)
	}
}
