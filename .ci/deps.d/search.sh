#!/usr/bin/env bash
# Installs what rules/search/testdata/search.sh runs: Debian's ripgrep
# (13.0, the version the corpus was made with). GNU grep and git are
# already on the machine.
set -euo pipefail

command -v rg >/dev/null && exit 0
command -v apt-get >/dev/null || { echo "search.sh: no apt-get to install ripgrep" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends ripgrep >/dev/null
