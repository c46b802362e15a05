#!/usr/bin/env bash
# Installs the agent clients agents/e2e drives besides agents.sh's three:
# opencode, GitHub Copilot CLI and Qwen Code, at the versions docs/agents.md
# names, into a directory of their own (agents.sh's stays as it is, for the
# runs that use it). npm's optional dependencies bring opencode's and
# Copilot CLI's native binaries for this platform. The tests find the
# clients in either directory and skip a client that is absent. .ci/run
# bounds the install in time.
# skips: agents/e2e's opencode, Copilot CLI and Qwen Code tests (the real clients against a fake model)
set -euo pipefail

. "$(dirname "$0")/../npm.sh"

npm_install_into "${SHRINKRUN_AGENTS_MORE_DIR:-/tmp/shrinkrun-ci/agents-more}" opencode-ai@1.18.33 @github/copilot@1.0.102 @qwen-code/qwen-code@0.24.4
