#!/usr/bin/env bash
# apt_get_install.sh regenerates the test cases of apt_get_install.toml
# (apt_get_install/CASE.*) from real runs of Debian's apt-get install, as
# root: packages installed with their dependencies, a package that does not
# exist, one already installed, a local package whose maintainer script
# fails (dpkg's error and apt-get's), and the forms cut by a filter.
#
# It installs and removes small packages (cowsay, figlet, toilet and
# fortune-mod with their libraries and data): run it on a machine where
# that is fine. Each install's archives are downloaded first (apt-get -d),
# so the cases hold no mirror's address and no download speed.
#
# Usage: bash rules/shipped/testdata/apt_get_install.sh
#        (then go test ./rules/shipped -run TestGolden -update)
set -euo pipefail

OUT=$(cd "$(dirname "$0")" && pwd)/apt_get_install
ROOT=/tmp/shrinkrun-corpus/apt
[ "$(id -u)" = 0 ] || { echo "apt_get_install.sh: run it as root" >&2; exit 1; }
export LC_ALL=C DEBIAN_FRONTEND=noninteractive
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mkdir -p "$OUT" "$ROOT"
. "$(dirname "$0")/caselib.sh"

purge() { apt-get purge -y -qq "$@" >/dev/null 2>&1 || true; apt-get autoremove -y -qq >/dev/null 2>&1 || true; }
fetch() { apt-get install -y -qq -d "$@" >/dev/null; }

apt-get update -qq

purge cowsay figlet toilet toilet-fonts libcaca0 fortune-mod fortunes-min
fetch cowsay figlet toilet fortune-mod
run several "apt-get install -y cowsay figlet toilet fortune-mod"
run already "apt-get install -y cowsay"
run missing "apt-get install -y cowsay nosuchpackage-shrinkrun"

purge cowsay figlet toilet toilet-fonts libcaca0 fortune-mod fortunes-min
fetch --no-install-recommends figlet toilet
run quiet "apt-get install -y -q --no-install-recommends figlet toilet"
purge figlet toilet toilet-fonts libcaca0
fetch toilet
run tail "apt-get install -y toilet 2>&1 | tail -5"
purge toilet toilet-fonts libcaca0
fetch figlet cowsay
run grep "apt-get install -y figlet cowsay 2>&1 | grep -v '^Unpacking'"

# A local package whose postinst fails: dpkg reports the error, apt-get
# exits 100.
pkg=$ROOT/shrinkrun-broken
rm -rf "$pkg" && mkdir -p "$pkg/DEBIAN"
cat >"$pkg/DEBIAN/control" <<'CONTROL'
Package: shrinkrun-broken
Version: 1.0
Architecture: all
Maintainer: Shrink Run <dev@shrinkrun.test>
Description: a package whose postinst fails, for shrinkrun's corpus
CONTROL
printf '#!/bin/sh\necho "configuring shrinkrun-broken: cannot write /etc/shrinkrun-broken.conf" >&2\nexit 3\n' >"$pkg/DEBIAN/postinst"
chmod 755 "$pkg/DEBIAN/postinst"
dpkg-deb --build --root-owner-group "$pkg" "$ROOT/shrinkrun-broken_1.0_all.deb" >/dev/null
cp "$ROOT/shrinkrun-broken_1.0_all.deb" /tmp/shrinkrun-broken_1.0_all.deb
(cd /tmp && run postinst_fails "apt-get install -y ./shrinkrun-broken_1.0_all.deb")
dpkg --purge shrinkrun-broken >/dev/null 2>&1 || true

purge cowsay figlet toilet toilet-fonts libcaca0 fortune-mod fortunes-min
