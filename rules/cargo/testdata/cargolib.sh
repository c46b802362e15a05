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
