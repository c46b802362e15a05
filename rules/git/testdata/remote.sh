#!/usr/bin/env bash
# remote.sh regenerates the corpus of git's network verbs (git_push,
# git_pull, git_fetch, git_clone) and of git_show from real runs. Afterwards
# run
#
#	go test ./rules/git -run TestGolden -update
#
# and read every changed .golden before committing it.
#
# The remotes are real bare repositories in a fixed temporary directory, so
# clone, fetch, push and pull really transfer objects. git prints its
# progress meters only to a terminal, or with --progress: the cases with
# --progress have them, the others show what a captured run gets. Authors,
# committers and dates are fixed, so hashes are the same on every run of the
# same git version; transfer rates in the meters ("1.74 MiB/s") vary.
#
# Every command is run from its directory with bash -c, as typed, stdout and
# stderr redirected to files. The fixed directory is the one the cargo
# family's build.sh uses too (the paths in both corpora name it): run the
# two one after the other, never at once.
#
# Usage: bash rules/git/testdata/remote.sh
set -euo pipefail

OUT=$(cd "$(dirname "$0")" && pwd)
ROOT=/tmp/shrinkrun-corpus/gitcargo
rm -rf "$ROOT"
mkdir -p "$ROOT/home"

export HOME=$ROOT/home XDG_CONFIG_HOME=$ROOT/home/.config
export GIT_CONFIG_NOSYSTEM=1 GIT_CEILING_DIRECTORIES=$ROOT
export LC_ALL=C LANG=C TZ=UTC
export GIT_AUTHOR_NAME='Corpus Author' GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME='Corpus Committer' GIT_COMMITTER_EMAIL=committer@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PAGER PAGER
git config --global init.defaultBranch main
git config --global advice.detachedHead false

for rule in git_push git_pull git_fetch git_clone git_show; do
	mkdir -p "$OUT/$rule"
	rm -f "$OUT/$rule"/*.meta "$OUT/$rule"/*.stdout "$OUT/$rule"/*.stderr
done

# tick sets the next fixed timestamp (one minute apart) for every git
# command that follows, so commits and tags get the same hash on every run.
tick=0
next_date() {
	tick=$((tick + 1))
	export GIT_AUTHOR_DATE="@$((1735689600 + tick * 60)) +0000"
	export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
}
g() {
	next_date
	git "$@"
}

# capture RULE CASE DIR COMMAND: runs COMMAND (a string, as typed) in DIR and
# writes CASE.meta, CASE.stdout and CASE.stderr under OUT/RULE.
capture() {
	local rule=$1 name=$2 dir=$3 cmd=$4 code=0
	next_date
	(cd "$dir" && bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\n' "$cmd" "$code" >"$OUT/$rule/$name.meta"
	printf '%-12s %-22s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
}

# gen_rs N SEED: a Rust-like source file of N one-line functions.
gen_rs() {
	awk -v n="$1" -v s="$2" 'BEGIN {
		for (i = 1; i <= n; i++)
			printf "pub fn f%02d_%03d(x: u32) -> u32 { x * %d + %d }\n", s, i, (i * s) % 97 + 1, (i * 7 + s) % 101
	}'
}

#### git

G=$ROOT/git
mkdir -p "$G"
cd "$G"

# The upstream: a bare repository seeded with 40 generated files.
g init -q --bare up.git
g clone -q up.git seed 2>/dev/null
cd seed
mkdir -p src docs
for i in $(seq -w 1 40); do gen_rs 60 "$((10#$i))" >"src/mod$i.rs"; done
printf '# Notes\n\nFirst entry.\n' >docs/notes.md
git add -A
g commit -q -m "Import the generated sources"
g push -q origin main
cd "$G"

## git_clone

capture git_clone plain "$G" "git clone up.git clone-plain"
capture git_clone progress "$G" "git clone --progress file://$G/up.git clone-progress"
capture git_clone progress_merged "$G" "git clone --progress file://$G/up.git clone-merged 2>&1"
capture git_clone quiet "$G" "git clone -q up.git clone-quiet"
capture git_clone missing "$G" "git clone $G/nope.git clone-missing"
capture git_clone missing_url "$G" "git clone file://$G/nope.git clone-missing-url"
capture git_clone exists "$G" "git clone up.git clone-plain"
g init -q --bare empty.git
capture git_clone empty "$G" "git clone empty.git clone-empty"
capture git_clone bare_progress "$G" "git clone --bare --progress file://$G/up.git mirror.git"

## git_push

g clone -q "$G/up.git" "$G/pusher"
cd pusher
printf 'Second entry.\n' >>docs/notes.md
g commit -q -am "docs: add a second entry"
capture git_push plain "$G/pusher" "git push"
for i in 1 2 3; do
	gen_rs 80 "$((60 + i))" >"src/extra$i.rs"
	git add "src/extra$i.rs"
	g commit -q -m "src: add extra module $i"
done
capture git_push progress "$G/pusher" "git push --progress origin main"
capture git_push up_to_date "$G/pusher" "git push"
capture git_push up_to_date_verbose "$G/pusher" "git push -v"
g checkout -q -b feature/parse
printf 'pub fn parse() {}\n' >src/parse.rs
git add src/parse.rs
g commit -q -m "parse: start the parser"
capture git_push no_upstream "$G/pusher" "git push"
capture git_push set_upstream "$G/pusher" "git push --progress -u origin feature/parse"
capture git_push delete "$G/pusher" "git push origin --delete feature/parse"
g checkout -q main
for i in $(seq -w 1 130); do git branch "topic/t$i"; done
g tag -a v1.0 -m "Release 1.0"
g tag v1.0-light
capture git_push all_branches "$G/pusher" "git push --all"
capture git_push tags "$G/pusher" "git push --tags"
# The remote moves on (another clone pushes), then this clone pushes work
# of its own: rejected, as fetch first and then as non-fast-forward.
g clone -q "$G/up.git" "$G/other"
cd "$G/other"
printf 'From the other clone.\n' >>docs/notes.md
g commit -q -am "docs: note from the other clone"
g push -q origin main
cd "$G/pusher"
printf 'Third entry.\n' >>docs/notes.md
g commit -q -am "docs: add a third entry"
capture git_push rejected "$G/pusher" "git push"
g fetch -q
capture git_push rejected_non_ff "$G/pusher" "git push origin main"
capture git_push rejected_merged "$G/pusher" "git push --progress origin main 2>&1"
capture git_push force "$G/pusher" "git push --force --progress origin main"
# A hook that declines: the remote's messages and the remote rejection.
cat >"$G/up.git/hooks/pre-receive" <<'EOF'
#!/bin/sh
echo "policy: direct pushes to main are not allowed"
echo "policy: open a merge request instead"
exit 1
EOF
chmod +x "$G/up.git/hooks/pre-receive"
printf 'Fourth entry.\n' >>docs/notes.md
g commit -q -am "docs: add a fourth entry"
capture git_push hook_declined "$G/pusher" "git push origin main"
rm "$G/up.git/hooks/pre-receive"
capture git_push missing_remote "$G/pusher" "git push nowhere main"
capture git_push quiet "$G/pusher" "git push -q origin main"

## git_fetch

g clone -q "$G/up.git" "$G/fetcher"
g clone -q "$G/up.git" "$G/mover"
cd "$G/mover"
for i in 1 2; do
	printf 'mover %d\n' "$i" >>docs/notes.md
	g commit -q -am "docs: mover entry $i"
done
g push -q origin main
g tag -a v1.1 -m "Release 1.1"
g tag -a v1.2 -m "Release 1.2"
g push -q origin v1.1 v1.2
g push -q origin main:refs/heads/release/1.x
g push -q origin --delete topic/t001 topic/t002
# topic/t003 is rewritten: a forced update for the fetcher.
g checkout -q topic/t003
printf 'rewritten\n' >docs/rewritten.md
git add docs/rewritten.md
g commit -q -m "docs: rewrite topic 3"
g push -q -f origin topic/t003
g checkout -q main
capture git_fetch prune_tags "$G/fetcher" "git fetch --prune --progress"
capture git_fetch nothing_new "$G/fetcher" "git fetch"
capture git_fetch verbose "$G/fetcher" "git fetch -v"
capture git_fetch missing_remote "$G/fetcher" "git fetch nowhere"
capture git_fetch bad_ref "$G/fetcher" "git fetch origin no-such-branch"
g clone -q --no-local "$G/up.git" "$G/fetch-many"
cd "$G/fetch-many"
git reset -q --hard HEAD~2
cd "$G/mover"
for i in $(seq -w 1 150); do git branch "wip/w$i"; done
g push -q origin 'refs/heads/wip/*:refs/heads/wip/*'
capture git_fetch many_branches "$G/fetch-many" "git fetch --progress"
g clone -q "$G/up.git" "$G/fetch-all"
cd "$G/fetch-all"
git remote add mirror "$G/mirror.git"
capture git_fetch all_remotes "$G/fetch-all" "git fetch --all --prune"
capture git_fetch merged "$G/fetcher" "git fetch --progress origin main 2>&1"

## git_pull

# Every pull clone is made first, with its local work; then the upstream
# moves on, so that each pull really fetches the new objects.
pull_clones="pull-ff pull-ffp pull-merge pull-diverged pull-conflict pull-rebase-conflict pull-dirty pull-merged"
for c in $pull_clones; do g clone -q "$G/up.git" "$G/$c"; done
for c in pull-merge pull-diverged; do
	cd "$G/$c"
	printf 'local work\n' >local.txt
	git add local.txt
	g commit -q -m "local: add a file"
done
cd "$G/pull-conflict"
for i in 01 02 03; do
	gen_rs 65 "$((70 + 10#$i))" >"src/mod$i.rs"
done
printf 'pub fn added() -> u8 { 1 }\n' >src/added.rs
git add -A
g commit -q -m "local: conflicting edits"
cd "$G/pull-rebase-conflict"
gen_rs 65 90 >src/mod05.rs
g commit -q -am "local: conflicting edit of mod05"
cd "$G/pull-dirty"
for i in $(seq -w 1 12); do printf '// local edit\n' >>"src/mod$i.rs"; done

cd "$G/mover"
for i in $(seq -w 1 12); do
	gen_rs 65 "$((10#$i))" >"src/mod$i.rs"
done
printf 'pub fn added() {}\n' >src/added.rs
git rm -q src/mod40.rs
git add -A
g commit -q -m "src: regenerate twelve modules"
g push -q origin main

capture git_pull fast_forward "$G/pull-ff" "git pull"
capture git_pull up_to_date "$G/pull-ff" "git pull"
capture git_pull fast_forward_progress "$G/pull-ffp" "git pull --progress"
capture git_pull merge "$G/pull-merge" "git pull --no-rebase"
capture git_pull divergent "$G/pull-diverged" "git pull"
capture git_pull rebase "$G/pull-diverged" "git pull --rebase"
capture git_pull conflict "$G/pull-conflict" "git pull --no-rebase"
capture git_pull rebase_conflict "$G/pull-rebase-conflict" "git pull --rebase"
capture git_pull local_changes "$G/pull-dirty" "git pull"
capture git_pull merged "$G/pull-merged" "git pull --progress 2>&1"
capture git_pull no_remote "$G/pull-merged" "git pull nowhere main"

# Many conflicts: 250 files edited on both sides.
g clone -q "$G/up.git" "$G/many-up-seed"
cd "$G/many-up-seed"
mkdir -p gen
for i in $(seq -w 1 250); do printf 'line one\nline two %s\n' "$i" >"gen/c$i.txt"; done
git add -A
g commit -q -m "gen: add 250 files"
g push -q origin main
g clone -q "$G/up.git" "$G/pull-many"
for i in $(seq -w 1 250); do printf 'line one\nline two %s upstream\n' "$i" >"gen/c$i.txt"; done
g commit -q -am "gen: upstream edits"
g push -q origin main
cd "$G/pull-many"
for i in $(seq -w 1 250); do printf 'line one\nline two %s local\n' "$i" >"gen/c$i.txt"; done
g commit -q -am "gen: local edits"
capture git_pull many_conflicts "$G/pull-many" "git pull --no-rebase"

# A fast-forward over 150 changed files: a long diffstat.
g clone -q "$G/up.git" "$G/pull-wide"
cd "$G/many-up-seed"
for i in $(seq -w 1 150); do printf 'line three %s\n' "$i" >>"gen/c$i.txt"; done
g commit -q -am "gen: extend 150 files"
g push -q origin main
capture git_pull wide "$G/pull-wide" "git pull"

## git_show

S=$G/show
g init -q "$S"
cd "$S"
mkdir -p src docs
for i in 1 2 3 4 5; do gen_rs 40 "$i" >"src/m$i.rs"; done
printf '# Show\n\nA repository for git show.\n' >docs/readme.md
git add -A
g commit -q -m "Import five modules"
sed -i 's/x \* 3 + /x * 30 + /' src/m1.rs src/m2.rs
printf 'pub fn new_fn() -> u32 { 7 }\n' >>src/m3.rs
git rm -q src/m5.rs
printf 'pub fn helper() {}\n' >src/helper.rs
git add -A
g commit -q -m "src: scale by 30, add a helper

The factor of 3 was too small for the new inputs; 30 matches what
the callers expect. m5 had no callers left.

Refs: #42"
g tag -a v0.2 -m "Release 0.2

Scales by 30 and drops m5."
g checkout -q -b side
printf 'Side note.\n' >>docs/readme.md
g commit -q -am "docs: side note"
g checkout -q main
sed -i 's/x \* 4 + /x * 40 + /' src/m4.rs
g commit -q -am "src: scale m4"
g merge -q --no-ff --no-edit side
conflict_base=$(git rev-parse HEAD)
# A merge with a conflict resolved by hand: git show prints a combined diff.
g checkout -q -b left
sed -i '1s/.*/pub fn f01_001(x: u32) -> u32 { x + 100 }/' src/m1.rs
g commit -q -am "left: rewrite the first function"
g checkout -q -b right "$conflict_base"
sed -i '1s/.*/pub fn f01_001(x: u32) -> u32 { x + 200 }/' src/m1.rs
g commit -q -am "right: rewrite the first function"
g checkout -q left
g merge -q --no-edit right >/dev/null 2>&1 || true
git show right:src/m1.rs | sed '1s/.*/pub fn f01_001(x: u32) -> u32 { x + 300 }/' >src/m1.rs
git add src/m1.rs
g commit -q --no-edit
g checkout -q main
g merge -q --no-edit left
# A large commit: every module regenerated.
for i in 1 2 3 4; do gen_rs 400 "$((20 + i))" >"src/m$i.rs"; done
for i in $(seq 1 40); do printf 'entry %d\n' "$i" >>docs/readme.md; done
g commit -q -am "src: regenerate every module"
# A long message.
printf 'pub fn long() {}\n' >src/long.rs
git add src/long.rs
{
	printf 'src: add long\n\n'
	for i in $(seq 1 45); do printf 'Paragraph line %d explains one more detail of the change.\n' "$i"; done
} >"$ROOT/long-message.txt"
g commit -q -F "$ROOT/long-message.txt"
capture git_show head "$S" "git show HEAD~6"
capture git_show latest "$S" "git show"
capture git_show stat "$S" "git show --stat HEAD~6"
capture git_show tag "$S" "git show v0.2"
capture git_show merge "$S" "git show HEAD~4"
capture git_show merge_resolved "$S" "git show HEAD~2"
capture git_show large "$S" "git show HEAD~1"
capture git_show root "$S" "git show HEAD~7"
capture git_show range "$S" "git show HEAD~7..HEAD~5"
capture git_show bad_rev "$S" "git show no-such-rev"
capture git_show merged "$S" "git show HEAD~6 2>&1"

## Cut forms (issue 12): the same kinds of runs piped through the filters
## agents use. They come last, so the hashes of the cases above stay the
## same.

capture git_show large_tail "$S" "git show HEAD~1 | tail -40"
capture git_show large_head "$S" "git show HEAD~1 | head -60"
capture git_show latest_tail "$S" "git show | tail -20"
capture git_show range_grep "$S" "git show HEAD~7..HEAD~5 | grep -E '^(commit|diff|@@)'"
capture git_show bad_rev_tail "$S" "git show no-such-rev 2>&1 | tail -2"

# Clones made before the upstream moves on: a push that is rejected, a
# fetch and a pull that bring the new work, and a pull that conflicts.
for c in cut-other cut-push cut-fetch cut-pull cut-conflict; do g clone -q "$G/up.git" "$G/$c"; done
cd "$G/cut-push"
printf 'cut push\n' >>docs/notes.md
g commit -q -am "docs: a push that will be rejected"
cd "$G/cut-conflict"
gen_rs 65 95 >src/mod07.rs
g commit -q -am "local: rewrite mod07"
cd "$G/cut-other"
gen_rs 65 96 >src/mod07.rs
printf 'cut other\n' >>docs/notes.md
g commit -q -am "src: rewrite mod07 upstream"
g push -q origin main
for i in $(seq -w 1 30); do git branch "cut/b$i"; done
g tag -a v2.0 -m "Release 2.0"
g push -q origin 'refs/heads/cut/*:refs/heads/cut/*' v2.0
capture git_push rejected_tail "$G/cut-push" "git push 2>&1 | tail -4"
capture git_push rejected_grep "$G/cut-push" "git push 2>&1 | grep -E '^(error|hint: Updates| ! )'"
capture git_fetch prune_tail "$G/cut-fetch" "git fetch --prune --progress 2>&1 | tail -6"
capture git_fetch new_refs_head "$G/cut-fetch" "git fetch origin 'refs/tags/*:refs/tags/*' 2>&1 | head -3"
capture git_pull fast_forward_tail "$G/cut-pull" "git pull --progress 2>&1 | tail -5"
capture git_pull conflict_head "$G/cut-conflict" "git pull --no-rebase 2>&1 | head -8"
capture git_clone progress_tail "$G" "git clone --progress file://$G/up.git clone-cut 2>&1 | tail -3"

echo "done: $ROOT"
