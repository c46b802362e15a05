package cc_test

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/cc"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// ccCases are the cc family's commands in string mode: Want is the rule,
// or "" for a pass-through, and Explain the exact --explain text.
var ccCases = []ruletest.ExplainedCase{
	{In: "gcc -Wall -c a.c", Want: CC, Explain: ""},
	{In: "g++ -std=c++17 -O2 -o app main.cpp", Want: CC, Explain: ""},
	{In: "cc a.c", Want: CC, Explain: ""},
	{In: "c++ a.cpp", Want: CC, Explain: ""},
	{In: "clang -Wall -c a.c", Want: CC, Explain: ""},
	{In: "clang++ -c x.cpp 2>&1 | tail -20", Want: CC, Explain: ""},
	{In: "/usr/bin/gcc -c a.c", Want: CC, Explain: ""},
	{In: "gcc -fdiagnostics-format=text -c a.c", Want: CC, Explain: ""},
	{In: "gcc-12 -Wall -c a.c", Want: CC, Explain: ""},
	{In: "g++-12 -std=c++17 -c a.cpp 2>&1 | tail -40", Want: CC, Explain: ""},
	{In: "clang-14 -c a.c", Want: CC, Explain: ""},
	{In: "clang++-15 -c a.cpp", Want: CC, Explain: ""},
	{In: "/usr/bin/clang-14 -c a.c", Want: CC, Explain: ""},
	{In: "gcc-12.2 -c a.c", Want: CC, Explain: ""},
	{In: "gcc-12 --version", Want: "", Explain: "1:8: help or version requested (--version); passing through"},
	{In: "gcc-x -c a.c", Want: "", Explain: "1:1: not a recognized command; passing through"},
	{In: "gcc- -c a.c", Want: "", Explain: "1:1: not a recognized command; passing through"},
	{In: "gcc-12- -c a.c", Want: "", Explain: "1:1: not a recognized command; passing through"},
	{In: "cc-12 -c a.c", Want: "", Explain: "1:1: not a recognized command; passing through"},
	{In: "clang-tidy bugs.c --", Want: ClangTidy, Explain: ""},
	{In: "clang-tidy-14 bugs.c -- -Wall", Want: ClangTidy, Explain: ""},
	{In: "clang-tidy -checks='-*,bugprone-*' --quiet a.c b.c -- -Iinclude", Want: ClangTidy, Explain: ""},
	{In: "clang-tidy -p build src/a.cpp 2>&1 | tail -30", Want: ClangTidy, Explain: ""},
	{In: "clang-tidy --list-checks", Want: "", Explain: "1:12: help or version requested (--list-checks); passing through"},
	{In: "clang-tidy -fix a.c --", Want: "", Explain: `1:12: option "-fix" changes the output format; passing through`},
	{In: "clang-tidy --export-fixes=f.yaml a.c --", Want: "", Explain: `1:12: option "--export-fixes=f.yaml" changes the output format; passing through`},
	{In: "clang-tidy a.c -- -fdiagnostics-format=json", Want: "", Explain: `1:19: option "-fdiagnostics-format=json" changes the output format; passing through`},
	{In: "clang-tidy --version", Want: "", Explain: "1:12: help or version requested (--version); passing through"},
	{In: "cppcheck src", Want: Cppcheck, Explain: ""},
	{In: "cppcheck --enable=all --suppress=missingIncludeSystem -I include src", Want: Cppcheck, Explain: ""},
	{In: "cppcheck -q --error-exitcode=1 --std=c++17 . 2>&1 | tail -20", Want: Cppcheck, Explain: ""},
	{In: "cppcheck --template=gcc src", Want: "", Explain: `1:10: option "--template=gcc" changes the output format; passing through`},
	{In: "cppcheck --xml src", Want: "", Explain: `1:10: option "--xml" changes the output format; passing through`},
	{In: "cppcheck --check-config src", Want: "", Explain: `1:10: option "--check-config" changes the output format; passing through`},
	{In: "cppcheck --version", Want: "", Explain: "1:10: help or version requested (--version); passing through"},
	{In: "make", Want: Make, Explain: ""},
	{In: "make -j4 -k", Want: Make, Explain: ""},
	{In: "make -kj4", Want: Make, Explain: ""},
	{In: "make -C build all", Want: Make, Explain: ""},
	{In: "make CFLAGS='-O2 -Wall'", Want: Make, Explain: ""},
	{In: "gmake -s", Want: Make, Explain: ""},
	{In: "make -k 2>&1 | grep -E 'error|Error'", Want: Make, Explain: ""},
	{In: "cmake --build build", Want: CMakeBuild, Explain: ""},
	{In: "cmake --build build -j 4 -- -k", Want: CMakeBuild, Explain: ""},
	{In: "ninja -C build", Want: Ninja, Explain: ""},
	{In: "ninja -j 4 -k 0", Want: Ninja, Explain: ""},
	{In: "ctest --test-dir build", Want: CTest, Explain: ""},
	{In: "ctest -j2 --output-on-failure -R unit", Want: CTest, Explain: ""},
	{In: "ctest --rerun-failed --output-on-failure 2>&1 | tail -25", Want: CTest, Explain: ""},

	{In: "gcc --version", Want: "", Explain: "1:5: help or version requested (--version); passing through"},
	{In: "gcc -E a.c", Want: "", Explain: `1:5: option "-E" changes the output format; passing through`},
	{In: "gcc -fdiagnostics-format=json -c a.c", Want: "", Explain: `1:5: option "-fdiagnostics-format=json" changes the output format; passing through`},
	{In: "gcc -fmessage-length=80 a.c", Want: "", Explain: `1:5: option "-fmessage-length=80" changes the output format; passing through`},
	{In: "gcc -S -o - a.c", Want: "", Explain: `1:11: output "-" goes to the terminal's streams; passing through`},
	{In: "clang -fsyntax-only -Xclang -ast-dump a.c", Want: "", Explain: `1:21: option "-Xclang" changes the output format; passing through`},
	{In: "gcc -Wl,--verbose a.c", Want: "", Explain: `1:5: option "-Wl,--verbose" changes the output format; passing through`},
	{In: "make -n", Want: "", Explain: `1:6: option "-n" changes the output format; passing through`},
	{In: "make --just", Want: "", Explain: `1:6: option "--just" changes the output format; passing through`},
	{In: "make -pq", Want: "", Explain: `1:6: option "-pq" changes the output format; passing through`},
	{In: "make --debug=b", Want: "", Explain: `1:6: option "--debug=b" changes the output format; passing through`},
	{In: "make --version", Want: "", Explain: "1:6: help or version requested (--version); passing through"},
	{In: "make CFLAGS=-fdiagnostics-format=json", Want: "", Explain: `1:6: option "CFLAGS=-fdiagnostics-format=json" changes the output format; passing through`},
	{In: "ninja -t targets", Want: "", Explain: `1:7: option "-t" changes the output format; passing through`},
	{In: "ninja -n", Want: "", Explain: `1:7: option "-n" changes the output format; passing through`},
	{In: "ninja --version", Want: "", Explain: "1:7: help or version requested (--version); passing through"},
	{In: "cmake --build build -- -n", Want: "", Explain: `1:24: option "-n" changes the output format; passing through`},
	{In: "cmake --build build --help", Want: "", Explain: "1:21: help or version requested (--help); passing through"},
	{In: "cmake -S . -B build", Want: "", Explain: "1:7: not a recognized command; passing through"},
	{In: "cmake", Want: "", Explain: "1:1: not a recognized command; passing through"},
	{In: "ctest -N", Want: "", Explain: `1:7: option "-N" changes the output format; passing through`},
	{In: "ctest --test-dir build -V", Want: "", Explain: `1:24: option "-V" changes the output format; passing through`},
	{In: "ctest --version", Want: "", Explain: "1:7: help or version requested (--version); passing through"},
}

func TestClassify(t *testing.T) {
	table.CheckExplained(t, ccCases, []ruletest.ArgvCase{
		{In: []string{"gcc", "-c", "a b.c"}, Want: CC},
		{In: []string{"make", "-k", "|", "tail"}, Want: Make},
	})
}

// TestMakeEnv: the options GNU make reads from MAKEFLAGS, and the
// compiler flags a makefile hands on, pass through as on the command line.
func TestMakeEnv(t *testing.T) {
	for env, want := range map[string]string{
		"":                                     "",
		"MAKEFLAGS=k":                          "",
		"MAKEFLAGS=-j4 --no-print-directory":   "",
		"MAKEFLAGS=kn":                         `MAKEFLAGS: option "-kn" changes the output format`,
		"GNUMAKEFLAGS=--dry-run":               `GNUMAKEFLAGS: option "--dry-run" changes the output format`,
		"CFLAGS=-O2 -fdiagnostics-format=json": `CFLAGS: option "-fdiagnostics-format=json" changes the output format`,
		"CXXFLAGS=-Wall":                       "",
	} {
		getenv := func(k string) string {
			name, val, _ := strings.Cut(env, "=")
			if k == name {
				return val
			}
			return ""
		}
		if got := cc.MakeEnv([]string{"make"}, getenv); got != want {
			t.Errorf("%s: MakeEnv = %q, want %q", env, got, want)
		}
	}
}

// table classifies commands as shrinkrun does.
var table = ruletest.Classifier{String: rules.String, Argv: rules.Argv, Has: rules.Has}

// Rule ids, as the block's rule: line shows them.
const (
	CC         = "bash.cc"
	Make       = "bash.make"
	CMakeBuild = "bash.cmake_build"
	Ninja      = "bash.ninja"
	CTest      = "bash.ctest"
	ClangTidy  = "bash.clang_tidy"
	Cppcheck   = "bash.cppcheck"
)
