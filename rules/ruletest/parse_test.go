package ruletest

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	block := "[tool_output_compression]\ntool: bash\nrule: bash.x\ncommand: x | tail -2\nsuccess: true\nexit_code: 0\n" +
		"raw_stdout_bytes: 9\nraw_stderr_bytes: 0\nstdout_truncated: false\nstderr_truncated: false\ncompression: curated\n" +
		"cut_by: tail -2\nlines_seen: 2\nfailed_tests:\n- a\n  at x:1\n- b\nfailed_tests_omitted: 3\nraw_output: shrinkrun show 0\n"
	p, err := Parse([]byte(block))
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := p.Int("lines_seen"); !ok || n != 2 {
		t.Errorf("lines_seen = %d %v", n, ok)
	}
	if got := p.Lists["failed_tests"]; !reflect.DeepEqual(got, []string{"a\nat x:1", "b"}) {
		t.Errorf("failed_tests = %q", got)
	}
	if want := "cut_by lines_seen failed_tests failed_tests_omitted raw_output"; strings.Join(p.Keys, " ") != want {
		t.Errorf("keys %q", p.Keys)
	}
	if !p.Mentions("x:1") || p.Mentions("zzz") {
		t.Error("Mentions")
	}
	if _, err := Parse([]byte("no block\n")); err == nil {
		t.Error("parsed a non-block")
	}
}

func TestCuts(t *testing.T) {
	in := []byte("1\n2\n3\n4")
	for _, c := range []struct{ got, want string }{
		{string(Head(in, 2)), "1\n2\n"},
		{string(Head(in, 9)), "1\n2\n3\n4"},
		{string(Head(in, 0)), ""},
		{string(Tail(in, 2)), "3\n4"},
		{string(Tail([]byte("1\n2\n3\n"), 2)), "2\n3\n"},
		{string(Tail(in, 9)), "1\n2\n3\n4"},
		{string(Tail(in, 0)), ""},
		{string(Grep(in, func(l string) bool { return l != "2" })), "1\n3\n4\n"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
