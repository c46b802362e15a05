package summarize

import "testing"

func TestStripTerminal(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\n", "plain\n"},
		{"\x1b[31merror\x1b[0m: x\r\n", "error: x\n"},
		{"\x1b[1m\x1b[32m   Compiling\x1b[0m demo\r\n", "   Compiling demo\n"},
		{"\x1b]0;title\x07text", "text"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"50%\r100%\n", "50%\r100%\n"},
		{"\x1b[2K\x1b[1Gdone", "done"},
		{"trailing esc\x1b", "trailing esc"},
		{"unterminated \x1b[12", "unterminated "},
		{"\x1b(Bcharset", "charset"},
	}
	for _, tt := range tests {
		if got := string(StripTerminal([]byte(tt.in))); got != tt.want {
			t.Errorf("StripTerminal(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
