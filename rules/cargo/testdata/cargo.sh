#!/usr/bin/env bash
# cargo.sh regenerates the cargo_check and cargo_test corpus from real crates.
#
# Every case is a small std-only crate written under a fixed path
# ($ROOT/<case>) so that the paths cargo prints (Compiling lines, missing
# manifests) are the same on every run. The command is run exactly as an
# agent would type it, from the crate directory, with stdout and stderr
# redirected to files: output captured through pipes is already uncolored, so
# nothing about the command or its environment is altered. Timings
# ("finished in 0.00s", "target(s) in 0.41s") naturally vary between runs;
# everything else is reproducible.
#
# Usage: bash rules/cargo/testdata/cargo.sh   (then go test ./rules/cargo -update)
set -euo pipefail

command -v cargo >/dev/null || export PATH="$HOME/.cargo/bin:$PATH"
ROOT=/tmp/shrinkrun-corpus/cargo
OUT=$(cd "$(dirname "$0")" && pwd)

# The environment an agent's shell would have: no inherited cargo or test
# settings that change the output.
unset RUST_BACKTRACE RUST_LOG CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR \
	CARGO_TERM_COLOR CARGO_TERM_QUIET CARGO_TERM_VERBOSE RUSTFLAGS RUST_TEST_THREADS

rm -rf "$ROOT"
mkdir -p "$ROOT"

# capture RULE CASE COMMAND [DIR]: runs COMMAND (a string, as typed) in
# $ROOT/DIR ($ROOT/CASE by default) and writes CASE.meta, CASE.stdout and
# CASE.stderr under OUT/RULE. A piped command's exit status is its last
# stage's, as bash reports it.
capture() {
	local rule=$1 name=$2 cmd=$3 dir=${4:-$2} code=0
	mkdir -p "$OUT/$rule"
	(cd "$ROOT/$dir" && bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\n' "$cmd" "$code" >"$OUT/$rule/$name.meta"
	printf '%-12s %-22s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
}

# package, filler and truth: see cargolib.sh.
. "$OUT/cargolib.sh"

# json RULE CASE COMMAND: the machine-readable output of the case, as
# OUT/RULE/CASE.json (truth in cargolib.sh).
json() { truth "$ROOT/$2" "$OUT/$1/$2.json" "$3"; }

# The JSON forms of cargo test and cargo check.
T='--message-format=json'
L='-Z unstable-options --format json'

# A library with doc-tests, unit tests and a binary: the base of most
# cargo_test cases.
demo_lib() {
	cat >"$1/src/lib.rs" <<'EOF'
//! Small arithmetic and parsing helpers.

/// Adds two numbers.
///
/// ```
/// assert_eq!(demo::add(2, 3), 5);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// Parses a decimal number, ignoring surrounding spaces.
///
/// ```
/// assert_eq!(demo::parse_num(" 7 "), Some(7));
/// ```
pub fn parse_num(s: &str) -> Option<i32> {
    s.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn parse_accepts_spaces() {
        assert_eq!(parse_num(" 4 "), Some(4));
    }

    #[test]
    fn parse_rejects_words() {
        assert_eq!(parse_num("x"), None);
    }
}
EOF
	cat >"$1/src/main.rs" <<'EOF'
fn main() {
    println!("{}", demo::add(1, 2));
}

#[cfg(test)]
mod tests {
    #[test]
    fn main_adds() {
        assert_eq!(demo::add(2, 2), 4);
    }
}
EOF
}

demo_tests() {
	mkdir -p "$1/tests"
	cat >"$1/tests/api.rs" <<'EOF'
use demo::{add, parse_num};

#[test]
fn api_add_negative() {
    assert_eq!(add(-2, -3), -5);
}

#[test]
fn api_parse_number() {
    assert_eq!(parse_num("12"), Some(12));
}

#[test]
fn api_parse_empty() {
    assert_eq!(parse_num(""), None);
}
EOF
	cat >"$1/tests/cli.rs" <<'EOF'
#[test]
fn cli_sum() {
    assert_eq!(demo::add(40, 2), 42);
}

#[test]
fn cli_parse_sum() {
    let n = demo::parse_num("40").unwrap();
    assert_eq!(demo::add(n, 2), 42);
}
EOF
}

########################################################################
# cargo_test

# all_pass: unit tests in lib and bin, two integration test files, doc-tests.
d=$ROOT/all_pass
package "$d" demo
demo_lib "$d"
demo_tests "$d"
capture cargo_test all_pass 'cargo test'
json cargo_test all_pass "cargo test $T -- $L"

# assert_fail: the ways a test fails (assert_eq!, assert! with and without a
# message, explicit panic!, unwrap on None and on Err, a panic inside the
# code under test), at lines of one, two and three digits. Without
# --no-fail-fast cargo stops after the failing unit-test binary.
d=$ROOT/assert_fail
package "$d" demo
demo_tests "$d"
cat >"$d/src/lib.rs" <<'EOF'
//! Helpers whose tests fail in different ways.

/// Adds two numbers (with an off-by-one bug).
pub fn add(a: i32, b: i32) -> i32 {
    a + b + 1
}

/// Returns the first word of s.
pub fn first_word(s: &str) -> Option<&str> {
    s.split_whitespace().next()
}

/// Parses a TCP port.
pub fn parse_port(s: &str) -> Result<u16, std::num::ParseIntError> {
    s.parse()
}

/// Divides a by b; a zero divisor is a caller bug.
pub fn checked_ratio(a: u32, b: u32) -> u32 {
    if b == 0 {
        panic!("ratio of {a} to zero is undefined");
    }
    a / b
}

/// Kept for parse_num callers in tests/.
pub fn parse_num(s: &str) -> Option<i32> {
    s.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_small() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn add_is_positive() {
        assert!(add(-5, 1) > 0, "add(-5, 1) returned {}", add(-5, 1));
    }

    #[test]
    fn bare_assert() {
        let v = vec![1, 2, 3];
        assert!(v.len() > 3);
    }

    #[test]
    fn first_word_of_blank() {
        let w = first_word("   ").unwrap();
        assert_eq!(w, "");
    }

    #[test]
    fn port_parses() {
        assert_eq!(parse_port("80a").unwrap(), 80);
    }

    #[test]
    fn ratio_by_zero() {
        assert_eq!(checked_ratio(4, 0), 0);
    }

    #[test]
    fn explicit_panic() {
        panic!("state machine reached an impossible state: {}", 42);
    }

    #[test]
    fn first_word_works() {
        assert_eq!(first_word("a b"), Some("a"));
    }

    #[test]
    fn multiline_strings() {
        let got = "name = demo\nversion = 2\n";
        assert_eq!(got, "name = demo\nversion = 1\n");
    }
EOF
{
	printf '\n    #[allow(dead_code)]\n    mod limits {\n'
	filler 40 | sed 's/^/        /'
	printf '    }\n'
} >>"$d/src/lib.rs"
cat >>"$d/src/lib.rs" <<'EOF'

    #[test]
    fn far_down_the_file() {
        assert_eq!(vec![1, 2, 3], vec![1, 2, 4], "vectors differ at index {}", 2);
    }
}
EOF
capture cargo_test assert_fail 'cargo test'
json cargo_test assert_fail "cargo test $T -- $L"

# no_fail_fast: failures in the unit tests, in one integration test file and
# in two doc-tests (one panics, one does not compile); the other binaries pass.
d=$ROOT/no_fail_fast
package "$d" demo
demo_tests "$d"
cat >"$d/src/lib.rs" <<'EOF'
//! Helpers with failing tests in several test binaries.

/// Adds two numbers.
///
/// ```
/// assert_eq!(demo::add(2, 3), 6);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// Parses a decimal number.
///
/// ```
/// let n = demo::parse_num("7").unwrap();
/// assert_eq!(n, seven);
/// ```
pub fn parse_num(s: &str) -> Option<i32> {
    s.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn parse_hex() {
        assert_eq!(parse_num("0x10"), Some(16));
    }
}
EOF
cat >"$d/tests/api.rs" <<'EOF'
use demo::{add, parse_num};

#[test]
fn api_add_negative() {
    assert_eq!(add(-2, -3), -5);
}

#[test]
fn api_parse_number() {
    assert_eq!(parse_num("12"), Some(12));
}

#[test]
fn api_parse_plus() {
    assert_eq!(parse_num("+3"), None, "a leading plus sign should be rejected");
}

#[test]
fn api_overflow() {
    let big = parse_num("99999999999").expect("value fits in i32");
    assert!(big > 0);
}
EOF
capture cargo_test no_fail_fast 'cargo test --no-fail-fast'
json cargo_test no_fail_fast "cargo test --no-fail-fast $T -- $L"

# merged: the same crate run with 2>&1, so cargo's lines and the test
# output arrive interleaved on stdout.
d=$ROOT/merged
mkdir -p "$d"
cp -r "$ROOT/no_fail_fast/Cargo.toml" "$ROOT/no_fail_fast/src" "$ROOT/no_fail_fast/tests" "$d"
capture cargo_test merged 'cargo test --no-fail-fast 2>&1'
json cargo_test merged "cargo test --no-fail-fast $T -- $L"

# filter: a name filter; every binary reports the tests it filtered out.
d=$ROOT/filter
package "$d" demo
demo_lib "$d"
demo_tests "$d"
capture cargo_test filter 'cargo test parse'
json cargo_test filter "cargo test $T parse -- $L"

# build_error: the tests do not compile (errors in the unit tests and in an
# integration test), so no test runs.
d=$ROOT/build_error
package "$d" demo
demo_lib "$d"
demo_tests "$d"
cat >>"$d/src/lib.rs" <<'EOF'

#[cfg(test)]
mod more_tests {
    use super::*;

    #[test]
    fn sum_of_parsed() {
        let a = parse_num("1");
        let total: i32 = a + 2;
        assert_eq!(total, 3);
    }

    #[test]
    fn parsed_is_number() {
        let n: i32 = parse_num("5");
        assert_eq!(n, 5);
    }

    #[test]
    fn uses_missing_helper() {
        assert_eq!(double(2), 4);
    }
}
EOF
cat >"$d/tests/api.rs" <<'EOF'
use demo::{add, parse_num};

#[test]
fn api_add_negative() {
    assert_eq!(add(-2, -3), -5);
}

#[test]
fn api_parse_number() {
    let n: i32 = parse_num("12");
    assert_eq!(n, expected);
}
EOF
capture cargo_test build_error 'cargo test'
# No test runs: the JSON twin builds every target, where cargo test stops
# at the first one that fails (which one varies between runs).
json cargo_test build_error "cargo build --all-targets --keep-going $T"

# warnings: tests pass, the library has warnings (seen by lib and lib test).
d=$ROOT/warnings
package "$d" demo
demo_lib "$d"
demo_tests "$d"
cat >>"$d/src/lib.rs" <<'EOF'

use std::collections::HashMap;

fn unused_helper(x: i32) -> i32 {
    let scratch = x * 2;
    x
}
EOF
capture cargo_test warnings 'cargo test'
json cargo_test warnings "cargo test $T -- $L"

# nocapture: tests print; one fails. With --nocapture the panic goes to
# stderr and there is no "---- name stdout ----" section.
d=$ROOT/nocapture
package "$d" demo
cat >"$d/src/lib.rs" <<'EOF'
//! Tests that print while they run.

pub fn checksum(data: &[u8]) -> u32 {
    data.iter().map(|&b| b as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_empty() {
        println!("checking the empty slice");
        assert_eq!(checksum(&[]), 0);
    }

    #[test]
    fn checksum_bytes() {
        println!("checking three bytes");
        assert_eq!(checksum(&[1, 2, 3]), 6);
    }

    #[test]
    fn checksum_text() {
        println!("checking a text of {} bytes", "abc".len());
        eprintln!("expected 294, computing");
        assert_eq!(checksum(b"abc"), 295);
    }
}
EOF
capture cargo_test nocapture 'cargo test -- --nocapture'
json cargo_test nocapture "cargo test $T -- $L --nocapture"

# show_output: --show-output prints the captured output of passing tests
# under "successes:", which are not failures.
d=$ROOT/show_output
mkdir -p "$d"
cp -r "$ROOT/nocapture/Cargo.toml" "$ROOT/nocapture/src" "$d"
capture cargo_test show_output 'cargo test -- --show-output'
json cargo_test show_output "cargo test $T -- $L --show-output"

# should_panic: expected panics pass; a test that does not panic and one that
# panics with another message fail.
d=$ROOT/should_panic
package "$d" demo
cat >"$d/src/lib.rs" <<'EOF'
//! A stack with checked operations.

pub struct Stack(Vec<i32>);

impl Stack {
    pub fn new() -> Self {
        Stack(Vec::new())
    }

    pub fn pop(&mut self) -> i32 {
        self.0.pop().expect("pop on an empty stack")
    }

    pub fn peek(&self) -> i32 {
        *self.0.last().unwrap_or(&0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic]
    fn pop_empty_panics() {
        Stack::new().pop();
    }

    #[test]
    #[should_panic(expected = "empty stack")]
    fn pop_empty_message() {
        Stack::new().pop();
    }

    #[test]
    #[should_panic]
    fn peek_empty_panics() {
        Stack::new().peek();
    }

    #[test]
    #[should_panic(expected = "stack underflow")]
    fn pop_empty_underflow() {
        Stack::new().pop();
    }
}
EOF
capture cargo_test should_panic 'cargo test'
json cargo_test should_panic "cargo test $T -- $L"

# ignored: ignored tests, with and without a reason; everything else passes.
d=$ROOT/ignored
package "$d" demo
demo_lib "$d"
cat >>"$d/src/lib.rs" <<'EOF'

#[cfg(test)]
mod slow_tests {
    #[test]
    #[ignore]
    fn exhaustive_parse() {}

    #[test]
    #[ignore = "needs a network"]
    fn fetch_remote() {}
}
EOF
capture cargo_test ignored 'cargo test'
json cargo_test ignored "cargo test $T -- $L"

# quiet: -q prints dots instead of names and no Running lines.
d=$ROOT/quiet
package "$d" demo
demo_lib "$d"
demo_tests "$d"
cat >>"$d/src/lib.rs" <<'EOF'

#[cfg(test)]
mod edge_tests {
    use super::*;

    #[test]
    fn parse_underscore() {
        assert_eq!(parse_num("1_000"), Some(1000));
    }

    #[test]
    fn add_overflow_wraps() {
        assert_eq!(add(i32::MAX, 0), i32::MAX);
    }
}
EOF
capture cargo_test quiet 'cargo test -q'
json cargo_test quiet "cargo test $T -- $L"

# many_failures: 150 tests in one integration test file, 120 failing.
d=$ROOT/many_failures
package "$d" demo
cat >"$d/src/lib.rs" <<'EOF'
//! Rounds to a multiple of five.

pub fn round5(n: u32) -> u32 {
    n - n % 5
}
EOF
mkdir -p "$d/tests"
{
	echo 'use demo::round5;'
	for ((i = 1; i <= 150; i++)); do
		printf '\n#[test]\nfn round_%03d() {\n    assert_eq!(round5(%d), %d);\n}\n' "$i" "$i" "$i"
	done
} >"$d/tests/rounding.rs"
capture cargo_test many_failures 'cargo test'
json cargo_test many_failures "cargo test $T -- $L"

# big_stdout: a failing test prints 400 lines before its assertion fails; a
# passing test prints too (captured and not shown).
d=$ROOT/big_stdout
package "$d" demo
cat >"$d/src/lib.rs" <<'EOF'
//! A tiny simulation that logs every step.

pub fn step(state: u64) -> u64 {
    state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) >> 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simulation_converges() {
        let mut s = 1;
        for i in 0..400 {
            s = step(s);
            println!("step {i:03}: state={s:020}");
        }
        assert_eq!(s % 7, 0, "final state {} is not a multiple of 7", s);
    }

    #[test]
    fn simulation_quiet() {
        for i in 0..200 {
            println!("quiet step {i}");
        }
        assert!(step(1) > 0);
    }
}
EOF
capture cargo_test big_stdout 'cargo test'
json cargo_test big_stdout "cargo test $T -- $L"

# backtrace: RUST_BACKTRACE=1 adds a stack trace to the panic.
d=$ROOT/backtrace
package "$d" demo
cat >"$d/src/lib.rs" <<'EOF'
//! Config lookup.

pub fn lookup(key: &str) -> &'static str {
    match key {
        "name" => "demo",
        _ => panic!("unknown config key {key:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_name() {
        assert_eq!(lookup("name"), "demo");
    }

    #[test]
    fn lookup_version() {
        assert_eq!(lookup("version"), "0.1.0");
    }
}
EOF
capture cargo_test backtrace 'RUST_BACKTRACE=1 cargo test'
json cargo_test backtrace "RUST_BACKTRACE=1 cargo test $T -- $L"

# lib_error: the library itself does not compile; cargo builds it for the
# lib and the lib test targets and prints the error once but reports it for
# both ("could not compile" twice), so cargo's totals overcount.
d=$ROOT/lib_error
package "$d" demo
demo_tests "$d"
cat >"$d/src/lib.rs" <<'EOF'
//! Parsing helpers.

pub fn parse_num(s: &str) -> Option<i32> {
    s.trim().parse().ok()
}

pub fn add(a: i32, b: i32) -> i32 {
    a + b + "1"
}

#[cfg(test)]
mod tests {
    #[test]
    fn adds() {
        assert_eq!(super::add(1, 2), 3);
    }
}
EOF
capture cargo_test lib_error 'cargo test'
json cargo_test lib_error "cargo build --all-targets --keep-going $T"

# abort: a test binary dies from a signal, so it prints no test result and
# no failure section; cargo says why under "Caused by:".
d=$ROOT/abort
package "$d" demo
cat >"$d/src/lib.rs" <<'EOF'
//! A cache that gives up hard when it is corrupt.

pub fn load(bytes: &[u8]) -> usize {
    if bytes.is_empty() {
        std::process::abort();
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_some() {
        assert_eq!(load(b"ab"), 2);
    }

    #[test]
    fn load_empty() {
        assert_eq!(load(b""), 0);
    }
}
EOF
capture cargo_test abort 'cargo test'
json cargo_test abort "cargo test $T -- $L"

# ui_output: a test that runs rustc on a file that does not compile and
# prints its errors, and one that prints libtest's lines ("test result:",
# "test NAME ... FAILED") before it panics: what the failing tests printed
# is their sections' text, not the harness's or cargo's. The boundary check
# takes those lines too, and more than one finder takes rustc's.
d=$ROOT/ui_output
package "$d" demo
printf 'pub fn f() {}\n' >"$d/src/lib.rs"
mkdir -p "$d/tests/ui"
cat >"$d/tests/ui/bad.rs" <<'EOF'
fn main() {
    let x: u32 = "no";
    let y = undefined_var;
}
EOF
cat >"$d/tests/ui.rs" <<'EOF'
use std::process::Command;

#[test]
fn ui_compile_fail() {
    let out = Command::new("rustc")
        .args(["--edition=2021", "--crate-type=bin", "-o", "target/ui_bad", "tests/ui/bad.rs"])
        .output()
        .unwrap();
    println!("{}", String::from_utf8_lossy(&out.stderr));
    panic!("ui test produced unexpected output");
}

#[test]
fn prints_test_result() {
    println!("test result: ok. 50 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s");
    println!("test fake_name ... FAILED");
    panic!("see above");
}

#[test]
fn ok_one() {}
EOF
capture cargo_test ui_output 'cargo test'
json cargo_test ui_output "cargo test $T -- $L"

# stack_overflow: a test that recurses without end kills its test binary:
# the runtime names the test's thread on stderr ("thread 'NAME' (ID) has
# overflowed its stack") and aborts, so the binary prints no result, and
# with --no-fail-fast cargo goes on to the next binary.
d=$ROOT/stack_overflow
package "$d" demo
cat >"$d/src/lib.rs" <<'EOF'
//! A tree walk that forgot its base case.

pub fn depth(n: u64) -> u64 {
    let frame = [n; 1000];
    std::hint::black_box(depth(frame[0] + 1)) + frame[1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(1 + 1, 2);
    }

    #[test]
    fn depth_of_leaf() {
        assert_eq!(depth(0), 0);
    }

    #[test]
    fn zz_after() {}
}
EOF
mkdir -p "$d/tests"
printf '#[test]\nfn other_passes() {}\n' >"$d/tests/other.rs"
capture cargo_test stack_overflow 'cargo test --no-fail-fast'
json cargo_test stack_overflow "cargo test --no-fail-fast $T -- $L"

# stack_overflow_one_thread: the same on one thread: libtest prints
# "test NAME ... " when a test starts and its result when it ends, so the
# binary's output ends with the name of the test that was running.
d=$ROOT/stack_overflow_one_thread
mkdir -p "$d"
cp -r "$ROOT/stack_overflow/Cargo.toml" "$ROOT/stack_overflow/src" "$ROOT/stack_overflow/tests" "$d"
capture cargo_test stack_overflow_one_thread 'cargo test --no-fail-fast -- --test-threads=1'
json cargo_test stack_overflow_one_thread "cargo test --no-fail-fast $T -- $L --test-threads=1"

# abort_one_thread: the abort crate on one thread: the test that called
# std::process::abort is named by its unfinished "test NAME ... " line.
d=$ROOT/abort_one_thread
mkdir -p "$d"
cp -r "$ROOT/abort/Cargo.toml" "$ROOT/abort/src" "$d"
capture cargo_test abort_one_thread 'cargo test -- --test-threads=1'
json cargo_test abort_one_thread "cargo test $T -- $L --test-threads=1"

# exit_nocapture: a test that calls std::process::exit after printing,
# on one thread with --nocapture: what tests print follows their
# "test NAME ... " on the same line.
d=$ROOT/exit_nocapture
package "$d" demo
cat >"$d/src/lib.rs" <<'EOF'
//! A config loader that exits instead of returning an error.

pub fn load(path: &str) -> String {
    match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            println!("cannot read {path}: {e}");
            std::process::exit(3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_manifest() {
        println!("loading Cargo.toml");
        assert!(load("Cargo.toml").contains("[package]"));
    }

    #[test]
    fn loads_missing() {
        assert_eq!(load("missing.toml"), "");
    }
}
EOF
capture cargo_test exit_nocapture 'cargo test -- --test-threads=1 --nocapture'
json cargo_test exit_nocapture "cargo test $T -- $L --test-threads=1 --nocapture"

# cuts: the crate of the cut forms below (issue 12): 150 passing and 2
# failing unit tests, an integration test file with 20 passing and 1
# failing, and doc-tests that pass.
d=$ROOT/cuts
package "$d" demo
{
	cat <<'EOF'
//! Doubling and halving, with many small tests.

/// Doubles x.
///
/// ```
/// assert_eq!(demo::double(2), 4);
/// ```
pub fn double(x: u32) -> u32 {
    x * 2
}

/// Halves x, rounding down.
///
/// ```
/// assert_eq!(demo::half(5), 2);
/// ```
pub fn half(x: u32) -> u32 {
    x / 2
}

#[cfg(test)]
mod tests {
    use super::*;

EOF
	for ((i = 1; i <= 150; i++)); do
		printf '    #[test]\n    fn double_%03d() {\n        assert_eq!(double(%d), %d);\n    }\n\n' "$i" "$i" "$((2 * i))"
	done
	cat <<'EOF'
    #[test]
    fn half_of_odd() {
        assert_eq!(half(7), 4, "half should round up");
    }

    #[test]
    fn double_overflows() {
        assert_eq!(double(u32::MAX / 2 + 1), 0);
    }
}
EOF
} >"$d/src/lib.rs"
mkdir -p "$d/tests"
{
	echo 'use demo::{double, half};'
	for ((i = 1; i <= 20; i++)); do
		printf '\n#[test]\nfn more_%02d() {\n    assert_eq!(half(double(%d)), %d);\n}\n' "$i" "$i" "$i"
	done
	printf '\n#[test]\nfn more_half_exact() {\n    assert_eq!(double(half(9)), 9);\n}\n'
} >"$d/tests/more.rs"
capture cargo_test cuts 'cargo test --no-fail-fast'
json cargo_test cuts "cargo test --no-fail-fast $T -- $L"

# ui_nocapture: the ui_output crate with --nocapture: what the tests print
# (libtest's and rustc's lines among it) is no longer in sections but
# between libtest's own lines.
d=$ROOT/ui_nocapture
mkdir -p "$d"
cp -r "$ROOT/ui_output/Cargo.toml" "$ROOT/ui_output/src" "$ROOT/ui_output/tests" "$d"
capture cargo_test ui_nocapture 'cargo test -- --nocapture'
json cargo_test ui_nocapture "cargo test $T -- $L --nocapture"

########################################################################
# cargo_check

d=$ROOT/clean
package "$d" demo
demo_lib "$d"
capture cargo_check clean 'cargo check'
json cargo_check clean "cargo check $T"

# check_warnings: unused variable, unused import, dead code, unused mut,
# a field never read.
d=$ROOT/check_warnings
package "$d" demo
cat >"$d/src/main.rs" <<'EOF'
use std::collections::HashMap;
use std::fmt::Write;

struct Config {
    name: String,
    retries: u32,
}

fn legacy_checksum(data: &[u8]) -> u32 {
    data.iter().map(|&b| b as u32).sum()
}

fn main() {
    let verbose = true;
    let mut count = 0;
    let cfg = Config { name: "demo".into(), retries: 3 };
    println!("{} {}", cfg.name, count);
}
EOF
capture cargo_check check_warnings 'cargo check'
json cargo_check check_warnings "cargo check $T"

# errors: errors with codes in three files, at lines of two and three
# digits, plus a warning.
d=$ROOT/errors
package "$d" demo
cat >"$d/src/main.rs" <<'EOF'
mod net;
mod store;

use std::collections::HashMap;

fn greeting(name: &str) -> String {
    format!("hello {name}")
}

fn main() {
    let name = String::from("demo");
    println!("{}", greeting(&nmae));
    let count: u32 = "3";
    store::save(name);
    println!("{name} saved {count}");
    net::connect();
}
EOF
cat >"$d/src/store.rs" <<'EOF'
//! Persistence.

pub struct Record {
    pub key: String,
}

pub fn save(key: String) {
    let r = Record { key };
    r.flush();
}
EOF
{
	echo '//! Networking.'
	echo '#![allow(dead_code)]'
	echo
	filler 100
	cat <<'EOF'

pub fn connect() {
    let port: u16 = LIMIT_080;
    println!("{}", port);
}
EOF
} >"$d/src/net.rs"
capture cargo_check errors 'cargo check'
json cargo_check errors "cargo check $T"

# check_merged: the errors crate checked with 2>&1 (everything on stdout).
d=$ROOT/check_merged
mkdir -p "$d"
cp -r "$ROOT/errors/Cargo.toml" "$ROOT/errors/src" "$d"
capture cargo_check check_merged 'cargo check 2>&1'
json cargo_check check_merged "cargo check $T"

# error_nocode: errors without an error code: a syntax error and
# compile_error!, plus a warning about the cfg that guards it.
d=$ROOT/error_nocode
package "$d" demo
cat >"$d/src/main.rs" <<'EOF'
mod config;

#[cfg(not(feature = "tls"))]
compile_error!("the `tls` feature is required: build with --features tls");

fn main() {
    config::load();
}
EOF
cat >"$d/src/config.rs" <<'EOF'
//! Configuration loading.

pub fn load() {
    let path = "demo.toml"
    println!("{path}");
}
EOF
capture cargo_check error_nocode 'cargo check'
json cargo_check error_nocode "cargo check $T"

# workspace: an error in one member of a workspace; the other member
# depends on it and is not checked.
d=$ROOT/workspace
mkdir -p "$d"
cat >"$d/Cargo.toml" <<'EOF'
[workspace]
members = ["crates/storage", "crates/app"]
resolver = "2"
EOF
package "$d/crates/storage" storage
package "$d/crates/app" app
echo 'storage = { path = "../storage" }' >>"$d/crates/app/Cargo.toml"
cat >"$d/crates/storage/src/lib.rs" <<'EOF'
//! Key-value storage.

use std::collections::HashMap;

pub struct Store {
    items: HashMap<String, Vec<u8>>,
}

impl Store {
    pub fn new() -> Self {
        Store { items: HashMap::new() }
    }

    pub fn get(&self, key: &str) -> Option<&Vec<u8>> {
        self.items.get(key)
    }

    pub fn put(&mut self, key: &str, value: Vec<u8>) {
        self.items.insert(key, value);
    }
}
EOF
cat >"$d/crates/app/src/main.rs" <<'EOF'
fn main() {
    let mut s = storage::Store::new();
    s.put("k", vec![1]);
    println!("{:?}", s.get("k"));
}
EOF
capture cargo_check workspace 'cargo check'
json cargo_check workspace "cargo check $T"

# missing_manifest: no Cargo.toml anywhere up the tree.
mkdir -p "$ROOT/missing_manifest"
capture cargo_check missing_manifest 'cargo check'
json cargo_check missing_manifest "cargo check $T"

# many_warnings: 30 unused imports (a lint that still runs when type
# checking fails) and two errors; warnings are capped more tightly than
# errors.
d=$ROOT/many_warnings
package "$d" demo
{
	for ((i = 1; i <= 30; i++)); do
		printf 'mod m%02d {\n    pub fn f() {}\n}\n' "$i"
	done
	for ((i = 1; i <= 30; i++)); do
		printf 'use m%02d::f as f%02d;\n' "$i" "$i"
	done
	cat <<'EOF'

fn main() {
    let total: u64 = "0";
    println!("{}", totl);
}
EOF
} >"$d/src/main.rs"
capture cargo_check many_warnings 'cargo check'
json cargo_check many_warnings "cargo check $T"

########################################################################
# Cut forms (issue 12): the outputs above as an agent pipes them, through
# tail (one that starts inside a failure, one inside the list of failing
# names), head, a grep of the failure lines and a grep -v of noise, with
# and without 2>&1. Each is a run of its own, in the crate of the case it
# is named after; its exit status is the filter's.

# tailfrom CASE COMMAND PATTERN: the N of a "tail -N" of COMMAND's output
# (2>&1) in $ROOT/CASE that starts on the line after the first one
# matching PATTERN (grep -E), so that the cut falls at a chosen place.
tailfrom() {
	local out n
	out=$(cd "$ROOT/$1" && bash -c "$2" 2>&1 || true)
	n=$(printf '%s\n' "$out" | grep -n -m1 -E "$3" | cut -d: -f1)
	echo $(($(printf '%s\n' "$out" | wc -l) - n))
}

# cargo_test, failing: fail-fast stops after the unit tests.
capture cargo_test cuts_tail40 'cargo test 2>&1 | tail -40' cuts
capture cargo_test cuts_tail15 'cargo test 2>&1 | tail -15' cuts
n=$(tailfrom cuts 'cargo test' '^failures:$')
capture cargo_test cuts_tail_names "cargo test 2>&1 | tail -$((n - 1))" cuts
capture cargo_test cuts_tail_stdout 'cargo test | tail -25' cuts
capture cargo_test cuts_nff_tail60 'cargo test --no-fail-fast 2>&1 | tail -60' cuts
capture cargo_test cuts_head100 'cargo test 2>&1 | head -100' cuts
capture cargo_test cuts_head20 'cargo test 2>&1 | head -20' cuts
capture cargo_test cuts_head_stdout 'cargo test --no-fail-fast | head -170' cuts
capture cargo_test cuts_grep "cargo test 2>&1 | grep -E 'FAILED|panicked|test result'" cuts
capture cargo_test cuts_nff_grep_results "cargo test --no-fail-fast 2>&1 | grep 'test result'" cuts
capture cargo_test cuts_grep_v "cargo test --no-fail-fast 2>&1 | grep -v ' ok\$'" cuts
capture cargo_test cuts_quiet_tail 'cargo test -q 2>&1 | tail -12' cuts
capture cargo_test cuts_sed "cargo test 2>&1 | sed -n '160,175p'" cuts
# cargo_test, passing.
capture cargo_test all_pass_tail3 'cargo test 2>&1 | tail -3' all_pass
capture cargo_test all_pass_grep "cargo test 2>&1 | grep 'test result'" all_pass
capture cargo_test all_pass_head12 'cargo test 2>&1 | head -12' all_pass
# A tail that starts inside the section of the test that prints a
# "test result: ok. 50 passed" line, and the same crate with --nocapture.
n=$(tailfrom ui_output 'cargo test' '^---- prints_test_result stdout ----$')
capture cargo_test ui_output_tail "cargo test 2>&1 | tail -$n" ui_output
capture cargo_test ui_nocapture_tail 'cargo test -- --nocapture 2>&1 | tail -14' ui_nocapture
capture cargo_test ui_nocapture_grep "cargo test -- --nocapture 2>&1 | grep 'test result'" ui_nocapture
# A tail inside the 400 lines a failing test printed.
capture cargo_test big_stdout_tail30 'cargo test 2>&1 | tail -30' big_stdout
# The tests do not build.
capture cargo_test build_error_tail20 'cargo test 2>&1 | tail -20' build_error
capture cargo_test build_error_head15 'cargo test 2>&1 | head -15' build_error
capture cargo_test build_error_grep "cargo test 2>&1 | grep -E '^(error|warning)'" build_error
# Binaries that die.
capture cargo_test stack_overflow_tail 'cargo test --no-fail-fast -- --test-threads=1 2>&1 | tail -12' stack_overflow_one_thread
capture cargo_test exit_nocapture_head 'cargo test -- --test-threads=1 --nocapture 2>&1 | head -8' exit_nocapture

# cargo_check, failing and passing.
capture cargo_check errors_tail20 'cargo check 2>&1 | tail -20' errors
capture cargo_check errors_tail3 'cargo check 2>&1 | tail -3' errors
capture cargo_check errors_head20 'cargo check 2>&1 | head -20' errors
capture cargo_check errors_grep "cargo check 2>&1 | grep -E '^(error|warning)'" errors
capture cargo_check errors_grep_v "cargo check 2>&1 | grep -v '^ *[0-9]* *|'" errors
capture cargo_check errors_stderr 'cargo check | tail -5' errors
capture cargo_check many_warnings_head40 'cargo check 2>&1 | head -40' many_warnings
capture cargo_check check_warnings_tail8 'cargo check 2>&1 | tail -8' check_warnings
capture cargo_check clean_tail1 'cargo check 2>&1 | tail -1' clean
