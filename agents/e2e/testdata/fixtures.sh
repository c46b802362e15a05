#!/usr/bin/env bash
# fixtures.sh DIR builds what the end-to-end runs of the real agent clients
# work in, with real git and cargo:
#
#	DIR/repo    a git repository whose `git diff` is about 86 KB, and whose
#	            `git status` lists a few changed and untracked files
#	DIR/crate   a cargo package whose `cargo test` fails (two of 154
#	            tests), built once into DIR/target so the runs only test
#
# Author, committer, dates and content are fixed, so every run of the same
# git and cargo versions gives the same output.
set -euo pipefail
dir=$1
export GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
export GIT_AUTHOR_NAME='E2E Author' GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME='E2E Committer' GIT_COMMITTER_EMAIL=committer@example.com
export GIT_AUTHOR_DATE='@1735689600 +0000' GIT_COMMITTER_DATE='@1735689600 +0000'

# gen FILE SEED: 120 lines of a Go-like source file.
gen() {
	awk -v s="$2" 'BEGIN {
		printf "package demo%d\n\n", s
		for (i = 1; i <= 118; i++)
			printf "func helper%03d_%d(x int) int { return x*%d + %d } // keeps line %d\n", i, s, i, s, i
	}' >"$1"
}

repo=$dir/repo
mkdir -p "$repo"
git -C "$repo" init -q -b main
for f in $(seq 1 60); do gen "$repo/file$f.go" "$f"; done
git -C "$repo" add .
git -C "$repo" commit -qm 'initial files'
# Change every third line of eight files: about 86 KB of diff.
for f in $(seq 1 8); do
	sed -i 's/return x\*\([0-9]*\) + \([0-9]*\) }/return x*\1 - \2 } \/\/ changed/; n; n' "$repo/file$f.go"
done
echo 'scratch' >"$repo/notes.txt"

crate=$dir/crate
mkdir -p "$crate/src"
cat >"$crate/Cargo.toml" <<'TOML'
[package]
name = "demo"
version = "0.1.0"
edition = "2021"

[dependencies]
TOML
cat >"$crate/src/lib.rs" <<'RS'
//! Helpers, two of them with bugs their tests find.

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
    s.trim_end_matches('x').parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn first_word_of_sentence() {
        assert_eq!(first_word("hello world"), Some("hello"));
    }

    #[test]
    fn port_rejects_garbage() {
        assert!(parse_port("80x").is_err(), "80x is not a port");
    }

    #[test]
    fn port_parses() {
        assert_eq!(parse_port("8080").unwrap(), 8080);
    }
}
RS
# A hundred and fifty passing tests around them, as a real suite has.
{
	echo
	echo '#[cfg(test)]'
	echo 'mod cases {'
	for i in $(seq -w 1 150); do
		printf '    #[test]\n    fn case_%s() {\n        assert_eq!(super::add(%d, 0), %d + 1);\n    }\n' "$i" "$((10#$i))" "$((10#$i))"
	done
	echo '}'
} >>"$crate/src/lib.rs"
(cd "$crate" && CARGO_TARGET_DIR=$dir/target cargo test --no-run -q >/dev/null 2>&1)
