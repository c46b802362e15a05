#!/usr/bin/env bash
# Installs what rules/listing/testdata/listing.sh runs: Debian's fd-find
# (fd 8.6, as fdfind, the version the corpus was made with). GNU find and
# git are already on the machine.
# skips: no test (only rules/listing/testdata/listing.sh, which makes the corpus, runs fd)
set -euo pipefail

command -v fdfind >/dev/null && exit 0
. "$(dirname "$0")/../apt.sh"
apt_install fd-find
