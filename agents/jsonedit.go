package agents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Settings files belong to the user and to the agent, which both edit
// them. They are changed here by splicing text into the file, never by
// decoding and re-encoding it, so every byte outside the hook entry stays
// as it was: key order, spacing, and number spelling. This file is the
// small JSON reader that knows where each value starts and ends.

// node is a JSON value with its byte span in the source.
type node struct {
	kind       byte // '{', '[', '"', or 'v' for numbers, booleans and null
	start, end int  // src[start:end] is the value's text
	str        string
	keys       []string
	keyStarts  []int
	vals       []*node // members of an object, elements of an array
}

// parseJSON reads one JSON value with the spans of all its parts. Invalid
// JSON is an error that says where: line and column (in characters, from
// 1), and what was found there, such as a comment, which JSON does not
// allow.
func parseJSON(src []byte) (*node, error) {
	if !json.Valid(src) {
		var v any
		err := json.Unmarshal(src, &v)
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			return nil, fmt.Errorf("not valid JSON: %v", err)
		}
		line, col := position(src, int(se.Offset))
		return nil, fmt.Errorf("not valid JSON at line %d, column %d: %v", line, col, se)
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	return parseValue(dec, src)
}

// position gives the line and column, from 1, of the character a syntax
// error's offset has just read past (the last one, for an input that ends
// too soon).
func position(src []byte, offset int) (line, col int) {
	before := src[:max(min(offset, len(src))-1, 0)]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = 1 + utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
	return line, col
}

// skipSep moves past the whitespace, commas and colons the decoder consumes
// between tokens, to where the next token starts.
func skipSep(src []byte, i int) int {
	for i < len(src) && strings.IndexByte(" \t\r\n,:", src[i]) >= 0 {
		i++
	}
	return i
}

func parseValue(dec *json.Decoder, src []byte) (*node, error) {
	start := skipSep(src, int(dec.InputOffset()))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	n := &node{kind: 'v', start: start}
	switch t := tok.(type) {
	case json.Delim:
		n.kind = byte(t)
		for dec.More() {
			if t == '{' {
				ks := skipSep(src, int(dec.InputOffset()))
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
				n.keyStarts = append(n.keyStarts, ks)
			}
			v, err := parseValue(dec, src)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
	case string:
		n.kind, n.str = '"', t
	}
	n.end = int(dec.InputOffset())
	return n, nil
}

// member returns the value of key in object n, or nil.
func (n *node) member(key string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// splice replaces src[start:end] with text.
func splice(src []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(src)-(end-start)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}

// lineIndent is the whitespace that starts the line holding offset i, or
// "" when something else precedes i on its line.
func lineIndent(src []byte, i int) string {
	j := i
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	if j > 0 && src[j-1] != '\n' {
		return ""
	}
	return string(src[j:i])
}

// style is how new text is laid out to fit the file: the indentation unit
// and the indent of the container it goes in. A file written on one line
// gets compact text.
type style struct {
	unit    string
	compact bool
}

// fileStyle guesses the indentation unit from the first member of the
// top-level object, defaulting to two spaces.
func fileStyle(src []byte, root *node) style {
	if root.kind != '{' || len(root.keyStarts) == 0 {
		return style{unit: "  "}
	}
	if !bytes.Contains(src[root.start:root.end], []byte("\n")) {
		return style{compact: true}
	}
	if u := lineIndent(src, root.keyStarts[0]); u != "" {
		return style{unit: u}
	}
	return style{unit: "  "}
}

// render encodes v to sit at a position whose line is indented by indent.
func (s style) render(v any, indent string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if !s.compact {
		enc.SetIndent(indent, s.unit)
	}
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// indentOf is the indent of the line a container starts on.
func indentOf(src []byte, n *node) string {
	i := n.start
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	j := i
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return string(src[i:j])
}

// appendItem adds an element (key "") or a member after the container's
// last item, on its own line at the same indent, or fills an empty
// container.
func appendItem(src []byte, c *node, st style, key string, v any) ([]byte, error) {
	prefix := ""
	if c.kind == '{' {
		k, err := st.render(key, "")
		if err != nil {
			return nil, err
		}
		prefix = k + ": "
	}
	outer := indentOf(src, c)
	if len(c.vals) == 0 {
		inner := outer + st.unit
		text, err := st.render(v, inner)
		if err != nil {
			return nil, err
		}
		if st.compact {
			return splice(src, c.start+1, c.end-1, prefix+text), nil
		}
		return splice(src, c.start+1, c.end-1, "\n"+inner+prefix+text+"\n"+outer), nil
	}
	itemStart := c.vals[len(c.vals)-1].start
	if c.kind == '{' {
		itemStart = c.keyStarts[len(c.keyStarts)-1]
	}
	indent := lineIndent(src, itemStart)
	sep := "\n" + indent
	if st.compact || indent == "" {
		sep, indent = " ", outer+st.unit
	}
	text, err := st.render(v, indent)
	if err != nil {
		return nil, err
	}
	last := c.vals[len(c.vals)-1].end
	return splice(src, last, last, ","+sep+prefix+text), nil
}

// removeItem deletes item i of container c (an element or a member) with
// the separator that joined it to its neighbour; an only item leaves the
// container empty.
func removeItem(src []byte, c *node, i int) []byte {
	start := c.vals[i].start
	if c.kind == '{' {
		start = c.keyStarts[i]
	}
	switch {
	case len(c.vals) == 1:
		return splice(src, c.start+1, c.end-1, "")
	case i > 0:
		return splice(src, c.vals[i-1].end, c.vals[i].end, "")
	default:
		next := c.vals[1].start
		if c.kind == '{' {
			next = c.keyStarts[1]
		}
		return splice(src, start, next, "")
	}
}
