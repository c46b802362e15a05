package summarize

import (
	"iter"
	"strings"
)

// The shapes of text that the boundary check and several families' finders
// read alike: file:line:col locations and error lines. They are parsed by
// hand, each held to the regexp it stands for by FuzzHandParsers, because
// the check meets them on every line of every output and block.

// IsErrorLine reports whether l is an error line as rustc, cargo and git
// print them, and as the tools that run those print them in turn (pip's
// build output): "error[E0425]: ...", "error: could not compile",
// "fatal: ...". It is what the regexps ^error(\[E\d{4}\])?: \S and
// ^(fatal|error): \S match.
func IsErrorLine(l string) bool {
	rest, ok := strings.CutPrefix(l, "error")
	if ok {
		if code, after, coded := strings.Cut(rest, "]"); coded && strings.HasPrefix(code, "[") {
			if !isErrorCode(code[1:]) {
				return false
			}
			rest = after
		}
	} else if rest, ok = strings.CutPrefix(l, "fatal"); !ok {
		return false
	}
	rest, ok = strings.CutPrefix(rest, ": ")
	return ok && rest != "" && strings.IndexByte(RESpace, rest[0]) < 0
}

// isErrorCode reports whether code is rustc's E followed by four digits.
func isErrorCode(code string) bool {
	return len(code) == 5 && code[0] == 'E' && strings.Trim(code[1:], "0123456789") == ""
}

// LocationPrefix returns the length of the location w starts with, as
// \S+:\d+:\d+ matches it there, or 0; w holds no white space. The
// regexp's \S+ is greedy: the location is the longest run of characters
// followed by ":LINE:COL".
func LocationPrefix(w string) int {
	for e := len(w) - 1; e > 0; e-- {
		if w[e] != ':' {
			continue
		}
		line := DigitsPrefix(w[e+1:])
		if line == "" || e+1+len(line) == len(w) || w[e+1+len(line)] != ':' {
			continue
		}
		end := e + 1 + len(line) + 1
		if col := DigitsPrefix(w[end:]); col != "" {
			return end + len(col)
		}
	}
	return 0
}

// locations yields every file:line:col in s, as rules copy them: what
// the regexp \S+:\d+:\d+ finds in s. The check reads every line of every
// block for them.
func locations(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for word := range strings.FieldsFuncSeq(s, IsRESpace) {
			for word != "" {
				n := LocationPrefix(word)
				if n == 0 {
					// A location starting further on would also start here.
					break
				}
				if !yield(word[:n]) {
					return
				}
				word = word[n:]
			}
		}
	}
}

// IsLocation reports whether s is a whole "path:line:col", as the regexp
// ^\S+:\d+:\d+$ would: the path may hold colons but no white space.
func IsLocation(s string) bool {
	i := strings.LastIndexByte(s, ':')
	if i < 0 || !IsDigits(s[i+1:]) {
		return false
	}
	j := strings.LastIndexByte(s[:i], ':')
	return j > 0 && IsDigits(s[j+1:i]) && !strings.ContainsAny(s[:j], RESpace)
}

// RESpace is what \s matches in Go's regexps.
const RESpace = "\t\n\f\r "

// IsRESpace reports whether r is one of RESpace.
func IsRESpace(r rune) bool {
	return r < 0x80 && strings.IndexByte(RESpace, byte(r)) >= 0
}
