#!/usr/bin/env bash
# Installs the node tools that testdata/script/node.txtar drives (vitest,
# jest, tsc, eslint), at the versions the corpus was made with, into a fixed
# directory outside the repository. The script links its projects'
# node_modules there and skips when it is absent.
# skips: testdata/script/node.txtar (vitest, jest, tsc and eslint end to end)
set -euo pipefail

. "$(dirname "$0")/../npm.sh"

npm_install_into /tmp/shrinkrun-ci/node vitest@4.1.12 jest@30.5.2 typescript@7.0.2 eslint@10.15.0
