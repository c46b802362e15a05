package runner

import (
	"bytes"
	"strings"
	"testing"
)

func TestBuffer(t *testing.T) {
	tests := []struct {
		name      string
		limit     int
		writes    []string
		want      string
		truncated bool
	}{
		{"empty", 10, nil, "", false},
		{"fits", 10, []string{"abc\n", "def\n"}, "abc\ndef\n", false},
		{"exactly", 8, []string{"abc\n", "def\n"}, "abc\ndef\n", false},
		{"head and tail at line boundaries", 12, []string{"a1\na2\n", "b1\nb2\n", "c1\nc2\n", "d1\nd2\n"}, "a1\na2\nd1\nd2\n", true},
		{"one big write", 8, []string{"l1\nl2\nl3\nl4\nl5\nl6\n"}, "l1\nl6\n", true},
		{"many small writes", 8, strings.Split(strings.Repeat("xy\n", 100), ""), "xy\nxy\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBuffer(tt.limit, 1<<20)
			var total int
			for _, w := range tt.writes {
				n, err := b.Write([]byte(w))
				if n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
				total += n
			}
			if got := string(b.Bytes()); got != tt.want {
				t.Errorf("Bytes = %q, want %q", got, tt.want)
			}
			if b.Truncated() != tt.truncated {
				t.Errorf("Truncated = %v", b.Truncated())
			}
			if b.Total() != int64(total) {
				t.Errorf("Total = %d, want %d", b.Total(), total)
			}
		})
	}
}

// TestBufferLines: a capture keeps at most one line per 16 bytes of its
// limit, half from each end, whether or not bytes were dropped.
func TestBufferLines(t *testing.T) {
	tests := []struct {
		name      string
		limit     int
		in        string
		want      string
		truncated bool
	}{
		{"under the bound", 64, "\n\n\n\n", "\n\n\n\n", false},
		{"empty lines", 64, strings.Repeat("\n", 10), "\n\n\n\n", true},
		{"ends kept", 64, "1\n2\n3\n4\n5\n6\n", "1\n2\n5\n6\n", true},
		{"unterminated last line", 64, "1\n2\n3\n4\n5\n6", "1\n2\n5\n6", true},
		{"exactly at the bound", 64, "1\n2\n3\n4\n", "1\n2\n3\n4\n", false},
		{"bytes and lines dropped", 96, strings.Repeat("\n", 200), "\n\n\n\n\n\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuffer(tt.limit)
			b.Write([]byte(tt.in))
			if got := string(b.Bytes()); got != tt.want {
				t.Errorf("Bytes = %q, want %q", got, tt.want)
			}
			if b.Truncated() != tt.truncated {
				t.Errorf("Truncated = %v", b.Truncated())
			}
		})
	}
}

// FuzzBuffer checks the capture against the whole stream: when nothing was
// dropped it is the stream itself; otherwise it is a head and a later tail
// of the stream, cut at line boundaries, within the byte and line bounds,
// and memory never exceeds twice the limit.
func FuzzBuffer(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), uint8(4), uint8(1))
	f.Add([]byte(strings.Repeat("line\n", 50)), uint8(16), uint8(7))
	f.Add([]byte(strings.Repeat("\n", 300)), uint8(64), uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, limit, chunk uint8) {
		b := NewBuffer(int(limit))
		step := int(chunk) + 1
		for i := 0; i < len(data); i += step {
			b.Write(data[i:min(i+step, len(data))])
		}
		if cap(b.tail) > 4*(int(limit)+2) {
			t.Fatalf("tail grew to %d", cap(b.tail))
		}
		got := b.Bytes()
		if b.Total() != int64(len(data)) {
			t.Fatalf("Total = %d, want %d", b.Total(), len(data))
		}
		if !b.Truncated() {
			if !bytes.Equal(got, data) {
				t.Fatalf("untruncated capture %q != %q", got, data)
			}
			return
		}
		if len(got) > max(int(limit), 2) {
			t.Fatalf("kept %d bytes over limit %d", len(got), limit)
		}
		if n := bytes.Count(got, []byte{'\n'}); n > 2*b.maxLines {
			t.Fatalf("kept %d lines over the bound %d", n, 2*b.maxLines)
		}
		if !isHeadAndTail(data, got) {
			t.Fatalf("capture %q is not a head and a tail of %q at line boundaries", got, data)
		}
	})
}

// isHeadAndTail reports whether got is a prefix of data followed by a
// suffix that starts further on, each whole lines where it has a newline:
// the prefix ends with one or holds none, the suffix starts after one or
// holds none (the ends of a single line too long to keep whole).
func isHeadAndTail(data, got []byte) bool {
	for k := 0; k <= len(got); k++ {
		head, tail := got[:k], got[k:]
		if !bytes.HasPrefix(data, head) || !bytes.HasSuffix(data, tail) {
			continue
		}
		start := len(data) - len(tail)
		headOK := k == 0 || head[k-1] == '\n' || bytes.IndexByte(head, '\n') < 0
		tailOK := start == 0 || data[start-1] == '\n' || bytes.IndexByte(tail, '\n') < 0
		if start > len(head) && headOK && tailOK {
			return true
		}
	}
	return false
}
