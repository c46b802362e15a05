# Sourced by the installers in .ci/deps.d that install npm packages.
# npm_install_into DIR PACKAGE... installs the packages, at the versions
# given, into DIR, a directory of their own outside the repository, and
# does nothing when DIR already holds exactly those (its .installed file).

npm_install_into() {
	local dir=$1
	shift
	local want="$*"
	command -v npm >/dev/null || { echo "npm is not installed to install $want" >&2; return 1; }
	if [ "$(cat "$dir/.installed" 2>/dev/null)" = "$want" ]; then
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	(
		cd "$dir"
		npm init -y >/dev/null
		npm install --no-audit --no-fund --loglevel=error "$@"
	)
	echo "$want" >"$dir/.installed"
}
