package git

import (
	"iter"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The git rules' parsers written by hand for speed, held by FuzzHandParsers
// to the plain code they replaced, kept here as the reference.

// handSeeds are lines that reach the deep branches of those parsers.
var handSeeds = []string{
	"Counting objects:  50% (1/2)\rCounting objects: 100% (2/2), done.   \r\n",
	"remote: Total 3 (delta 0)\r\n\x1b[K\x1b]0;t\x07a\r\nb\x1b[31\nm c\x1b(B\n\x1b",
	"Rebasing (1/1)\r\r\x1b[KSuccessfully rebased", "\x1b\n\x1b[\n\n\x1b]8;;x\x1b\\y\n",
	" 3 files changed, 4 insertions(+), 1 deletion(-)", " 1 file changed, 2 deletions(-)",
	" 2 files changed", " 2 files changed, ", " 0x files changed", " src/a.rs | 2 +-",
	"a|b|c|ddddddddddddddddddddddddddd|e\nf",
	"tag v1|Tagger: T|| msg||commit 1111111|Author: A||    subject|    |    body||Notes:|    n||diff --git a/x b/x|+a|commit 2222222 (from 3)|| s| \t|x",
	"commit abcdef0\tHEAD|Notes (x):|commit abcdefg|commit 1234567 |tag |tag x",
	"commit 1111111|diff --git a/x b/x|@@ -1 +1 @@|commit 2222222|Author: A||    s|x|Date:x|Date: y|Dat3: z",
	"fatal: bad", "error: could not lock", "error:  x", "fatal:", "errors: x",
}

// FuzzHandParsers checks the git parsers written by hand for speed against
// the plain forms they replace.
func FuzzHandParsers(f *testing.F) {
	for _, s := range handSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkHandParsers(t, string(b))
	})
}

// gitFailureRE is what isGitFailureLine stands for.
var gitFailureRE = regexp.MustCompile(`^(fatal|error): \S`)

func checkHandParsers(t *testing.T, s string) {
	if got, want := slices.Collect(shownLines([]byte(s))), slices.Collect(refShownLines([]byte(s))); !slices.Equal(got, want) {
		t.Fatalf("shownLines(%q) = %q, the plain code says %q", s, got, want)
	}
	for l := range strings.SplitSeq(s, "\n") {
		if got, want := isProgressLine(l), refIsProgressLine(l); got != want {
			t.Fatalf("isProgressLine(%q) = %v, the plain code says %v", l, got, want)
		}
	}
	var d, ref diffParse
	if got, want := d.statSummary(s), ref.refStatSummary(s); got != want ||
		d.summary != ref.summary || d.sumFiles != ref.sumFiles || d.sumIns != ref.sumIns || d.sumDel != ref.sumDel {
		t.Fatalf("statSummary(%q) = %v %+v, the plain code says %v %+v", s, got, d, want, ref)
	}
	if got, want := isGitFailureLine(s), gitFailureRE.MatchString(s); got != want {
		t.Fatalf("isGitFailureLine(%q) = %v, the regexp says %v", s, got, want)
	}
	checkSplitShow(t, s)
}

// checkSplitShow holds splitShow to the plain code, which kept every
// header, and read its lines as strings.
func checkSplitShow(t *testing.T, s string) {
	for _, c := range []struct {
		out  string
		gaps bool
	}{{s, false}, {strings.ReplaceAll(s, "|", "\n"), false}, {strings.ReplaceAll(s, "|", "\n"), true}} {
		out := c.out
		got, want := splitShow([]byte(out), c.gaps), refSplitShow([]byte(out), c.gaps)
		if !slices.Equal(got.tags, want.tags[:min(len(want.tags), showObjectsCap)]) || got.nTags != len(want.tags) ||
			!slices.Equal(got.commits, want.commits[:min(len(want.commits), showObjectsCap)]) || got.nCommits != len(want.commits) ||
			got.messageOmitted != want.messageOmitted || string(got.patch) != string(want.patch) {
			t.Fatalf("splitShow(%q) = %+v; the plain code says %+v", out, got, want)
		}
	}
}

func refShownLines(b []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		for l := range summarize.EachLine(summarize.StripTerminal(b)) {
			if !yield(refShownLine(l)) {
				return
			}
		}
	}
}

func refShownLine(l string) string {
	for {
		i := strings.LastIndexByte(l, '\r')
		if i < 0 || strings.TrimSpace(l[i+1:]) != "" {
			return strings.TrimRight(l[i+1:], " \t")
		}
		l = l[:i]
	}
}

func refIsProgressLine(l string) bool {
	switch {
	case hasAnyPrefix(l, progressPrefixes):
		return true
	case strings.HasPrefix(l, "Total "):
		return strings.Contains(l, " (delta ")
	case strings.HasPrefix(l, "Rebasing ("):
		return strings.HasSuffix(l, ")")
	}
	return false
}

func (d *diffParse) refStatSummary(l string) bool {
	s, ok := strings.CutPrefix(l, " ")
	return ok && d.readStatSummary(s)
}

// headerFieldRE is what isHeaderField stands for.
var headerFieldRE = regexp.MustCompile(`^[A-Z][A-Za-z]*:( |$)`)

func refSplitShow(out []byte, gaps bool) *showParse {
	s := &showParse{}
	var cur []string // the header being read
	curTag, shown := false, 0
	flush := func() {
		if cur == nil {
			return
		}
		if omitted := shown - showMessageLinesCap; omitted > 0 {
			cur = append(cur, "["+strconv.Itoa(omitted)+" message lines not shown]")
			s.messageOmitted += omitted
		}
		if curTag {
			s.tags = append(s.tags, strings.Join(cur, "\n"))
		} else {
			s.commits = append(s.commits, strings.Join(cur, "\n"))
		}
		cur, shown = nil, 0
	}
	// message keeps a message line within the cap and counts it.
	message := func(l string) {
		shown++
		if shown <= showMessageLinesCap {
			cur = append(cur, l)
		}
	}
	var pieces [][2]int // byte ranges of the patch
	patchStart := -1
	state := showPatch
	for off, lb := range byteLines(out) {
		l := string(lb)
		blank := strings.TrimSpace(l) == ""
		if !blank && ((state == showCommit || state == showTagHeader) && !headerFieldRE.MatchString(l) ||
			state == showMessage && !strings.HasPrefix(l, "    ") ||
			gaps && state == showTag && regexp.MustCompile(`^diff --(git|cc|combined) `).MatchString(l)) {
			state = showPatch
		}
		header := true
		switch {
		case refIsCommitLine(l):
			flush()
			cur, curTag, state = []string{l}, false, showCommit
		case state == showCommit || state == showTagHeader:
			switch {
			case !blank:
				cur = append(cur, l)
			case state == showCommit:
				state = showMessage
			default:
				state = showTag
			}
		case state == showMessage:
			switch {
			case blank && !strings.HasPrefix(l, "    "):
				state = showAfterMsg
			case !blank:
				message(l)
			}
		case state == showAfterMsg && (l == "Notes:" || strings.HasPrefix(l, "Notes (")):
			cur = append(cur, l)
			state = showMessage
		case state == showTag:
			if !blank {
				message(l)
			}
		case (state == showPatch || state == showAfterMsg) && strings.HasPrefix(l, "tag ") && len(l) > 4:
			flush()
			cur, curTag, state = []string{l}, true, showTagHeader
		default:
			header = false
			flush()
			state = showPatch
			if patchStart < 0 {
				patchStart = off
			}
		}
		if header && patchStart >= 0 {
			pieces = append(pieces, [2]int{patchStart, off})
			patchStart = -1
		}
	}
	flush()
	if patchStart >= 0 {
		pieces = append(pieces, [2]int{patchStart, len(out)})
	}
	switch len(pieces) {
	case 0:
	case 1:
		s.patch = out[pieces[0][0]:pieces[0][1]]
	default:
		for _, p := range pieces {
			s.patch = append(s.patch, out[p[0]:p[1]]...)
		}
	}
	return s
}

func refIsCommitLine(l string) bool {
	rest, ok := strings.CutPrefix(l, "commit ")
	if !ok {
		return false
	}
	hash, _, _ := strings.Cut(rest, " ")
	hash, _, _ = strings.Cut(hash, "\t") // --source
	return len(hash) >= 7 && len(hash) <= 64 && strings.Trim(hash, "0123456789abcdef") == ""
}
