package runner

import "bytes"

// Buffer keeps a bounded capture of one stream: the first half of its limit
// as the head and the most recent bytes as the tail, while counting every
// byte written. Summaries need both ends: a build's first error is at the
// head, a test run's verdict at the tail.
type Buffer struct {
	head, tail []byte
	headMax    int
	tailMax    int
	total      int64
	// lastDropped is the byte just before the first byte of tail, when
	// bytes were dropped there: a '\n' means the tail starts a line.
	lastDropped byte
}

// NewBuffer returns a Buffer that keeps at most limit bytes.
func NewBuffer(limit int) *Buffer {
	if limit < 2 {
		limit = 2
	}
	return &Buffer{headMax: limit / 2, tailMax: limit - limit/2}
}

// Write never fails: bytes past the limit are counted and dropped.
func (b *Buffer) Write(p []byte) (int, error) {
	n := len(p)
	b.total += int64(n)
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

// Truncated reports whether bytes were dropped.
func (b *Buffer) Truncated() bool {
	return b.total > int64(b.headMax+b.tailMax)
}

// Bytes returns the capture. When bytes were dropped, the head is cut after
// its last newline and the tail starts after its first one, so no line is a
// splice of two; the part in between is gone and Truncated says so.
func (b *Buffer) Bytes() []byte {
	tail, before := b.tail, b.lastDropped
	if len(tail) > b.tailMax {
		before = tail[len(tail)-b.tailMax-1]
		tail = tail[len(tail)-b.tailMax:]
	}
	if !b.Truncated() {
		return append(append([]byte(nil), b.head...), tail...)
	}
	head := b.head
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i+1]
	}
	if before != '\n' {
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	return append(append([]byte(nil), head...), tail...)
}
