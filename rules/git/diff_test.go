package git

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestParseDiff(t *testing.T) {
	tests := []struct {
		name                 string
		in                   string
		files                []string
		hunks, ins, del, ctx int
		other                []string
	}{
		{
			name: "content that looks like headers stays content",
			in: "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,4 +1,4 @@\n" +
				"--- not a header\n+++ not a header either\n context\n-diff --git a/y b/y\n+@@ -1 +1 @@\n",
			files: []string{"x +2 -2"}, hunks: 1, ins: 2, del: 2, ctx: 1,
		},
		{
			name: "no newline at end of file is neither a change nor context",
			in: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n\\ No newline at end of file\n+new\n" +
				"\\ No newline at end of file\n",
			files: []string{"x +1 -1"}, hunks: 1, ins: 1, del: 1,
		},
		{
			name:  "an empty line inside a hunk is empty context",
			in:    "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n",
			files: []string{"x +1 -1"}, hunks: 1, ins: 1, del: 1, ctx: 2,
		},
		{
			name: "combined diff: one prefix column per parent",
			in: "diff --cc f\nindex 1,2..0\n--- a/f\n+++ b/f\n@@@ -1,1 -1,1 +1,5 @@@\n++<<<<<<< HEAD\n +ours\n++=======\n" +
				"+ theirs\n++>>>>>>> topic\n  same\n- gone\n* Unmerged path g\n",
			files: []string{"f +5 -1", "g (Unmerged path)"}, hunks: 1, ins: 5, del: 1, ctx: 1,
		},
		{
			name: "markers are copied, binary files have no counts, the payload is skipped",
			in: "diff --git a/old b/new\nsimilarity index 100%\nrename from old\nrename to new\n" +
				"diff --git a/m b/m\nold mode 100644\nnew mode 100755\n" +
				"diff --git a/i.png b/i.png\nnew file mode 100644\nindex 0000000..1111111\nGIT binary patch\nliteral 12\n" +
				"RcmZ?wbhEHbRA6LaKpq4I0RR91\n\nliteral 0\nHcmV?d00001\n\n" +
				"diff --git a/c b/d\nsimilarity index 90%\ncopy from c\ncopy to d\n--- a/c\n+++ b/d\n@@ -1 +1 @@\n-x\n+y\n",
			files: []string{"new +0 -0 (similarity index 100%, rename from old)", "m +0 -0 (old mode 100644, new mode 100755)",
				"i.png (new file mode 100644, GIT binary patch)", "d +1 -1 (similarity index 90%, copy from c)"},
			hunks: 1, ins: 1, del: 1,
		},
		{
			name:  "stat and patch together: counts come from the patch",
			in:    " x | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
			files: []string{"x +1 -1"}, hunks: 1, ins: 1, del: 1,
		},
		{
			name:  "what is not a patch is kept as other lines",
			in:    "M\tx.go\nA\ty.go\n",
			other: []string{"M\tx.go", "A\ty.go"},
		},
		{
			name:  "an unknown extended header line is not swallowed",
			in:    "diff --git a/x b/x\nsomething new\n--- a/x\n",
			files: []string{"x +0 -0"}, other: []string{"something new", "--- a/x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := parseDiff([]byte(tt.in), diffCut{})
			var files []string
			for i := range d.files {
				files = append(files, d.files[i].describe())
			}
			if !slices.Equal(files, tt.files) {
				t.Errorf("files %q, want %q", files, tt.files)
			}
			if d.hunks != tt.hunks || d.ins != tt.ins || d.del != tt.del || d.context != tt.ctx {
				t.Errorf("hunks %d +%d -%d context %d, want %d +%d -%d context %d",
					d.hunks, d.ins, d.del, d.context, tt.hunks, tt.ins, tt.del, tt.ctx)
			}
			if !slices.Equal(d.other, tt.other) {
				t.Errorf("other %q, want %q", d.other, tt.other)
			}
		})
	}
}

func TestStatSummary(t *testing.T) {
	tests := []struct {
		in              string
		ok              bool
		files, ins, del int
	}{
		{" 3 files changed, 10 insertions(+), 2 deletions(-)", true, 3, 10, 2},
		{" 1 file changed, 1 insertion(+)", true, 1, 1, 0},
		{" 2 files changed, 7 deletions(-)", true, 2, 0, 7},
		{" 1 file changed, 0 insertions(+), 0 deletions(-)", true, 1, 0, 0},
		{" 2 files changed, 7 removals(-)", false, 0, 0, 0},
		{"3 files changed", false, 0, 0, 0},
	}
	for _, tt := range tests {
		var d diffParse
		ok := d.statSummary(tt.in)
		if ok != tt.ok || d.sumFiles != tt.files || d.sumIns != tt.ins || d.sumDel != tt.del {
			t.Errorf("%q: %v %d +%d -%d, want %v %d +%d -%d", tt.in, ok, d.sumFiles, d.sumIns, d.sumDel, tt.ok, tt.files, tt.ins, tt.del)
		}
	}
}

func TestGitDiffPath(t *testing.T) {
	tests := map[string]string{
		"a/x.go b/x.go":                         "x.go",
		"a/dir with space/f b/dir with space/f": "dir with space/f",
		`"a/t\303\251st" "b/t\303\251st"`:       `"t\303\251st"`,
		"i/x w/x":                               "x",
		"x x":                                   "x",
		"a/a b/b":                               "a/a b/b", // not the same file: kept whole
		"a/x.go b/x.go2":                        "a/x.go b/x.go2",
	}
	for in, want := range tests {
		if got := gitDiffPath(in); got != want {
			t.Errorf("gitDiffPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDiffCountsMatchGit checks the counts against git's own arithmetic:
// git.sh captures --stat of the same changes, whose per-file totals and
// summary line must equal what the rule counts in the patch.
func TestDiffCountsMatchGit(t *testing.T) {
	dir := filepath.Join("testdata", "git_diff")
	for _, c := range []struct{ patch, stat string }{{"multi", "stat"}, {"cached", "cached_stat"}, {"large", "large_stat"}} {
		d := parseDiff(readCorpus(t, dir, c.patch), diffCut{})
		s := parseDiff(readCorpus(t, dir, c.stat), diffCut{})
		if d.ins != s.sumIns || d.del != s.sumDel || len(d.files) != s.sumFiles {
			t.Errorf("%s: %d files +%d -%d, git says %q", c.patch, len(d.files), d.ins, d.del, s.summary)
		}
		if s.stat.Total != len(d.files) || len(s.stat.Items) != s.stat.Total {
			t.Fatalf("%s: %d stat lines (%d kept) for %d files", c.stat, s.stat.Total, len(s.stat.Items), len(d.files))
		}
		for i, line := range s.stat.Items {
			f := d.files[i]
			_, n, _ := strings.Cut(line, " | ")
			n = strings.TrimSpace(n)
			if f.noLines {
				if !strings.HasPrefix(n, "Bin ") {
					t.Errorf("%s: %s has no counts but git says %q", c.patch, f.path, line)
				}
				continue
			}
			num, _, _ := strings.Cut(n, " ")
			if strconv.Itoa(f.ins+f.del) != num {
				t.Errorf("%s: %s +%d -%d, git says %q", c.patch, f.path, f.ins, f.del, line)
			}
		}
	}
}

func TestExcerptContext(t *testing.T) {
	in := "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,16 +1,16 @@ func f() {\n" +
		" c1\n c2\n c3\n-a\n+A\n c4\n c5\n c6\n c7\n c8\n-b\n+B\n c9\n c10\n-c\n+C\n c11\n c12\n c13\n" +
		"@@ -30,2 +30,3 @@\n x1\n+y\n\\ No newline at end of file\n"
	r := &summarize.Run{Rule: "bash.git_diff", Stdout: []byte(in), Exited: true}
	got := string(Diff(r).Render())
	want := `files_changed: 1
hunks: 2
insertions: 4
deletions: 3
files:
- f +4 -3
excerpt:
- diff --git a/f b/f
  @@ -1,16 +1,16 @@ func f() {
  [2 context lines]
   c3
  -a
  +A
   c4
  [3 context lines]
   c8
  -b
  +B
   c9
   c10
  -c
  +C
   c11
  @@ -30,2 +30,3 @@
   x1
  +y
  \ No newline at end of file
excerpt_changed_lines_omitted: 0
excerpt_context_lines_omitted: 7
excerpt_files_omitted: 0
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestExcerptBudget runs every corpus diff under budgets from tiny to large
// and checks the promises: the block stays within the budget whenever the
// fields before the excerpt do, every changed line is shown or counted, each
// shown line is copied from the output in order, and with room enough a
// diff comes through with all of its changed lines.
func TestExcerptBudget(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		if c.Run.Rule != "bash.git_diff" {
			continue
		}
		d := parseDiff(c.Run.Stdout, cutOf(c.Run))
		if d.hunks == 0 {
			continue
		}
		for budget := 500; budget <= 40000; budget += budget/5 + 7 {
			r := *c.Run
			r.Budget = budget
			body := Diff(&r)
			rendered := body.Render()
			block := headerLen(&r) + len(rendered)
			pre, _, _ := strings.Cut(string(rendered), "\nexcerpt:\n")
			if headerLen(&r)+len(pre)+1 < budget-200 && block > budget {
				t.Errorf("%s budget %d: block of %d bytes", c.Name, budget, block)
			}
			checkExcerpt(t, fmt.Sprintf("%s budget %d", c.Name, budget), c.Run.Stdout, d, body)
		}
		r := *c.Run
		r.Budget = 1 << 20
		if got := scalar(Diff(&r), "excerpt_changed_lines_omitted"); got != "0" {
			t.Errorf("%s: with room enough, %s changed lines omitted", c.Name, got)
		}
	}
}

// headerLen is the size of the block's header for r, which has no
// raw_output line.
func headerLen(r *summarize.Run) int {
	return r.BlockBudget() - r.BodyRoom()
}

// checkExcerpt verifies one excerpt against the output it came from.
func checkExcerpt(t *testing.T, name string, out []byte, d *diffParse, body *summarize.Body) {
	t.Helper()
	raw := summarize.Lines(out)
	pos := 0 // excerpt lines must appear in the output in this order
	shown := 0
	for _, item := range listItems(body, "excerpt") {
		ls := strings.Split(item, "\n")
		cols := 1
		if strings.HasPrefix(ls[0], "diff --cc ") {
			cols = 2
		}
		for _, l := range ls {
			if n := len(l) - len(strings.TrimLeft(l, "@")); n >= 2 {
				cols = n - 1 // a headless section's first hunk header
				break
			}
		}
		for i, l := range ls {
			if strings.HasPrefix(l, "[") {
				continue // a marker: no diff line starts with "["
			}
			for pos < len(raw) && raw[pos] != l {
				pos++
			}
			if pos == len(raw) {
				t.Fatalf("%s: excerpt line %q is not in the output, in order", name, l)
			}
			if i > 0 && len(l) >= cols && strings.ContainsAny(l[:cols], "+-") {
				shown++
			}
		}
	}
	omitted, _ := strconv.Atoi(scalar(body, "excerpt_changed_lines_omitted"))
	if shown+omitted != d.ins+d.del {
		t.Errorf("%s: %d changed lines shown + %d omitted, the patch has %d", name, shown, omitted, d.ins+d.del)
	}
}

// scalar returns the value of a scalar field of b, as b renders it.
func scalar(b *summarize.Body, key string) string {
	for l := range strings.Lines(string(b.Render())) {
		if v, ok := strings.CutPrefix(strings.TrimSuffix(l, "\n"), key+": "); ok {
			return v
		}
	}
	return ""
}

// listItems returns the items of a list field of b, as b renders them:
// each "- " line and the "  " lines under it, joined by "\n".
func listItems(b *summarize.Body, key string) []string {
	var items []string
	in := false
	for l := range strings.Lines(string(b.Render())) {
		l = strings.TrimSuffix(l, "\n")
		switch {
		case l == key+":":
			in = true
		case !in:
		case strings.HasPrefix(l, "- "):
			items = append(items, l[2:])
		case strings.HasPrefix(l, "  "):
			items[len(items)-1] += "\n" + l[2:]
		default:
			return items
		}
	}
	return items
}

// TestExcerptSharesRoom: a huge file first in the patch must not crowd out
// the small ones after it (the block itself: block_test.go).
func TestExcerptSharesRoom(t *testing.T) {
	r := &summarize.Run{Rule: "bash.git_diff", Stdout: []byte(sharedDiff()), Exited: true}
	body := Diff(r)
	if got := scalar(body, "excerpt_changed_lines_omitted"); got == "0" || got == "" {
		t.Errorf("the lock file cannot fit, yet %q lines are omitted", got)
	}
	checkExcerpt(t, "shares", r.Stdout, parseDiff(r.Stdout, diffCut{}), body)
}

func TestGitDiffBodies(t *testing.T) {
	tests := []struct {
		name string
		run  summarize.Run
		want string
	}{
		{
			name: "empty diff",
			run:  summarize.Run{Exited: true},
			want: "files_changed: 0\nhunks: 0\ninsertions: 0\ndeletions: 0\n",
		},
		{
			name: "failure: no counts, the message",
			run:  summarize.Run{Stderr: []byte("fatal: bad revision 'x'\n"), ExitCode: 128, Exited: true},
			want: "stderr:\n- fatal: bad revision 'x'\n",
		},
		{
			name: "--quiet: exit 1 and no output says nothing the rule can count",
			run:  summarize.Run{ExitCode: 1, Exited: true},
			want: "",
		},
		{
			name: "--shortstat: git's totals, no hunk count",
			run:  summarize.Run{Stdout: []byte(" 2 files changed, 3 insertions(+)\n"), Exited: true},
			want: "files_changed: 2\ninsertions: 3\ndeletions: 0\nstat_summary: 2 files changed, 3 insertions(+)\n",
		},
	}
	for _, tt := range tests {
		r := tt.run
		r.Rule = "bash.git_diff"
		if got := string(Diff(&r).Render()); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// TestGitDiffHuge: a diff of tens of MB is walked in linear time, and the
// block still fits the budget with exact counts.
func TestGitDiffHuge(t *testing.T) {
	ruletest.Slow(t)
	if testing.Short() {
		t.Skip("builds a 45 MB diff: skipped under -short")
	}
	out, ins, del := hugeDiff(400, 1000)
	r := &summarize.Run{Rule: "bash.git_diff", Stdout: out, Exited: true}
	body := Diff(r).Render()
	if len(body) > r.BodyRoom() {
		t.Errorf("block of %d bytes", headerLen(r)+len(body))
	}
	want := fmt.Sprintf("files_changed: 400\nhunks: 400\ninsertions: %d\ndeletions: %d\n", ins, del)
	if !bytes.Contains(body, []byte(want)) {
		t.Errorf("counts: want %q in\n%.600s", want, body)
	}
}

func BenchmarkGitDiff(b *testing.B) {
	out, _, _ := hugeDiff(100, 1000)
	r := &summarize.Run{Rule: "bash.git_diff", Stdout: out, Exited: true}
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		Diff(r)
	}
}

// sharedDiff is a patch of a huge lock file, then three small files.
func sharedDiff() string {
	var sb strings.Builder
	sb.WriteString("diff --git a/Cargo.lock b/Cargo.lock\n--- a/Cargo.lock\n+++ b/Cargo.lock\n@@ -1,0 +1,5000 @@\n")
	for i := range 5000 {
		fmt.Fprintf(&sb, "+name = \"crate-%d\"\n", i)
	}
	for _, f := range []string{"src/a.rs", "src/b.rs", "src/c.rs"} {
		fmt.Fprintf(&sb, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,3 +1,3 @@\n fn x() {\n-    old()\n+    new()\n }\n", f, f, f, f)
	}
	return sb.String()
}

// hugeDiff makes files×lines changed lines in one hunk per file, with a
// context line between changes.
func hugeDiff(files, perFile int) (out []byte, ins, del int) {
	var sb strings.Builder
	for f := range files {
		fmt.Fprintf(&sb, "diff --git a/gen/f%d.go b/gen/f%d.go\n--- a/gen/f%d.go\n+++ b/gen/f%d.go\n@@ -1,%d +1,%d @@\n", f, f, f, f, perFile, perFile)
		for i := range perFile {
			fmt.Fprintf(&sb, " context line %d of file %d, long enough to weigh something\n", i, f)
			if i%2 == 0 {
				fmt.Fprintf(&sb, "-removed line %d of file %d, long enough to weigh something\n", i, f)
				del++
			} else {
				fmt.Fprintf(&sb, "+added line %d of file %d, long enough to weigh something\n", i, f)
				ins++
			}
		}
	}
	return []byte(sb.String()), ins, del
}
