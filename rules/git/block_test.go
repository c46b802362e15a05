package git_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/git"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The tests that need a whole block: the rule, the budget and every
// family's finder, as rules.Block gives it.

func TestGolden(t *testing.T) {
	ruletest.Golden(t, "testdata", rules.Block)
}

func TestCorpusProperties(t *testing.T) {
	ruletest.Properties(t, "testdata", rules.Block, rules.Finders())
}

func mustBlock(t *testing.T, r *summarize.Run) []byte {
	t.Helper()
	return ruletest.MustBlock(t, rules.Block, r)
}

// A flood of hints and remote messages cannot push out the failure that
// ends them, nor the files listed under it; what is left out is counted.
func TestRemoteMessageCaps(t *testing.T) {
	var stderr strings.Builder
	for i := range 40 {
		fmt.Fprintf(&stderr, "remote: message %d\n", i)
	}
	stderr.WriteString("error: Your local changes to the following files would be overwritten by merge:\n")
	for i := range 25 {
		fmt.Fprintf(&stderr, "\tsrc/f%02d.rs\n", i)
	}
	stderr.WriteString("Aborting\n")
	r := &summarize.Run{Rule: "bash.git_pull", Command: "git pull", Stderr: []byte(stderr.String()), ExitCode: 1, Exited: true}
	block := string(mustBlock(t, r))
	for _, want := range []string{
		"- error: Your local changes to the following files would be overwritten by merge:\n",
		"- \tsrc/f24.rs\n",
		"- remote: message 19\n",
		"messages_omitted: 21\n", // 20 remote lines and "Aborting"
	} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
	if strings.Contains(block, "remote: message 20\n") {
		t.Errorf("the 21st remote message is past the cap:\n%s", block)
	}
}

// The check after every rule must never need the fallback on the corpus of
// this family: the rules keep every failure line themselves.
func TestRemoteCorpusKeepsFailures(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		switch filepath.Base(c.Dir) {
		case "git_push", "git_pull", "git_fetch", "git_clone", "git_show":
		default:
			continue
		}
		block := mustBlock(t, c.Run)
		if strings.Contains(string(block), "\nfallback: true\n") {
			t.Errorf("%s: the rule's body lost a failure:\n%s", c.Name, block)
		}
	}
}

// The headers and the patch share one budget: the excerpt is sized after
// the commit items, so the block stays within it.
func TestGitShowBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("commit 1111111111111111111111111111111111111111\nAuthor: A <a@x>\n\n    regenerate\n\n")
	b.WriteString("diff --git a/x b/x\n@@ -1,400 +1,400 @@\n")
	for i := range 400 {
		fmt.Fprintf(&b, "-old line %d of the file\n+new line %d of the file\n", i, i)
	}
	r := &summarize.Run{Rule: "bash.git_show", Command: "git show", Stdout: []byte(b.String()), Exited: true, Budget: 4096,
		RawOutput: "shrinkrun show 0123456789abcdef"}
	block := string(mustBlock(t, r))
	if len(block) > r.Budget {
		t.Errorf("block of %d bytes over the budget %d:\n%s", len(block), r.Budget, block)
	}
	for _, want := range []string{"commits:\n- commit 1111111111111111111111111111111111111111\n", "      regenerate\n", "insertions: 400\n", "excerpt:\n"} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
}

// TestExcerptSharesRoom: a huge file first in the patch must not crowd out
// the small ones after it.
func TestExcerptSharesRoomBlock(t *testing.T) {
	r := &summarize.Run{Rule: "bash.git_diff", Stdout: []byte(git.SharedDiff()), Exited: true}
	block, _ := rules.Block(r)
	if len(block) > summarize.DefaultBudget {
		t.Errorf("block of %d bytes", len(block))
	}
	for _, f := range []string{"src/a.rs", "src/b.rs", "src/c.rs"} {
		item := "diff --git a/" + f + " b/" + f + "\n  @@ -1,3 +1,3 @@\n   fn x() {\n  -    old()\n  +    new()\n   }\n"
		if !bytes.Contains(block, []byte(item)) {
			t.Errorf("%s is not complete in\n%s", f, block)
		}
	}
}
