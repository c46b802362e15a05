package cc

import (
	"regexp"
	"strings"
	"testing"
)

// The cc readers' line parsers are written by hand for speed; each one's
// doc comment names the regexp it stands for, and FuzzHandParsers holds
// them to it.

var (
	diagRE    = regexp.MustCompile(`^(?:(\S+?): )??(error|fatal error|warning|note): (.*)$`)
	snippetRE = regexp.MustCompile(`^ +(?:\d+ |\+\+\+ )?\|(?:[ +]|$)`)
	caretRE   = regexp.MustCompile(`^ *[\^~][\^~ ]*$`)
	// checkOf and generated, the checkers' (checker.go).
	checkOfRE     = regexp.MustCompile(` \[([^\s\[\]]+)\]$`)
	generatedRE   = regexp.MustCompile(`^\d+ (?:warnings?|errors?)(?: and \d+ (?:warnings?|errors?))* generated\.$`)
	checkerDiagRE = regexp.MustCompile(`^(?:(\S+?): )??(style|performance|portability|information): (.*)$`)
)

var handSeeds = []string{
	"a.c:3:5: error: expected ‘;’", "cc1: fatal error: x.h: No such file", "error: x", "warning: y [-Wz]",
	"a b.c:1: error: x", "a.c:1:2: note: here", "x: y: error: z", "make: *** [a] Error 1", ":1: error: x",
	"   21 |   return -1", "      |   ^~~", "  +++ |+#include <x>", "      |", "   |x", " 12 |", "12 |",
	"        ^", "   ~~~^~~ ", " ^x", "", "~", "a.c: In function ‘f’:",
	"x [nullPointer]", "x [a b]", "x []", "x [a]]", "[a]", "6 warnings generated.", "1 warning and 2 errors generated.",
	"0 errors generated.", "a.c:1:2: style: x [y]", "a b: style: x", "a: information: x",
}

func FuzzHandParsers(f *testing.F) {
	for _, s := range handSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "\n") {
			return // the parsers read lines
		}
		d, ok := parseDiag(s)
		m := diagRE.FindStringSubmatch(s)
		if ok != (m != nil) {
			t.Fatalf("parseDiag(%q) = %v, the regexp says %v", s, ok, m != nil)
		}
		if ok && (d.prefix != m[1] || d.msg != m[3]) {
			t.Fatalf("parseDiag(%q) = %q %q, the regexp says %q %q", s, d.prefix, d.msg, m[1], m[3])
		}
		if got, want := isSnippet(s), snippetRE.MatchString(s); got != want {
			t.Fatalf("isSnippet(%q) = %v, the regexp says %v", s, got, want)
		}
		if got, want := isCaret(s), caretRE.MatchString(s); got != want {
			t.Fatalf("isCaret(%q) = %v, the regexp says %v", s, got, want)
		}
		want := ""
		if m := checkOfRE.FindStringSubmatch(s); m != nil {
			want = m[1]
		}
		if got := checkOf(s); got != want {
			t.Fatalf("checkOf(%q) = %q, the regexp says %q", s, got, want)
		}
		if got, want := generated(s), generatedRE.MatchString(s); got != want {
			t.Fatalf("generated(%q) = %v, the regexp says %v", s, got, want)
		}
		b := &buildLog{checker: true}
		if _, ok := parseDiag(s); !ok {
			d, ok := b.parse(s)
			m := checkerDiagRE.FindStringSubmatch(s)
			if ok != (m != nil) || ok && (d.prefix != m[1] || d.msg != m[3]) {
				t.Fatalf("parse(%q) = %v %q %q, the regexp says %q", s, ok, d.prefix, d.msg, m)
			}
		}
	})
}
