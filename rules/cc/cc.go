package cc

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchCompiler recognizes gcc, g++, cc, c++, clang and clang++ compiling
// or linking (checkCompiler says what passes through).
func MatchCompiler(argv []string) classify.Answer { return checkCompiler(argv, 1) }

// CompilerOutput is gcc's and clang's signature: a diagnostic located in
// a C or C++ source or header ("src/a.c:3:5: error: ...", "warning: ",
// "fatal error: "; the path's extension one of ccSources), or the
// compiler driver's own line about the link ("collect2: error: ld
// returned 1 exit status", "clang: error: linker command failed"). The
// words are the English ones the rules read: a translated diagnostic is
// not claimed. mypy and Python name .py files, rustc puts its location
// after an arrow, Go's compiler prints no severity.
func CompilerOutput(r *summarize.Run) bool {
	return r.HasLine(": error: ", isCompilerLine) || r.HasLine(": warning: ", isCompilerLine) || r.HasLine(": fatal error: ", isCompilerLine)
}

// isCompilerLine reports whether l is a diagnostic CompilerOutput reads as
// gcc's or clang's.
func isCompilerLine(l string, _ []byte) bool {
	d, ok := parseDiag(l)
	if !ok || d.prefix == "" || d.sev == sevNote {
		return false
	}
	if name, _ := program(d.prefix); name != "" {
		return name == "collect2" && strings.HasPrefix(d.msg, "ld returned ") ||
			strings.HasPrefix(name, "clang") && strings.HasPrefix(d.msg, "linker command failed")
	}
	if !hasLine(d.prefix) {
		return false
	}
	path, _, _ := strings.Cut(d.prefix, ":")
	dot := strings.LastIndexByte(path, '.')
	return dot > 0 && ccSources[path[dot+1:]]
}

// ccSources are the extensions of the C and C++ sources and headers gcc
// and clang compile, without the dot.
var ccSources = map[string]bool{
	"c": true, "h": true, "cc": true, "cp": true, "cpp": true, "cxx": true, "c++": true, "C": true,
	"hh": true, "hpp": true, "hxx": true, "h++": true, "H": true, "i": true, "ii": true,
	"m": true, "mm": true, "M": true, "S": true, "s": true, "sx": true, "inl": true, "ipp": true, "tcc": true,
}

// Compiler summarizes bash.cc: the exit code, the errors and warnings
// seen, the warnings by flag with their first locations, the linker's
// errors, and every error line with the first line of its source excerpt
// within the budget.
func Compiler(r *summarize.Run) *summarize.Body { return summarizeBuild(r) }
