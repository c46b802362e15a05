#!/usr/bin/env bash
# Runs every fuzz target beyond its seed corpus, for a bounded time each
# (SHRINKRUN_FUZZTIME, default 15s), or only the targets whose names match
# the pattern given as the first argument:
#
#	SHRINKRUN_FUZZTIME=90s bash .ci/fuzz.sh           # a longer sweep
#	SHRINKRUN_FUZZTIME=10m bash .ci/fuzz.sh Classify  # one target, long
#
# A crasher fails the run and is left in testdata/fuzz to become a
# regression seed. .ci/run calls it with the default.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
only=${1:-}
fuzztime=${SHRINKRUN_FUZZTIME:-15s}

# fuzz runs one target. Go 1.26's coordinator can fail a target that found
# nothing when -fuzztime expires (go.dev/issue/75804, fixed in Go 1.27): the
# run ends in a bare "context deadline exceeded" and writes no input. That one
# outcome passes; any failing input, panic or build error still fails.
fuzz() {
	local pkg=$1 t=$2 status=0
	echo "ci: fuzz $pkg $t for $fuzztime"
	go test "$pkg" -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" -fuzzminimizetime 10x >"$log" 2>&1 || status=$?
	if [ "$status" -ne 0 ] && grep -qx '    context deadline exceeded' "$log" && ! grep -q 'Failing input written to' "$log"; then
		# Quoted, so that nothing reading this log takes it for a failure.
		echo "ci: $t found nothing; go test's report of Go's fuzz deadline race (go.dev/issue/75804):"
		sed 's/^/ci: | /' "$log"
		return 0
	fi
	cat "$log"
	return "$status"
}

# `go test -list` prints a package's targets, then its "ok" line.
targets=()
while read -r first pkg _; do
	case $first in
	Fuzz*)
		if [[ $first =~ $only ]]; then
			targets+=("$first")
		fi
		;;
	ok)
		for t in "${targets[@]}"; do
			fuzz "$pkg" "$t"
		done
		targets=()
		;;
	esac
done < <(go test ./... -list 'Fuzz.*')
