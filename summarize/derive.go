package summarize

// A Key names a reading of a stream that a family's rule and its finder
// both make, such as go's text of test2json events: Derive makes it once
// per run and stream, for both.
type Key struct{ name string }

// NewKey returns a new Key; name says what it derives, for a reader.
func NewKey(name string) *Key { return &Key{name: name} }

// derived holds what Derive computed from one stream, and the stream's
// bytes, by which it is known.
type derived struct {
	src  []byte
	vals map[*Key]any
}

// Derive returns compute(b) for b one of r's streams, computed once per
// Run: a rule and the boundary check run on the same Run, and Block hands
// both the same streams. For any other b it is computed afresh. A stream is
// known by its bytes' address and length, which never change while a rule
// runs.
func Derive[T any](r *Run, k *Key, b []byte, compute func([]byte) T) T {
	for i, stream := range [][]byte{r.Stdout, r.Stderr} {
		if !sameBytes(stream, b) {
			continue
		}
		d := &r.derived[i]
		if d.vals == nil || !sameBytes(d.src, b) {
			*d = derived{src: b, vals: map[*Key]any{}}
		}
		if v, ok := d.vals[k]; ok {
			return v.(T)
		}
		v := compute(b)
		d.vals[k] = v
		return v
	}
	return compute(b)
}
