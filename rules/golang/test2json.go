package golang

import (
	"encoding/json"
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// This file decodes the events go test -json (test2json) prints, mostly by
// hand (json.Unmarshal on every event was most of a go test -json
// summary's time), and joins their text per package. checkGoHandParsers
// (TestGoHandParsers, FuzzHandParsers) holds the decoder to encoding/json.

// goEvent is one test2json event (go test -json), as far as the rules read
// it: the text it carries and what it belongs to.
type goEvent struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
	// quoted tells that Output is still spelled as in the line, between
	// its quotes, escapes and all: most events' text is a line and its
	// "\n", which goPackageText keeps as a slice of the event's line.
	quoted bool
}

// textArena holds the text of the events whose Output has escapes
// besides "\n": their unescaped strings are cut from a few large blocks
// instead of allocated one by one.
type textArena struct {
	b strings.Builder
}

// unquote returns the text of a string body that scanJSONString accepted,
// its escapes undone. The block's bytes before its length are never
// written again, so the strings cut from it stay as they are.
func (a *textArena) unquote(s string) string {
	if a.b.Cap()-a.b.Len() < len(s) { // the text is never longer than s
		a.b = strings.Builder{}
		a.b.Grow(max(len(s), 16<<10))
	}
	start := a.b.Len()
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 {
			a.b.WriteString(s)
			return a.b.String()[start:]
		}
		a.b.WriteString(s[:i])
		switch c := s[i+1]; c {
		case 'u':
			r, _ := jsonHex4(s[i+2:])
			a.b.WriteRune(r)
			s = s[i+6:]
			continue
		case 'b':
			a.b.WriteByte('\b')
		case 'f':
			a.b.WriteByte('\f')
		case 'n':
			a.b.WriteByte('\n')
		case 'r':
			a.b.WriteByte('\r')
		case 't':
			a.b.WriteByte('\t')
		default: // '"', '\\', '/'
			a.b.WriteByte(c)
		}
		s = s[i+2:]
	}
}

// decodeGoEvent reads a line as json.Unmarshal into a goEvent would, and
// reports false where that fails. Lines as test2json writes them are
// scanned by hand: json.Unmarshal on every event was most of go_test's
// time and most of the boundary check's on a -json log.
func decodeGoEvent(l string) (goEvent, bool) {
	if e, ok := scanGoEvent(l); ok {
		return e, true
	}
	var e goEvent
	if json.Unmarshal([]byte(l), &e) != nil {
		return goEvent{}, false
	}
	return e, true
}

// scanGoEvent reads an event in the form test2json writes it: a flat
// object with no blank between its tokens, keys without escapes or
// non-ASCII bytes, the event's fields strings or null and the other
// values strings, numbers, true, false or null; only Output may hold
// escapes, and no string a \u escape of a UTF-16 surrogate or invalid
// UTF-8. It reports false for any other line, valid JSON or not, which
// json.Unmarshal must judge.
func scanGoEvent(l string) (e goEvent, ok bool) {
	s, ok := strings.CutPrefix(l, "{")
	if !ok {
		return e, false
	}
	for {
		key, n := scanJSONKey(s)
		if n == 0 || n == len(s) || s[n] != ':' {
			return e, false
		}
		s = s[n+1:]
		field := e.field(key)
		switch {
		case field == nil:
			n = skipJSONScalar(s)
		case strings.HasPrefix(s, "null"):
			n = len("null") // leaves the field as it was
		default:
			v, escaped, m := scanJSONString(s)
			n = m
			if escaped && field != &e.Output {
				return e, false
			}
			*field = v
			if field == &e.Output {
				e.quoted = escaped
			}
		}
		if n == 0 || n == len(s) {
			return e, false
		}
		switch s[n] {
		case ',':
			s = s[n+1:]
		case '}':
			return e, n+1 == len(s)
		default:
			return e, false
		}
	}
}

// field returns the field a key sets, matched without regard to ASCII case
// as encoding/json matches it, or nil for a key no field takes.
func (e *goEvent) field(key string) *string {
	switch key {
	case "Time", "Elapsed":
		return nil
	case "Action":
		return &e.Action
	case "Package":
		return &e.Package
	case "Test":
		return &e.Test
	case "Output":
		return &e.Output
	case "ImportPath":
		return &e.ImportPath
	}
	for _, f := range []struct {
		name string
		p    *string
	}{{"Action", &e.Action}, {"Package", &e.Package}, {"ImportPath", &e.ImportPath}, {"Test", &e.Test}, {"Output", &e.Output}} {
		if strings.EqualFold(key, f.name) {
			return f.p
		}
	}
	return nil
}

// scanJSONKey returns the key s starts with and its length in s; n is 0
// unless the key is printable ASCII without escapes. A key in another form
// goes to json.Unmarshal, which matches keys to fields by Unicode case
// folding.
func scanJSONKey(s string) (key string, n int) {
	if s == "" || s[0] != '"' {
		return "", 0
	}
	j := jsonPlainEnd(s, 1)
	if j == len(s) || s[j] != '"' {
		return "", 0
	}
	return s[1:j], j + 1
}

// scanJSONString reads the JSON string s starts with and returns what is
// between its quotes, whether that holds escapes, and the string's length
// in s; n is 0 when s does not start with a string scanGoEvent takes.
func scanJSONString(s string) (body string, escaped bool, n int) {
	if s == "" || s[0] != '"' {
		return "", false, 0
	}
	ascii := true
	for i := 1; ; i++ {
		i = jsonPlainEnd(s, i)
		if i == len(s) {
			return "", false, 0
		}
		switch c := s[i]; {
		case c == '"':
			if !ascii && !utf8.ValidString(s[1:i]) {
				return "", false, 0
			}
			return s[1:i], escaped, i + 1
		case c == '\\':
			if i+1 == len(s) {
				return "", false, 0
			}
			escaped = true
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if r, ok := jsonHex4(s[i+2:]); !ok || utf16.IsSurrogate(r) {
					return "", false, 0
				}
				i += 5
			default:
				return "", false, 0
			}
		case c < ' ':
			return "", false, 0
		default:
			ascii = false
		}
	}
}

// load64 returns the first eight bytes of s as one word, the first byte
// lowest; the compiler makes it one load.
func load64(s string) uint64 {
	s = s[:8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// jsonPlainEnd returns the index of the first byte of s from i on that
// jsonPlain does not mark, or len(s). It tests eight bytes a step.
func jsonPlainEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := jsonSpecials(load64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && jsonPlain[s[i]] {
		i++
	}
	return i
}

// jsonSpecials returns a word whose lowest set bit is the high bit of the
// first byte of w that jsonPlain does not mark (a control character, a
// quote, a backslash or a byte of a multi-byte character), or 0 when all
// eight are plain. A byte's subtractions borrow from its high bit when it
// is below 0x20, '"' or '\\'; a borrow may also flag the bytes after
// such a byte, never one before it.
func jsonSpecials(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	borrows := (w - ones*' ') | (quote - ones) | (backslash - ones)
	return (borrows&^w | w) & highs
}

// jsonPlain marks the bytes a JSON string holds as themselves: not its
// quote, a backslash, a control character or part of a multi-byte
// character. jsonPlainEnd tests the bytes after the last whole word with
// it.
var jsonPlain = func() (plain [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		plain[c] = c != '"' && c != '\\'
	}
	return plain
}()

// jsonHex4 reads the four hex digits of a \u escape.
func jsonHex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// skipJSONScalar returns the length of the string, number, true, false or
// null s starts with, or 0.
func skipJSONScalar(s string) int {
	switch {
	case s == "":
		return 0
	case s[0] == '"':
		_, _, n := scanJSONString(s)
		return n
	case strings.HasPrefix(s, "true"), strings.HasPrefix(s, "null"):
		return 4
	case strings.HasPrefix(s, "false"):
		return 5
	}
	return jsonNumberLen(s)
}

// jsonNumberLen returns the length of the JSON number s starts with, or 0.
func jsonNumberLen(s string) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i += len(summarize.DigitsPrefix(s[i:]))
	default:
		return 0
	}
	if i < len(s) && s[i] == '.' {
		d := len(summarize.DigitsPrefix(s[i+1:]))
		if d == 0 {
			return 0
		}
		i += 1 + d
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := len(summarize.DigitsPrefix(s[i:]))
		if d == 0 {
			return 0
		}
		i += d
	}
	return i
}

// goPackageText is the text of one package's events since its last
// release, as lines splits text: its complete lines, and what follows the
// last newline. A line that one event carries whole is a slice of the
// event's line, not a copy.
type goPackageText struct {
	lines   []string
	partial strings.Builder
}

// add appends text, and a newline when nl.
func (p *goPackageText) add(text string, nl bool) {
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		p.endLine(text[:i])
		text = text[i+1:]
	}
	if nl {
		p.endLine(text)
	} else {
		p.partial.WriteString(text)
	}
}

// addQuoted appends an Output field as its line spells it: the text
// between its "\n" escapes is unescaped only when it holds other escapes.
func (p *goPackageText) addQuoted(raw string, arena *textArena) {
	for {
		i := indexNewlineEscape(raw)
		seg := raw
		if i >= 0 {
			seg = raw[:i]
		}
		if strings.IndexByte(seg, '\\') >= 0 {
			seg = arena.unquote(seg)
		}
		if i < 0 {
			p.add(seg, false)
			return
		}
		p.add(seg, true)
		raw = raw[i+2:]
	}
}

// indexNewlineEscape returns the index of the first "\n" escape in the body
// of a JSON string, or -1.
func indexNewlineEscape(s string) int {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			return -1
		}
		i += j
		if s[i+1] == 'n' {
			return i
		}
		i += 2 // a \u escape's hex digits hold no backslash
	}
}

// endLine ends the current line with tail.
func (p *goPackageText) endLine(tail string) {
	line := tail
	if p.partial.Len() > 0 {
		p.partial.WriteString(tail)
		// The line keeps the builder's bytes: Reset lets go of them and
		// never writes them again.
		line = p.partial.String()
		p.partial.Reset()
	}
	p.lines = append(p.lines, strings.TrimSuffix(line, "\r"))
}

// release yields the text's lines and empties it. It reports false when
// yield did.
func (p *goPackageText) release(yield func(string) bool) bool {
	for _, l := range p.lines {
		if !yield(l) {
			return false
		}
	}
	p.lines = p.lines[:0]
	if p.partial.Len() > 0 {
		l := strings.TrimSuffix(p.partial.String(), "\r")
		p.partial.Reset()
		return yield(l)
	}
	return true
}

// hasGoEvents reports whether any line looks like a test2json event.
func hasGoEvents(ls []string) bool {
	for _, l := range ls {
		if strings.HasPrefix(l, `{"`) && strings.Contains(l, `"Action":"`) {
			return true
		}
	}
	return false
}
