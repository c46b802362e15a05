#!/usr/bin/env bash
# The go family's end-to-end script (testdata/script/golang.txtar) drives the
# go command itself, which .ci/run already requires, and needs no network
# (GOPROXY=off) and no module outside its archive: nothing to install.
# skips: testdata/script/golang.txtar (go itself; CI stops earlier without it)
set -euo pipefail
command -v go >/dev/null
