#!/usr/bin/env bash
# cc.sh regenerates the corpus of the cc family (cc, make, cmake_build,
# ninja, ctest, clang_tidy, cppcheck) from real gcc 12, clang 14, GNU make
# 4.3, cmake 3.25, ninja 1.11, ctest, clang-tidy 14 and cppcheck 2.10 runs
# on C and C++ code written here for the purpose.
#
# Every project is rewritten under a fixed path ($ROOT/<project>) on each
# run, so the paths the tools print are the same every time. The command is
# run exactly as an agent would type it, from the project directory, with
# stdout and stderr redirected to files, in the C.UTF-8 locale an agent's
# shell usually has (gcc quotes with ‘’ there). Temporary object names in
# the linker's messages (/tmp/ccXXXXXX.o), timings and make -j's
# interleaving vary between runs; everything else is reproducible.
#
# Beside each uncut case, the independent truth the tests hold the
# reference reader to (rules/cc/oracle_test.go):
#   CASE.json   gcc's own -fdiagnostics-format=json for the same
#               compilations, one JSON array a line (the lines of the twin
#               run that are JSON; make's and ninja's own lines dropped);
#   CASE.dia    clang's --serialize-diagnostics files for the same
#               compilations, as llvm-bcanalyzer -dump prints them (the
#               FileName, FlagName and DiagInfo records);
#   CASE.junit  ctest's --output-junit report of the same run.
# The twins run one compilation at a time (make -j1, ninja -j1): the same
# diagnostics, without interleaving.
#
# Usage: bash rules/cc/testdata/cc.sh   (then go test ./rules/cc -run TestGolden -update)
set -euo pipefail

ROOT=/tmp/shrinkrun-corpus/cc
OUT=$(cd "$(dirname "$0")" && pwd)
BCANALYZER=$(command -v llvm-bcanalyzer || echo /usr/lib/llvm-14/bin/llvm-bcanalyzer)

for tool in gcc g++ gcc-12 g++-12 clang clang++ clang-14 clang++-14 clang-tidy clang-tidy-14 cppcheck make cmake ninja ctest go cargo "$BCANALYZER"; do
	command -v "$tool" >/dev/null || { echo "cc.sh: $tool is not installed (.ci/deps.d/cc.sh)" >&2; exit 1; }
done

# The environment of an agent's shell: nothing that changes what the tools
# print (make flags, compiler colors, ctest's output options).
unset MAKEFLAGS MFLAGS GNUMAKEFLAGS CFLAGS CXXFLAGS CPPFLAGS LDFLAGS CC CXX GCC_COLORS GCC_URLS \
	CTEST_OUTPUT_ON_FAILURE CTEST_PARALLEL_LEVEL CMAKE_BUILD_PARALLEL_LEVEL CMAKE_GENERATOR NINJA_STATUS VERBOSE \
	GOFLAGS CARGO_TERM_COLOR
export LC_ALL=C.UTF-8 TERM=dumb
export GOCACHE=$ROOT/.cache/go GOPATH=$ROOT/.cache/gopath GOPROXY=off GOTOOLCHAIN=local
export CARGO_HOME=$ROOT/.cache/cargo CARGO_NET_OFFLINE=true

rm -rf "$ROOT"
mkdir -p "$ROOT"
for d in cc make cmake_build ninja ctest clang_tidy cppcheck; do
	rm -f "$OUT/$d"/*.meta "$OUT/$d"/*.stdout "$OUT/$d"/*.stderr "$OUT/$d"/*.json "$OUT/$d"/*.dia "$OUT/$d"/*.junit "$OUT/$d"/*.yaml "$OUT/$d"/*.xml
	mkdir -p "$OUT/$d"
done

# capture RULE CASE DIR COMMAND: runs COMMAND (a string, as typed) in
# $ROOT/DIR and writes CASE.meta, CASE.stdout and CASE.stderr under
# OUT/RULE.
capture() {
	local rule=$1 name=$2 dir=$3 cmd=$4 code=0
	(cd "$ROOT/$dir" && bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\n' "$cmd" "$code" >"$OUT/$rule/$name.meta"
	printf '%-12s %-22s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
}

# json RULE CASE DIR COMMAND: runs the twin COMMAND (gcc with
# -fdiagnostics-format=json) in $ROOT/DIR and keeps the JSON lines of its
# output, both streams, as OUT/RULE/CASE.json.
json() {
	local rule=$1 name=$2 dir=$3 cmd=$4
	(cd "$ROOT/$dir" && bash -c "$cmd" 2>&1 || true) | grep -E '^\[(\{|\])' >"$OUT/$rule/$name.json" || true
}

# dia RULE CASE DIR FILES...: keeps the records of clang's serialized
# diagnostics files (relative to $ROOT/DIR), in order, as OUT/RULE/CASE.dia.
dia() {
	local rule=$1 name=$2 dir=$3 f
	shift 3
	: >"$OUT/$rule/$name.dia"
	for f in "$@"; do
		[ -s "$ROOT/$dir/$f" ] || continue
		echo "<File name='$f'/>" >>"$OUT/$rule/$name.dia"
		"$BCANALYZER" -dump "$ROOT/$dir/$f" | grep -E '^ *<(FileName|FlagName|DiagInfo|Diag |/Diag)' >>"$OUT/$rule/$name.dia"
	done
}

# filler N: N comment lines, so that the code after them sits at line
# numbers of two and three digits (peers lose locations at line >= 10).
filler() {
	local i
	for ((i = 1; i <= $1; i++)); do
		printf '/* Note %d: this file is generated for the shrinkrun corpus. */\n' "$i"
	done
}

# ---------------------------------------------------------------------------
# Sources compiled directly (rule cc).

mkdir -p "$ROOT/cc"
cd "$ROOT/cc"

# warn.c: a file that compiles, with warnings of many flags: 12 unused
# variables, unused parameters (-Wextra), sign comparisons, format
# mismatches, a #warning, and two warnings gcc prints without a flag.
{
	printf '#include <stdio.h>\n#include <string.h>\n\n'
	filler 6
	for i in $(seq 1 12); do
		printf 'int unused_%02d(int x, int y)\n{\n\tint tmp_%02d = x;\n\treturn x + 1;\n}\n\n' "$i" "$i"
	done
	cat <<'EOF'
int count_below(const int *v, unsigned n, int limit)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		if (v[i] < limit)
			c++;
	return c;
}

int length_of(const char *s)
{
	int n = 0;
	while (n < strlen(s))
		n++;
	return n;
}

void report(const char *name, long size)
{
	printf("%s: %d bytes\n", name, size);
	printf("%d%%\n", name);
}

#warning "report() is deprecated, use report2()"

int table[2] = {1, 2, 3};

__attribute__((noreturn)) void stop(void) { }
EOF
} >warn.c

# errors.c: C errors of several kinds among warnings.
{
	printf '#include <stdio.h>\n#include <string.h>\n\n'
	filler 8
	cat <<'EOF'
struct point { int x, y; };

static int area(struct point p) { return p.x * p.y; }

int parse(const char *s, int *out)
{
	int n = 0;
	for (size_t i = 0; i < strlen(s); i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1
		n = n * 10 + (s[i] - '0');
	}
	*out = n;
	return 0;
}

int main(void)
{
	struct point p = {2, 3};
	int total = area(p, 1);
	int unused;
	printf("%s\n", total);
	p.z = 4;
	char *name = 42;
	undefined_call(total);
	return missing_value;
}
EOF
} >errors.c

# templates.cpp: a C++ file with many errors, most of them inside the
# standard library's templates: gcc's instantiation chains and candidate
# notes, clang's "requested here" notes. NTYPES copies of the same mistakes.
NTYPES=6
{
	cat <<'EOF'
#include <algorithm>
#include <iostream>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

template <typename T>
int total_size(const std::vector<T>& v)
{
	int s = 0;
	for (const auto& e : v)
		s += e.size();
	return s;
}

EOF
	for i in $(seq 1 $NTYPES); do
		cat <<EOF
namespace m$i {
struct Key { int id; };
struct Point { int x, y; };

int run()
{
	std::map<Key, int> counts;
	counts[Key{$i}] = $i;
	Point p{$i, $i};
	std::cout << p << "\n";
	std::list<int> l{3, 1, $i};
	std::sort(l.begin(), l.end());
	std::vector<int> v{1, $i};
	int t = total_size(v);
	std::unique_ptr<int> a(new int($i));
	std::unique_ptr<int> b = a;
	std::string s = $i;
	int unused_$i = 0;
	return t;
}
} // namespace m$i

EOF
	done
	printf 'int main() { return m1::run(); }\n'
} >templates.cpp

# many.cpp: 150 functions with two plain errors each: a large output
# without templates. gcc reports all 300; clang stops at 20.
{
	printf '#include <vector>\n\n'
	for i in $(seq 1 150); do
		printf 'int step_%03d(std::vector<int>& v)\n{\n\tv.push_back(count_%03d);\n\treturn v.sizee();\n}\n\n' "$i" "$i"
	done
} >many.cpp

# main.c and util.c: a program that does not link: undefined references
# and a symbol defined twice.
cat >util.c <<'EOF'
int checksum(const char *s)
{
	int c = 0;
	while (*s)
		c += *s++;
	return c;
}

int verbose = 1;
EOF
cat >main.c <<'EOF'
#include <stdio.h>

int checksum(const char *s);
int compress_block(const char *in, char *out);
void log_event(const char *what);

int verbose = 0;

int main(void)
{
	char out[64];
	log_event("start");
	int n = compress_block("abc", out);
	printf("%d %d\n", checksum(out), n);
	log_event("stop");
	return 0;
}
EOF

printf '#include "config.h"\n#include <stdio.h>\n\nint main(void) { return CONFIG_VALUE; }\n' >inc.c
printf 'int twice(int x) { return 2 * x; }\n' >ok.c

capture cc warnings cc 'gcc -Wall -Wextra -c warn.c'
json cc warnings cc 'gcc -Wall -Wextra -c warn.c -fdiagnostics-format=json'
capture cc warnings_clang cc 'clang -Wall -Wextra -c warn.c'
clang -Wall -Wextra -c warn.c -o /dev/null --serialize-diagnostics warn.dia 2>/dev/null || true
dia cc warnings_clang cc warn.dia
capture cc werror cc 'gcc -Wall -Werror -c warn.c'
json cc werror cc 'gcc -Wall -Werror -c warn.c -fdiagnostics-format=json'
capture cc errors cc 'gcc -Wall -c errors.c'
json cc errors cc 'gcc -Wall -c errors.c -fdiagnostics-format=json'
capture cc errors_clang cc 'clang -Wall -c errors.c'
clang -Wall -c errors.c -o /dev/null --serialize-diagnostics errors.dia 2>/dev/null || true
dia cc errors_clang cc errors.dia
capture cc templates cc 'g++ -Wall -std=c++17 -c templates.cpp'
json cc templates cc 'g++ -Wall -std=c++17 -c templates.cpp -fdiagnostics-format=json'
capture cc templates_merged cc 'g++ -Wall -std=c++17 -c templates.cpp 2>&1'
json cc templates_merged cc 'g++ -Wall -std=c++17 -c templates.cpp -fdiagnostics-format=json'
capture cc templates_clang cc 'clang++ -Wall -std=c++17 -c templates.cpp'
clang++ -Wall -std=c++17 -c templates.cpp -o /dev/null --serialize-diagnostics templates.dia 2>/dev/null || true
dia cc templates_clang cc templates.dia
capture cc many cc 'g++ -c many.cpp'
json cc many cc 'g++ -c many.cpp -fdiagnostics-format=json'
capture cc many_clang cc 'clang++ -c many.cpp'
clang++ -c many.cpp -o /dev/null --serialize-diagnostics many.dia 2>/dev/null || true
dia cc many_clang cc many.dia
capture cc link cc 'gcc -o demo main.c util.c'
json cc link cc 'gcc -o demo main.c util.c -fdiagnostics-format=json'
capture cc link_clang cc 'clang -o demo main.c util.c'
capture cc link_lib cc 'cc -o demo ok.c main.c -lcompress'
json cc link_lib cc 'cc -o demo ok.c main.c -lcompress -fdiagnostics-format=json'
capture cc missing_header cc 'cc -c inc.c'
json cc missing_header cc 'cc -c inc.c -fdiagnostics-format=json'
capture cc missing_header_clang cc 'clang -c inc.c'
capture cc no_such_file cc 'gcc -c nosuch.c'
capture cc clean cc 'gcc -Wall -c ok.c'

# The versioned names Debian installs the same compilers under.
capture cc errors_gcc12 cc 'gcc-12 -Wall -c errors.c'
json cc errors_gcc12 cc 'gcc-12 -Wall -c errors.c -fdiagnostics-format=json'
capture cc errors_clang14 cc 'clang-14 -Wall -c errors.c'
clang-14 -Wall -c errors.c -o /dev/null --serialize-diagnostics errors14.dia 2>/dev/null || true
dia cc errors_clang14 cc errors14.dia
capture cc templates_gpp12_tail cc 'g++-12 -Wall -std=c++17 -c templates.cpp 2>&1 | tail -40'
capture cc many_clangpp14_head cc 'clang++-14 -c many.cpp 2>&1 | head -30'

# The filter forms, as agents pipe a long build.
capture cc templates_tail cc 'g++ -Wall -std=c++17 -c templates.cpp 2>&1 | tail -40'
capture cc templates_tail_short cc 'g++ -Wall -std=c++17 -c templates.cpp 2>&1 | tail -7'
capture cc templates_head cc 'g++ -Wall -std=c++17 -c templates.cpp 2>&1 | head -60'
capture cc templates_grep cc 'g++ -Wall -std=c++17 -c templates.cpp 2>&1 | grep error'
capture cc templates_grep_v cc 'g++ -Wall -std=c++17 -c templates.cpp 2>&1 | grep -v note:'
capture cc templates_stdout_tail cc 'g++ -Wall -std=c++17 -c templates.cpp | tail -20'
capture cc templates_clang_tail cc 'clang++ -Wall -std=c++17 -c templates.cpp 2>&1 | tail -30'
capture cc warnings_grep cc 'gcc -Wall -Wextra -c warn.c 2>&1 | grep warning'
capture cc many_head cc 'g++ -c many.cpp 2>&1 | head -100'
capture cc link_grep cc 'gcc -o demo main.c util.c 2>&1 | grep -E "undefined|multiple|error"'

# ---------------------------------------------------------------------------
# Makefile projects (rule make).

# module DIR NAME N: DIR/src/NAME.c with N functions, each with an unused
# variable and an unused parameter (two warnings with -Wall -Wextra), and its
# header.
module() {
	local dir=$1 name=$2 n=$3 i
	mkdir -p "$dir/src"
	{
		printf '#include "%s.h"\n\n' "$name"
		filler 4
		for ((i = 1; i <= n; i++)); do
			printf 'int %s_step%d(int value, int scale)\n{\n\tint spare_%d = value;\n\treturn value + %d;\n}\n\n' "$name" "$i" "$i" "$i"
		done
	} >"$dir/src/$name.c"
	{
		for ((i = 1; i <= n; i++)); do
			printf 'int %s_step%d(int value, int scale);\n' "$name" "$i"
		done
	} >"$dir/src/$name.h"
}

# broken DIR NAME: DIR/src/NAME.c, which does not compile.
broken() {
	local dir=$1 name=$2
	{
		printf '#include <stdio.h>\n#include "%s.h"\n\n' "$name"
		filler 6
		cat <<EOF
struct ${name}_state { int count; double mean; };

int ${name}_step1(int value, int scale)
{
	struct ${name}_state st = {0};
	st.total += value;
	printf("%d\n", st.mean);
	return value * scale + missing_offset
}
EOF
	} >"$dir/src/$name.c"
	printf 'int %s_step1(int value, int scale);\n' "$name" >"$dir/src/$name.h"
}

# makefile DIR MODULES...: a Makefile that builds DIR/demo from
# src/MODULE.c and src/main.c, echoing each command as make does.
makefile() {
	local dir=$1
	shift
	local objs=""
	for m in "$@" main; do objs="$objs build/$m.o"; done
	cat >"$dir/Makefile" <<EOF
CC = gcc
CFLAGS = -Wall -Wextra -O0 -Isrc
OBJS =$objs

demo: \$(OBJS)
	\$(CC) -o \$@ \$(OBJS)

build/%.o: src/%.c | build
	\$(CC) \$(CFLAGS) -c -o \$@ \$<

build:
	mkdir -p build

check: demo
	./demo --self-test

clean:
	rm -rf build demo

.PHONY: check clean
EOF
}

# mainc DIR MODULES...: DIR/src/main.c calling the first step of each
# module; with a self-test mode that fails.
mainc() {
	local dir=$1
	shift
	{
		printf '#include <stdio.h>\n#include <string.h>\n'
		for m in "$@"; do printf '#include "%s.h"\n' "$m"; done
		printf '\nint main(int argc, char **argv)\n{\n\tint sum = 0;\n'
		for m in "$@"; do printf '\tsum += %s_step1(sum, 2);\n' "$m"; done
		cat <<'EOF'
	if (argc > 1 && strcmp(argv[1], "--self-test") == 0) {
		printf("self-test: 14 checks\n");
		printf("check 3: sum = %d, want 7\n", sum);
		printf("check 9: overflow not detected\n");
		printf("self-test: 2 of 14 checks failed\n");
		return 1;
	}
	printf("%d\n", sum);
	return 0;
}
EOF
	} >"$dir/src/main.c"
}

P=$ROOT/make
MODS="parse lexer eval stats store format"

# app: six modules that compile with warnings.
mkdir -p "$P/app"
for m in $MODS; do module "$P/app" "$m" 3; done
mainc "$P/app" $MODS
makefile "$P/app" $MODS

# bad: the same with three modules that do not compile.
mkdir -p "$P/bad"
for m in $MODS; do module "$P/bad" "$m" 3; done
for m in lexer stats format; do broken "$P/bad" "$m"; done
mainc "$P/bad" $MODS
makefile "$P/bad" $MODS

# link: compiles, but main calls a function nobody defines.
mkdir -p "$P/link"
for m in parse eval; do module "$P/link" "$m" 2; done
mainc "$P/link" parse eval
sed -i 's/^\tsum += eval_step1(sum, 2);/\tsum += eval_step1(sum, 2);\n\tsum += eval_step9(sum);\n\tsum += parse_finish(sum);/' "$P/link/src/main.c"
printf 'int eval_step9(int value);\nint parse_finish(int value);\n' >>"$P/link/src/eval.h"
makefile "$P/link" parse eval

# big: 40 modules of 6 functions (480 warnings) and two that do not compile.
BIG=""
for i in $(seq -w 1 40); do BIG="$BIG mod$i"; done
mkdir -p "$P/big"
for m in $BIG; do module "$P/big" "$m" 6; done
broken "$P/big" mod17
broken "$P/big" mod33
mainc "$P/big" $BIG
makefile "$P/big" $BIG

# rec: a top Makefile running make in lib/ and app/, lib with an error.
mkdir -p "$P/rec/lib/src" "$P/rec/app/src"
module "$P/rec/lib" util 2
broken "$P/rec/lib" codec
cat >"$P/rec/lib/Makefile" <<'EOF'
CFLAGS = -Wall -Wextra -Isrc
libdemo.a: build/util.o build/codec.o
	ar rcs $@ $^
build/%.o: src/%.c
	@mkdir -p build
	$(CC) $(CFLAGS) -c -o $@ $<
clean:
	rm -rf build libdemo.a
EOF
module "$P/rec/app" front 2
mainc "$P/rec/app" front
cat >"$P/rec/app/Makefile" <<'EOF'
CFLAGS = -Wall -Wextra -Isrc -I../lib/src
demo: src/main.c src/front.c
	$(CC) $(CFLAGS) -o $@ $^ ../lib/libdemo.a
clean:
	rm -f demo
EOF
cat >"$P/rec/Makefile" <<'EOF'
all:
	$(MAKE) -C lib
	$(MAKE) -C app
clean:
	$(MAKE) -C lib clean
	$(MAKE) -C app clean
EOF

# gocheck: a Makefile whose targets run go vet and go build on a module
# with a vet finding and a type error; cargocheck: one that runs cargo.
mkdir -p "$P/gocheck/calc"
printf 'module example.com/demo\n\ngo 1.26\n' >"$P/gocheck/go.mod"
cat >"$P/gocheck/calc/calc.go" <<'EOF'
package calc

import "fmt"

// Sum adds the values.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	fmt.Printf("sum of %d values: %s\n", len(xs), s)
	return s
}

// Mean is the mean of the values.
func Mean(xs []int) float64 {
	return float64(Sum(xs)) / len(xs)
}
EOF
cat >"$P/gocheck/Makefile" <<'EOF'
.PHONY: all vet build
all: vet build
vet:
	go vet ./...
build:
	go build ./...
EOF
mkdir -p "$P/cargocheck/src"
printf '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$P/cargocheck/Cargo.toml"
cat >"$P/cargocheck/src/lib.rs" <<'EOF'
pub fn total(xs: &[i32]) -> i32 {
    let mut s = 0;
    for x in xs {
        s += x;
    }
    s + missing
}

pub fn mean(xs: &[i32]) -> f64 {
    let unused = 3;
    total(xs) / xs.len()
}
EOF
cat >"$P/cargocheck/Makefile" <<'EOF'
check:
	cargo check --quiet
EOF

# twinmake DIR ARGS...: make ARGS again from clean, one job at a time, with
# gcc's JSON diagnostics: the twin of a case that compiled with ARGS.
twinmake() {
	local dir=$1
	shift
	echo "make -s clean >/dev/null; make -j1 $* CFLAGS='-Wall -Wextra -O0 -Isrc -fdiagnostics-format=json'; make -s clean >/dev/null"
}

cd "$P/app"
capture make build make/app 'make'
capture make nothing make/app 'make'
capture make check make/app 'make check'
make -s clean
capture make silent make/app 'make -s'
make -s clean
json make build make/app "$(twinmake app)"
cp "$OUT/make/build.json" "$OUT/make/silent.json"

cd "$P/bad"
capture make errors make/bad 'make'
make -s clean
capture make keep_going make/bad 'make -k'
json make keep_going make/bad "$(twinmake bad -k)"
capture make parallel make/bad 'make -j4 -k'
json make parallel make/bad "$(twinmake bad -k)"
make -s clean
capture make parallel_merged make/bad 'make -j4 -k 2>&1'
make -s clean
capture make keep_going_tail make/bad 'make -k 2>&1 | tail -40'
make -s clean
capture make keep_going_tail_short make/bad 'make -k 2>&1 | tail -12'
make -s clean
capture make keep_going_head make/bad 'make -k 2>&1 | head -30'
make -s clean
capture make keep_going_grep make/bad "make -k 2>&1 | grep -E 'error|Error'"
make -s clean
capture make keep_going_grep_v make/bad "make -k 2>&1 | grep -v '^ '"
make -s clean
capture make parallel_tail make/bad 'make -j4 -k 2>&1 | tail -15'
make -s clean
capture make no_rule make/bad 'make install-docs'

cd "$P/link"
capture make link make/link 'make'
json make link make/link "$(twinmake link)"
make -s clean

cd "$P/big"
capture make big make/big 'make -k -j2'
json make big make/big "$(twinmake big -k)"
make -s clean
capture make big_tail make/big 'make -k -j2 2>&1 | tail -30'
make -s clean
capture make big_grep make/big "make -k -j2 2>&1 | grep -E 'error|Error'"
make -s clean

cd "$P/rec"
capture make recursive make/rec 'make'
make -s clean >/dev/null 2>&1 || true

capture make go_vet make/gocheck 'make'
capture make cargo make/cargocheck 'make'

# ---------------------------------------------------------------------------
# A CMake project (rules cmake_build, ninja, ctest): a library with
# warnings, a program, and tests that pass, fail, abort, crash, time out or
# cannot run; with -DBROKEN=ON, two sources that do not compile (one C, one
# C++ with template errors).

C=$ROOT/cmake
mkdir -p "$C/src" "$C/tests"
for m in calc stats; do module "$C" "$m" 4; done
mainc "$C" calc stats
broken "$C" codec
cat >"$C/src/shape.cpp" <<'EOF'
#include <map>
#include <string>
#include <vector>

struct Shape { int sides; };

int count_shapes(const std::vector<Shape>& shapes)
{
	std::map<Shape, int> seen;
	for (const auto& s : shapes)
		seen[s]++;
	std::string name = shapes.size();
	return seen.size();
}
EOF
cat >"$C/tests/check.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	if (argc > 2 && strcmp(argv[2], "abort") == 0)
		abort();
	if (argc > 2 && strcmp(argv[2], "segv") == 0) {
		volatile int *p = NULL;
		return *p;
	}
	if (argc > 2 && strcmp(argv[2], "sleep") == 0)
		sleep(5);
	if (n % 17 == 0) {
		printf("case %d: expected %d, got %d\n", n, n * 2, n * 2 + 1);
		fprintf(stderr, "tests/check.c:18: assertion failed: value == expected\n");
		return 1;
	}
	printf("case %d ok\n", n);
	return 0;
}
EOF
cat >"$C/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(demo C CXX)
option(BROKEN "add the sources that do not compile" OFF)
option(MANY "add 60 more tests" OFF)
enable_testing()
add_compile_options(-Wall -Wextra)
include_directories(src)
set(LIB_SOURCES src/calc.c src/stats.c)
if(BROKEN)
  list(APPEND LIB_SOURCES src/codec.c src/shape.cpp)
endif()
add_library(calc ${LIB_SOURCES})
add_executable(demo src/main.c)
target_link_libraries(demo calc)
add_executable(check tests/check.c)
foreach(n 1 2 3 4 5 6 7 8)
  add_test(NAME pass_${n} COMMAND check ${n})
endforeach()
add_test(NAME fail_17 COMMAND check 17)
add_test(NAME abort_1 COMMAND check 1 abort)
add_test(NAME segv_1 COMMAND check 1 segv)
add_test(NAME slow_1 COMMAND check 1 sleep)
set_tests_properties(slow_1 PROPERTIES TIMEOUT 1)
add_test(NAME missing_tool COMMAND no-such-tool)
if(MANY)
  foreach(n RANGE 20 79)
    add_test(NAME many_${n} COMMAND check ${n})
  endforeach()
endif()
EOF

cd "$C"
cmake -S . -B build >/dev/null
cmake -S . -B build-bad -DBROKEN=ON >/dev/null
cmake -S . -B build-bad-json -DBROKEN=ON -DCMAKE_C_FLAGS=-fdiagnostics-format=json -DCMAKE_CXX_FLAGS=-fdiagnostics-format=json >/dev/null
cmake -S . -B build-many -DMANY=ON >/dev/null
cmake -S . -B ninja -G Ninja >/dev/null
cmake -S . -B ninja-bad -G Ninja -DBROKEN=ON >/dev/null
cmake -S . -B ninja-bad-json -G Ninja -DBROKEN=ON -DCMAKE_C_FLAGS=-fdiagnostics-format=json -DCMAKE_CXX_FLAGS=-fdiagnostics-format=json >/dev/null

capture cmake_build build cmake 'cmake --build build'
json cmake_build build cmake 'cmake -S . -B build-json -DCMAKE_C_FLAGS=-fdiagnostics-format=json >/dev/null && cmake --build build-json'
capture cmake_build up_to_date cmake 'cmake --build build'
capture cmake_build errors cmake 'cmake --build build-bad'
json cmake_build errors cmake 'cmake --build build-bad-json'
capture cmake_build keep_going cmake 'cmake --build build-bad -j 4 -- -k'
json cmake_build keep_going cmake 'cmake --build build-bad-json -j 1 -- -k'
capture cmake_build keep_going_tail cmake 'cmake --build build-bad --clean-first -- -k 2>&1 | tail -25'
capture cmake_build keep_going_grep cmake "cmake --build build-bad --clean-first -- -k 2>&1 | grep -E 'error|Error'"
capture cmake_build ninja_errors cmake 'cmake --build ninja-bad -- -k 0'
json cmake_build ninja_errors cmake 'cmake --build ninja-bad-json -j 1 -- -k 0'
capture cmake_build test_target cmake 'cmake --build build --target test'
capture cmake_build clean_first cmake 'cmake --build ninja --clean-first'

ninja -C ninja -t clean >/dev/null
capture ninja build cmake 'ninja -C ninja'
json ninja build cmake 'cmake -S . -B ninja-json -G Ninja -DCMAKE_C_FLAGS=-fdiagnostics-format=json >/dev/null && ninja -C ninja-json -j1'
capture ninja no_work cmake 'ninja -C ninja'
capture ninja errors cmake 'ninja -C ninja-bad'
ninja -C ninja-bad -t clean >/dev/null
capture ninja keep_going cmake 'ninja -C ninja-bad -k 0'
json ninja keep_going cmake 'ninja -C ninja-bad-json -t clean >/dev/null; ninja -C ninja-bad-json -j1 -k 0'
ninja -C ninja-bad -t clean >/dev/null
capture ninja keep_going_tail cmake 'ninja -C ninja-bad -k 0 | tail -30'
ninja -C ninja-bad -t clean >/dev/null
capture ninja keep_going_grep cmake "ninja -C ninja-bad -k 0 | grep -E 'FAILED|error'"
ninja -C ninja-bad -t clean >/dev/null
capture ninja keep_going_head cmake 'ninja -C ninja-bad -k 0 | head -20'
capture ninja unknown_target cmake 'ninja -C ninja nosuch'

cmake --build build-many >/dev/null 2>&1
junit() { echo "$ROOT/cmake/$1.junit"; }
capture ctest failures cmake 'ctest --test-dir build'
ctest --test-dir build --output-junit "$(junit failures)" >/dev/null 2>&1 || true
cp "$(junit failures)" "$OUT/ctest/failures.junit"
capture ctest output_on_failure cmake 'ctest --test-dir build --output-on-failure'
cp "$OUT/ctest/failures.junit" "$OUT/ctest/output_on_failure.junit"
capture ctest parallel cmake 'ctest --test-dir build -j2'
cp "$OUT/ctest/failures.junit" "$OUT/ctest/parallel.junit"
capture ctest pass cmake 'ctest --test-dir build -R pass_'
ctest --test-dir build -R pass_ --output-junit "$(junit pass)" >/dev/null 2>&1 || true
cp "$(junit pass)" "$OUT/ctest/pass.junit"
capture ctest many cmake 'ctest --test-dir build-many -j2 --output-on-failure'
ctest --test-dir build-many --output-junit "$(junit many)" >/dev/null 2>&1 || true
cp "$(junit many)" "$OUT/ctest/many.junit"
capture ctest no_tests cmake 'ctest --test-dir build -R nothing'
capture ctest rerun_failed cmake 'ctest --test-dir build --rerun-failed --output-on-failure'
capture ctest failures_tail cmake 'ctest --test-dir build | tail -12'
capture ctest output_tail cmake 'ctest --test-dir build --output-on-failure 2>&1 | tail -25'
capture ctest failures_head cmake 'ctest --test-dir build | head -12'
capture ctest failures_grep cmake "ctest --test-dir build | grep -v Passed"
capture ctest failures_grep_failed cmake "ctest --test-dir build 2>&1 | grep -E 'Failed|Exception|Timeout|Not Run'"
capture ctest many_tail cmake 'ctest --test-dir build-many -j2 --output-on-failure 2>&1 | tail -40'

# ---------------------------------------------------------------------------
# The static checkers (rules clang_tidy and cppcheck), on sources with the
# bugs they look for. Beside each uncut case, the checker's own
# machine-readable account of the same run: clang-tidy's --export-fixes
# YAML (CASE.yaml, every diagnostic with its check and level) and
# cppcheck's --xml (CASE.xml, every finding with its id and severity).

mkdir -p "$ROOT/check"
cd "$ROOT/check"
{
	printf '#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n\n'
	filler 4
	cat <<'EOF'
int table[10];

int get(int i)
{
	char buf[8];
	strcpy(buf, "this is far too long");
	if (i == 10)
		return table[10];
	int *p = 0;
	return *p + i + buf[0];
}

void leak(int n)
{
	char *m = malloc(n);
	m[0] = 1;
}

int divide(int a)
{
	int zero = 0;
	return a / zero;
}
EOF
} >bugs.c
{
	printf '#include <stdio.h>\n\n'
	filler 12
	cat <<'EOF'
int compare(int a, int b)
{
	int unused = 3;
	int r;
	r = a;
	r = b;
	if (a = b)
		return r;
	return 0;
}

void print_all(const char *names[], int n)
{
	for (int i = 0; i <= n; i++)
		printf("%d\n", names[i]);
}

struct big { char data[4096]; };

int size_of(struct big b) { return sizeof(b.data); }
EOF
} >style.c
printf 'int broken(void)\n{\n\treturn missing + 1\n}\n' >broken.c

# tidy RULE CASE COMMAND: the export-fixes twin of a clang-tidy COMMAND,
# its paths made relative as the command prints them.
tidy() {
	(cd "$ROOT/check" && bash -c "${3/ --/ --export-fixes=$OUT/$1/$2.yaml --}" >/dev/null 2>&1 || true)
	sed -i "s|$ROOT/check/||" "$OUT/$1/$2.yaml"
}
# xml RULE CASE COMMAND: the --xml twin of a cppcheck COMMAND.
xml() {
	(cd "$ROOT/check" && bash -c "$3 --xml" 2>"$OUT/$1/$2.xml" >/dev/null || true)
}

capture clang_tidy bugs check 'clang-tidy bugs.c --'
tidy clang_tidy bugs 'clang-tidy bugs.c --'
capture clang_tidy checks check "clang-tidy -checks='-*,bugprone-*,readability-*,clang-analyzer-*' bugs.c style.c --"
tidy clang_tidy checks "clang-tidy -checks='-*,bugprone-*,readability-*,clang-analyzer-*' bugs.c style.c --"
capture clang_tidy compile_error check 'clang-tidy broken.c bugs.c --'
tidy clang_tidy compile_error 'clang-tidy broken.c bugs.c --'
capture clang_tidy versioned check 'clang-tidy-14 style.c -- -Wall'
tidy clang_tidy versioned 'clang-tidy-14 style.c -- -Wall'
capture clang_tidy merged_tail check "clang-tidy -checks='-*,bugprone-*,readability-*,clang-analyzer-*' bugs.c style.c -- 2>&1 | tail -25"
capture clang_tidy grep check "clang-tidy -checks='-*,readability-*' bugs.c style.c -- 2>/dev/null | grep warning"

capture cppcheck bugs check 'cppcheck bugs.c'
xml cppcheck bugs 'cppcheck bugs.c'
capture cppcheck all check 'cppcheck --enable=all --suppress=missingIncludeSystem .'
xml cppcheck all 'cppcheck --enable=all --suppress=missingIncludeSystem .'
capture cppcheck quiet check 'cppcheck -q --enable=warning,style,performance bugs.c style.c'
xml cppcheck quiet 'cppcheck -q --enable=warning,style,performance bugs.c style.c'
capture cppcheck error_exitcode check 'cppcheck --error-exitcode=3 bugs.c broken.c'
xml cppcheck error_exitcode 'cppcheck --error-exitcode=3 bugs.c broken.c'
capture cppcheck merged_tail check 'cppcheck --enable=all . 2>&1 | tail -20'
capture cppcheck devnull check 'cppcheck --enable=style . 2>/dev/null'
