#!/usr/bin/env bash
# Installs what the cc family's corpus script (rules/cc/testdata/cc.sh)
# drives: Debian's gcc and g++ (12), clang (14), make, cmake (with ctest),
# ninja, clang-tidy, cppcheck, and llvm-14 for llvm-bcanalyzer, which dumps clang's serialized
# diagnostics beside the cases. The family's tests read the recorded corpus;
# only testdata/script/cc.txtar drives gcc and make, so CI installs those
# two, and the rest with SHRINKRUN_CC_CORPUS=1 (to regenerate the corpus).
# skips: testdata/script/cc.txtar (gcc and make end to end)
set -euo pipefail

pkgs=(gcc make)
[ "${SHRINKRUN_CC_CORPUS:-}" = 1 ] && pkgs+=(g++ clang llvm-14 cmake ninja-build clang-tidy cppcheck)
missing=()
for p in "${pkgs[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

. "$(dirname "$0")/../apt.sh"
apt_install "${missing[@]}"
