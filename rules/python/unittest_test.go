package python

import (
	"regexp"
	"strings"
	"testing"
)

// The unittest rule's parsers written by hand, held by FuzzUnittestParsers
// to the regexps they stand for.

var (
	refUtRanLine    = regexp.MustCompile(`^Ran \d+ tests? in \d+(?:\.\d+)?s$`)
	refUtStatusLine = regexp.MustCompile(`^(?:OK|NO TESTS RAN)$|^(?:OK|FAILED|NO TESTS RAN) \((?:failures|errors|skipped|expected failures|unexpected successes)=\d+(?:, (?:failures|errors|skipped|expected failures|unexpected successes)=\d+)*\)$`)
	refUtName       = regexp.MustCompile(`^\S+ \([A-Za-z_][\w.]*\.[\w.]*\)(?: [(\[].*)?$`)
	refUtHeadLine   = regexp.MustCompile(`^(FAIL|ERROR|UNEXPECTED SUCCESS): (.+)$`)
	refUtProgress   = regexp.MustCompile(`^[.FEsxu]+$`)
	refPyProgress   = regexp.MustCompile(`^[.FEsxX]+ *\[[ \d/%]*%\] *$`)
)

// utHandSeeds reach the parsers' branches.
var utHandSeeds = []string{
	"Ran 14 tests in 0.004s", "Ran 1 test in 0.000s", "Ran 1 tests in 1s", "Ran  1 test in 0s", "Ran 2 test in .1s",
	"Ran 3 tests in 1.s", "Ran x tests in 1s", "OK", "OK (skipped=1)", "FAILED (failures=2, errors=1)", "FAILED",
	"NO TESTS RAN", "FAILED (failures=1,errors=2)", "OK ()", "FAILED (expected failures=1, unexpected successes=2)",
	"FAILED (bogus=1)", "OK (skipped=x)",
	"test_x (pkg.mod.Class.test_x)", "test_x (mod.Class)", "test_x (tests.T.test_x) (rate=0.25)", "test_x (a.b) [msg]",
	"test_x (nodots)", "test x (a.b)", "test_x (1a.b)", "test_x (a.b)x", "setUpClass (tests.test_db.LedgerDBTest)",
	"FAIL: test_x (a.b)", "ERROR: x", "UNEXPECTED SUCCESS: t (a.b)", "FAIL: ", "..F.E.s.x.u", ". F", "",
	"..F.   [100%]", "F [ 50%]", "..  [1/2%]", "[100%]", "s.. [ 9%] ",
}

func checkUtParsers(t *testing.T, s string) {
	if _, ok := utRan(s); ok != refUtRanLine.MatchString(s) {
		t.Fatalf("utRan(%q) = %v, the regexp says %v", s, ok, !ok)
	}
	if got := isUtStatus(s); got != refUtStatusLine.MatchString(s) {
		t.Fatalf("isUtStatus(%q) = %v, the regexp says %v", s, got, !got)
	}
	if got := isUtTestName(s); got != refUtName.MatchString(s) {
		t.Fatalf("isUtTestName(%q) = %v, the regexp says %v", s, got, !got)
	}
	kind, name, ok := utHead(s)
	if m := refUtHeadLine.FindStringSubmatch(s); ok != (m != nil) || ok && (kind != m[1] || name != m[2]) {
		t.Fatalf("utHead(%q) = %q, %q, %v; the regexp says %q", s, kind, name, ok, m)
	}
	if got := isUtProgress(s); got != refUtProgress.MatchString(s) {
		t.Fatalf("isUtProgress(%q) = %v, the regexp says %v", s, got, !got)
	}
	if got := isPyProgressLine(s); got != refPyProgress.MatchString(s) {
		t.Fatalf("isPyProgressLine(%q) = %v, the regexp says %v", s, got, !got)
	}
}

func TestUnittestParsers(t *testing.T) {
	for _, s := range utHandSeeds {
		checkUtParsers(t, s)
	}
}

func FuzzUnittestParsers(f *testing.F) {
	for _, s := range utHandSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\n\r") {
			return // a line
		}
		checkUtParsers(t, s)
	})
}
