#!/usr/bin/env bash
# share.sh measures the share of commands.jsonl (freeze.sh) that shrinkrun
# recognizes in the -c form, before (the code of REV, main by default) and
# after (the working tree): a command is recognized when shrinkrun would
# print a block for it, or for at least one part of its list. Nothing is
# run: each tree's own classification (newInvocation, which parses,
# expands and matches without starting the command) reads each command, in
# a test file this script adds to cmd/shrinkrun for the run and removes.
# Globs and cd are read where the test runs: the tree's cmd/shrinkrun.
#
# Usage: bash testdata/agentcmds/share.sh [REV]
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(git -C "$HERE" rev-parse --show-toplevel)
REV=${1:-main}
tmp=$(mktemp -d)
trap 'rm -f "$ROOT/cmd/shrinkrun/zz_share_test.go"; git -C "$ROOT" worktree remove --force "$tmp/before" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git -C "$ROOT" worktree add --detach -q "$tmp/before" "$REV"

# measure TREE EXPR: prints "SOURCE<TAB>true|false<TAB>COMMAND" for each
# command, EXPR deciding from the invocation inv whether it is recognized.
measure() {
	cat >"$1/cmd/shrinkrun/zz_share_test.go" <<EOF
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
)

func TestShareOfCommands(t *testing.T) {
	f, err := os.Open(os.Getenv("SHARE_COMMANDS"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row struct{ Source, Cmd string }
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		inv, err := newInvocation(options{shell: true}, []string{row.Cmd})
		fmt.Printf("SHARE\t%s\t%v\t%s\n", row.Source, err == nil && ($2), strconv.Quote(row.Cmd))
	}
}
EOF
	(cd "$1" && SHARE_COMMANDS=$HERE/commands.jsonl SHRINKRUN_HISTORY=0 go test ./cmd/shrinkrun -run '^TestShareOfCommands$' -count=1 -v) |
		sed -n 's/^SHARE\t//p'
	rm "$1/cmd/shrinkrun/zz_share_test.go"
}

measure "$tmp/before" 'inv.class.Rule != ""' >"$tmp/before.tsv"
measure "$ROOT" 'inv.class.Rule != "" || inv.list != nil' >"$tmp/after.tsv"

paste "$tmp/before.tsv" "$tmp/after.tsv" | awk -F'\t' -v rev="$REV" '
	{ n[$1]++; if ($2 == "true") b[$1]++; if ($5 == "true") a[$1]++
	  if ($2 != "true" && $5 == "true" && shown[$1]++ < 12) gained[$1] = gained[$1] "  + " $3 "\n" }
	END {
		for (s in n) {
			printf "%s: %d commands; recognized before (%s): %d (%.1f%%), after: %d (%.1f%%)\n", s, n[s], rev, b[s], 100*b[s]/n[s], a[s], 100*a[s]/n[s]
			printf "%s", gained[s]
		}
	}'
