#!/usr/bin/env bash
# build.sh regenerates the cargo_build and cargo_clippy corpus from real
# runs on small std-only crates written for the purpose under a fixed path.
# Afterwards run
#
#	go test ./rules/cargo -run TestGolden -update
#
# and read every changed .golden before committing it. Timings
# ("target(s) in 0.41s") vary between runs; everything else is
# reproducible.
#
# Every command is run from its directory with bash -c, as typed, stdout and
# stderr redirected to files. The fixed directory is the one the git
# family's remote.sh uses too (the paths in both corpora name it): run the
# two one after the other, never at once.
#
# Usage: bash rules/cargo/testdata/build.sh
set -euo pipefail

command -v cargo >/dev/null || export PATH="$HOME/.cargo/bin:$PATH"
OUT=$(cd "$(dirname "$0")" && pwd)
ROOT=/tmp/shrinkrun-corpus/gitcargo
rm -rf "$ROOT/cargo"
mkdir -p "$ROOT/home"

# rustup and cargo find their toolchain through HOME unless told where it is.
export RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup} CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}
export HOME=$ROOT/home XDG_CONFIG_HOME=$ROOT/home/.config
export LC_ALL=C LANG=C TZ=UTC
unset RUST_BACKTRACE RUST_LOG CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR \
	CARGO_TERM_COLOR CARGO_TERM_QUIET CARGO_TERM_VERBOSE RUSTFLAGS RUST_TEST_THREADS

for rule in cargo_build cargo_clippy; do
	mkdir -p "$OUT/$rule"
	rm -f "$OUT/$rule"/*.meta "$OUT/$rule"/*.stdout "$OUT/$rule"/*.stderr "$OUT/$rule"/*.json
done

# capture RULE CASE DIR COMMAND: runs COMMAND (a string, as typed) in DIR and
# writes CASE.meta, CASE.stdout and CASE.stderr under OUT/RULE.
capture() {
	local rule=$1 name=$2 dir=$3 cmd=$4 code=0
	(cd "$dir" && bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\n' "$cmd" "$code" >"$OUT/$rule/$name.meta"
	printf '%-12s %-22s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
}

#### cargo

C=$ROOT/cargo
mkdir -p "$C"

# package, filler, gen_rs and truth: see cargolib.sh.
. "$OUT/cargolib.sh"
cargo_package() { package "$C/$1" "$2"; }

# json RULE CASE DIR COMMAND: the machine-readable output of the case, as
# OUT/RULE/CASE.json (truth in cargolib.sh).
json() { truth "$3" "$OUT/$1/$2.json" "$4"; }
T='--message-format=json'

## cargo_build

cargo_package build-clean demo
{
	filler 20
	gen_rs 30 7
} >"$C/build-clean/src/lib.rs"
printf 'fn main() {\n    println!("{}", demo::f07_001(1));\n}\n' >"$C/build-clean/src/main.rs"
capture cargo_build clean "$C/build-clean" "cargo build"
json cargo_build clean "$C/build-clean" "cargo build $T"
capture cargo_build fresh "$C/build-clean" "cargo build"
capture cargo_build release "$C/build-clean" "cargo build --release"

cargo_package build-errors demo
{
	printf 'use std::collections::HashMap;\n\n'
	filler 100
	cat <<'EOF'

pub fn total(items: &[u32]) -> u32 {
    let mut sum = 0;
    for i in items {
        sum += i;
    }
    summ
}

pub fn narrow(x: u64) -> u16 {
    let y: u16 = x;
    y
}

pub fn moved() -> String {
    let s = String::from("a");
    let t = s;
    s + &t
}
EOF
} >"$C/build-errors/src/lib.rs"
capture cargo_build errors "$C/build-errors" "cargo build"
json cargo_build errors "$C/build-errors" "cargo build $T"
capture cargo_build errors_merged "$C/build-errors" "cargo build 2>&1"
capture cargo_build errors_quiet "$C/build-errors" "cargo build -q"

cargo_package build-warnings demo
{
	for i in $(seq 1 30); do printf 'fn unused_%02d() {}\n' "$i"; done
	printf 'pub fn used() -> u32 { 1 }\n'
} >"$C/build-warnings/src/lib.rs"
capture cargo_build warnings "$C/build-warnings" "cargo build"
json cargo_build warnings "$C/build-warnings" "cargo build $T"

# A link error: the compiler is satisfied, the linker is not.
cargo_package build-link demo
cat >"$C/build-link/src/main.rs" <<'EOF'
extern "C" {
    fn missing_init() -> i32;
    fn missing_shutdown(code: i32);
}

fn main() {
    unsafe { missing_shutdown(missing_init()) }
}
EOF
capture cargo_build link_error "$C/build-link" "cargo build"
json cargo_build link_error "$C/build-link" "cargo build $T"

# A build script that fails, after a cargo:warning and output on both of
# its streams.
cargo_package build-script demo
cat >"$C/build-script/build.rs" <<'EOF'
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:warning=bindings for libfoo are stale");
    println!("checking for libfoo in /usr/lib");
    println!("checking for libfoo in /usr/local/lib");
    eprintln!("error: libfoo.so was not found");
    eprintln!("hint: install libfoo-dev or set FOO_LIB_DIR");
    std::process::exit(1);
}
EOF
printf 'fn main() {}\n' >"$C/build-script/src/main.rs"
capture cargo_build build_script "$C/build-script" "cargo build"
json cargo_build build_script "$C/build-script" "cargo build $T"

# A build script that panics, with nothing on stdout.
cargo_package build-panic demo
cat >"$C/build-panic/build.rs" <<'EOF'
fn main() {
    let dir = std::env::var("FOO_LIB_DIR").expect("FOO_LIB_DIR must be set");
    println!("cargo:rustc-link-search={dir}");
}
EOF
printf 'fn main() {}\n' >"$C/build-panic/src/main.rs"
capture cargo_build build_script_panic "$C/build-panic" "cargo build"

mkdir -p "$C/build-missing"
capture cargo_build missing_manifest "$C/build-missing" "cargo build"

# A workspace: one member fails, one builds.
mkdir -p "$C/build-ws"
printf '[workspace]\nmembers = ["core", "app"]\nresolver = "2"\n' >"$C/build-ws/Cargo.toml"
cargo_package build-ws/core core
gen_rs 20 3 >"$C/build-ws/core/src/lib.rs"
cargo_package build-ws/app app
printf 'fn main() {\n    let n: u32 = "7";\n    println!("{n}");\n}\n' >"$C/build-ws/app/src/main.rs"
capture cargo_build workspace "$C/build-ws" "cargo build --workspace"
json cargo_build workspace "$C/build-ws" "cargo build --workspace $T"

## cargo_clippy

cargo_package clippy-clean demo
printf 'pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n' >"$C/clippy-clean/src/lib.rs"
capture cargo_clippy clean "$C/clippy-clean" "cargo clippy"

# Warnings of several lints, one of them 120 times; a rustc lint too.
cargo_package clippy-warn demo
{
	filler 12
	for i in $(seq -w 1 120); do
		printf 'pub fn ret_%s(x: u32) -> u32 {\n    return x + %d;\n}\n' "$i" "$((10#$i))"
	done
	cat <<'EOF'
pub fn length(v: &Vec<u32>) -> usize {
    v.len()
}
pub fn flag(x: bool) -> bool {
    if x == true {
        return false;
    }
    x
}
pub fn lengths(a: &Vec<u8>, b: &Vec<u8>) -> usize {
    a.len() + b.len()
}
pub fn unused_local() {
    let count = 1;
}
pub fn unused_other() {
    let total = 2;
}
EOF
} >"$C/clippy-warn/src/lib.rs"
capture cargo_clippy warnings "$C/clippy-warn" "cargo clippy"
json cargo_clippy warnings "$C/clippy-warn" "cargo clippy $T"
capture cargo_clippy deny_warnings "$C/clippy-warn" "cargo clippy -- -D warnings"
json cargo_clippy deny_warnings "$C/clippy-warn" "cargo clippy $T -- -D warnings"
capture cargo_clippy merged "$C/clippy-warn" "cargo clippy 2>&1"
capture cargo_clippy quiet "$C/clippy-warn" "cargo clippy -q"

# A deny-level lint set in the source, next to warnings.
cargo_package clippy-deny demo
cat >"$C/clippy-deny/src/lib.rs" <<'EOF'
#![deny(clippy::approx_constant)]

pub fn circle(r: f64) -> f64 {
    3.14159 * r * r
}

pub fn half_turn() -> f64 {
    3.14159
}

pub fn first(v: &Vec<u32>) -> Option<&u32> {
    v.get(0)
}
EOF
capture cargo_clippy deny_attr "$C/clippy-deny" "cargo clippy"
json cargo_clippy deny_attr "$C/clippy-deny" "cargo clippy $T"

# Code that does not compile: clippy reports rustc's errors.
cargo_package clippy-broken demo
cat >"$C/clippy-broken/src/lib.rs" <<'EOF'
pub fn total(v: &[u32]) -> u32 {
    let mut sum = 0;
    for x in v {
        sum += x;
    }
    return summ;
}

pub fn length(v: &Vec<u32>) -> usize {
    v.len()
}
EOF
capture cargo_clippy build_error "$C/clippy-broken" "cargo clippy"
json cargo_clippy build_error "$C/clippy-broken" "cargo clippy $T"

# Pedantic lints across a library and its tests.
cargo_package clippy-pedantic demo
cat >"$C/clippy-pedantic/src/lib.rs" <<'EOF'
pub fn widen(x: u8) -> u64 {
    x as u64
}

pub fn narrow(x: u64) -> u8 {
    x as u8
}

pub fn describe(n: u32) -> String {
    format!("{}", n)
}

pub fn check(v: Vec<u32>) -> bool {
    v.len() == 0
}

#[cfg(test)]
mod tests {
    #[test]
    fn widens() {
        assert_eq!(super::widen(3), 3 as u64);
    }
}
EOF
capture cargo_clippy pedantic "$C/clippy-pedantic" "cargo clippy --all-targets -- -W clippy::pedantic"
json cargo_clippy pedantic "$C/clippy-pedantic" "cargo clippy --all-targets $T -- -W clippy::pedantic"

## Cut forms (issue 12): the outputs above as an agent pipes them, through
## tail, head, a grep of the error lines and a grep -v of noise, with and
## without 2>&1. Each is a run of its own; its exit status is the filter's.

capture cargo_build errors_tail15 "$C/build-errors" "cargo build 2>&1 | tail -15"
capture cargo_build errors_head12 "$C/build-errors" "cargo build 2>&1 | head -12"
capture cargo_build errors_grep "$C/build-errors" "cargo build 2>&1 | grep -E '^error'"
capture cargo_build errors_grep_v "$C/build-errors" "cargo build 2>&1 | grep -v '^ *[0-9]* *|'"
capture cargo_build warnings_tail6 "$C/build-warnings" "cargo build 2>&1 | tail -6"
capture cargo_build link_error_tail8 "$C/build-link" "cargo build 2>&1 | tail -8"
capture cargo_build build_script_tail10 "$C/build-script" "cargo build 2>&1 | tail -10"
capture cargo_build clean_tail2 "$C/build-clean" "cargo build 2>&1 | tail -2"
capture cargo_clippy warnings_tail20 "$C/clippy-warn" "cargo clippy 2>&1 | tail -20"
capture cargo_clippy warnings_head20 "$C/clippy-warn" "cargo clippy 2>&1 | head -20"
capture cargo_clippy warnings_grep "$C/clippy-warn" "cargo clippy 2>&1 | grep -E '^(warning|error)'"
capture cargo_clippy deny_warnings_tail12 "$C/clippy-warn" "cargo clippy -- -D warnings 2>&1 | tail -12"
capture cargo_clippy build_error_head8 "$C/clippy-broken" "cargo clippy 2>&1 | head -8"

echo "done: $ROOT"
