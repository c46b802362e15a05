package cc

import (
	"fmt"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MakeOutput is GNU make's signature: its own error line, "make: ***
// [Makefile:9: test] Error 1" (also make[2]:, gmake:) or "make: *** No
// rule to make target 'x'.  Stop.": the program's name, the three stars,
// and the English words make prints (a translated line is not claimed).
// It comes last in the table: make prints this line after any recipe that
// failed, whatever the recipe ran, and the tool's own signature claims
// such an output first.
func MakeOutput(r *summarize.Run) bool {
	return r.HasLine(": *** ", func(l string, _ []byte) bool {
		_, what, _ := strings.Cut(l, ": *** ")
		return isMakeError(l) && (strings.HasSuffix(what, ".  Stop.") ||
			strings.HasPrefix(what, "[") && summarize.IsDigits(strings.TrimSuffix(afterLast(what, "] Error "), " (ignored)")))
	})
}

// afterLast returns what follows the last sep in s, or "".
func afterLast(s, sep string) string {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return ""
	}
	return s[i+len(sep):]
}

// MatchMake recognizes GNU make. What passes through: help and version,
// the options that print something else than a build (a dry run, the
// database, a trace, debug output, a question, touching) and a variable
// assignment whose value is a compiler option that changes the
// diagnostics (CFLAGS=-fdiagnostics-format=json).
func MatchMake(argv []string) classify.Answer {
	for j := 1; j < len(argv); j++ {
		a := argv[j]
		next := ""
		if j+1 < len(argv) {
			next = argv[j+1]
		}
		switch {
		case a == "--":
			continue
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a, "=")
			if name == "--help" || name == "--version" || longPrefix(name, []string{"--help", "--version"}) {
				return classify.Refuse(j, help, a)
			}
			if longPrefix(name, makeFormats) {
				return classify.Refuse(j, format, a)
			}
			if !strings.Contains(a, "=") && longPrefix(name, makeWithArg) {
				j++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			c, words := shortOptions(a, next, "hvnpqtd", "CfIoWjlEO", "jlO")
			switch c {
			case 'h', 'v':
				return classify.Refuse(j, help, a)
			case 0:
				j += words - 1
			default:
				return classify.Refuse(j, format, a)
			}
		case strings.Contains(a, "="):
			for _, w := range strings.Fields(a[strings.IndexByte(a, '=')+1:]) {
				if compilerFormat(w) {
					return classify.Refuse(j, format, a)
				}
			}
		}
	}
	return classify.Accept()
}

// makeFormats are GNU make's long options that print something else than
// a build.
var makeFormats = []string{"--dry-run", "--just-print", "--recon", "--print-data-base", "--question", "--touch",
	"--debug", "--trace", "--what-if", "--new-file", "--assume-new"}

// makeWithArg are the long options whose value may be the next word.
var makeWithArg = []string{"--directory", "--file", "--makefile", "--include-dir", "--old-file", "--assume-old",
	"--jobs", "--load-average", "--output-sync", "--eval"}

// Make summarizes bash.make: what bash.cc shows of the compilers it ran,
// and make's own "***" lines (the targets that failed with their status,
// a missing rule).
func Make(r *summarize.Run) *summarize.Body { return summarizeBuild(r) }

// MakeEnv reads the variables GNU make takes options and flags from:
// MAKEFLAGS and GNUMAKEFLAGS hold options as on the command line (single
// letters without their dash, "kn"), and the compiler flags variables that
// a makefile passes on to the compilers.
func MakeEnv(_ []string, getenv func(string) string) string {
	for _, v := range []string{"MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS"} {
		val := getenv(v)
		if val == "" {
			continue
		}
		words := strings.Fields(val)
		if w := words[0]; !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
			words[0] = "-" + w
		}
		if m := MatchMake(append([]string{"make"}, words...)); !m.Accepted {
			return v + ": " + m.Reason
		}
	}
	return compilerEnv(getenv)
}

// compilerEnv reads the compiler flags variables that make's built-in
// rules and cmake's first configuration pass on to the compilers.
func compilerEnv(getenv func(string) string) string {
	for _, v := range []string{"CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS"} {
		for _, w := range strings.Fields(getenv(v)) {
			if compilerFormat(w) {
				return v + ": " + fmt.Sprintf(format, w)
			}
		}
	}
	return ""
}
