package summarize

import (
	"bytes"
	"testing"
)

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

func TestReadable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\n", "plain\n"},
		{"\x1b[31merror\x1b[0m: x\r\n", "error: x\n"},
		{"50%\r100%\n", "100%\n"},
		{"Receiving objects:  50% (1/2)\rReceiving objects: 100% (2/2), done.\n", "Receiving objects: 100% (2/2), done.\n"},
		// cargo on a terminal: the progress bar, then "\r ESC[K" and the error.
		{"    Building [====>   ] 3/7: demo(bin)                \r\x1b[K\x1b[1m\x1b[91merror[E0425]\x1b[0m: x\n", "error[E0425]: x\n"},
		// Without an erase, a shorter redraw leaves the end of the old text.
		{"abcdef\rXY\n", "XYcdef\n"},
		{"abcdef\rXY\x1b[0K\n", "XY\n"},
		{"abcdef\x1b[2K\rXY\n", "XY\n"},
		{"ab\x1b[2K  c\r\n", "ab  c\n"}, // no redraw: escapes are only removed
		{"tail\r", "tail"},
		{"a\rb\nc\x1b[1md\x1b[0m\n\x1b", "b\ncd\n"},
		{"\r\x1b", ""},
	}
	for _, tt := range tests {
		if got := string(Readable([]byte(tt.in))); got != tt.want {
			t.Errorf("Readable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	clean := []byte("no escapes\n")
	if got := Readable(clean); &got[0] != &clean[0] {
		t.Error("Readable copied output with nothing to strip")
	}
}

// checkReadable holds Readable to what it promises on any input: output
// with no escape or carriage return (the input itself when it had none),
// the same lines, lines without "\r" as StripTerminal gives them, and
// nothing left to do a second time.
func checkReadable(t *testing.T, b []byte) {
	got := Readable(b)
	if !bytes.ContainsAny(b, "\x1b\r") {
		if !bytes.Equal(got, b) {
			t.Fatalf("Readable(%q) = %q, changed output without escapes", b, got)
		}
		return
	}
	if bytes.ContainsAny(got, "\x1b\r") {
		t.Fatalf("Readable(%q) = %q, still has an escape or \\r", b, got)
	}
	if bytes.Count(got, []byte{'\n'}) != bytes.Count(b, []byte{'\n'}) {
		t.Fatalf("Readable(%q) = %q: lines changed", b, got)
	}
	in, out := bytes.Split(b, []byte{'\n'}), bytes.Split(got, []byte{'\n'})
	for i, l := range in {
		l = bytes.TrimRight(l, "\r")
		if !bytes.ContainsRune(l, '\r') {
			if want := StripTerminal(l); !bytes.Equal(out[i], want) {
				t.Fatalf("Readable(%q): line %d is %q, StripTerminal gives %q", b, i, out[i], want)
			}
		}
	}
	if again := Readable(got); !bytes.Equal(again, got) {
		t.Fatalf("Readable(%q) = %q, then %q", b, got, again)
	}
}

// stripTerminalByByte is StripTerminal as it was, one byte at a time.
func stripTerminalByByte(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == 0x1b && i+1 < len(b):
			i = SkipEscape(b, i)
		case c == 0x1b:
		case c == '\r' && i+1 < len(b) && b[i+1] == '\n':
		default:
			out = append(out, c)
		}
	}
	return out
}
