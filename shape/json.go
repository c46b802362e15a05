package shape

import (
	"strconv"
)

// A JSON document (or a stream of JSON values, one a line) on stdout keeps
// its head, and in place of the rest its structure: each path, its
// arrays' indexes folded into [], with what it holds, how often, its
// arrays' and objects' sizes, and the first value seen there:
//
//	[shrinkrun: stdout is one JSON value; its structure (path: what it holds):]
//	$: object ×1, 2 keys
//	$.items: array ×1, 12004 items
//	$.items[]: object ×12004, 3-4 keys
//	$.items[].id: number ×12004, first 1
//	$.items[].name: string ×12004, first "alpha"
//	[shrinkrun: 3 more paths not shown]
//
// The reader is a byte-at-a-time state machine over stdout from its first
// byte, head included: it keeps a few hundred paths, a few bytes of each
// first value and the open containers, so memory does not follow the
// document's size. Output that is not JSON to its end is cut as any other.

const (
	maxPaths     = 256
	maxJSONDepth = 512
	maxKey       = 128
	maxSample    = 48
)

// JSON's kinds of value, as the structure names them.
const (
	jObject = iota
	jArray
	jString
	jNumber
	jBoolean
	jNull
	jKinds
)

var kindNames = [jKinds]string{"object", "array", "string", "number", "boolean", "null"}

// pathStat is what one path holds.
type pathStat struct {
	name     []byte // ".key", `["a key"]` or "[]", after its parent's
	parent   int
	kinds    [jKinds]int64
	sample   []byte // the first scalar's text, up to maxSample bytes
	sampleN  int64  // its length
	min, max int64  // arrays' items, objects' keys
	sized    bool
}

// jsonFrame is an open container.
type jsonFrame struct {
	array bool
	path  int   // the container's path; -1 when not tracked
	n     int64 // items or keys so far
	child int   // an object's current key's path
}

// The reader's states between tokens.
const (
	jsValue      = iota // a value is due
	jsValueOrEnd        // after "[": a value or "]"
	jsKeyOrEnd          // after "{": a key or "}"
	jsKey               // after ",": a key
	jsColon             // after a key
	jsAfter             // after a value: ",", a closing bracket, or (at the top) another value
	jsString
	jsScalar // in a number or literal
)

type jsonShape struct {
	bad    bool
	state  int
	key    bool   // the string being read is a key
	esc    bool   // after a backslash
	hex    int    // hex digits still due in a \u escape
	tok    []byte // the current key, or the current scalar's start
	tokN   int64
	tokFor int     // the path the scalar belongs to
	num    numScan // the scalar read as a number
	stack  []jsonFrame
	values int64 // top-level values
	paths  []pathStat
	index  map[string]int
	lookup []byte
	lost   int64 // values under paths not tracked
}

// newJSON returns a reader when stdout's first byte that is not white
// space can begin a JSON document, or nil.
func newJSON(first byte) *jsonShape {
	if first != '{' && first != '[' {
		return nil
	}
	return &jsonShape{index: map[string]int{}, paths: []pathStat{{name: []byte("$"), parent: -1}}}
}

// isScalarByte reports whether c may go on a number or a literal: any
// other byte ends it.
func isScalarByte(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// feed reads the next bytes of stdout.
func (j *jsonShape) feed(p []byte) {
	for i := 0; i < len(p) && !j.bad; i++ {
		c := p[i]
		switch j.state {
		case jsString:
			if j.esc || j.hex > 0 {
				j.escaped(c)
				j.keep(p[i : i+1])
				continue
			}
			// The string's bytes up to a quote, a backslash or a control
			// character, at once.
			k := i
			for k < len(p) && p[k] != '"' && p[k] != '\\' && p[k] >= 0x20 {
				k++
			}
			j.keep(p[i:k])
			if k == len(p) {
				i = k - 1
				continue
			}
			i = k
			j.keep(p[k : k+1])
			switch {
			case p[k] == '\\':
				j.esc = true
			case p[k] < 0x20:
				j.bad = true
			default:
				j.endString()
			}
		case jsScalar:
			k := i
			for k < len(p) && isScalarByte(p[k]) {
				k++
			}
			for _, c := range p[i:k] {
				j.num = j.num.next(c)
			}
			j.keep(p[i:k])
			if k == len(p) {
				i = k - 1
				continue
			}
			j.endScalar()
			i = k - 1 // read p[k] again in the state after the value
		default:
			if isJSONSpace(c) {
				for i+1 < len(p) && isJSONSpace(p[i+1]) {
					i++
				}
				continue
			}
			j.token(c, p[i:i+1])
		}
	}
}

// escaped reads the byte after a backslash, or a \u escape's digit.
func (j *jsonShape) escaped(c byte) {
	if j.hex > 0 {
		j.hex--
		if !isDigit(c) && !('a' <= c|0x20 && c|0x20 <= 'f') {
			j.bad = true
		}
		return
	}
	j.esc = false
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
	case 'u':
		j.hex = 4
	default:
		j.bad = true
	}
}

// keep adds b to the current token, up to what a key or a sample needs.
func (j *jsonShape) keep(b []byte) {
	limit := maxSample + 1
	if j.key {
		limit = maxKey + 2
	}
	if room := limit - len(j.tok); room > 0 {
		j.tok = append(j.tok, b[:min(room, len(b))]...)
	}
	j.tokN += int64(len(b))
}

// token reads a byte outside strings and scalars.
func (j *jsonShape) token(c byte, b []byte) {
	switch j.state {
	case jsColon:
		if c != ':' {
			j.bad = true
			return
		}
		j.state = jsValue
		return
	case jsAfter:
		switch {
		case c == ',' && len(j.stack) > 0:
			if j.top().array {
				j.state = jsValue
			} else {
				j.state = jsKey
			}
			return
		case c == ']' || c == '}':
			j.close(c)
			return
		case len(j.stack) == 0:
			j.state = jsValue // JSON lines: the next value
		default:
			j.bad = true
			return
		}
	case jsKeyOrEnd, jsKey:
		if c == '}' && j.state == jsKeyOrEnd {
			j.close(c)
			return
		}
		if c != '"' {
			j.bad = true
			return
		}
		j.state, j.key, j.tok, j.tokN = jsString, true, j.tok[:0], 0
		j.keep(b)
		return
	case jsValueOrEnd:
		if c == ']' {
			j.close(c)
			return
		}
	}
	// A value starts.
	path := j.valuePath()
	switch c {
	case '{', '[':
		if len(j.stack) == maxJSONDepth {
			j.bad = true
			return
		}
		kind := jObject
		if c == '[' {
			kind = jArray
		}
		j.count(path, kind)
		j.stack = append(j.stack, jsonFrame{array: c == '[', path: path, child: -1})
		j.state = jsKeyOrEnd
		if c == '[' {
			j.state = jsValueOrEnd
		}
	case '"':
		j.state, j.key, j.tok, j.tokN, j.tokFor = jsString, false, j.tok[:0], 0, path
		j.keep(b)
	default:
		if c != '-' && !isDigit(c) && c != 't' && c != 'f' && c != 'n' {
			j.bad = true
			return
		}
		j.state, j.tok, j.tokN, j.tokFor = jsScalar, j.tok[:0], 0, path
		j.num = numStart.next(c)
		j.keep(b)
	}
}

func (j *jsonShape) top() *jsonFrame { return &j.stack[len(j.stack)-1] }

// valuePath is the path of the value about to start, counted as an item
// of its array.
func (j *jsonShape) valuePath() int {
	if len(j.stack) == 0 {
		j.values++
		return 0
	}
	f := j.top()
	if !f.array {
		return f.child
	}
	f.n++
	return j.child(f.path, []byte("[]"))
}

// child returns the path named name under parent, made if there is room.
func (j *jsonShape) child(parent int, name []byte) int {
	if parent < 0 {
		return -1
	}
	j.lookup = strconv.AppendInt(j.lookup[:0], int64(parent), 10)
	j.lookup = append(append(j.lookup, 0), name...)
	if id, ok := j.index[string(j.lookup)]; ok {
		return id
	}
	if len(j.paths) == maxPaths {
		return -1
	}
	id := len(j.paths)
	j.paths = append(j.paths, pathStat{name: append([]byte(nil), name...), parent: parent})
	j.index[string(j.lookup)] = id
	return id
}

// count records a value of kind at path.
func (j *jsonShape) count(path, kind int) {
	if path < 0 {
		j.lost++
		return
	}
	j.paths[path].kinds[kind]++
}

// endString ends a key or a string value.
func (j *jsonShape) endString() {
	if j.key {
		j.key = false
		f := j.top()
		f.n++
		f.child = -1
		if j.tokN <= maxKey+2 {
			f.child = j.child(f.path, keyName(j.tok))
		}
		j.state = jsColon
		return
	}
	j.scalar(jString)
}

// endScalar ends a number or a literal.
func (j *jsonShape) endScalar() {
	switch t := string(j.tok); {
	case t == "true" || t == "false":
		j.scalar(jBoolean)
	case t == "null":
		j.scalar(jNull)
	case j.num.complete():
		j.scalar(jNumber)
	default:
		j.bad = true
	}
}

// scalar records the scalar just read.
func (j *jsonShape) scalar(kind int) {
	j.count(j.tokFor, kind)
	if p := j.tokFor; p >= 0 && j.paths[p].sample == nil {
		j.paths[p].sample = append([]byte(nil), j.tok[:min(len(j.tok), maxSample)]...)
		j.paths[p].sampleN = j.tokN
	}
	j.state = jsAfter
}

// close ends the innermost container with bracket c.
func (j *jsonShape) close(c byte) {
	if len(j.stack) == 0 || j.top().array != (c == ']') {
		j.bad = true
		return
	}
	f := j.stack[len(j.stack)-1]
	j.stack = j.stack[:len(j.stack)-1]
	if f.path >= 0 {
		p := &j.paths[f.path]
		if !p.sized || f.n < p.min {
			p.min = f.n
		}
		if !p.sized || f.n > p.max {
			p.max = f.n
		}
		p.sized = true
	}
	j.state = jsAfter
}

// keyName is how a path names a key: ".key" for a name, else the key's
// JSON text in brackets.
func keyName(quoted []byte) []byte {
	k := quoted[1 : len(quoted)-1]
	plain := len(k) > 0 && len(identPrefix(k)) == len(k)
	if plain {
		return append([]byte("."), k...)
	}
	return append(append([]byte("["), quoted...), ']')
}

// numScan is where a JSON number's grammar is after the bytes read so
// far: a number is checked a byte at a time, whatever its length, since
// only its start is kept.
type numScan uint8

const (
	numStart numScan = iota
	numMinus
	numZero
	numInt
	numDot
	numFrac
	numE
	numESign
	numExp
	numBad
)

// next is the state after byte c.
func (n numScan) next(c byte) numScan {
	digit := isDigit(c)
	switch n {
	case numStart, numMinus:
		switch {
		case c == '-' && n == numStart:
			return numMinus
		case c == '0':
			return numZero
		case digit:
			return numInt
		}
	case numZero, numInt:
		switch {
		case digit && n == numInt:
			return numInt
		case c == '.':
			return numDot
		case c == 'e' || c == 'E':
			return numE
		}
	case numDot, numFrac:
		switch {
		case digit:
			return numFrac
		case (c == 'e' || c == 'E') && n == numFrac:
			return numE
		}
	case numE:
		switch {
		case c == '+' || c == '-':
			return numESign
		case digit:
			return numExp
		}
	case numESign, numExp:
		if digit {
			return numExp
		}
	}
	return numBad
}

// complete reports whether a number may end here.
func (n numScan) complete() bool {
	return n == numZero || n == numInt || n == numFrac || n == numExp
}

// valid reports whether stdout was JSON values to its end.
func (j *jsonShape) valid() bool {
	if j == nil || j.bad || len(j.stack) > 0 || j.values == 0 {
		return false
	}
	if j.state == jsScalar {
		// A number at the very end: the end of the output ends it.
		j.endScalar()
	}
	return !j.bad && j.state == jsAfter
}

// fit returns the structure, as room allows once the list keeps only the
// failure lines: the paths in the order they were first seen, and a count
// of those left out.
func (j *jsonShape) fit(k *cutState, room int) []byte {
	for k.l.ageTail() {
	}
	for r := rankPlain; r < rankFailure; r++ {
		for k.l.dropRank(r) {
		}
	}
	room -= k.l.size
	b := []byte(markerPrefix + "stdout is ")
	if j.values == 1 {
		b = append(b, "one JSON value; its"...)
	} else {
		b = strconv.AppendInt(b, j.values, 10)
		b = append(b, " JSON values; their"...)
	}
	b = append(b, " structure (path: what it holds):]\n"...)
	more := func(n int) []byte {
		if n == 0 {
			return nil
		}
		m := append([]byte(markerPrefix), strconv.Itoa(n)...)
		if n == 1 {
			return append(m, " more path not shown]\n"...)
		}
		return append(m, " more paths not shown]\n"...)
	}
	if len(b)+len(more(len(j.paths))) > room {
		return nil
	}
	var line []byte
	for i := range j.paths {
		line = j.appendPath(line[:0], i)
		if len(b)+len(line)+len(more(len(j.paths)-i-1)) > room {
			return append(b, more(len(j.paths)-i)...)
		}
		b = append(b, line...)
	}
	if j.lost > 0 {
		m := append([]byte(markerPrefix), strconv.FormatInt(j.lost, 10)...)
		m = append(m, " values under paths not tracked]\n"...)
		if len(b)+len(m) <= room {
			b = append(b, m...)
		}
	}
	return b
}

// appendPath appends the line of path i: its name, each kind and count,
// the sizes, the first value.
func (j *jsonShape) appendPath(b []byte, i int) []byte {
	b = j.appendName(b, i)
	b = append(b, ": "...)
	p := &j.paths[i]
	first := true
	for kind, n := range p.kinds {
		if n == 0 {
			continue
		}
		if !first {
			b = append(b, ", "...)
		}
		first = false
		b = append(b, kindNames[kind]...)
		b = append(b, " ×"...)
		b = strconv.AppendInt(b, n, 10)
	}
	if p.sized {
		unit := "key"
		if p.kinds[jArray] > 0 {
			unit = "item"
		}
		b = append(b, ", "...)
		b = strconv.AppendInt(b, p.min, 10)
		if p.max != p.min {
			b = append(b, '-')
			b = strconv.AppendInt(b, p.max, 10)
		}
		b = append(b, ' ')
		b = append(b, unit...)
		if p.max != 1 {
			b = append(b, 's')
		}
	}
	if p.sample != nil {
		b = append(b, ", first "...)
		if int64(len(p.sample)) == p.sampleN {
			b = append(b, p.sample...)
		} else {
			b = append(b, runeStart(p.sample)...)
			b = append(b, "… ("...)
			b = appendCount(b, p.sampleN, "byte")
			b = append(b, ')')
		}
	}
	return append(b, '\n')
}

func (j *jsonShape) appendName(b []byte, i int) []byte {
	if p := j.paths[i].parent; p >= 0 {
		b = j.appendName(b, p)
	}
	return append(b, j.paths[i].name...)
}
