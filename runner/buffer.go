package runner

import "bytes"

// Buffer keeps a bounded capture of one stream: the first half of its limit
// as the head and the most recent bytes as the tail, while counting every
// byte written. Summaries need both ends: a build's first error is at the
// head, a test run's verdict at the tail.
//
// The capture also keeps at most one line per bytesPerLine bytes of its
// limit, half from the head and half from the tail. Summarizers split the
// capture into lines of 16-byte string headers each; the bound keeps that
// slice no bigger than the capture, where a flood of empty lines would
// otherwise make it sixteen times bigger. Output of ordinary lines meets
// the byte limit first.
type Buffer struct {
	head, tail []byte
	headMax    int
	tailMax    int
	maxLines   int // lines kept from each end
	total      int64
	// lastDropped is the byte just before the first byte of tail, when
	// bytes were dropped there: a '\n' means the tail starts a line.
	lastDropped byte

	kept []byte // what Bytes returns, computed once after the last Write
}

// bytesPerLine is the bytes of limit each kept line stands for.
const bytesPerLine = 16

// NewBuffer returns a Buffer that keeps at most limit bytes, in at most
// limit/16 lines.
func NewBuffer(limit int) *Buffer {
	return newBuffer(limit, limit/bytesPerLine)
}

func newBuffer(limit, lines int) *Buffer {
	limit = max(limit, 2)
	return &Buffer{headMax: limit / 2, tailMax: limit - limit/2, maxLines: max(lines/2, 1)}
}

// Write never fails: bytes past the limit are counted and dropped.
func (b *Buffer) Write(p []byte) (int, error) {
	n := len(p)
	b.total += int64(n)
	b.kept = nil
	if room := b.headMax - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if len(p) >= b.tailMax {
		cut := len(p) - b.tailMax
		if cut > 0 {
			b.lastDropped = p[cut-1]
		} else if len(b.tail) > 0 {
			b.lastDropped = b.tail[len(b.tail)-1]
		}
		b.tail = append(b.tail[:0], p[cut:]...)
		return n, nil
	}
	// Keep the tail in a slice of up to twice its limit and slide it down
	// when full: amortized O(1) per byte, no ring arithmetic for readers.
	if len(b.tail)+len(p) > 2*b.tailMax {
		keep := b.tailMax - len(p)
		b.lastDropped = b.tail[len(b.tail)-keep-1]
		b.tail = append(b.tail[:0], b.tail[len(b.tail)-keep:]...)
	}
	b.tail = append(b.tail, p...)
	return n, nil
}

// Total is the number of bytes written, kept or not.
func (b *Buffer) Total() int64 { return b.total }

// Truncated reports whether the capture is not the whole stream.
func (b *Buffer) Truncated() bool {
	return int64(len(b.Bytes())) < b.total
}

// Bytes returns the capture; it must not be modified. When anything was
// dropped, the capture is a head cut after a newline and a tail that
// starts a line, so no line is a splice of two; the part in between is
// gone and Truncated says so.
func (b *Buffer) Bytes() []byte {
	if b.kept == nil {
		b.kept = b.capture()
	}
	return b.kept
}

func (b *Buffer) capture() []byte {
	tail, before := b.tail, b.lastDropped
	if len(tail) > b.tailMax {
		before = tail[len(tail)-b.tailMax-1]
		tail = tail[len(tail)-b.tailMax:]
	}
	if b.total <= int64(b.headMax+b.tailMax) {
		// Nothing was dropped: head and tail are the stream, whose ends the
		// line bound is taken from.
		whole := append(append(make([]byte, 0, len(b.head)+len(tail)), b.head...), tail...)
		if bytes.Count(whole, []byte{'\n'}) < 2*b.maxLines {
			return whole
		}
		head, rest := firstLines(whole, b.maxLines)
		return append(head, lastLines(rest, b.maxLines)...)
	}
	head, _ := firstLines(b.head, b.maxLines)
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i+1]
	}
	if t := lastLines(tail, b.maxLines); len(t) < len(tail) {
		tail, before = t, '\n'
	}
	if before != '\n' {
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	return append(append(make([]byte, 0, len(head)+len(tail)), head...), tail...)
}

// firstLines splits p after its n-th newline; head is all of p when it has
// fewer.
func firstLines(p []byte, n int) (head, rest []byte) {
	end := 0
	for range n {
		i := bytes.IndexByte(p[end:], '\n')
		if i < 0 {
			return p, nil
		}
		end += i + 1
	}
	return p[:end], p[end:]
}

// lastLines returns the last n lines of p, a line being what a newline
// ends or what follows the last newline; all of p when it has no more.
func lastLines(p []byte, n int) []byte {
	end := len(p)
	if end > 0 && p[end-1] == '\n' {
		end-- // the final newline ends the last line
	}
	for range n {
		i := bytes.LastIndexByte(p[:end], '\n')
		if i < 0 {
			return p
		}
		end = i
	}
	return p[end+1:]
}
