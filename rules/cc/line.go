package cc

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The shapes of the lines a C or C++ build prints, as gcc 12, clang 14, GNU
// ld, GNU make 4.3, ninja 1.11, cmake 3.25 and ctest print them
// (testdata/cc.sh). Each is parsed by hand and held to the regexp it
// stands for by FuzzHandParsers: the rule reads every line of outputs of
// megabytes.

// severity is the kind of a diagnostic.
type severity int

const (
	sevNone severity = iota
	sevError
	sevWarning
	sevNote
)

// diag is a diagnostic line taken apart: "a.c:3:5: error: msg [-Wflag]",
// "cc1: fatal error: msg", "error: msg".
type diag struct {
	prefix string // what comes before the severity: a location, a program, or ""
	sev    severity
	msg    string // after "error: ", "warning: ", "note: "
}

// parseDiag reads a diagnostic line: "error: ", "fatal error: ",
// "warning: " or "note: " and a message, at the start of the line or after
// a prefix without blanks and ": ". It is what the regexp
// ^(?:(\S+?): )??(error|fatal error|warning|note): (.*)$ matches: a
// severity at the start first, else the prefix ending at the first ": ".
func parseDiag(l string) (diag, bool) { return parseWith(l, severityOf) }

// parseWith is parseDiag with the severities severityOf reads.
func parseWith(l string, severityOf func(string) (severity, string)) (diag, bool) {
	if s, t := severityOf(l); t != "" {
		return diag{sev: s, msg: l[len(t):]}, true
	}
	i := strings.Index(l, ": ")
	if i <= 0 || hasBlank(l[:i]) {
		return diag{}, false
	}
	s, t := severityOf(l[i+2:])
	if t == "" {
		return diag{}, false
	}
	return diag{prefix: l[:i], sev: s, msg: l[i+2+len(t):]}, true
}

// severityOf returns the severity s starts with and its text with the
// ": " after it, or "".
func severityOf(s string) (severity, string) {
	switch {
	case strings.HasPrefix(s, "error: "):
		return sevError, "error: "
	case strings.HasPrefix(s, "warning: "):
		return sevWarning, "warning: "
	case strings.HasPrefix(s, "note: "):
		return sevNote, "note: "
	case strings.HasPrefix(s, "fatal error: "):
		return sevError, "fatal error: "
	}
	return sevNone, ""
}

// hasLine reports whether a diagnostic's prefix is a location with a line
// number, "a.c:3:5" or "a.c:3": what the regexp :\d+$ finds in it.
func hasLine(prefix string) bool {
	i := strings.LastIndexByte(prefix, ':')
	return i > 0 && summarize.IsDigits(prefix[i+1:])
}

// flagOf returns the option a warning names at its end, "-Wunused-variable"
// of "unused variable ‘x’ [-Wunused-variable]", or "". gcc writes
// "-Werror=..." for a warning turned into an error, and clang may name a
// group after the flag ("[-Wunused-variable,-Wunused]").
func flagOf(msg string) string {
	if !strings.HasSuffix(msg, "]") {
		return ""
	}
	i := strings.LastIndex(msg, " [-")
	if i < 0 || i+4 > len(msg) || msg[i+3] != 'W' && msg[i+3] != 'f' {
		return ""
	}
	flag := msg[i+2 : len(msg)-1]
	if hasBlank(flag) || strings.IndexByte(flag, '[') >= 0 {
		return ""
	}
	return flag
}

// program returns the program a diagnostic's prefix names when it is one
// of the toolchain's: "cc1" of "cc1: fatal error: ...", "collect2", the
// linker of "/usr/bin/ld", with any directory and version suffix
// (x86_64-linux-gnu-gcc-12) read as the program's name; "" otherwise.
func program(prefix string) (name string, linker bool) {
	base := prefix[strings.LastIndexByte(prefix, '/')+1:]
	for {
		i := strings.LastIndexByte(base, '-')
		if i <= 0 || !isVersion(base[i+1:]) {
			break
		}
		base = base[:i]
	}
	for _, p := range compilerPrograms {
		if base == p || strings.HasSuffix(base, "-"+p) {
			return p, false
		}
	}
	for _, p := range linkerPrograms {
		if base == p || strings.HasSuffix(base, "-"+p) {
			return p, true
		}
	}
	return "", false
}

// compilerPrograms are the names the compilers' programs print before
// their own diagnostics: the drivers and their passes.
var compilerPrograms = []string{"gcc", "g++", "cc", "c++", "clang", "clang++", "cc1", "cc1plus", "cc1obj", "cc1objplus", "cpp", "lto1", "lto-wrapper", "as"}

// linkerPrograms are the linkers' names, and gcc's collect2 that runs them.
var linkerPrograms = []string{"ld", "ld.bfd", "ld.gold", "ld.lld", "lld", "mold", "collect2"}

// isVersion reports whether s is a version such as 12 or 14.0.
func isVersion(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	return strings.Trim(s, "0123456789.") == ""
}

// isMakefile reports whether path names a makefile: GNU make prints its
// own warnings located in them ("Makefile:12: warning: overriding recipe").
func isMakefile(path string) bool {
	base := path[strings.LastIndexByte(path, '/')+1:]
	if i := strings.IndexByte(base, ':'); i >= 0 {
		base = base[:i]
	}
	return base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk")
}

// isSnippet reports whether l is a line of gcc's source excerpt: the
// numbered source line "   23 |   code" and the lines under it, "      |
// ^~~", with their labels and fix-it hints. It is what the regexp
// ^ +(?:\d+ |\+\+\+ )?\|(?:[ +]|$) matches ("+++ |+#include <x>" is a line
// gcc suggests adding).
func isSnippet(l string) bool {
	t := strings.TrimLeft(l, " ")
	if len(t) == len(l) {
		return false
	}
	if d := summarize.DigitsPrefix(t); d != "" {
		t = t[len(d):]
	} else if strings.HasPrefix(t, "+++") {
		t = t[3:]
	} else {
		return snippetBar(t)
	}
	return strings.HasPrefix(t, " ") && snippetBar(t[1:])
}

// snippetBar reports whether t starts with the bar of a source excerpt.
func snippetBar(t string) bool {
	return strings.HasPrefix(t, "|") && (len(t) == 1 || t[1] == ' ' || t[1] == '+')
}

// isCaret reports whether l is the line clang prints under a source line:
// carets and tildes under the range, nothing else. It is what the regexp
// ^ *[\^~][\^~ ]*$ matches.
func isCaret(l string) bool {
	t := strings.TrimLeft(l, " ")
	if t == "" || (t[0] != '^' && t[0] != '~') {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != '^' && t[i] != '~' && t[i] != ' ' {
			return false
		}
	}
	return true
}

// isContext reports whether l says where the next diagnostic was reached
// from, as gcc and clang print it before it: "a.c: In function ‘f’:",
// "a.cpp: In instantiation of ‘...’:", "a.c: At top level:", "In file
// included from a.h:3,", "                 from a.c:1:", "a.cpp:12:5:
// required from here" (gcc's message after the location starts with two
// more spaces) and "    inlined from ‘f’ at a.c:3:5:".
func isContext(l string) bool {
	if strings.HasPrefix(l, "In file included from ") {
		return true
	}
	if l[0] == ' ' {
		t := strings.TrimLeft(l, " ")
		end := strings.HasSuffix(t, ":") || strings.HasSuffix(t, ",")
		return end && (strings.HasPrefix(t, "from ") && len(l)-len(t) >= 4 || strings.HasPrefix(t, "inlined from "))
	}
	i := strings.Index(l, ": ")
	if i <= 0 || hasBlank(l[:i]) {
		return false
	}
	rest := l[i+2:]
	switch {
	case strings.HasPrefix(rest, "  "):
		return hasLine(l[:i])
	case strings.HasPrefix(rest, "In ") || strings.HasPrefix(rest, "At "):
		return strings.HasSuffix(rest, ":") || strings.HasSuffix(rest, ",")
	}
	return false
}

// hasBlank reports whether s holds what the regexp \s matches: a space,
// a tab, a newline, a form feed or a carriage return.
func hasBlank(s string) bool {
	return strings.ContainsAny(s, " \t\n\f\r")
}
