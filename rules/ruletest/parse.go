package ruletest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Parsed is a block taken apart the way an agent reads it, for oracles
// that check what a block states against what the output shows.
type Parsed struct {
	Header  map[string]string   // the header's fields
	Scalars map[string]string   // the body's "key: value" fields (the last one of a key)
	Lists   map[string][]string // the body's lists; an item's continuation lines follow it after '\n'
	Keys    []string            // the body's keys, scalars and lists, in order
}

// headerKeys is how many lines the header has after the marker.
const headerKeys = 10

// Parse takes a block apart. It fails on anything that is not a header
// followed by scalars and lists, so an oracle never reads a malformed block
// as an empty one.
func Parse(block []byte) (Parsed, error) {
	p := Parsed{Header: map[string]string{}, Scalars: map[string]string{}, Lists: map[string][]string{}}
	lines := strings.Split(strings.TrimSuffix(string(block), "\n"), "\n")
	if len(lines) < headerKeys+1 || lines[0] != summarize.Marker {
		return p, fmt.Errorf("no header")
	}
	for _, l := range lines[1 : headerKeys+1] {
		k, v, ok := strings.Cut(l, ": ")
		if !ok {
			return p, fmt.Errorf("header line %q", l)
		}
		p.Header[k] = v
	}
	list := ""
	for _, l := range lines[headerKeys+1:] {
		switch {
		case strings.HasPrefix(l, "- "):
			if list == "" {
				return p, fmt.Errorf("item %q outside a list", l)
			}
			p.Lists[list] = append(p.Lists[list], l[2:])
		case strings.HasPrefix(l, "  "):
			items := p.Lists[list]
			if len(items) == 0 {
				return p, fmt.Errorf("continuation %q outside an item", l)
			}
			items[len(items)-1] += "\n" + l[2:]
		case strings.HasSuffix(l, ":") && !strings.Contains(l, ": "):
			list = strings.TrimSuffix(l, ":")
			p.Keys = append(p.Keys, list)
		default:
			k, v, ok := strings.Cut(l, ": ")
			if !ok {
				return p, fmt.Errorf("body line %q", l)
			}
			list = ""
			p.Scalars[k] = v
			p.Keys = append(p.Keys, k)
		}
	}
	return p, nil
}

// Int returns a scalar as a number; ok is false when the block does not
// state it (or states something else than a number).
func (p Parsed) Int(key string) (n int, ok bool) {
	v, ok := p.Scalars[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

// Mentions reports whether s appears anywhere in the body: a scalar's
// value or a list item.
func (p Parsed) Mentions(s string) bool {
	for _, v := range p.Scalars {
		if strings.Contains(v, s) {
			return true
		}
	}
	for _, items := range p.Lists {
		for _, it := range items {
			if strings.Contains(it, s) {
				return true
			}
		}
	}
	return false
}

// Head, Tail and Grep cut an output as head -n, tail -n and grep do: by
// whole lines, the last one kept without a newline if it had none.

// Head keeps the first n lines of b.
func Head(b []byte, n int) []byte {
	end := 0
	for i := 0; i < n && end < len(b); i++ {
		j := bytes.IndexByte(b[end:], '\n')
		if j < 0 {
			return b
		}
		end += j + 1
	}
	return b[:end]
}

// Tail keeps the last n lines of b.
func Tail(b []byte, n int) []byte {
	if n == 0 {
		return nil
	}
	end := len(b)
	if end > 0 && b[end-1] == '\n' {
		end--
	}
	start := end
	for i := 0; i < n; i++ {
		j := bytes.LastIndexByte(b[:start], '\n')
		if j < 0 {
			return b
		}
		if i == n-1 {
			return b[j+1:]
		}
		start = j
	}
	return b[start+1:]
}

// Grep keeps the lines of b that keep accepts (given each line without its
// newline), as grep prints them: each with a newline.
func Grep(b []byte, keep func(line string) bool) []byte {
	var out []byte
	for l := range summarize.EachLine(b) {
		if keep(l) {
			out = append(append(out, l...), '\n')
		}
	}
	return out
}
