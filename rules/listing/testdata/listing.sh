#!/usr/bin/env bash
# listing.sh regenerates the find, fd and git_ls_files corpus from real
# runs of GNU find, fd (Debian's fdfind) and git ls-files on a tree written
# here for the purpose (.ci/deps.d/listing.sh installs fd-find).
#
# The tree, $ROOT/proj: 45 directories of 8 source files, 20 of 100
# generated assets, a README and a
# Makefile at the top, a hidden directory, a gitignored build directory, a
# name with a space and one with a non-ASCII letter (which git quotes), and
# a directory nobody but its owner may read. When run as root, the
# permission cases run as nobody (setpriv).
#
# Beside each case whose output is whole, CASE.truth holds an independent
# account of the same listing (the .meta's "truth:" command): find's own
# -printf '%h\t%p\n' (each entry's directory, then its path), fd's
# --exec echo '{//}' (each entry's directory), git ls-files -z (names
# unquoted, NUL-separated). The oracle test reads it.
#
# Usage: bash rules/listing/testdata/listing.sh   (then go test ./rules/listing -run TestGolden -update)
set -euo pipefail

ROOT=/tmp/shrinkrun-corpus/listing
OUT=$(cd "$(dirname "$0")" && pwd)
export LC_ALL=C.UTF-8 GIT_CONFIG_NOSYSTEM=1 HOME=$ROOT/home
unset GIT_PAGER PAGER

command -v fdfind >/dev/null || { echo "listing.sh: fdfind is not installed (.ci/deps.d/listing.sh)" >&2; exit 1; }

if [ -d "$ROOT" ]; then chmod -R u+rwx "$ROOT"; fi
rm -rf "$ROOT"
mkdir -p "$ROOT" "$HOME"
git config --global user.name "Corpus" && git config --global user.email corpus@example.com
git config --global init.defaultBranch main

asnobody=()
if [ "$(id -u)" = 0 ]; then
	asnobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi

# capture RULE CASE COMMAND [TRUTH]: runs COMMAND (a string, as typed) in
# $ROOT/proj and writes CASE.meta, CASE.stdout and CASE.stderr under
# OUT/RULE, and CASE.truth from TRUTH when given.
capture() {
	local rule=$1 name=$2 cmd=$3 truth=${4:-} code=0
	mkdir -p "$OUT/$rule"
	(cd "$P" && "${run[@]}" bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	{
		printf 'command: %s\nexit_code: %d\n' "$cmd" "$code"
		if [ -n "$truth" ]; then printf 'truth: %s\n' "$truth"; fi
	} >"$OUT/$rule/$name.meta"
	if [ -n "$truth" ]; then
		(cd "$P" && "${run[@]}" bash -c "$truth" >"$OUT/$rule/$name.truth" 2>/dev/null) || true
	else
		rm -f "$OUT/$rule/$name.truth"
	fi
	printf '%-13s %-14s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
}

run=()
P=$ROOT/proj
mkdir -p "$P"
awk -v root="$P" 'BEGIN {
	areas[0] = "api"; areas[1] = "core"; areas[2] = "store"; areas[3] = "web"; areas[4] = "cli"
	for (a = 0; a < 5; a++) for (d = 0; d < 9; d++) {
		dir = sprintf("%s/src/%s/mod%d", root, areas[a], d)
		system("mkdir -p " dir)
		for (k = 0; k < 8; k++) {
			path = sprintf("%s/file%02d.go", dir, k)
			printf "package mod%d\n", d > path
			close(path)
		}
	}
}'
# assets: 20 directories of 100 generated files each, a listing of
# thousands of paths.
for d in $(seq -w 0 19); do
	mkdir -p "$P/assets/set$d"
	(cd "$P/assets/set$d" && for f in $(seq -w 0 99); do : >"img$f.png"; done)
done
printf '# proj\n' >"$P/README.md"
printf 'all:\n' >"$P/Makefile"
mkdir -p "$P/.config" "$P/build" "$P/docs" "$P/locked"
printf 'x\n' >"$P/.config/settings.toml"
printf 'build/\n' >"$P/.gitignore"
printf 'obj\n' >"$P/build/out.o"
printf 'notes\n' >"$P/docs/release notes.md"
printf 'café\n' >"$P/docs/café.md"
printf 'secret\n' >"$P/locked/key.txt"
(cd "$P" && git init -q && git add -A && git commit -qm "first")
printf 'new\n' >"$P/src/api/untracked.go"
chmod 000 "$P/locked"

# --- find --------------------------------------------------------------
run=("${asnobody[@]}")
capture find all 'find .' "find . -printf '%h\t%p\n'"
capture find go 'find . -name "*.go"' "find . -name '*.go' -printf '%h\t%p\n'"
capture find src_files 'find src -type f' "find src -type f -printf '%h\t%p\n'"
capture find dirs 'find . -type d' "find . -type d -printf '%h\t%p\n'"
capture find depth2 'find . -maxdepth 2' "find . -maxdepth 2 -printf '%h\t%p\n'"
capture find api 'find src/api -name "*.go" -newer Makefile -o -name "*.md"' "find src/api -name '*.go' -newer Makefile -printf '%h\t%p\n' -o -name '*.md' -printf '%h\t%p\n'"
capture find nosuch 'find nosuch src/cli/mod1' "find src/cli/mod1 -printf '%h\t%p\n'"
capture find assets 'find assets -name "*.png"' "find assets -name '*.png' -printf '%h\t%p\n'"
capture find all_2to1 'find . 2>&1'
capture find head 'find . -name "*.go" | head -50'
capture find tail 'find . | tail -30'
capture find grep 'find . -name "*.go" | grep mod3'
capture find grep_v 'find . 2>&1 | grep -v /src/'
capture find go_devnull 'find . -name "*.go" 2>/dev/null' "find . -name '*.go' -printf '%h\t%p\n' 2>/dev/null"
run=()

# --- fd ----------------------------------------------------------------
capture fd go 'fdfind -e go' "fdfind -e go --exec echo '{//}'"
capture fd assets 'fdfind -e png' "fdfind -e png --exec echo '{//}'"
capture fd all 'fdfind' "fdfind --exec echo '{//}'"
capture fd src 'fdfind . src/web' "fdfind . src/web --exec echo '{//}'"
capture fd dirs 'fdfind -t d' "fdfind -t d --exec echo '{//}'"
capture fd hidden 'fdfind -H -I toml' "fdfind -H -I toml --exec echo '{//}'"
capture fd pattern 'fdfind mod3' "fdfind mod3 --exec echo '{//}'"
capture fd none 'fdfind zzz'
capture fd head 'fdfind -e go | head -40'
capture fd grep 'fdfind -e go | grep -v api'

# --- git ls-files ------------------------------------------------------
capture git_ls_files all 'git ls-files' 'git ls-files -z'
capture git_ls_files src 'git ls-files src/core' 'git ls-files -z src/core'
capture git_ls_files others 'git ls-files -o --exclude-standard' 'git ls-files -z -o --exclude-standard'
capture git_ls_files docs 'git ls-files docs' 'git ls-files -z docs'
capture git_ls_files head 'git ls-files | head -25'
capture git_ls_files tail 'git ls-files | tail -25'
capture git_ls_files grep 'git ls-files | grep mod7'

# --- git ls-tree -------------------------------------------------------
capture git_ls_tree all 'git ls-tree -r --name-only HEAD' 'git ls-tree -z -r --name-only HEAD'
capture git_ls_tree top 'git ls-tree --name-only HEAD' 'git ls-tree -z --name-only HEAD'
capture git_ls_tree src 'git ls-tree -r --name-only HEAD src/core' 'git ls-tree -z -r --name-only HEAD src/core'
capture git_ls_tree dirs 'git ls-tree -r -d --name-only HEAD src' 'git ls-tree -z -r -d --name-only HEAD src'
capture git_ls_tree bad_tree 'git ls-tree -r --name-only nosuch'
capture git_ls_tree head 'git ls-tree -r --name-only HEAD | head -30'
capture git_ls_tree grep 'git ls-tree -r --name-only HEAD | grep mod2'

# --- tree --------------------------------------------------------------
# tree -J with the same options is the truth: its nested contents give
# every directory's entries, its report the totals.
run=("${asnobody[@]}")
capture tree all 'tree' 'tree -J'
capture tree src 'tree src' 'tree -J src'
capture tree depth2 'tree -L 2' 'tree -J -L 2'
capture tree dirs 'tree -d' 'tree -J -d'
capture tree hidden 'tree -a docs .config' 'tree -J -a docs .config'
capture tree go 'tree -P "*.go" --prune src/web' "tree -J -P '*.go' --prune src/web"
capture tree ascii 'LC_ALL=C tree src/cli' 'LC_ALL=C tree -J src/cli'
capture tree head 'tree | head -60'
capture tree tail 'tree | tail -40'
capture tree grep 'tree src | grep mod3'
run=()

# --- ls ----------------------------------------------------------------
# The truth of a listing of one directory is ls -1 with the same
# selection (a name per line, the top level); of a recursive one, find's
# -printf '%h\n' (each entry's directory), the hidden names pruned as ls
# leaves them out.
run=("${asnobody[@]}")
capture ls plain 'ls assets/set03' 'ls -1 assets/set03'
capture ls long 'ls -l src/api/mod0' 'ls -1 src/api/mod0'
capture ls la 'ls -la' 'ls -1a'
capture ls lA 'ls -lA docs' 'ls -1A docs'
capture ls lh 'ls -lh assets/set01' 'ls -1 assets/set01'
capture ls R 'ls -R src' "find src -mindepth 1 -name '.*' -prune -o -printf '%h\n'"
capture ls lR 'ls -lR src/web docs' "find src/web docs -mindepth 1 -name '.*' -prune -o -printf '%h\n'"
capture ls R_all 'ls -R' "find . -mindepth 1 -name '.*' -prune -o -printf '%h\n'"
capture ls nosuch 'ls -l nosuch docs'
capture ls R_2to1 'ls -R 2>&1'
capture ls head 'ls -R | head -50'
capture ls tail 'ls -R | tail -60'
capture ls grep 'ls -lR src | grep file0'
capture ls long_tail 'ls -la assets/set02 | tail -20'
run=()
terminal_ls() {
	local name=$1 cmd=$2 code=0
	mkdir -p "$OUT/ls"
	(cd "$P" && COLUMNS=100 LINES=40 script -qec "$cmd" /dev/null </dev/null >"$OUT/ls/$name.stdout") || code=$?
	: >"$OUT/ls/$name.stderr"
	printf 'command: %s\nexit_code: %d\nterminal: true\n' "$cmd" "$code" >"$OUT/ls/$name.meta"
	printf '%-13s %-14s exit %3d  %s (terminal)\n' ls "$name" "$code" "$cmd"
}
terminal_ls terminal 'ls assets/set04'
terminal_ls terminal_long 'ls -l assets/set05'
