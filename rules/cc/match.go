package cc

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The cc rules' matchers (docs/classify.md, C and C++ rules). Every word is
// checked, values and paths included, so a false match only passes
// through. What passes through: help and version requests, the options
// that turn the output into something else than diagnostics and build
// lines (a dry run, a debug trace, a listing, preprocessed text, JSON or
// SARIF diagnostics), and the compiler options that change the shape of a
// diagnostic (wrapped messages, fix-it lines, template trees, remarks).

// help is the reason of a refused help or version request.
const help = "help or version requested (%s)"

// format is the reason of a refused option that changes what is printed.
const format = "option %q changes the output format"

// checkCompiler reads a compiler's words from argv[from] on.
func checkCompiler(argv []string, from int) classify.Answer {
	for j := from; j < len(argv); j++ {
		a := argv[j]
		next := ""
		if j+1 < len(argv) {
			next = argv[j+1]
		}
		switch {
		case compilerHelp(a):
			return classify.Refuse(j, help, a)
		case (a == "-o" || a == "-MF") && toStream(next):
			return classify.Refuse(j+1, "output %q goes to the terminal's streams", next)
		case (strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "-MF")) && toStream(strings.TrimPrefix(strings.TrimPrefix(a, "-o"), "-MF")):
			return classify.Refuse(j, "output %q goes to the terminal's streams", a)
		case a == "-Xlinker" && linkerPrints(next):
			return classify.Refuse(j+1, format, next)
		case compilerFormat(a):
			return classify.Refuse(j, format, a)
		}
	}
	return classify.Accept()
}

// compilerHelp reports whether a asks gcc or clang for a manual, a version
// or their configuration instead of a compilation.
func compilerHelp(a string) bool {
	switch a {
	case "--version", "-v", "-###", "--target-help", "-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs":
		return true
	}
	return a == "--help" || strings.HasPrefix(a, "--help=") || strings.HasPrefix(a, "-print-") || strings.HasPrefix(a, "--print-")
}

// compilerFormat reports whether a is a compiler option that prints
// something else than diagnostics (-E, -M, -H, -Q, statistics, remarks),
// prints diagnostics in another shape (JSON, SARIF, wrapped lines, fix-it
// lines, patches, template trees, source ranges, categories), runs an
// analyzer whose paths are lines of their own, or hands words to a tool
// the matcher cannot read (-Xclang, -Xpreprocessor, -Xassembler, -Wp, a
// response file). It is what make's variables are checked with too.
func compilerFormat(a string) bool {
	switch a {
	case "-E", "-M", "-MM", "-H", "-Q", "-fanalyzer", "--analyze", "-ftime-report", "-fmem-report",
		"-fdiagnostics-parseable-fixits", "-fdiagnostics-generate-patch", "-fdiagnostics-show-template-tree",
		"-fdiagnostics-print-source-range-info", "-fdiagnostics-show-hotness", "-Xclang", "-Xpreprocessor", "-Xassembler":
		return true
	}
	switch {
	case strings.HasPrefix(a, "-fdiagnostics-format="):
		return a != "-fdiagnostics-format=text"
	case strings.HasPrefix(a, "-fmessage-length="):
		return a != "-fmessage-length=0"
	case strings.HasPrefix(a, "-fdiagnostics-show-category"), strings.HasPrefix(a, "-fopt-info"),
		strings.HasPrefix(a, "-Wp,"), strings.HasPrefix(a, "@"):
		return true
	case len(a) > 2 && a[0] == '-' && a[1] == 'R' && 'a' <= a[2] && a[2] <= 'z':
		// clang's remarks, -Rpass=inline: "remark:" lines.
		return true
	case strings.HasPrefix(a, "-Wl,"):
		for _, w := range strings.Split(a[len("-Wl,"):], ",") {
			if linkerPrints(w) {
				return true
			}
		}
	case strings.HasPrefix(a, "-Wa,"):
		for _, w := range strings.Split(a[len("-Wa,"):], ",") {
			if strings.HasPrefix(w, "-a") || w == "--help" || w == "--version" || w == "-v" || w == "--statistics" {
				return true
			}
		}
	}
	return false
}

// linkerPrints reports whether w, a word handed to the linker, makes it
// print its version, its manual, a trace, a map or statistics.
func linkerPrints(w string) bool {
	switch w {
	case "-v", "-V", "--version", "--help", "--verbose", "-t", "--trace", "-M", "--stats", "--cref", "-y":
		return true
	}
	return strings.HasPrefix(w, "--print") || strings.HasPrefix(w, "--trace") || strings.HasPrefix(w, "--verbose=") ||
		strings.HasPrefix(w, "-Map=-")
}

// toStream reports whether an output file name is one of the terminal's
// streams: the object, the assembly or the dependencies would be printed.
func toStream(name string) bool {
	switch name {
	case "-", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2", "/proc/self/fd/1", "/proc/self/fd/2":
		return true
	}
	return false
}

// shortOptions reads a cluster of single-letter options, -kj4 or -Cdir:
// refuse holds the letters that pass through, withArg those that take an
// argument, which is the rest of the word or, when the word ends there, the
// next word unless the letter is in optional (make's -j and -l take the
// next word only when it is a number). It returns the refused letter, or 0,
// and how many words it read.
func shortOptions(w, next, refuse, withArg, optional string) (refused byte, words int) {
	for i := 1; i < len(w); i++ {
		c := w[i]
		switch {
		case strings.IndexByte(refuse, c) >= 0:
			return c, 1
		case strings.IndexByte(withArg, c) >= 0:
			if i+1 < len(w) {
				return 0, 1
			}
			if strings.IndexByte(optional, c) >= 0 && !isNumber(next) {
				return 0, 1
			}
			return 0, 2
		}
	}
	return 0, 1
}

// isNumber reports whether s is a non-empty run of ASCII digits.
func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// longPrefix reports whether name (--name, without =value) is one of long
// or a prefix of one that getopt would expand to it: GNU make and ninja
// accept abbreviations. An ambiguous prefix is an error of the tool's, so
// refusing it too costs nothing.
func longPrefix(name string, long []string) bool {
	if len(name) < 3 {
		return false
	}
	for _, l := range long {
		if strings.HasPrefix(l, name) {
			return true
		}
	}
	return false
}
