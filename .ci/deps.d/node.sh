#!/usr/bin/env bash
# Installs the node tools that testdata/script/node.txtar drives (vitest,
# jest, tsc, eslint), at the versions the corpus was made with, into a fixed
# directory outside the repository. The script links its projects'
# node_modules there and skips when it is absent.
# skips: testdata/script/node.txtar (vitest, jest, tsc and eslint end to end)
set -euo pipefail

DIR=/tmp/shrinkrun-ci/node
TOOLS="vitest@4.1.12 jest@30.5.2 typescript@7.0.2 eslint@10.15.0"

command -v npm >/dev/null || { echo "node.sh: npm is not installed" >&2; exit 1; }
if [ "$(cat "$DIR/.installed" 2>/dev/null)" = "$TOOLS" ]; then
	exit 0
fi
rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
npm init -y >/dev/null
# shellcheck disable=SC2086 # TOOLS is a list of words
npm install --no-audit --no-fund --loglevel=error $TOOLS
echo "$TOOLS" >.installed
