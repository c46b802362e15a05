#!/usr/bin/env bash
# Installs what the cc family's corpus script (rules/cc/testdata/cc.sh) and
# its end-to-end tests drive: Debian's gcc and g++ (12), clang (14), make,
# cmake (with ctest) and ninja. The tests that run a compiler skip when one
# is absent.
set -euo pipefail

missing=()
for p in gcc g++ clang make cmake ninja-build; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

command -v apt-get >/dev/null || { echo "cc.sh: no apt-get to install ${missing[*]}" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
