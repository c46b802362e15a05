#!/usr/bin/env bash
# Installs what rules/listing/testdata/listing.sh runs: Debian's fd-find
# (fd 8.6, as fdfind, the version the corpus was made with). GNU find and
# git are already on the machine.
set -euo pipefail

command -v fdfind >/dev/null && exit 0
command -v apt-get >/dev/null || { echo "listing.sh: no apt-get to install fd-find" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends fd-find >/dev/null
