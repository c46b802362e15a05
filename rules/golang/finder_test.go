package golang

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

func TestGoFailures(t *testing.T) {
	tests := []struct {
		name   string
		out    string
		failed bool
		want   []string
	}{
		{"reason after the fail line", "--- FAIL: TestA (0.00s)\n    a_test.go:12: got 1, want 2\n        second line\n", true,
			[]string{"TestA", "a_test.go:12:"}},
		{"reason before the fail line (-v)", "=== RUN   TestA\n    a_test.go:12: got 1\n--- FAIL: TestA (0.00s)\n", true,
			[]string{"TestA", "a_test.go:12:"}},
		{"a passing test's log", "=== RUN   TestB\n    b_test.go:3: log\n--- PASS: TestB (0.00s)\nPASS\nok  \texample.com/demo\t0.002s\n", false, nil},
		{"a skipped test's reason", "=== RUN   TestB\n    b_test.go:3: needs a database\n--- SKIP: TestB (0.00s)\n", false, nil},
		{"nested subtests", "--- FAIL: TestS (0.00s)\n    --- FAIL: TestS/x (0.00s)\n        s_test.go:9: bad\n", true,
			[]string{"TestS", "TestS/x", "s_test.go:9:"}},
		{"subtests with -v", "=== RUN   TestS\n=== RUN   TestS/x\n    s_test.go:9: bad\n=== RUN   TestS/y\n    s_test.go:10: fine\n" +
			"--- FAIL: TestS (0.00s)\n    --- FAIL: TestS/x (0.00s)\n    --- PASS: TestS/y (0.00s)\n", true,
			[]string{"TestS", "TestS/x", "s_test.go:9:"}},
		{"parallel tests with -v", "=== RUN   TestP\n=== PAUSE TestP\n=== RUN   TestQ\n=== PAUSE TestQ\n=== CONT  TestP\n=== CONT  TestQ\n" +
			"    q_test.go:5: q fails\n=== NAME  TestP\n    p_test.go:5: p logs\n--- PASS: TestP (0.00s)\n--- FAIL: TestQ (0.00s)\n", true,
			[]string{"TestQ", "q_test.go:5:"}},
		{"a parent's lines after its subtest's", "--- FAIL: TestP (0.00s)\n    p_test.go:3: before\n    --- FAIL: TestP/s (0.00s)\n" +
			"        p_test.go:5: sub\n    p_test.go:7: after\n", true,
			[]string{"TestP", "TestP/s", "p_test.go:3:", "p_test.go:5:", "p_test.go:7:"}},
		{"the next test's reasons are its own", "--- FAIL: TestA (0.00s)\n--- FAIL: TestB (0.00s)\n    b_test.go:1: x\n", true,
			[]string{"TestA", "TestB", "b_test.go:1:"}},
		{"failing packages", "FAIL\texample.com/demo\t0.01s\nFAIL\texample.com/demo/b [build failed]\nFAIL\n", true,
			[]string{"example.com/demo", "example.com/demo/b"}},
		{"results that are not failures", "ok  \texample.com/demo\t0.01s\n?   \texample.com/demo/cmd\t[no test files]\n" +
			"--- PASS: TestA (0.00s)\n--- SKIP: TestB (0.00s)\ntests: 3 passed, 0 failed\nFAIL\n", true, nil},
		{"a panic", "panic: boom [recovered, repanicked]\n\ngoroutine 7 [running]:\nexample.com/demo.TestX(0x1)\n\t/tmp/demo/x_test.go:12 +0x45\n", true,
			[]string{"panic: boom [recovered, repanicked]"}},
		{"a panic in a passing run is printed text", "panic: not really\n", false, nil},
		{"a fatal error", "fatal error: all goroutines are asleep - deadlock!\n", true,
			[]string{"fatal error: all goroutines are asleep - deadlock!"}},
		{"compile errors", "# example.com/demo\n./a.go:12:5: undefined: x\nvet: ./b.go:3:1: undefined: y\n\thave (int)\n", true,
			[]string{"./a.go:12:5", "./b.go:3:1"}},
		{"a location without a column", "./a.go:12: some message\n", true, nil},
		{"compile errors need a failed run", "./a.go:12:5: can inline f\n", false, nil},
		{"go command messages", "go: downloading golang.org/x/text v0.20.0\ngo: cannot find main module\n", true,
			[]string{"go: cannot find main module"}},
		{"test2json events", `{"Action":"run","Package":"p","Test":"TestJ"}` + "\n" +
			`{"Action":"output","Package":"p","Test":"TestJ","Output":"=== RUN   TestJ\n"}` + "\n" +
			`{"Action":"output","Package":"p","Test":"TestJ","Output":"    j_test.go:7: wrong\n"}` + "\n" +
			`{"Action":"output","Package":"p","Test":"TestJ","Output":"--- FAIL: TestJ (0.00s)\n"}` + "\n" +
			`{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}` + "\n" +
			`{"Action":"fail","Package":"p"}` + "\n", true,
			[]string{"TestJ", "j_test.go:7:", "p"}},
		{"a duration is required", "--- FAIL: TestA\n", true, nil},
		{"a result after output without a newline", "partial output--- FAIL: TestA (0.00s)\n    a_test.go:3: bad\n", false,
			[]string{"TestA", "a_test.go:3:"}},
		{"a result after output without a newline (-v)", "=== RUN   TestA\nloading...--- FAIL: TestA (0.00s)\n=== RUN   TestB\nok--- PASS: TestB (0.00s)\n", false,
			[]string{"TestA"}},
		{"a reason after output without a newline (-v)", "=== RUN   TestA\nsumming    a_test.go:24: total = 7\n--- FAIL: TestA (0.00s)\n", true,
			[]string{"TestA", "a_test.go:24:"}},
		{"a run marker after output without a newline (-v)", "=== RUN   TestS\n=== RUN   TestS/a\ndone=== RUN   TestS/b\n    s_test.go:9: bad\n" +
			"--- FAIL: TestS (0.00s)\n    --- PASS: TestS/a (0.00s)\n    --- FAIL: TestS/b (0.00s)\n", true,
			[]string{"TestS", "TestS/b", "s_test.go:9:"}},
		{"result text that is not the line's tail", "see --- FAIL: TestA (0.00s) above\nx--- FAIL: TestA (0.00)\nx--- FAIL: Test A (0.00s)\n" +
			"x--- FAIL:  (0.00s)\nx--- FAILED: TestA (0.00s)\n", true, nil},
		{"test2json events after output without a newline", `{"Action":"output","Package":"p","Test":"TestJ","Output":"=== RUN   TestJ\n"}` + "\n" +
			`{"Action":"output","Package":"p","Test":"TestJ","Output":"partial"}` + "\n" +
			`{"Action":"output","Package":"p","Test":"TestJ","Output":"--- FAIL: TestJ (0.00s)\n"}` + "\n" +
			`{"Action":"fail","Package":"p","Test":"TestJ"}` + "\n", false,
			[]string{"TestJ"}},
		{"cargo's and git's lines", "test a::b ... FAILED\nerror[E0425]: x\n  --> src/a.rs:1:2\n", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ruletest.CheckRequired(t, Finder, tt.failed, tt.out, "", tt.want)
		})
	}
}
