package node

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The regexps the node family's hand-written parsers replace.
var (
	tscErrorRE    = regexp.MustCompile(`^(?:\S.*(?:\(\d+,\d+\): |:\d+:\d+ - ))?error TS\d+: `)
	jestSuiteRE   = regexp.MustCompile(`^(FAIL|PASS) +(\S.*?)(?: \(\d[^)]*\))?$`)
	nodeLocRE     = regexp.MustCompile(`\S+:\d+:\d+\)?$`)
	tapNotOKRE    = regexp.MustCompile(`^ *not ok \d+ - (.+)$`)
	eslintRowRE   = regexp.MustCompile(`^ +\d+:\d+ +(error|warning)  `)
	tscTableRowRE = regexp.MustCompile(`^ +\d+  (\S.*:\d+)$`)
	vitestFileRE  = regexp.MustCompile(`^ [❯✓↓] (.+?) \(\d+ test`)
	vitestListRE  = regexp.MustCompile(`^ ((?:  )*)× (.*?)(?: \d+ms)?(?: \(retry x\d+\))?(?: \(repeat x\d+\))?(?: \d+ MB heap used)?$`)
	jestDurRE     = regexp.MustCompile(`^(.*?)(?: \(\d+ ms\))?$`)
	reESLintError = regexp.MustCompile(`^ +\d+:\d+ +error  `)
)

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
	"FAIL src/a.test.js", "PASS src/a.test.js (5.2 s)", "FAIL  a (1) (2 s)", "FAIL a (x) (2)", "FAIL a (1", "FAIL a (1))",
	"FAIL a (1) b)", "FAIL \ta", "FAIL ", "FAIL a\n", "FAIL a (1\n)", "FAIL a\n (1)", "PASS \xff (3)", "FAIL a  (1)", "FAIL (1)",
	"FAIL a (1)(2)", "FAILED a", "FAIL a ()", "FAIL é (9 s)",
	"at Object.toBe (src/a.test.js:8:23)", " ❯ helper src/h.js:3:9", "a:1:2", ":1:2", " :1:2", "a:1:2))", "a:1:2 ", "a\n:1:2",
	"x a:b:1:2)", "\xff:1:2", "a:1:", "a::2", "é:1:2", "a\tb:1:2",
	"not ok 2 - adds wrong", "    not ok 1 - sub", "not ok 3 - later # TODO", "not ok - x", "not ok 1 - ", "not ok 1 -  ",
	"\tnot ok 1 - x", "not ok 1 - x\ny", "not ok 12 -x",
	"  12:5  error  'x' is not defined  no-undef", "   1:7   warning    x", "1:7  error  x", "  1:7 error  x", "  1:7  error x",
	"  :7  error  x", "  1:  error  x", "  1:7  errors  x", "  1:7\terror  x", "  1:7  warning  ",
	"\x1b[31merror\x1b[0m: x\r\n", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "50%\r100%\r\n\r", "\x1b", "\x1b[",
	"    14  src/f0.ts:1", "    14  src/file ü5.ts:12", "14  a:1", "  14   a:1", "  14  :1", "  14  ::1", "  14  a:", "  14  a:1x",
	"  x  a:1", "    14  \ta:1", "  1  a\n:1", "  1  a:1\n", "  1  \xff:1", "  1  a b:2",
	" ❯ src/a.test.js (6 tests | 3 failed) 20ms", " ✓ src/ok.test.js (2 tests) 4ms", " ↓ a (1 test | 1 skipped)", " ❯ src/broken.test.js (0 test)",
	" ❯ a (1).test.js (3 tests)", " ❯ a (x) (3 tests)", " ❯  (3 tests)", " ❯ a (3 test", " ❯ a (3tests)", " ❯ a\n (3 tests)", " ❯ a (\n3 tests)",
	"  ❯ a (3 tests)", " × a (3 tests)", " ❯ \xff (1 tests)", " ❯ ❯ (1 tests)", " ❯ é (1 tests) (2 tests)",
	"       × case 0 > rejects 12ms", " × src/a.test.js > d > adds 3ms", "   × throws 12ms 31 MB heap used", "     × adds 1ms (retry x2) (repeat x3)",
	"   × x (repeat x2) (retry x1)", "   × x 5ms 5ms", "   × 5ms", "   ×  5ms", "   × x  ", "   × ", "  × x", "×  x", " × x\n", " × a\nb 5ms",
	"   × a (retry x) 1ms", "   × a (retry x1)) ", "   × a 1 2 MB heap used", "   × a MB heap used", "   × a 1.5ms", "   × a (12 ms)",
	"  ✕ throws a string (1 ms)", "x (12 ms)", "x (12ms)", "x ( ms)", " (1 ms)", "x (1 ms) (2 ms)", "x (1 ms", "(1 ms)",
	"16|   expect(x)", "> 15 |   expect(x)", ">  7 |   expect(x)", "|   ^", ">>1|", "1 2|", " > 1|", "~~~ ~", "~x", "12", "12 x", "12x", "",
	"⎯⎯⎯ Failed Tests 1 ⎯⎯⎯", "⎯⎯⎯⎯[1/2]⎯", " ⎯ ", "\xe2\x8e⎯", "⎯\xe2\x8e", "\x8e\xaf⎯ x", "+++---", "+-+x", "\x8e⎯\xaf",
	"a\x1b(", "\r\x1b\r\n", "\x1b]0;t\x07\r\n", "\x1b\x1b[1m\r", "x\x1bPq\x1b\\y", "\x1b(\x1b[m",
}

// isCodeFrameTrim and isTscFrameTrim are isCodeFrame and isTscFrame as
// they were, with strings.Trim.
func isCodeFrameTrim(t string) bool {
	t = strings.TrimLeft(strings.TrimPrefix(t, ">"), " ")
	d := strings.TrimLeft(t, "0123456789")
	if len(d) == len(t) {
		return strings.HasPrefix(t, "|")
	}
	return strings.HasPrefix(strings.TrimLeft(d, " "), "|")
}

func isTscFrameTrim(t string) bool {
	if strings.Trim(t, "~ ") == "" {
		return true
	}
	d := strings.TrimLeft(t, "0123456789")
	return len(d) < len(t) && (d == "" || d[0] == ' ')
}

// checkNodeHandParsers holds the node family's hand-written parsers to
// the regexps they replace.
func checkNodeHandParsers(t *testing.T, s string) {
	if b := []byte(s); !bytes.ContainsRune(b, 0x1b) && !mayHaveNodeFailures(b) {
		// The gate skips such a stream; read in full (no raw bytes to
		// gate on), it must give nothing.
		var n nodeScan
		n.scan(nil, summarize.Lines(b), func(req, line string, _ int) {
			t.Fatalf("scan skips %q for want of a node marker, yet finds %q in line %q", s, req, line)
		})
	}
	if got, want := isCodeFrame(s), isCodeFrameTrim(s); got != want {
		t.Fatalf("isCodeFrame(%q) = %v, with Trim %v", s, got, want)
	}
	if got, want := isTscFrame(s), isTscFrameTrim(s); got != want {
		t.Fatalf("isTscFrame(%q) = %v, with Trim %v", s, got, want)
	}
	if got, want := trimRule(s), strings.Trim(s, "⎯ "); got != want {
		t.Fatalf("trimRule(%q) = %q, Trim says %q", s, got, want)
	}
	if got, want := onlyOf(s, '+', '-'), strings.Trim(s, "+-") == ""; got != want {
		t.Fatalf("onlyOf(%q, '+', '-') = %v, Trim says %v", s, got, want)
	}
	if got, want := isTscError(s), tscErrorRE.MatchString(s); got != want {
		t.Fatalf("isTscError(%q) = %v, regexp says %v", s, got, want)
	}
	var suite string
	m := jestSuiteRE.FindStringSubmatch(s)
	if m != nil {
		suite = m[2]
	}
	if got, ok := jestSuite(s); got != suite || ok != (m != nil) {
		t.Fatalf("jestSuite(%q) = %q, %v; regexp says %q, %v", s, got, ok, suite, m != nil)
	}
	loc := nodeLocRE.FindString(s)
	if got, ok := nodeLocation(s); got != loc || ok != nodeLocRE.MatchString(s) || hasNodeLocation(s) != ok {
		t.Fatalf("nodeLocation(%q) = %q, %v (has: %v); regexp finds %q", s, got, ok, hasNodeLocation(s), loc)
	}
	var name string
	if m := tapNotOKRE.FindStringSubmatch(s); m != nil {
		name = m[1]
	}
	if got, ok := tapNotOK(s); got != name || ok != (name != "") {
		t.Fatalf("tapNotOK(%q) = %q, %v; regexp says %q", s, got, ok, name)
	}
	var row string
	if m := tscTableRowRE.FindStringSubmatch(s); m != nil {
		row = m[1]
	}
	if got, ok := tscTableRow(s); got != row || ok != tscTableRowRE.MatchString(s) {
		t.Fatalf("tscTableRow(%q) = %q, %v; regexp says %q", s, got, ok, row)
	}
	var file string
	if m := vitestFileRE.FindStringSubmatch(s); m != nil {
		file = m[1]
	}
	if got, ok := vitestFileLine(s); got != file || ok != vitestFileRE.MatchString(s) {
		t.Fatalf("vitestFileLine(%q) = %q, %v; regexp says %q", s, got, ok, file)
	}
	var listed string
	var full bool
	if m := vitestListRE.FindStringSubmatch(s); m != nil {
		listed, full = strings.TrimRight(m[2], " "), m[1] == ""
	}
	if got, gotFull, ok := vitestListed(s); got != listed || ok != (listed != "") || ok && gotFull != full {
		t.Fatalf("vitestListed(%q) = %q, %v, %v; regexp says %q, %v", s, got, gotFull, ok, listed, full)
	}
	if m := jestDurRE.FindStringSubmatch(s); m != nil {
		if got := jestDuration(s); got != m[1] {
			t.Fatalf("jestDuration(%q) = %q; regexp says %q", s, got, m[1])
		}
	}
	var sev string
	if m := eslintRowRE.FindStringSubmatch(s); m != nil {
		sev = m[1]
	}
	if got, ok := eslintSeverity(s); got != sev || ok != (sev != "") {
		t.Fatalf("eslintSeverity(%q) = %q, %v; regexp says %q", s, got, ok, sev)
	}
}

// FuzzHandParsers holds the node family's hand-written parsers to the
// regexps and plain forms they replace (checkNodeHandParsers).
func FuzzHandParsers(f *testing.F) {
	for _, s := range nodeHandSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{"12 |     for x in y {", "at f (src/a.js:1:2) and src/b.rs:3:4: x:1:2:3 y:1:2x:5:6\tz:7:8",
		"  12:5  error  'x' is not defined  no-undef", " 10 |     let x = 1;"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := string(b)
		checkNodeHandParsers(t, s)
		if got, want := isESLintError(s), reESLintError.MatchString(s); got != want {
			t.Fatalf("isESLintError(%q) = %v, regexp says %v", s, got, want)
		}
	})
}
