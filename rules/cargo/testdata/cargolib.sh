# Helpers shared by the corpus scripts that build crates (cargo.sh,
# build.sh). Sourced, not run.

# package DIR NAME: a Cargo.toml for a std-only package.
package() {
	mkdir -p "$1/src"
	cat >"$1/Cargo.toml" <<EOF2
[package]
name = "$2"
version = "0.1.0"
edition = "2021"

[dependencies]
EOF2
}

# filler N: N lines of helper constants, so that later code sits at line
# numbers of two and three digits (peers lose locations at line >= 10).
filler() {
	local i
	for ((i = 1; i <= $1; i++)); do
		printf 'pub const LIMIT_%03d: u32 = %d;\n' "$i" "$i"
	done
}

# gen_rs N SEED: a Rust-like source file of N one-line functions.
gen_rs() {
	awk -v n="$1" -v s="$2" 'BEGIN {
		for (i = 1; i <= n; i++)
			printf "pub fn f%02d_%03d(x: u32) -> u32 { x * %d + %d }\n", s, i, (i * s) % 97 + 1, (i * 7 + s) % 101
	}'
}

# truth DIR FILE COMMAND: runs COMMAND, the machine-readable form of a
# corpus case's command, in DIR and writes what it prints on stdout to
# FILE, for the reference reader's test (ref_test.go): cargo's
# --message-format=json messages (artifact and build-script messages left
# out: they only name files) and, for cargo test, libtest's events
# (-Z unstable-options --format json; "started" events of tests left out).
# libtest's JSON needs a nightly toolchain, or RUSTC_BOOTSTRAP=1: it is set
# here, for the oracle, and never in what shrinkrun runs.
truth() {
	(cd "$1" && RUSTC_BOOTSTRAP=1 bash -c "$3" 2>/dev/null) |
		grep -v -e '^{"reason":"compiler-artifact"' -e '^{"reason":"build-script-executed"' \
			-e '^{ "type": "test", "event": "started"' >"$2" || true
	printf '%-12s %-22s truth     %s\n' "" "$(basename "$2")" "$3"
}
