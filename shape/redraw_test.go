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
