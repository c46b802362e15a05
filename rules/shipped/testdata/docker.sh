#!/usr/bin/env bash
# docker.sh regenerates the test cases of docker.toml (docker/CASE.*) from
# real runs of the docker client (28.2) on a machine where no engine runs:
# what the client itself prints when it cannot reach one (docker build with
# the legacy builder's deprecation notice, docker pull), when the build
# context is wrong, and when an option is wrong. Output of
# a build or pull that an engine ran cannot be made here; the rule's
# patterns for it follow the engine's documented layout, and the boundary
# check holds whatever it prints.
#
# Usage: bash rules/shipped/testdata/docker.sh
#        (then go test ./rules/shipped -run TestGolden -update)
set -euo pipefail

OUT=$(cd "$(dirname "$0")" && pwd)/docker
ROOT=/tmp/shrinkrun-corpus/docker
mkdir -p "$OUT" "$ROOT"
. "$(dirname "$0")/caselib.sh"
command -v docker >/dev/null || { echo "docker.sh: the docker client is not installed" >&2; exit 1; }
export DOCKER_HOST=unix:///var/run/docker.sock LC_ALL=C
unset DOCKER_BUILDKIT DOCKER_CONTEXT

app=$ROOT/app
rm -rf "$app" && mkdir -p "$app/src"
cd "$app"
printf 'FROM alpine:3.20\nCOPY src /src\nRUN ls /src\n' >Dockerfile
for i in $(seq 1 40); do echo "file $i" >"src/f$i.txt"; done

run build_no_engine "docker build -t shrinkrun/app ."
run build_no_dockerfile "docker build -t shrinkrun/app -f Dockerfile.missing ."
run build_merged "docker build -t shrinkrun/app . 2>&1"
run pull_no_engine "docker pull alpine:3.20"
run build_bad_flag "docker build --no-such-flag ."
