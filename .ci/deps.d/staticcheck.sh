#!/usr/bin/env bash
# Installs staticcheck, which .ci/run runs over the module, at a pinned
# version, from the Go module proxy, into a fixed directory outside the
# repository.
# skips: the staticcheck step of .ci/run
set -euo pipefail

# v0.8.2 is the module version of staticcheck 2026.2.2.
VERSION=v0.8.2
DIR=/tmp/shrinkrun-ci/staticcheck

command -v go >/dev/null || { echo "staticcheck.sh: go is not installed" >&2; exit 1; }
if [ "$(cat "$DIR/.installed" 2>/dev/null)" = "$VERSION" ]; then
	exit 0
fi
rm -rf "$DIR"
mkdir -p "$DIR/bin"
GOBIN=$DIR/bin go install "honnef.co/go/tools/cmd/staticcheck@$VERSION"
echo "$VERSION" >"$DIR/.installed"
