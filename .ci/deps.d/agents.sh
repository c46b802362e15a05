#!/usr/bin/env bash
# Installs the real agent clients that agents/e2e drives (Claude Code, Codex
# CLI, Gemini CLI), at the versions docs/agents.md names, into a fixed
# directory outside the repository. The tests find them there and skip when
# a client is absent. npm's optional dependencies bring each client's native
# binary for this platform (Claude Code's -linux-x64, Codex's -linux-x64).
# skips: agents/e2e (the real Claude Code, Codex and Gemini CLI against a fake model)
set -euo pipefail

. "$(dirname "$0")/../npm.sh"

npm_install_into "${SHRINKRUN_AGENTS_DIR:-/tmp/shrinkrun-ci/agents}" @anthropic-ai/claude-code@2.1.332 @openai/codex@0.171.0 @google/gemini-cli@0.61.0
