#!/usr/bin/env bash
# search.sh regenerates the rg, grep and git_grep corpus from real runs of
# ripgrep, GNU grep and git grep on trees written here for the purpose
# (.ci/deps.d/search.sh installs ripgrep).
#
# Every tree is under a fixed path ($ROOT/<tree>), and each command is run
# from it exactly as an agent would type it, stdout and stderr redirected
# to files (a pipe, as shrinkrun captures). The trees:
#
#   small  a few files: text, a binary file, a name with "-12-" in it (which
#          a context line's "-" could be read into), a directory nobody but
#          its owner may read, a file of one 3000-byte line;
#   proj   a source tree of 360 files in 45 directories, thousands of TODO
#          markers among them, committed to a git repository twice, so that
#          git grep can search a revision too.
#
# Permission errors need a user the directory's mode shuts out: when run as
# root, the commands of those cases run as nobody (setpriv).
#
# Beside each case whose output is whole, CASE.truth holds the tools' own
# machine-readable account of the same search (the .meta's "truth:"
# command): rg --json, grep -c, git grep -c, rg -c --include-zero for the
# files without a match. The oracle test reads it.
#
# ripgrep prints files in the order its threads finish them, so a rerun
# orders rg's results differently; the counts are the same.
#
# Usage: bash rules/search/testdata/search.sh   (then go test ./rules/search -run TestGolden -update)
set -euo pipefail

ROOT=/tmp/shrinkrun-corpus/search
OUT=$(cd "$(dirname "$0")" && pwd)
export LC_ALL=C.UTF-8 GIT_CONFIG_NOSYSTEM=1 HOME=$ROOT/home
unset RIPGREP_CONFIG_PATH GREP_COLOR GREP_COLORS GIT_PAGER PAGER

command -v rg >/dev/null || { echo "search.sh: rg is not installed (.ci/deps.d/search.sh)" >&2; exit 1; }

if [ -d "$ROOT" ]; then chmod -R u+rwx "$ROOT"; fi
rm -rf "$ROOT"
mkdir -p "$ROOT" "$HOME"
git config --global user.name "Corpus" && git config --global user.email corpus@example.com
git config --global init.defaultBranch main

# asnobody: what the permission cases run under.
asnobody=()
if [ "$(id -u)" = 0 ]; then
	asnobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi

# capture RULE CASE DIR COMMAND [TRUTH]: runs COMMAND (a string, as typed)
# in $ROOT/DIR and writes CASE.meta, CASE.stdout and CASE.stderr under
# OUT/RULE, and CASE.truth from TRUTH when given.
capture() {
	local rule=$1 name=$2 dir=$3 cmd=$4 truth=${5:-} code=0
	mkdir -p "$OUT/$rule"
	(cd "$ROOT/$dir" && "${run[@]}" bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	{
		printf 'command: %s\nexit_code: %d\n' "$cmd" "$code"
		if [ -n "$truth" ]; then printf 'truth: %s\n' "$truth"; fi
	} >"$OUT/$rule/$name.meta"
	if [ -n "$truth" ]; then
		(cd "$ROOT/$dir" && "${run[@]}" bash -c "$truth" >"$OUT/$rule/$name.truth" 2>/dev/null) || true
	else
		rm -f "$OUT/$rule/$name.truth"
	fi
	printf '%-9s %-22s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
}

# terminal RULE CASE DIR COMMAND: as capture, on a terminal (script(1)),
# as shrinkrun --pty runs it: stderr merged into the terminal's output.
terminal() {
	local rule=$1 name=$2 dir=$3 cmd=$4 code=0
	mkdir -p "$OUT/$rule"
	(cd "$ROOT/$dir" && COLUMNS=100 LINES=40 script -qec "$cmd" /dev/null </dev/null >"$OUT/$rule/$name.stdout") || code=$?
	: >"$OUT/$rule/$name.stderr"
	printf 'command: %s\nexit_code: %d\nterminal: true\n' "$cmd" "$code" >"$OUT/$rule/$name.meta"
	rm -f "$OUT/$rule/$name.truth"
	printf '%-9s %-22s exit %3d  %s (terminal)\n' "$rule" "$name" "$code" "$cmd"
}

run=()

# --- small -------------------------------------------------------------
S=$ROOT/small
mkdir -p "$S/sub" "$S/locked" "$S/notes"
printf 'foo bar\nbaz\nfoo again\nqux\n' >"$S/a.txt"
printf 'nofoo\nline two\n' >"$S/sub/b.txt"
printf 'x\0foo\0bin\n' >"$S/bin.dat"
printf 'before\nfoo here\nafter\n\nfoo once more\n' >"$S/notes/v-12-draft.md"
printf 'foo in a locked file\n' >"$S/locked/secret.txt"
awk 'BEGIN { printf "var foo="; for (i = 0; i < 300; i++) printf "x%04d+", i; print "0;" }' >"$S/min.js"
chmod 000 "$S/locked"

# --- proj --------------------------------------------------------------
P=$ROOT/proj
mkdir -p "$P"
# gen_proj writes 360 source files: 45 directories of 8 files, each file
# of 40 to 79 lines, some holding TODO markers (a file's number decides
# how many, from none to 24), config lookups and a few long lines.
gen_proj() {
	awk -v root="$P" -v rev="$1" 'BEGIN {
		areas[0] = "api"; areas[1] = "core"; areas[2] = "store"; areas[3] = "web"; areas[4] = "cli"
		f = 0
		for (a = 0; a < 5; a++) for (d = 0; d < 9; d++) {
			dir = sprintf("%s/src/%s/mod%d", root, areas[a], d)
			system("mkdir -p " dir)
			for (k = 0; k < 8; k++) {
				f++
				path = sprintf("%s/file%02d.go", dir, k)
				n = 40 + (f * 7) % 40
				todos = (f * 13) % 25
				if (f % 9 == 0) todos = 0
				printf "package mod%d\n\n", d > path
				for (i = 3; i <= n; i++) {
					if (todos > 0 && i % 3 == 0) {
						printf "\t// TODO(%s): handle case %d of %s (rev %s)\n", (i % 2 ? "ana" : "bo"), i, areas[a], rev > path
						todos--
					} else if (i % 11 == 0) {
						printf "\tv%d := config.Get(\"%s.key%d\")\n", i, areas[a], i > path
					} else if (f % 37 == 0 && i == 20) {
						printf "\tvar table = []string{"  > path
						for (j = 0; j < 80; j++) printf "\"TODO%03d\", ", j > path
						printf "}\n" > path
					} else {
						printf "\tx%d := compute(%d, %d)\n", i, f, i > path
					}
				}
				close(path)
			}
		}
	}'
}
gen_proj 1
(cd "$P" && git init -q && git add -A && git commit -qm "first")
gen_proj 2
printf '\x00\x01TODO binary blob\n' >"$P/src/core/blob.bin"
(cd "$P" && git add -A && git commit -qm "second")

# --- rg ----------------------------------------------------------------
capture rg small_default small 'rg foo' 'rg --json foo'
capture rg small_n small 'rg -n foo' 'rg --json foo'
capture rg small_context small 'rg -n -C1 foo' 'rg --json foo'
capture rg small_binary small 'rg -n foo a.txt bin.dat sub' 'rg --json foo a.txt bin.dat sub'
capture rg one_file small 'rg -n foo a.txt' 'rg --json foo a.txt'
capture rg long_line small 'rg -n foo min.js a.txt' 'rg --json foo min.js a.txt'
capture rg no_match small 'rg -n zzz' 'rg --json zzz'
capture rg regex_error small 'rg -n "(foo"'
run=("${asnobody[@]}")
capture rg denied small 'rg -n foo' 'rg --json foo'
capture rg denied_2to1 small 'rg -n foo 2>&1'
capture rg denied_devnull small 'rg -n foo 2>/dev/null' 'rg --json foo'
run=()
capture rg proj_n proj 'rg -n TODO' 'rg --json TODO'
capture rg proj_default proj 'rg TODO src/api' 'rg --json TODO src/api'
capture rg proj_dir proj 'rg -n config src/web/mod3' 'rg --json config src/web/mod3'
capture rg proj_context proj 'rg -n -C2 TODO src/store' 'rg --json TODO src/store'
capture rg proj_after proj 'rg -n -A1 "config.Get" src/cli' 'rg --json config.Get src/cli'
capture rg proj_count proj 'rg -c TODO' 'rg --json TODO'
capture rg proj_count_matches proj 'rg --count-matches TODO' 'rg --json TODO'
capture rg proj_files proj 'rg -l TODO' 'rg --json TODO'
capture rg proj_without proj 'rg --files-without-match TODO' 'rg -c --include-zero TODO'
capture rg proj_only proj "rg -n -o 'TODO\(\w+\)' src/core" "rg --json 'TODO\(\w+\)' src/core"
capture rg proj_vimgrep proj 'rg --vimgrep TODO src/api' 'rg --json TODO src/api'
capture rg proj_heading proj 'rg --heading -n TODO src/web' 'rg --json TODO src/web'
capture rg proj_text proj 'rg -n -a TODO src/core' 'rg --json -a TODO src/core'
capture rg proj_head proj 'rg -n TODO | head -60'
capture rg proj_tail proj 'rg -n TODO | tail -40'
capture rg proj_context_tail proj 'rg -n -C2 TODO src/store | tail -25'
capture rg proj_grep proj 'rg -n TODO | grep -v "(bo)"'
capture rg proj_count_head proj 'rg -c TODO | head -20'
terminal rg terminal small 'rg -C1 foo a.txt sub notes'
terminal rg proj_terminal proj 'rg TODO src/api/mod1 src/api/mod2'

# --- grep --------------------------------------------------------------
capture grep small_rn small 'grep -rn foo .' 'grep -rc foo .'
capture grep small_r small 'grep -r foo' 'grep -rc foo'
capture grep small_context small 'grep -rn -C1 foo .' 'grep -rc foo .'
capture grep one_file small 'grep -n foo a.txt' 'grep -c foo a.txt'
capture grep files small 'grep -n foo a.txt sub/b.txt notes/v-12-draft.md' 'grep -c foo a.txt sub/b.txt notes/v-12-draft.md'
capture grep nosuch small 'grep -n foo nosuch.txt a.txt' 'grep -cH foo a.txt'
capture grep is_dir small 'grep foo sub a.txt' 'grep -cH foo a.txt'
capture grep long_line small 'grep -n foo min.js a.txt' 'grep -c foo min.js a.txt'
capture grep no_match small 'grep -rn zzz .' 'grep -rc zzz .'
run=("${asnobody[@]}")
capture grep denied small 'grep -rn foo .' 'grep -rc foo .'
capture grep denied_2to1 small 'grep -rn foo . 2>&1'
# grep prints its binary-file notice on stderr, which 2>/dev/null drops: the
# truth leaves binary files out (-I).
capture grep denied_devnull small 'grep -rn foo . 2>/dev/null' 'grep -rcI foo .'
run=()
capture grep proj_rn proj 'grep -rn TODO .' 'grep -rc TODO .'
capture grep proj_dir proj 'grep -rn config src/web' 'grep -rc config src/web'
capture grep proj_r proj 'grep -r TODO src/cli' 'grep -rc TODO src/cli'
capture grep proj_context proj 'grep -rn -C2 TODO src/store' 'grep -rc TODO src/store'
capture grep proj_before proj 'grep -rn -B3 "config.Get" src/api' 'grep -rc config.Get src/api'
capture grep proj_count proj 'grep -rc TODO src' 'grep -rc TODO src'
capture grep proj_files proj 'grep -rl TODO .' 'grep -rc TODO .'
capture grep proj_without proj 'grep -rL TODO src' 'grep -rc TODO src'
capture grep proj_only proj 'grep -rno "TODO([a-z]*)" src/core' 'grep -rc "TODO([a-z]*)" src/core'
capture grep proj_include proj "grep -rn '--include=*.go' -i todo src/api" "grep -rc '--include=*.go' -i todo src/api"
capture grep proj_head proj 'grep -rn TODO . | head -80'
capture grep proj_tail proj 'grep -rn TODO src | tail -30'
capture grep proj_context_tail proj 'grep -rn -C2 TODO src/store | tail -23'
capture grep proj_grep proj 'grep -rn TODO src | grep "(ana)"'
# egrep and fgrep are grep -E and grep -F, with a warning first (grep 3.8).
capture grep egrep proj 'egrep -rn "TODO\((ana|bo)\): handle case [0-9]+ of core" src/core' 'grep -rcE "TODO\((ana|bo)\): handle case [0-9]+ of core" src/core'
capture grep fgrep proj 'fgrep -rn "config.Get(" src/api' 'grep -rcF "config.Get(" src/api'
capture grep fgrep_2to1 proj 'fgrep -rn "config.Get(" src/api/mod1 2>&1' 'grep -rcF "config.Get(" src/api/mod1'
capture grep egrep_head proj 'egrep -rn "TODO|config" src/web 2>&1 | head -40'

# --- git grep ----------------------------------------------------------
capture git_grep plain proj 'git grep TODO' 'git grep -c TODO'
capture git_grep n proj 'git grep -n TODO' 'git grep -c TODO'
capture git_grep no_pager proj 'git --no-pager grep -n config' 'git grep -c config'
capture git_grep context proj 'git grep -n -C2 TODO -- src/store' 'git grep -c TODO -- src/store'
capture git_grep column proj 'git grep -n --column config src/api' 'git grep -c config src/api'
capture git_grep count proj 'git grep -c TODO' 'git grep -c TODO'
capture git_grep files proj 'git grep -l TODO' 'git grep -c TODO'
capture git_grep without proj 'git grep -L TODO' 'git ls-files | xargs grep -c TODO'
capture git_grep revision proj 'git grep -n TODO HEAD~1 -- src/core' 'git grep -c TODO HEAD~1 -- src/core'
capture git_grep binary proj 'git grep -n "TODO binary"' 'git grep -c "TODO binary"'
capture git_grep no_match proj 'git grep -n zzz' 'git grep -c zzz'
capture git_grep not_repo small 'git grep -n foo'
capture git_grep head proj 'git grep -n TODO | head -70'
capture git_grep tail proj 'git grep -n TODO | tail -35'
capture git_grep grep proj 'git grep -n TODO | grep -v "rev 2"'
