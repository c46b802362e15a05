# Helpers shared by the corpus scripts that build crates (cargo.sh,
# gitcargo.sh). Sourced, not run.

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
