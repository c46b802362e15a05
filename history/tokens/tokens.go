// Package tokens counts tokens the way OpenAI's o200k_base encoding (GPT-4o,
// GPT-4.1, o-series, GPT-5) splits text: its pre-tokenizer and byte-pair
// merges over its exact vocabulary, embedded in the binary.
//
// It exists so that `shrinkrun gain` can report real token counts without
// the network and without making every other run slower. The vocabulary is
// a string in the binary's read-only data and is turned into a map only on
// the first [Count]; the package's initialization does nothing, so linking
// it into shrinkrun costs a command run nothing (docs/history.md, "Token
// counts"). The reference implementation,
// github.com/tiktoken-go/tokenizer, builds its tables in package
// initialization and is used only by this package's tests, which check that
// both count alike and that the embedded vocabulary is o200k_base's.
package tokens

import (
	_ "embed"
	"io"
	"math"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Encoding names the vocabulary and splitting rules this package uses.
const Encoding = "o200k_base"

// vocabSize is the number of ordinary (non-special) tokens of o200k_base;
// their ranks are 0..vocabSize-1.
const vocabSize = 199998

// vocabData holds every token of o200k_base in rank order, each as one
// length byte followed by the token's bytes. TestVocabulary regenerates it
// from the reference implementation with -update.
//
//go:embed o200k_base.bin
var vocabData string

// ranks maps each token to its rank; built on first use, never in package
// initialization.
func ranks() map[string]uint32 {
	loadOnce.Do(func() {
		m := make(map[string]uint32, vocabSize)
		data := vocabData
		for rank := uint32(0); len(data) > 0; rank++ {
			n := int(data[0])
			m[data[1:1+n]] = rank
			data = data[1+n:]
		}
		if len(m) != vocabSize {
			panic("tokens: corrupt embedded vocabulary")
		}
		rankMap = m
	})
	return rankMap
}

var (
	loadOnce sync.Once
	rankMap  map[string]uint32
)

// Load builds the vocabulary map now rather than on the first Count, so a
// caller can time it apart from counting. It is safe to call more than once.
func Load() { ranks() }

// Count returns the number of o200k_base tokens in b. Invalid UTF-8 is
// first replaced by U+FFFD, one per maximal invalid subpart, as a model's
// harness decoding the output with errors="replace" would see it. Special
// tokens such as <|endoftext|> get no special treatment: they count as the
// ordinary text they are.
func Count(b []byte) int {
	return CountString(validString(b))
}

// CountString is Count for a string.
func CountString(s string) int {
	if !utf8.ValidString(s) {
		s = validString([]byte(s))
	}
	r := ranks()
	n := 0
	for len(s) > 0 {
		end := nextPiece(s)
		piece := s[:end]
		s = s[end:]
		if _, ok := r[piece]; ok {
			n++
			continue
		}
		n += mergeCount(r, piece)
	}
	return n
}

// CountReader counts the tokens of everything r yields, as Count would of
// all of it at once, holding only a window of it in memory. The text is
// cut after a line break followed by a character that is neither white
// space nor '/': no piece of the pattern spans such a point, and what
// follows it is split the same whether or not what precedes it is there.
// A stretch of more than maxWindow bytes without such a point is cut where
// the window ends, which may split one piece in two there.
func CountReader(r io.Reader) (int64, error) {
	return countReader(r, 1<<20, 64<<20)
}

func countReader(r io.Reader, chunk, maxWindow int) (int64, error) {
	var n int64
	buf := make([]byte, 0, chunk)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, chunk)
		}
		m, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return n + int64(Count(buf)), nil
		} else if err != nil {
			return n, err
		}
		cutAt := safeCut(buf)
		if cutAt == 0 && len(buf) >= maxWindow {
			cutAt = len(buf)
		}
		if cutAt > 0 {
			n += int64(Count(buf[:cutAt]))
			buf = buf[:copy(buf, buf[cutAt:])]
		}
	}
}

// safeCut returns the last position in b just after a '\n' whose next
// character is complete and neither white space nor '/', or 0.
func safeCut(b []byte) int {
	for i := len(b) - 2; i >= 0; i-- {
		if b[i] != '\n' {
			continue
		}
		r, size := utf8.DecodeRune(b[i+1:])
		if r == utf8.RuneError && size == 1 && !utf8.FullRune(b[i+1:]) {
			continue // the character is cut off at the end of b
		}
		if r != '/' && !isSpace(r) {
			return i + 1
		}
	}
	return 0
}

// validString returns b as a string with every maximal invalid UTF-8
// subpart replaced by U+FFFD (the Unicode "substitution of maximal subparts"
// practice, which Python's errors="replace" follows).
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+16)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
			b = b[maximalSubpart(b):]
			continue
		}
		out = append(out, b[:n]...)
		b = b[n:]
	}
	return string(out)
}

// maximalSubpart returns the length of the longest prefix of b that starts
// a well-formed UTF-8 sequence without completing it (at least 1): the
// bytes one U+FFFD replaces.
func maximalSubpart(b []byte) int {
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	i := 1
	for ; i <= need && i < len(b); i++ {
		c := b[i]
		if i == 1 && (c < lo || c > hi) || i > 1 && (c < 0x80 || c > 0xBF) {
			break
		}
	}
	return i
}

// mergeCount returns the number of tokens byte-pair encoding splits piece
// into: starting from single bytes, the adjacent pair whose concatenation
// has the lowest rank merges first (the leftmost on a tie), until no pair
// is a token.
func mergeCount(r map[string]uint32, piece string) int {
	if len(piece) < heapFrom {
		return mergeScan(r, piece)
	}
	return mergeHeap(r, piece)
}

// heapFrom is the piece length from which mergeHeap's O(n log n) beats
// mergeScan's O(n²). Long pieces are rare (a run of one punctuation
// character, a long word of letters) but can be megabytes.
const heapFrom = 128

const noRank = math.MaxUint32

// mergeScan finds each merge with a linear scan. starts[i] is where part i
// begins; rank[i] is the rank of parts i and i+1 merged.
func mergeScan(r map[string]uint32, piece string) int {
	var startBuf [heapFrom + 1]int
	var rankBuf [heapFrom + 1]uint32
	starts := startBuf[:len(piece)+1]
	rank := rankBuf[:len(piece)+1]
	for i := range starts {
		starts[i] = i
	}
	pair := func(i int) uint32 {
		if i+2 >= len(starts) {
			return noRank
		}
		if v, ok := r[piece[starts[i]:starts[i+2]]]; ok {
			return v
		}
		return noRank
	}
	for i := range rank {
		rank[i] = pair(i)
	}
	for len(starts) > 2 {
		best, at := uint32(noRank), -1
		for i, v := range rank[:len(starts)-2] {
			if v < best {
				best, at = v, i
			}
		}
		if at < 0 {
			break
		}
		// Part at+1 disappears into part at.
		starts = append(starts[:at+1], starts[at+2:]...)
		rank = append(rank[:at+1], rank[at+2:]...)
		rank[at] = pair(at)
		if at > 0 {
			rank[at-1] = pair(at - 1)
		}
	}
	return len(starts) - 1
}

// mergeHeap gives mergeScan's result with the candidate pairs in a min-heap
// ordered by rank, then position, so a merge costs O(log n). Boundaries form
// a linked list; a candidate whose boundary changed since it was pushed is
// skipped when popped.
func mergeHeap(r map[string]uint32, piece string) int {
	n := len(piece)
	next := make([]int, n+1)
	prev := make([]int, n+1)
	rank := make([]uint32, n+1)
	for i := range next {
		next[i], prev[i], rank[i] = i+1, i-1, noRank
	}
	next[n] = -1
	pair := func(i int) uint32 {
		j := next[i]
		if j < 0 || next[j] < 0 {
			return noRank
		}
		if v, ok := r[piece[i:next[j]]]; ok {
			return v
		}
		return noRank
	}
	h := candidates{}
	for i := 0; i+2 <= n; i++ {
		if v := pair(i); v != noRank {
			rank[i] = v
			h = append(h, candidate{v, i})
		}
	}
	h.init()
	parts := n
	for len(h) > 0 {
		c := h.pop()
		i := c.pos
		if rank[i] != c.rank {
			continue // stale: boundary i changed since
		}
		j := next[i]
		k := next[j]
		rank[j] = noRank
		next[i] = k
		if k >= 0 {
			prev[k] = i
		}
		parts--
		for _, b := range [2]int{i, prev[i]} {
			if b < 0 {
				continue
			}
			rank[b] = pair(b)
			if rank[b] != noRank {
				h.push(candidate{rank[b], b})
			}
		}
	}
	return parts
}

type candidate struct {
	rank uint32
	pos  int
}

// candidates is a binary min-heap ordered by rank, then position.
type candidates []candidate

func (h candidates) less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].pos < h[b].pos
}

func (h candidates) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *candidates) push(c candidate) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *candidates) pop() candidate {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down(0)
	return top
}

func (h candidates) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// isUpper and isLower are the two letter classes of the o200k pattern:
// [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and [\p{Ll}\p{Lm}\p{Lo}\p{M}]. Modifier
// and other letters and marks are in both.
func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

// isSpace is \s of the reference regular expression engine: Unicode
// White_Space, as unicode.IsSpace reports it.
func isSpace(r rune) bool { return unicode.IsSpace(r) }

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isNumber(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsNumber(r)
}

// isPrefix is [^\r\n\p{L}\p{N}], the one character a word may take in front.
func isPrefix(r rune) bool { return r != '\r' && r != '\n' && !isLetter(r) && !isNumber(r) }

// isPunct is [^\s\p{L}\p{N}].
func isPunct(r rune) bool { return !isSpace(r) && !isLetter(r) && !isNumber(r) }

// run returns the byte length of the longest prefix of s whose runes all
// satisfy in.
func run(s string, in func(rune) bool) int {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !in(r) {
			break
		}
		i += n
	}
	return i
}

// first returns the first rune of s and its length; (-1, 0) when s is empty.
func first(s string) (rune, int) {
	if s == "" {
		return -1, 0
	}
	return utf8.DecodeRuneInString(s)
}

// nextPiece returns the byte length of the first piece of s (s non-empty,
// valid UTF-8): the match the o200k_base pattern
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n/]*
//	|\s*[\r\n]+
//	|\s+(?!\S)
//	|\s+
//
// finds at the start of s under backtracking (first alternative that
// matches, greedy loops giving back one character at a time). Each branch
// below is that search written out; every character starts some
// alternative, so a piece is never empty.
func nextPiece(s string) int {
	c, cn := first(s)
	// Alternatives 1 and 2: an optional prefix character, then letters.
	prefixes := [2]int{cn, 0}
	if !isPrefix(c) {
		prefixes[0] = -1
	}
	for _, p := range prefixes {
		if p < 0 {
			continue
		}
		if end := upperLower(s, p); end > 0 {
			return end
		}
	}
	for _, p := range prefixes {
		if p < 0 {
			continue
		}
		if u := run(s[p:], isUpper); u > 0 {
			end := p + u
			end += run(s[end:], isLower)
			return end + contraction(s[end:])
		}
	}
	// Alternative 3: one to three digits.
	if isNumber(c) {
		end := cn
		for k := 1; k < 3; k++ {
			r, n := first(s[end:])
			if n == 0 || !isNumber(r) {
				break
			}
			end += n
		}
		return end
	}
	// Alternative 4: an optional space, punctuation, then line breaks and
	// slashes.
	p := 0
	if c == ' ' {
		p = 1
	}
	if q := run(s[p:], isPunct); q > 0 {
		end := p + q
		return end + run(s[end:], func(r rune) bool { return r == '\r' || r == '\n' || r == '/' })
	}
	// Alternatives 5 to 7: white space.
	w := run(s, isSpace)
	if w == 0 {
		return cn // unreachable: every rune is a letter, number, space or punctuation
	}
	// \s*[\r\n]+: up to the last line break of the run.
	for i := w - 1; i >= 0; i-- {
		if s[i] == '\r' || s[i] == '\n' {
			return i + 1
		}
	}
	// \s+(?!\S): the run, less its last character when a non-space follows.
	if w == len(s) {
		return w
	}
	_, lastLen := utf8.DecodeLastRuneInString(s[:w])
	if w > lastLen {
		return w - lastLen
	}
	return w // \s+
}

// upperLower matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+
// and an optional contraction at s[p:] and returns the end of the match in
// s, or 0 when there is none. The greedy upper-case run gives back one
// character at a time until a lower-case one can follow.
func upperLower(s string, p int) int {
	u := run(s[p:], isUpper)
	for k := p + u; ; {
		if r, n := first(s[k:]); n > 0 && isLower(r) {
			end := k + run(s[k:], isLower)
			return end + contraction(s[end:])
		}
		if k == p {
			return 0
		}
		_, n := utf8.DecodeLastRuneInString(s[p:k])
		k -= n
	}
}

// contraction returns the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at the
// start of s, or 0. Case folding is Unicode's simple folding, under which
// ſ (U+017F, long s) is an s.
func contraction(s string) int {
	if len(s) < 2 || s[0] != '\'' {
		return 0
	}
	fold := func(c byte) byte { return c | 0x20 }
	switch fold(s[1]) {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		if len(s) >= 3 && fold(s[2]) == 'e' {
			return 3
		}
	case 'l':
		if len(s) >= 3 && fold(s[2]) == 'l' {
			return 3
		}
	}
	if len(s) >= 3 && s[1:3] == "ſ" {
		return 3
	}
	return 0
}
