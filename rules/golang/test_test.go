package golang

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestGoTextLines(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"a"}`,
		`{"Action":"start","Package":"b"}`,
		`{"Action":"output","Package":"a","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"output","Package":"b","Output":"ok  \tb\t0.01s\n"}`,
		`{"Action":"pass","Package":"b"}`,
		`{"Action":"output","Package":"a","Test":"TestA","Output":"    a_test.go:3: no newline yet "}`,
		`{"Action":"output","Package":"a","Test":"TestA","Output":"then the rest\n"}`,
		`go: a plain line stays in place`,
		`{"ImportPath":"c [c.test]","Action":"build-output","Output":"# c\n"}`,
		`{"ImportPath":"c [c.test]","Action":"build-output","Output":"c/c.go:1:2: undefined: x\n"}`,
		`{"ImportPath":"c [c.test]","Action":"build-fail"}`,
		`{"Action":"output","Package":"a","Output":"FAIL\ta\t0.01s\n"}`,
		`{"not":"an event"}`,
	}, "\n")
	got := slices.Collect(goTextLines(summarize.Lines([]byte(in))))
	want := []string{
		"ok  \tb\t0.01s",
		"go: a plain line stays in place",
		"# c",
		"c/c.go:1:2: undefined: x",
		`{"not":"an event"}`,
		"=== RUN   TestA",
		"    a_test.go:3: no newline yet then the rest",
		"FAIL\ta\t0.01s",
	}
	if !slices.Equal(got, want) {
		t.Errorf("goTextLines =\n%q\nwant\n%q", got, want)
	}
	plain := []string{"--- FAIL: TestA (0.00s)", "FAIL"}
	if got := slices.Collect(goTextLines(plain)); !slices.Equal(got, plain) {
		t.Errorf("a stream without events gave %q", got)
	}
}

func TestGoLocation(t *testing.T) {
	for in, want := range map[string]string{
		"./a.go:12:5: undefined: x":               "./a.go:12:5",
		"calc/calc_test.go:18:22: too many":       "calc/calc_test.go:18:22",
		"vet: sub/b.go:4:9: undefined: y":         "sub/b.go:4:9",
		"dep.go:12:8: no required module":         "dep.go:12:8",
		"a.go:7: no column":                       "a.go:7",
		"    a_test.go:12: a reason line":         "",
		"note that x.go:1:2: is inside":           "",
		"a.go:: empty":                            "",
		"a.go:12:5 no colon after":                "",
		"package example.com/a":                   "",
		"/abs/path/x.go:3:1: syntax error: x y z": "/abs/path/x.go:3:1",
	} {
		if got := goLocation(in); got != want {
			t.Errorf("goLocation(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGoPackageResult(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind byte
		pkg  string
	}{
		{"ok  \texample.com/demo\t0.003s", 'o', "example.com/demo"},
		{"ok  \texample.com/demo\t(cached)", 'o', "example.com/demo"},
		{"ok  \texample.com/demo\t0.002s [no tests to run]", 'o', "example.com/demo"},
		{"FAIL\texample.com/demo\t0.005s", 'F', "example.com/demo"},
		{"FAIL\texample.com/demo [build failed]", 'F', "example.com/demo"},
		{"FAIL\t./... [setup failed]", 'F', "./..."},
		{"?   \texample.com/demo/cmd\t[no test files]", '?', "example.com/demo/cmd"},
		{"\texample.com/demo/cmd\t\tcoverage: 0.0% of statements", '?', "example.com/demo/cmd"},
		{"FAIL", 0, ""},
		{"ok", 0, ""},
		{"\thave (int)", 0, ""},
	} {
		kind, pkg, ok := goPackageResult(c.in)
		if kind != c.kind || pkg != c.pkg || ok != (c.kind != 0) {
			t.Errorf("goPackageResult(%q) = %q %q %v, want %q %q", c.in, kind, pkg, ok, c.kind, c.pkg)
		}
	}
}

func TestGoFramePackage(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/demo/store.(*Store).Inc(...)":                     "example.com/demo/store",
		"example.com/demo.TestBump(0x3e077d608488?)":                   "example.com/demo",
		"testing.tRunner(0x1, 0x2)":                                    "testing",
		"created by testing.(*T).Run in goroutine 1":                   "testing",
		"panic({0x55a7a0?, 0x6cac60?})":                                "",
		"main.main()":                                                  "main",
		"  example.com/demo.count.func1()":                             "example.com/demo",
		"example.com/demo.Map[go.shape.int,example.com/x.T](0x1)":      "example.com/demo",
		"demo.TestLocal(0x1)":                                          "demo",
		"...additional frames elided...":                               "",
		"runtime.gopark(0x45e4d5?, 0x6f6ca0?, 0x13?, 0x0?, 0x306702?)": "runtime",
	} {
		if got := goFramePackage(in); got != want {
			t.Errorf("goFramePackage(%q) = %q, want %q", in, got, want)
		}
	}
	root := "/usr/local/go/src/"
	for _, c := range []struct {
		fn, file, root string
		user           bool
	}{
		{"example.com/demo.TestX(0x1)", "\t/tmp/demo/x_test.go:12 +0x45", root, true},
		{"time.Sleep(0x1)", "\t/usr/local/go/src/runtime/time.go:363 +0x165", root, false},
		{"testing.tRunner(0x1)", "\t/usr/local/go/src/testing/testing.go:2036 +0xea", root, false},
		{"main.main()", "\t_testmain.go:50 +0x9b", root, false},
		{"panic({0x1})", "\t/usr/local/go/src/runtime/panic.go:860 +0x13a", root, false},
		{"demo.TestLocal(0x1)", "\t/home/me/demo/a_test.go:3 +0x1", "", true},
		{"time.Sleep(0x1)", "\t/usr/lib/go/src/runtime/time.go:363", "", false},
		{"example.com/demo.TestX(0x1)", "\t/home/me/go/src/example.com/demo/x_test.go:3", "", true},
	} {
		if got := isUserFrame(goFrame{fn: c.fn, file: c.file}, c.root); got != c.user {
			t.Errorf("isUserFrame(%q, %q, root %q) = %v", c.fn, c.file, c.root, got)
		}
	}
}

func TestGoTraceItem(t *testing.T) {
	trace := newGoTrace("panic: boom")
	for _, l := range []string{
		"[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1]",
		"",
		"goroutine 7 [running]:",
		"testing.tRunner.func1()",
		"\t/usr/local/go/src/testing/testing.go:1977 +0x349",
		"example.com/demo.f(...)",
		"\t/tmp/demo/f.go:8",
		"example.com/demo.TestF(0x1)",
		"\t/tmp/demo/f_test.go:12 +0x45",
		"created by testing.(*T).Run in goroutine 1",
		"\t/usr/local/go/src/testing/testing.go:2101 +0x4c5",
	} {
		if !trace.feed(l) {
			t.Fatalf("trace refused %q", l)
		}
	}
	if trace.feed("exit status 2") {
		t.Fatal("exit status did not end the trace")
	}
	item, lost := trace.item()
	want := "panic: boom\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1]\ngoroutine 7 [running]:\n" +
		"example.com/demo.f(...)\n\t/tmp/demo/f.go:8\nexample.com/demo.TestF(0x1)\n\t/tmp/demo/f_test.go:12 +0x45"
	if item != want || lost != 4 {
		t.Errorf("item = %q, lost %d; want %q, lost 4", item, lost, want)
	}

	race := newGoTrace(goRaceHead)
	for _, l := range []string{"Read at 0x1 by goroutine 9:", "  example.com/demo.f()", "      /tmp/demo/f.go:3 +0x1", "", "=================="} {
		if !race.feed(l) {
			t.Fatalf("race refused %q", l)
		}
	}
	if race.feed("--- FAIL: TestF (0.00s)") {
		t.Fatal("the race report went on past its closing line")
	}
	if item, lost := race.item(); lost != 0 || !strings.HasSuffix(item, "      /tmp/demo/f.go:3 +0x1") {
		t.Errorf("race item = %q, lost %d", item, lost)
	}
}

func TestGoSpread(t *testing.T) {
	keys := []string{"TestA", "TestA/1", "TestA/2", "TestA/3", "TestB", "TestC/1", "TestC/2"}
	got := permute(keys, goSpread(keys, 4))
	want := []string{"TestA", "TestA/1", "TestB", "TestC/1", "TestA/2", "TestA/3", "TestC/2"}
	if !slices.Equal(got, want) {
		t.Errorf("spread = %q, want %q", got, want)
	}
	if got := permute(keys, goSpread(keys, 100)); !slices.Equal(got, keys) {
		t.Errorf("spread under the cap reordered: %q", got)
	}
}

func TestGoFailureLines(t *testing.T) {
	var ls []string
	for i := 1; i <= 14; i++ {
		ls = append(ls, fmt.Sprintf("    x_test.go:%d: line %d", i, i))
	}
	ls[13] = "        continued"
	kept, lost := goFailureLines(ls)
	if lost != 4 || len(kept) != maxGoFailureLines || kept[0] != "x_test.go:1: line 1" ||
		kept[3] != "x_test.go:8: line 8" || kept[9] != "    continued" {
		t.Errorf("kept %q, lost %d", kept, lost)
	}
}

// TestGoTestLayouts checks the attribution of reason lines in the layouts
// go test prints, on small outputs where every field can be checked.
func TestGoTestLayouts(t *testing.T) {
	for _, c := range []struct {
		name, out string
		want      []string // lines the body must contain
	}{
		{"nested subtests without -v",
			"--- FAIL: TestS (0.00s)\n    --- FAIL: TestS/x (0.00s)\n        s_test.go:9: bad\n            more\nFAIL\nFAIL\tp\t0.01s\n",
			[]string{"tests_failed: 2", "- --- FAIL: TestS/x (0.00s)\n  s_test.go:9: bad\n      more\n"}},
		{"a parent's lines after its subtest's",
			"--- FAIL: TestP (0.00s)\n    p_test.go:3: before\n    --- FAIL: TestP/s (0.00s)\n        p_test.go:5: sub\n    p_test.go:7: after\nFAIL\n",
			[]string{"- --- FAIL: TestP (0.00s)\n  p_test.go:3: before\n  p_test.go:7: after\n- --- FAIL: TestP/s (0.00s)\n  p_test.go:5: sub\n"}},
		{"-count=2 with -v",
			"=== RUN   TestA\n    a_test.go:1: first\n--- FAIL: TestA (0.00s)\n=== RUN   TestA\n    a_test.go:1: second\n--- FAIL: TestA (0.00s)\nFAIL\nFAIL\tp\t0.01s\n",
			[]string{"tests_passed: 0", "- --- FAIL: TestA (0.00s)\n  a_test.go:1: first\n- --- FAIL: TestA (0.00s)\n  a_test.go:1: second\n"}},
		{"an example",
			"--- FAIL: ExampleF (0.00s)\ngot:\n1\nwant:\n2\nFAIL\nexit status 1\nFAIL\tp\t0.01s\n",
			[]string{"- --- FAIL: ExampleF (0.00s)\n  got:\n  1\n  want:\n  2\npassed", ""}},
		{"output without a newline before a result line",
			"partial--- FAIL: TestA (0.00s)\n    a_test.go:3: bad\nok so far--- FAIL: TestB (0.00s)\nFAIL\nFAIL\tp\t0.01s\n",
			[]string{"tests_failed: 2", "- TestA\n- TestB\n", "- --- FAIL: TestA (0.00s)\n  a_test.go:3: bad\n"}},
		{"output without a newline with -v",
			"=== RUN   TestA\npartial    a_test.go:3: bad\n--- FAIL: TestA (0.00s)\n=== RUN   TestB\nok so far--- PASS: TestB (0.00s)\n" +
				"=== RUN   TestS\n=== RUN   TestS/a\ndone=== RUN   TestS/b\n    s_test.go:9: bad\n--- FAIL: TestS (0.00s)\n" +
				"    --- PASS: TestS/a (0.00s)\n    --- FAIL: TestS/b (0.00s)\nFAIL\nFAIL\tp\t0.01s\n",
			[]string{"tests_passed: 2", "tests_failed: 3", "- --- FAIL: TestA (0.00s)\n  a_test.go:3: bad\n",
				"- --- FAIL: TestS/b (0.00s)\n  s_test.go:9: bad\n"}},
		{"output without a newline with -json",
			`{"Action":"output","Package":"p","Test":"TestJ","Output":"=== RUN   TestJ\n"}` + "\n" +
				`{"Action":"output","Package":"p","Test":"TestJ","Output":"summing    j_test.go:4: bad\n"}` + "\n" +
				`{"Action":"output","Package":"p","Test":"TestJ","Output":"partial"}` + "\n" +
				`{"Action":"output","Package":"p","Test":"TestJ","Output":"--- FAIL: TestJ (0.00s)\n"}` + "\n" +
				`{"Action":"fail","Package":"p","Test":"TestJ"}` + "\n" +
				`{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}` + "\n" +
				`{"Action":"fail","Package":"p"}` + "\n",
			[]string{"tests_failed: 1", "- --- FAIL: TestJ (0.00s)\n  j_test.go:4: bad\n"}},
		{"result text inside a line is no result",
			"see --- FAIL: TestA (0.00s) above\nx--- FAIL: Test A (0.00s)\nok  \tp\t0.01s\n",
			[]string{"tests_failed: 0"}},
		{"a package that exited",
			"=== RUN   TestA\nsetup: no database\nFAIL\tp\t0.01s\n=== RUN   TestB\n--- PASS: TestB (0.00s)\nPASS\nok  \tq\t0.01s\n",
			[]string{"packages_ok: 1", "- FAIL\tp\t0.01s\n  setup: no database\n"}},
		{"ok lines a verbose test printed",
			"=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \tp\t0.01s\nok  \tq\t0.01s\n--- FAIL: TestA (0.00s)\nFAIL\nFAIL\tp\t0.01s\n",
			[]string{"packages_ok: 0", "packages_failed: 1", "tests_passed: 0", "tests_failed: 1"}},
	} {
		r := &summarize.Run{Rule: "bash.go_test", Command: "go test", Stdout: []byte(c.out), ExitCode: 1, Exited: true}
		body := string(Test(r).Render())
		for _, w := range c.want {
			w = strings.TrimSuffix(w, "passed")
			if !strings.Contains(body, w) {
				t.Errorf("%s: body lacks %q:\n%s", c.name, w, body)
			}
		}
	}
}

// TestGoTailStart: go's own text is cut off a line that a test's output
// without a final newline ran into only when it has go's exact shape and
// ends the line.
func TestGoTailStart(t *testing.T) {
	for l, want := range map[string]string{
		"loading fixture...--- FAIL: TestLoad (0.00s)":           "--- FAIL: TestLoad (0.00s)",
		"header ok--- PASS: TestHeader (0.00s)":                  "--- PASS: TestHeader (0.00s)",
		"x--- SKIP: TestA/sub_test#01 (12.50s)":                  "--- SKIP: TestA/sub_test#01 (12.50s)",
		"body done=== RUN   TestSections/footer":                 "=== RUN   TestSections/footer",
		"x=== PAUSE TestP":                                       "=== PAUSE TestP",
		"x=== CONT  TestP":                                       "=== CONT  TestP",
		"x=== NAME  TestP":                                       "=== NAME  TestP",
		"summing    report_test.go:24: total = 7, want 6":        "    report_test.go:24: total = 7, want 6",
		"a  b    x_test.go:3: y":                                 "    x_test.go:3: y",
		"--- FAIL: TestLoad (0.00s)":                             "",
		"    --- FAIL: TestLoad/x (0.00s)":                       "",
		"        x_test.go:3: reason":                            "",
		"=== RUN   TestA":                                        "",
		"see --- FAIL: TestA (0.00s) above":                      "",
		"x--- FAIL: Test A (0.00s)":                              "",
		"x--- FAIL: TestA (0.00)":                                "",
		"x--- FAIL: TestA (fast)":                                "",
		"x--- FAILED: TestA (0.00s)":                             "",
		"x--- FAIL:  (0.00s)":                                    "",
		"x=== RUN   ":                                            "",
		"x=== RUNNING TestA":                                     "",
		"x   x_test.go:3: three spaces":                          "",
		"x    x_test.go:3 no colon after the line":               "",
		"./a.go:1:2: undefined: x    b_test.go:3: not the first": "",
		"\t/usr/local/go/src/testing/testing.go:1974 +0x232":     "",
	} {
		got := ""
		if i := goTailStart(l); i > 0 {
			got = l[i:]
		}
		if got != want {
			t.Errorf("goTailStart(%q) cuts off %q, want %q", l, got, want)
		}
	}
}
