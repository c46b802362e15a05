package git

import (
	"fmt"
	"strings"
	"testing"
)

func TestSplitShow(t *testing.T) {
	out := strings.Join([]string{
		"tag v1",
		"Tagger: T <t@x>",
		"Date:   Wed Jan 1 00:00:00 2025 +0000",
		"",
		"Release 1",
		"",
		"-----BEGIN PGP SIGNATURE-----",
		"commit 1111111111111111111111111111111111111111",
		"Author: A <a@x>",
		"Date:   Wed Jan 1 00:00:00 2025 +0000",
		"",
		"    subject one",
		"    ",
		"    body",
		"",
		"Notes:",
		"    a note",
		"",
		"diff --git a/x b/x",
		"@@ -1 +1 @@",
		"-a",
		"+b",
		"",
		"commit 2222222 (from 3333333)",
		"Merge: 3333333 4444444",
		"Author: A <a@x>",
		"Date:   Wed Jan 1 00:00:00 2025 +0000",
		"",
		"    subject two",
		"",
		" y | 2 +-",
		" 1 file changed, 1 insertion(+), 1 deletion(-)",
		"",
	}, "\n")
	s := splitShow([]byte(out), false)
	wantTags := []string{"tag v1\nTagger: T <t@x>\nDate:   Wed Jan 1 00:00:00 2025 +0000\nRelease 1\n-----BEGIN PGP SIGNATURE-----"}
	wantCommits := []string{
		"commit 1111111111111111111111111111111111111111\nAuthor: A <a@x>\nDate:   Wed Jan 1 00:00:00 2025 +0000\n    subject one\n    body\nNotes:\n    a note",
		"commit 2222222 (from 3333333)\nMerge: 3333333 4444444\nAuthor: A <a@x>\nDate:   Wed Jan 1 00:00:00 2025 +0000\n    subject two",
	}
	wantPatch := "diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n\n y | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
	if fmt.Sprint(s.tags) != fmt.Sprint(wantTags) {
		t.Errorf("tags = %q, want %q", s.tags, wantTags)
	}
	if fmt.Sprint(s.commits) != fmt.Sprint(wantCommits) {
		t.Errorf("commits = %q, want %q", s.commits, wantCommits)
	}
	if string(s.patch) != wantPatch {
		t.Errorf("patch = %q, want %q", s.patch, wantPatch)
	}
}

// A message longer than the cap keeps its first lines and says how many
// it left out, in the item and in total.
func TestSplitShowLongMessage(t *testing.T) {
	var b strings.Builder
	for c := range 2 {
		fmt.Fprintf(&b, "commit %040d\nAuthor: A <a@x>\n\n", c)
		for i := range 25 {
			fmt.Fprintf(&b, "    line %d\n", i)
		}
		b.WriteString("\n")
	}
	s := splitShow([]byte(b.String()), false)
	if len(s.commits) != 2 || s.messageOmitted != 10 {
		t.Fatalf("commits %d, omitted %d; want 2 and 10", len(s.commits), s.messageOmitted)
	}
	last := s.commits[1][strings.LastIndexByte(s.commits[1], '\n')+1:]
	if last != "[5 message lines not shown]" || !strings.Contains(s.commits[1], "    line 19\n") {
		t.Errorf("commit item = %q", s.commits[1])
	}
	if len(s.patch) != 0 {
		t.Errorf("patch = %q, want none", s.patch)
	}
}

// A patch that is one piece stays a view of the output: a 100 MB show is
// not copied.
func TestSplitShowPatchIsView(t *testing.T) {
	out := []byte("commit 1111111\n\n    s\n\ndiff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n")
	s := splitShow(out, false)
	if &s.patch[0] != &out[strings.Index(string(out), "diff")] {
		t.Error("the patch was copied")
	}
}
