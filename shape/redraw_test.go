package shape

import (
	"strings"
	"testing"
)

func TestRedraw(t *testing.T) {
	bar := func(n int) string {
		var b strings.Builder
		for i := 0; i <= n; i++ {
			b.WriteString("\rdownload [" + strings.Repeat("#", i*20/n) + strings.Repeat(".", 20-i*20/n) + "]")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, line string
		want       string
	}{
		{"short bar", bar(10) + "\n", "download [####################] [shrinkrun: last state of a line redrawn 11 times, 353 bytes]"},
		{"bar longer than a line kept", bar(1000) + "\n", "download [####################] [shrinkrun: last state of a line redrawn 1001 times, 32033 bytes]"},
		{"CRLF is no redraw", "done\r\n", "done"},
		{"escapes removed", "\x1b[32mok\x1b[0m all good\n", "ok all good"},
		{"a failure drawn over stays", "ERROR: disk full\rprogress 100%\n", "ERROR: disk full\rprogress 100%"},
	} {
		got := cutText([]string{"x"}, 3000, 2000, filler(400)+tc.line)
		if !strings.Contains(got, "\n"+tc.want+"\n") {
			t.Errorf("%s: no %q in\n%s", tc.name, tc.want, got)
		}
	}
}

// TestEscapeStart: a released start never ends inside an escape, so that
// it and the rest read as the whole line reads.
func TestEscapeStart(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[31mERROR\x1b[0m", "\x1b[31mERROR\x1b[0m"},
		{"ok \x1b", "ok "},
		{"ok \x1b[3", "ok "},
		{"ok \x1b[31", "ok "},
		{"\x1b[31m", "\x1b[31m"},
		{"a\x1b]8;;http://x\x07link", "a\x1b]8;;http://x\x07link"},
		{"a\x1b]8;;http://x", "a"},
		{"a\x1b]8;;http://x\x1b", "a"},
		{"a\x1b]8;;http://x\x1b\\", "a\x1b]8;;http://x\x1b\\"},
		{"a\x1b(", "a"},
		{"a\x1b(B", "a\x1b(B"},
	} {
		got := string(escapeStart([]byte(tc.in)))
		if got != tc.want {
			t.Errorf("escapeStart(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
