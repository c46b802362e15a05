package summarize

import (
	"bytes"
	"iter"
	"strconv"
	"strings"
	"unsafe"
)

// Lines splits captured output into lines without their terminators ("\n"
// or "\r\n"). A final line without a newline is kept; a trailing newline
// does not produce an empty last line.
//
// The lines share b's memory instead of copying it: a Run's captured bytes
// are never written after capture, and each rule and the check split both
// streams, so a copy per call was an eighth of a summarizer's time.
func Lines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.TrimSuffix(unsafe.String(&b[0], len(b)), "\n")
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// splitStream is a stream and its lines.
type splitStream struct {
	src []byte
	ls  []string
}

// Lines returns Lines(b) for b one of r's streams, split once per Run:
// the rule and the boundary check both read them, and on a large capture
// the split and its slice cost a tenth of a summary each time. A stream
// is known by its bytes' address and length, which never change while a
// rule runs; any other b is split afresh.
func (r *Run) Lines(b []byte) []string {
	for i := range r.split {
		c := &r.split[i]
		if c.ls != nil && sameBytes(c.src, b) {
			return c.ls
		}
	}
	ls := Lines(b)
	for i, stream := range [][]byte{r.Stdout, r.Stderr} {
		if sameBytes(stream, b) {
			r.split[i] = splitStream{src: b, ls: ls}
		}
	}
	return ls
}

// sameBytes reports whether a and b are the same memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// EachLine yields the lines of b exactly as Lines returns them, without
// building the slice: a rule that reads its streams once, in order, has no
// use for one, and on a large capture the slice was a tenth of a
// summarizer's time and most of what the collector had to scan.
func EachLine(b []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		if len(b) == 0 {
			return
		}
		s := unsafe.String(&b[0], len(b))
		for s != "" {
			l := s
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				l, s = s[:i], s[i+1:]
			} else {
				s = ""
			}
			if !yield(strings.TrimSuffix(l, "\r")) {
				return
			}
		}
	}
}

// HasLine reports whether a line of r's streams (stdout's, then stderr's)
// that holds marker matches, given the line, as EachLine gives it, and the
// bytes after it. It is the search a signature (rules.Rule.Output) makes: a
// fast search for a marker its tool's lines all hold, and only those lines
// and what follows them read, not every line of an output that is most
// often another tool's.
func (r *Run) HasLine(marker string, match func(line string, next []byte) bool) bool {
	for _, b := range [][]byte{r.Stdout, r.Stderr} {
		for l, next := range linesWith(b, marker) {
			if match(l, next) {
				return true
			}
		}
	}
	return false
}

// linesWith yields each line of b that holds marker, once and in order, as
// EachLine gives it, with the bytes that follow the line's newline.
func linesWith(b []byte, marker string) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		m := []byte(marker)
		for from := 0; from < len(b); {
			i := bytes.Index(b[from:], m)
			if i < 0 {
				return
			}
			i += from
			start := bytes.LastIndexByte(b[:i], '\n') + 1
			end, next := len(b), len(b)
			if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
				end, next = i+j, i+j+1
			}
			l := strings.TrimSuffix(unsafe.String(unsafe.SliceData(b[start:end]), end-start), "\r")
			if !yield(l, b[next:]) {
				return
			}
			from = next
		}
	}
}

// FirstLine returns the first line of b as EachLine gives it, and the
// bytes after it: the line after one HasLine found.
func FirstLine(b []byte) (line string, rest []byte) {
	l, rest, _ := bytes.Cut(b, []byte{'\n'})
	if len(l) == 0 {
		return "", rest
	}
	return strings.TrimSuffix(unsafe.String(&l[0], len(l)), "\r"), rest
}

// LastLines returns the last n lines of b (fewer when b has fewer), as
// Lines gives them: a signature that looks for a tool's closing line reads
// only the end of an output.
func LastLines(b []byte, n int) []string {
	if n <= 0 {
		return nil
	}
	end := len(b)
	if end > 0 && b[end-1] == '\n' {
		end--
	}
	start := 0
	for i, at := 0, end; i < n; i++ {
		j := bytes.LastIndexByte(b[:at], '\n')
		if j < 0 {
			start = 0 // fewer than n lines: all of them
			break
		}
		start, at = j+1, j
	}
	return Lines(b[start:])
}

// ContainsAny reports whether b holds any of markers: a stream-level gate
// for a finder whose every find holds one, so that outputs of other tools
// cost a few fast searches instead of a pass of per-line parsing.
func ContainsAny(b []byte, markers [][]byte) bool {
	for _, m := range markers {
		if bytes.Contains(b, m) {
			return true
		}
	}
	return false
}

// DigitsPrefix returns the ASCII digits s starts with.
func DigitsPrefix(s string) string {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// IsDigits reports whether s is a non-empty run of ASCII digits.
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// NumberBefore returns the integer that directly precedes the first sep in
// s, or 0 when there is none.
func NumberBefore(s, sep string) int {
	i := strings.Index(s, sep)
	if i < 0 {
		return 0
	}
	start := i
	for start > 0 && s[start-1] >= '0' && s[start-1] <= '9' {
		start--
	}
	n, _ := strconv.Atoi(s[start:i])
	return n
}
