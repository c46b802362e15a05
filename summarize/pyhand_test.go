package summarize

import (
	"iter"
	"slices"
	"strings"
	"testing"
)

// The python and git remote rules' parsers written by hand for speed, held
// by FuzzHandParsers to the plain code they replaced, kept here as the
// reference.

// pyHandSeeds are lines that reach the deep branches of those parsers.
var pyHandSeeds = []string{
	"many.py:5: error: Argument 1 has incompatible type  [arg-type]",
	"a.py:1:2: note: x", "a.py: error: Duplicate module", "x:1: warning: w", ": error: x",
	"a b.py:1: error: x", "a\tb.py:1: error: x", "a.py:1:\terror: x", "mypy: error: x", "a:12:: error: x",
	"a.py:1: error: x  [a b]", "a.py:1: error: x  []", "x  [code]",
	"Counting objects:  50% (1/2)\rCounting objects: 100% (2/2), done.   \r\n",
	"remote: Total 3 (delta 0)\r\n\x1b[K\x1b]0;t\x07a\r\nb\x1b[31\nm c\x1b(B\n\x1b",
	"Rebasing (1/1)\r\r\x1b[KSuccessfully rebased", "\x1b\n\x1b[\n\n\x1b]8;;x\x1b\\y\n",
	" 3 files changed, 4 insertions(+), 1 deletion(-)", " 1 file changed, 2 deletions(-)",
	" 2 files changed", " 2 files changed, ", " 0x files changed", " src/a.rs | 2 +-",
	"a|b|c|ddddddddddddddddddddddddddd|e\nf",
}

func checkPyHandParsers(t *testing.T, s string) {
	k1, p1, ok1 := mypyDiag(s)
	k2, p2, ok2 := refMypyDiag(s)
	if k1 != k2 || p1 != p2 || ok1 != ok2 {
		t.Fatalf("mypyDiag(%q) = %q, %q, %v; the plain code says %q, %q, %v", s, k1, p1, ok1, k2, p2, ok2)
	}
	if got, want := isMypyError(s), refIsMypyError(s); got != want {
		t.Fatalf("isMypyError(%q) = %v, the plain code says %v", s, got, want)
	}
	if got, want := mypyCode(s), refMypyCode(s); got != want {
		t.Fatalf("mypyCode(%q) = %q, the plain code says %q", s, got, want)
	}

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

	checkFitHead(t, s)
}

// checkFitHead holds fitHead and addHead, on the head of a list, to
// fitList and addList on the whole list: the items are s cut at '|'.
func checkFitHead(t *testing.T, s string) {
	items := strings.Split(s, "|")
	for _, limit := range []int{1, 2, 3, 30} {
		head := items[:min(limit, len(items))]
		for room := 0; room < len(s)+40; room += max(7, len(s)/8) {
			n, size := fitHead("k", head, len(items), limit, room)
			wn, wsize := fitList("k", items, limit, room)
			if n != wn || size != wsize {
				t.Fatalf("fitHead(%q, limit %d, room %d) = %d, %d; fitList says %d, %d", s, limit, room, n, size, wn, wsize)
			}
			var got, want Body
			addHead(&got, "k", head, len(items), n)
			addList(&want, "k", items, n)
			if g, w := got.render(), want.render(); string(g) != string(w) {
				t.Fatalf("addHead(%q, %d) renders %q; addList renders %q", s, n, g, w)
			}
		}
	}
}

func refMypyDiag(l string) (kind, path string, ok bool) {
	for _, k := range []string{"error", "note", "warning"} {
		i := strings.Index(l, ": "+k+": ")
		if i <= 0 {
			continue
		}
		loc := l[:i]
		if strings.ContainsAny(loc, " \t") {
			continue
		}
		path = loc
		numbered := false
		for {
			j := strings.LastIndexByte(path, ':')
			if j < 0 || path[j+1:] == "" || strings.Trim(path[j+1:], "0123456789") != "" {
				break
			}
			path, numbered = path[:j], true
		}
		if path != "" && (numbered || strings.ContainsAny(path, "./")) {
			return k, path, true
		}
	}
	return "", "", false
}

func refIsMypyError(l string) bool {
	if !strings.Contains(l, ": error: ") {
		return false
	}
	kind, path, ok := refMypyDiag(l)
	return ok && kind == "error" && (strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi"))
}

func refMypyCode(l string) string {
	if !strings.HasSuffix(l, "]") {
		return ""
	}
	i := strings.LastIndex(l, "  [")
	if i < 0 {
		return ""
	}
	code := l[i+3 : len(l)-1]
	if code == "" || strings.ContainsAny(code, " []") {
		return ""
	}
	return code
}

func refShownLines(b []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		for l := range eachLine(StripTerminal(b)) {
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
	if !ok {
		return false
	}
	parts := strings.Split(s, ", ")
	files, ok := countOf(parts[0], "file changed", "files changed")
	if !ok {
		return false
	}
	var ins, del int
	for _, p := range parts[1:] {
		if n, ok := countOf(p, "insertion(+)", "insertions(+)"); ok {
			ins = n
		} else if n, ok := countOf(p, "deletion(-)", "deletions(-)"); ok {
			del = n
		} else {
			return false
		}
	}
	d.summary, d.sumFiles, d.sumIns, d.sumDel = s, files, ins, del
	return true
}
