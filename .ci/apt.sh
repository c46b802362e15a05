# Sourced by the installers in .ci/deps.d that need Debian packages.
# apt_install installs the packages given, with one `apt-get update` per
# CI run for all installers: .ci/run names a stamp file in
# SHRINKRUN_CI_APT_STAMP, which the first update writes its exit status
# to; later installers reuse that outcome. An installer run by hand (no
# stamp) updates once itself.

apt_update() {
	local stamp=${SHRINKRUN_CI_APT_STAMP:-}
	if [ -n "$stamp" ] && [ -s "$stamp" ]; then
		return "$(cat "$stamp")"
	fi
	local status=0
	apt-get update -qq || status=$?
	[ -z "$stamp" ] || echo "$status" >"$stamp"
	return "$status"
}

apt_install() {
	command -v apt-get >/dev/null || { echo "no apt-get to install $*" >&2; return 1; }
	export DEBIAN_FRONTEND=noninteractive
	apt_update
	apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
