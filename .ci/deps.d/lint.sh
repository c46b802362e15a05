#!/usr/bin/env bash
# Installs the linters that the lint family's corpus script
# (rules/lint/testdata/lint.sh) drives: Debian's flake8, pylint and pycodestyle and,
# only when SHRINKRUN_GOLANGCI_LINT=1, golangci-lint built with go install
# at a pinned version into a fixed directory outside the repository (its
# binary is not on PATH: the corpus script puts the directory there). No
# test needs golangci-lint: the goldens are made from its recorded output,
# and only making the corpus again runs it. Its build is a few hundred
# modules (tens of minutes of a shared 2-core machine), so CI does not pay
# for it. A failed install only makes the corpus script refuse to run.
# skips: testdata/script/lint.txtar (flake8 and pylint end to end)
set -euo pipefail

GOLANGCI=v2.15.0
DIR=/tmp/shrinkrun-ci/lint

missing=()
for p in flake8 pylint pycodestyle; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	. "$(dirname "$0")/../apt.sh"
	apt_install "${missing[@]}"
fi

[ "${SHRINKRUN_GOLANGCI_LINT:-}" = 1 ] || exit 0
command -v go >/dev/null || { echo "lint.sh: go is not installed" >&2; exit 1; }
if [ "$(cat "$DIR/.installed" 2>/dev/null)" = "$GOLANGCI" ]; then
	exit 0
fi
rm -rf "$DIR"
mkdir -p "$DIR/bin"
GOBIN=$DIR/bin GOFLAGS=-mod=mod go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI"
echo "$GOLANGCI" >"$DIR/.installed"
