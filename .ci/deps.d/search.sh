#!/usr/bin/env bash
# Installs what rules/search/testdata/search.sh runs: Debian's ripgrep
# (13.0, the version the corpus was made with). GNU grep and git are
# already on the machine.
# skips: no test (only rules/search/testdata/search.sh, which makes the corpus, runs rg)
set -euo pipefail

command -v rg >/dev/null && exit 0
. "$(dirname "$0")/../apt.sh"
apt_install ripgrep
