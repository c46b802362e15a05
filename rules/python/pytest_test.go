package python

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestPySummaryLine(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"= 12 failed, 6 passed, 1 skipped, 1 xfailed, 1 xpassed, 1 warning, 2 errors in 0.11s =", "12 failed, 6 passed, 1 skipped, 1 xfailed, 1 xpassed, 1 warning, 2 errors in 0.11s", true},
		{"148 failed, 3 passed in 0.31s", "148 failed, 3 passed in 0.31s", true},
		{"============================ no tests ran in 0.00s =============================", "no tests ran in 0.00s", true},
		{"=== 3 passed in 61.20s (0:01:01) ===", "3 passed in 61.20s (0:01:01)", true},
		{"=== 2 subtests passed, 1 passed in 0.01s ===", "2 subtests passed, 1 passed in 0.01s", true},
		{"==================== 22 deselected in 0.05s ====================", "22 deselected in 0.05s", true},
		{"============================= test session starts ==============================", "", false},
		{"12 failed, 6 passed", "", false},
		{"no tests ran", "", false},
		{"E       assert 1 passed in 0.1s", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := pySummaryLine(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("pySummaryLine(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPySummaryCounts(t *testing.T) {
	c := pySummaryCounts("12 failed, 6 passed, 1 skipped, 1 xfailed, 2 xpassed, 1 warning, 2 errors, 3 deselected in 0.11s")
	want := map[string]int{"failed": 12, "passed": 6, "skipped": 1, "xfailed": 1, "xpassed": 2,
		"warnings": 1, "errors": 2, "deselected": 3}
	for k, v := range want {
		if c[k] != v {
			t.Errorf("%s = %d, want %d", k, c[k], v)
		}
	}
	c = pySummaryCounts("1 error, 13 warnings in 0.01s")
	if c["errors"] != 1 || c["warnings"] != 13 || c["passed"] != 0 {
		t.Errorf("singular and plural: %v", c)
	}
	if c := pySummaryCounts("no tests ran in 0.00s"); len(c) != 0 {
		t.Errorf("no tests ran: %v", c)
	}
}

func TestPyShortEntry(t *testing.T) {
	tests := []struct {
		in, kind, id string
	}{
		{"FAILED tests/test_cart.py::test_total - assert 5 == 6", "FAILED", "tests/test_cart.py::test_total"},
		{"FAILED tests/test_cart.py::test_strict_xpass", "FAILED", "tests/test_cart.py::test_strict_xpass"},
		{"FAILED tests/test_cart.py::test_labels[a - b] - AssertionError: label 'a - b'...", "FAILED", "tests/test_cart.py::test_labels[a - b]"},
		{"FAILED tests/t.py::test_x[two words] - assert [1] - [2]", "FAILED", "tests/t.py::test_x[two words]"},
		{"FAILED tests/test_cart.py::TestCheckout::test_prints - assert 10 == 15", "FAILED", "tests/test_cart.py::TestCheckout::test_prints"},
		{"ERROR tests/test_import.py", "ERROR", "tests/test_import.py"},
		{"ERROR tests/test_cart.py::test_session - ConnectionError: session did not close", "ERROR", "tests/test_cart.py::test_session"},
		{"ERROR: Could not find a version that satisfies the requirement x", "", ""},
		{"ERROR in ./src/index.js", "", ""},
		{"FAILED (failures=2)", "", ""},
		{"FAILED tests/test_x.py", "", ""},
		{"PASSED tests/test_cart.py::test_pass", "", ""},
	}
	for _, tt := range tests {
		kind, id, ok := pyShortEntry(tt.in)
		if kind != tt.kind || id != tt.id || ok != (tt.kind != "") {
			t.Errorf("pyShortEntry(%q) = %q, %q, %v; want %q, %q", tt.in, kind, id, ok, tt.kind, tt.id)
		}
	}
}

func TestPyVerboseResult(t *testing.T) {
	tests := []struct {
		in, id, kind string
	}{
		{"tests/test_cart.py::test_total FAILED                                    [  4%]", "tests/test_cart.py::test_total", "FAILED"},
		{"tests/test_cart.py::test_labels[a - b] FAILED                            [ 54%]", "tests/test_cart.py::test_labels[a - b]", "FAILED"},
		{"tests/test_cart.py::test_with_catalog ERROR                              [ 81%]", "tests/test_cart.py::test_with_catalog", "ERROR"},
		{"tests/test_cart.py::test_session ERROR", "tests/test_cart.py::test_session", "ERROR"},
		{"tests/test_a.py::test_x FAILED [ 3/22]", "tests/test_a.py::test_x", "FAILED"},
		{"tests/test_cart.py::test_total_empty PASSED                              [  9%]", "", ""},
		{"tests/test_cart.py::test_rounding XFAIL (rounding is known to be off)    [ 63%]", "", ""},
		{"  tests/test_cart.py::test_total FAILED", "", ""},
		{"some words::x FAILED", "", ""},
		{"edge_tests::parse_underscore --- FAILED", "", ""},
		{"README.rst::README.rst FAILED", "README.rst::README.rst", "FAILED"},
		{"test result: FAILED. 0 passed; 1 failed", "", ""},
	}
	for _, tt := range tests {
		id, kind, ok := pyVerboseResult(tt.in)
		if id != tt.id || kind != tt.kind || ok != (tt.id != "") {
			t.Errorf("pyVerboseResult(%q) = %q, %q, %v; want %q, %q", tt.in, id, kind, ok, tt.id, tt.kind)
		}
	}
}

func TestPyLinePredicates(t *testing.T) {
	locations := map[string]bool{
		"tests/test_cart.py:9: AssertionError":               true,
		"tests/test_cart.py:21: ":                            true,
		"shop/cart.py:104: in apply_discount":                true,
		"/tmp/pyx/u/test_m.py:10":                            true,
		"/abs/tests/test_many.py:6: AssertionError: square":  true,
		"<frozen importlib._bootstrap>:1206: in _gcd_import": false,
		"    def test_total():":                              false,
		"E       assert 5 == 6":                              false,
		"a = 1, b = 2":                                       false,
		"file /tmp/pyx/u/test_m.py, line 10":                 false,
		"C:12x":                                              false,
		"x.py:12:3: error: bad":                              false,
	}
	for l, want := range locations {
		if got := isPyLocation(l); got != want {
			t.Errorf("isPyLocation(%q) = %v, want %v", l, got, want)
		}
	}
	heads := map[string]string{
		"__________________________________ test_total __________________________________": "test_total",
		"_____________________ ERROR at setup of test_with_catalog ______________________": "ERROR at setup of test_with_catalog",
		"_ test_a_very_long_name_that_fills_the_whole_terminal_line_and_more_of_it[1-2] _": "test_a_very_long_name_that_fills_the_whole_terminal_line_and_more_of_it[1-2]",
		"_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ": "",
		"________": "",
	}
	for l, want := range heads {
		got, ok := pySectionHead(l)
		if got != want || ok != (want != "") {
			t.Errorf("pySectionHead(%q) = %q, %v; want %q", l, got, ok, want)
		}
	}
	if !isPyCaptured("----------------------------- Captured stdout call -----------------------------") {
		t.Error("captured stdout banner not recognized")
	}
	if isPyCaptured("-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html") {
		t.Error("docs line taken for a captured banner")
	}
	if got, ok := pyBang("!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!"); !ok || got != "stopping after 1 failures" {
		t.Errorf("pyBang = %q, %v", got, ok)
	}
}

// TestPytestSections: the parts of a failure section that are kept, on a
// hand-made section covering each kind of line.
func TestPytestSections(t *testing.T) {
	out := strings.Join([]string{
		"=================================== FAILURES ===================================",
		"__________________________________ test_deep ___________________________________",
		"",
		"    def test_deep():",
		">       assert helper(5) == 5",
		"",
		"test_m.py:9: ",
		"_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ",
		"test_m.py:3: in helper",
		"    return check(x)",
		"/usr/lib/python3/dist-packages/lib.py:6: KeyError",
		"E           KeyError: 5",
		"----------------------------- Captured stdout call -----------------------------",
		"E   printed by the test, not an E line",
		"test_m.py:77: printed too",
		"________________________________ test_xpass ________________________________",
		"[XPASS(strict)] must fail",
		"=========================== short test summary info ============================",
		"FAILED test_m.py::test_deep - KeyError: 5",
		"FAILED test_m.py::test_xpass",
		"========================== 2 failed in 0.07s ==========================",
	}, "\n")
	p := newPytestLog()
	for _, l := range summarize.Lines([]byte(out)) {
		p.Feed(l)
	}
	items, total, _ := p.failureItems(pyKeepELines)
	want := []string{
		"test_deep\ntest_m.py:9:\ntest_m.py:3: in helper\n/usr/lib/python3/dist-packages/lib.py:6: KeyError\nE           KeyError: 5",
		"test_xpass\n[XPASS(strict)] must fail",
	}
	if strings.Join(items, "|") != strings.Join(want, "|") || total != 2 || p.shownLost(2, pyKeepELines) != 0 {
		t.Errorf("items = %q (of %d, %d lines lost), want %q", items, total, p.shownLost(2, pyKeepELines), want)
	}
	if got := strings.Join(p.failed.ids, ","); got != "test_m.py::test_deep,test_m.py::test_xpass" {
		t.Errorf("failed = %s", got)
	}
	if p.summary != "2 failed in 0.07s" {
		t.Errorf("summary = %q", p.summary)
	}
}

// TestPytestELineCap: a long assertion diff is kept whole while it fits
// the budget (issue 21: its verdict came last), and cut to what fits, at
// least pyMaxELines lines, when it does not; the rest is counted.
func TestPytestELineCap(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("=== FAILURES ===\n___ test_big ___\n")
	for i := 0; i < 250; i++ {
		sb.WriteString("E         line of the diff, with enough words in it to take room\n")
	}
	sb.WriteString("E     remains unmatched: 'the verdict'\n")
	sb.WriteString("tests/t.py:3: AssertionError\n")
	sb.WriteString("FAILED tests/t.py::test_big - assert ...\n= 1 failed in 0.01s =\n")
	for _, tc := range []struct {
		budget, lines int
		verdict       bool
	}{
		{summarize.DefaultBudget * 4, pyKeepELines, false}, // past the hard cap
		{2048, pyMaxELines, false},
	} {
		r := &summarize.Run{Rule: "bash.pytest", Stdout: []byte(sb.String()), ExitCode: 1, Exited: true, Budget: tc.budget}
		body := string(Pytest(r).Render())
		if n := strings.Count(body, "E         line of the diff"); n < tc.lines || tc.lines == pyMaxELines && n > 3*pyMaxELines {
			t.Errorf("budget %d: %d E lines, want %d or a few more:\n%s", tc.budget, n, tc.lines, body)
		}
		if !strings.Contains(body, "failure_lines_omitted: ") {
			t.Errorf("budget %d: no count of the lines left out:\n%s", tc.budget, body)
		}
	}
	short := strings.Replace(sb.String(), strings.Repeat("E         line of the diff, with enough words in it to take room\n", 240), "", 1)
	r := &summarize.Run{Rule: "bash.pytest", Stdout: []byte(short), ExitCode: 1, Exited: true, Budget: summarize.DefaultBudget}
	if body := string(Pytest(r).Render()); !strings.Contains(body, "remains unmatched: 'the verdict'") || strings.Contains(body, "failure_lines_omitted") {
		t.Errorf("eleven E lines that fit are not all kept:\n%s", body)
	}
}
