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
			b := NewBuffer(tt.limit)
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

// FuzzBuffer checks the capture against the whole stream: below the limit
// it is the stream itself; above it, the kept head is a prefix and the kept
// tail a suffix of the stream, and memory never exceeds twice the limit.
func FuzzBuffer(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), uint8(4), uint8(1))
	f.Add([]byte(strings.Repeat("line\n", 50)), uint8(16), uint8(7))
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
		if !b.Truncated() {
			if !bytes.Equal(got, data) {
				t.Fatalf("untruncated capture %q != %q", got, data)
			}
			return
		}
		if len(got) > max(int(limit), 2) {
			t.Fatalf("kept %d bytes over limit %d", len(got), limit)
		}
		if !bytes.HasPrefix(data, b.head) {
			t.Fatalf("head is not a prefix")
		}
		if !bytes.HasSuffix(data, b.tail) {
			t.Fatalf("tail is not a suffix")
		}
	})
}
