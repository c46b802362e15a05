package summarize

import (
	"regexp"
	"testing"
)

// The regexps the node family's hand-written parsers replace.
var tscErrorRE = regexp.MustCompile(`^(?:\S.*(?:\(\d+,\d+\): |:\d+:\d+ - ))?error TS\d+: `)

// nodeHandSeeds are lines near the edges of the node parsers' patterns.
var nodeHandSeeds = []string{
	"src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
	"src/b.ts:1:2 - error TS2304: Cannot find name 'x'.",
	"error TS5023: Unknown compiler option 'y'.",
	"error TS: x", "error TS1:x", "error TS12: ", "xerror TS1: ",
	" src/a.ts(3,7): error TS2322: x", "\tsrc/a.ts(3,7): error TS1: x",
	"(1,2): error TS1: x", "a(1,2): error TS1: x", "a(,2): error TS1: x", "a(1,): error TS1: x",
	"a(1,2):  error TS1: x", "a(x1,2): error TS1: x", "a((1,2): error TS1: x",
	":1:2 - error TS1: x", "a:1:2 - error TS1: x", "a::1:2 - error TS1: x", "a:1:2 -  error TS1: x",
	"\xff(1,2): error TS1: x", "\xe2(1,2): error TS1: x", "é(1,2): error TS1: x",
	"a\n(1,2): error TS1: x", "error TS1: \nx", "a(1,2): error TSx: error TS2: y",
	"a(1,2): error TS1 a:3:4 - error TS5: z", "\va(1,2): error TS1: x",
}

// checkNodeHandParsers holds the node family's hand-written parsers to
// the regexps they replace.
func checkNodeHandParsers(t *testing.T, s string) {
	if got, want := isTscError(s), tscErrorRE.MatchString(s); got != want {
		t.Fatalf("isTscError(%q) = %v, regexp says %v", s, got, want)
	}
}
