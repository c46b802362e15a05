package cc

import (
	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchCompiler recognizes gcc, g++, cc, c++, clang and clang++ compiling
// or linking (checkCompiler says what passes through).
func MatchCompiler(argv []string) classify.Answer { return checkCompiler(argv, 1) }

// Compiler summarizes bash.cc: the exit code, the errors and warnings
// seen, the warnings by flag with their first locations, the linker's
// errors, and every error line with the first line of its source excerpt
// within the budget.
func Compiler(r *summarize.Run) *summarize.Body { return summarizeBuild(r) }
