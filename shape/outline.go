package shape

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
)

// A source file viewed whole (cat FILE, nl -ba FILE, sed -n 'A,Bp' FILE,
// head FILE) keeps its head, and in place of the rest its outline: every
// class, function, method and type it defines, each with its line number,
// so that the reader can ask for the part it needs:
//
//	[shrinkrun: 3880 lines, 140233 bytes omitted]
//	[shrinkrun: what the omitted lines define, by line number:]
//	130:class Store:
//	142:    def get(self, key):
//	[shrinkrun: 12 more definitions not shown]
//
// The language comes from the file's name. With nl or cat -n the line
// numbers are in the lines, which are shown as they are; otherwise each
// line shown is its number, a colon and the line, as grep -n prints it.
// Only stdout is a file's text: stderr is read for failures as always.

// lang is a source language the outline reads.
type lang int8

const (
	langPython lang = iota + 1
	langGo
	langJS // JavaScript and TypeScript
	langRust
	langC // C and C++
	langJava
)

var langs = map[string]lang{
	".py": langPython, ".pyi": langPython, ".go": langGo,
	".js": langJS, ".mjs": langJS, ".cjs": langJS, ".jsx": langJS, ".ts": langJS, ".tsx": langJS, ".mts": langJS, ".cts": langJS,
	".rs": langRust, ".c": langC, ".h": langC, ".cc": langC, ".cpp": langC, ".cxx": langC, ".hpp": langC, ".hh": langC, ".hxx": langC,
	".java": langJava, ".kt": langJava, ".scala": langJava,
}

type outline struct {
	lang     lang
	numbered bool  // the view prints each line's number (nl, cat -n)
	offset   int64 // sed -n 'A,Bp' prints from line A
	entries  []entry
	bytes    int
	budget   int
	byDepth  [maxDepth + 1][]int // entries by depth, newest last
	dropped  int64               // definitions left out for room
}

// entry is one definition: its line's number in the output, its
// rendering, how deeply it is indented.
type entry struct {
	out   int64
	text  []byte
	depth int
	gone  bool // left out, or shown by the tail
}

const maxDepth = 8

// maxEntry is the most of a definition's line the outline shows.
const maxEntry = 100

// newOutline returns the outline of the file argv views whole, or nil when
// argv is no such view of a source file.
func newOutline(argv []string, budget int) *outline {
	if len(argv) < 2 {
		return nil
	}
	o := &outline{budget: budget}
	var files []string
	args := argv[1:]
	switch filepath.Base(argv[0]) {
	case "cat":
		for _, a := range args {
			switch {
			case a == "-n" || a == "--number":
				o.numbered = true
			case strings.HasPrefix(a, "-") && a != "-":
				return nil // -b, -s, -A...: not the file as it is
			default:
				files = append(files, a)
			}
		}
	case "nl":
		o.numbered = true
		for i := 0; i < len(args); i++ {
			switch a := args[i]; {
			case a == "-ba" || a == "--body-numbering=a":
			case a == "-b" && i+1 < len(args) && args[i+1] == "a":
				i++
			case strings.HasPrefix(a, "-"):
				return nil // other numbering: blank lines unnumbered
			default:
				files = append(files, a)
			}
		}
	case "sed":
		if len(args) != 3 || args[0] != "-n" {
			return nil
		}
		from, ok := printRange(args[1])
		if !ok {
			return nil
		}
		o.offset = from - 1
		files = args[2:]
	case "head":
		for i := 0; i < len(args); i++ {
			switch a := args[i]; {
			case a == "-n" && i+1 < len(args):
				i++
			case strings.HasPrefix(a, "-n") || strings.HasPrefix(a, "--lines="):
			case strings.HasPrefix(a, "-"):
				return nil
			default:
				files = append(files, a)
			}
		}
	default:
		return nil
	}
	if len(files) != 1 {
		return nil
	}
	o.lang = langs[strings.ToLower(filepath.Ext(files[0]))]
	if o.lang == 0 {
		return nil
	}
	return o
}

// printRange reads sed's "A,Bp" or "Ap" and returns A.
func printRange(script string) (int64, bool) {
	s, ok := strings.CutSuffix(script, "p")
	if !ok {
		return 0, false
	}
	from, to, _ := strings.Cut(s, ",")
	a, err := strconv.ParseInt(from, 10, 64)
	if err != nil || a < 1 {
		return 0, false
	}
	if to != "" && to != "$" {
		if _, err := strconv.ParseInt(to, 10, 64); err != nil {
			return 0, false
		}
	}
	return a, true
}

// see reads one line of the file.
func (o *outline) see(u unit) {
	text, no := u.text, u.no+o.offset
	code := text
	if o.numbered {
		n, rest, ok := numbered(text)
		if !ok {
			return
		}
		no, code = n, rest
	}
	depth, ok := definition(o.lang, code)
	if !ok {
		return
	}
	e := entry{out: u.no, depth: min(depth, maxDepth)}
	if !o.numbered {
		e.text = append(strconv.AppendInt(nil, no, 10), ':')
	}
	if len(text) > maxEntry {
		// A signature over many columns: its start names it.
		e.text = append(append(e.text, runeStart(text[:maxEntry])...), "…"...)
	} else {
		e.text = append(e.text, text...)
	}
	e.text = append(e.text, '\n')
	o.entries = append(o.entries, e)
	o.byDepth[e.depth] = append(o.byDepth[e.depth], len(o.entries)-1)
	o.bytes += len(e.text)
	// Memory: what fit keeps is under the budget, and it leaves out whole
	// levels of indentation, so a few budgets of the deepest are enough.
	for o.bytes > 4*o.budget && o.dropDeepest() {
	}
	if len(o.entries) > o.budget/2+64 {
		o.compact()
	}
}

// dropDeepest drops the newest of the most deeply indented definitions.
func (o *outline) dropDeepest() bool {
	for d := maxDepth; d >= 0; d-- {
		st := o.byDepth[d]
		for len(st) > 0 {
			i := st[len(st)-1]
			st = st[:len(st)-1]
			if !o.entries[i].gone {
				o.byDepth[d] = st
				o.entries[i].gone = true
				o.bytes -= len(o.entries[i].text)
				o.dropped++
				return true
			}
		}
		o.byDepth[d] = st
	}
	return false
}

// dropLevel leaves out every definition of the deepest indentation, as
// long as a shallower one is left to show.
func (o *outline) dropLevel() bool {
	deepest, levels := -1, 0
	for d := range o.byDepth {
		if o.live(d) > 0 {
			deepest = d
			levels++
		}
	}
	if levels < 2 {
		return false
	}
	for o.live(deepest) > 0 && o.dropDeepest() {
	}
	return true
}

// live counts the definitions of depth d still shown.
func (o *outline) live(d int) int {
	n := 0
	for _, i := range o.byDepth[d] {
		if !o.entries[i].gone {
			n++
		}
	}
	return n
}

// thin leaves out every other definition still shown, the first kept,
// so that what is left still spans the whole file. It reports false when
// one or none is left.
func (o *outline) thin() bool {
	n := 0
	for i := range o.entries {
		if e := &o.entries[i]; !e.gone {
			if n%2 == 1 {
				e.gone = true
				o.bytes -= len(e.text)
				o.dropped++
			}
			n++
		}
	}
	return n > 1
}

// compact forgets the dropped entries, so memory follows what is kept.
func (o *outline) compact() {
	kept := o.entries[:0]
	for _, e := range o.entries {
		if !e.gone {
			kept = append(kept, e)
		}
	}
	clear(o.entries[len(kept):])
	o.entries = kept
	for d := range o.byDepth {
		o.byDepth[d] = o.byDepth[d][:0]
	}
	for i, e := range o.entries {
		o.byDepth[e.depth] = append(o.byDepth[e.depth], i)
	}
}

// numbered splits a line as nl -ba and cat -n print it: its number, then
// a tab, then the line.
func numbered(l []byte) (int64, []byte, bool) {
	t := bytes.TrimLeft(l, " ")
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i == 0 || i == len(t) || t[i] != '\t' {
		return 0, nil, false
	}
	n, err := strconv.ParseInt(string(t[:i]), 10, 64)
	return n, t[i+1:], err == nil
}

// fit returns the outline of the lines the cut omits, as room allows once
// the tail has its share: the definitions above the tail. When they do not
// all fit, those of the deepest indentation are left out, all of them (an
// outline that showed the methods of the first classes only would read as
// if the others had none), then those of the next; at the last level,
// every other one, so that what is shown still spans the file. A count
// says how many were left out.
func (o *outline) fit(k *cutState, room int) []byte {
	for k.l.tailBytes > k.tailShare() && k.l.ageTail() {
	}
	for n := k.l.first; n != nil; n = n.next {
		if !n.gap && n.inTail && n.s == Stdout {
			// The tail shows the definitions from its first line on.
			for i := range o.entries {
				if e := &o.entries[i]; !e.gone && e.out >= n.no {
					e.gone = true
					o.bytes -= len(e.text)
				}
			}
			break
		}
	}
	var b []byte
	for {
		b = b[:0]
		if o.bytes > 0 {
			b = append(b, markerPrefix+"what the omitted lines define, by line number:]\n"...)
			for _, e := range o.entries {
				if !e.gone {
					b = append(b, e.text...)
				}
			}
		}
		if o.dropped > 0 {
			b = append(b, markerPrefix...)
			b = appendCount(b, o.dropped, "more definition")
			b = append(b, " not shown]\n"...)
		}
		if len(b) <= room-k.l.size || !o.dropLevel() && !o.thin() {
			break
		}
	}
	if len(b) > room-k.l.size {
		return nil
	}
	return b
}
