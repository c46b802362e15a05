#!/usr/bin/env bash
# corpus.sh regenerates the corpus of package shape: real runs of commands
# no rule recognizes, on code written here for the purpose (src/, and the
# source files gen_source.py makes), each large enough to be cut.
#
#   scripts that raise     python3 process.py, a Go program's panic (go run and
#                          the built binary), a Rust panic with RUST_BACKTRACE=1,
#                          node app.js
#   a log                  python3 server.py: 100,000 lines on stderr, a few
#                          warnings and errors with tracebacks
#   progress bars          python3 bar.py (its own bar, drawn with \r) and
#                          wget --progress=bar:force from a local http.server
#   JSON                   jq . data.json (a document of several MB), jq -c
#                          '.orders[]' data.json (JSON lines)
#   a listing              tar -tvf and du -a over 6,000 files
#   source files           Python, Go, JavaScript, TypeScript, Rust and C viewed
#                          with cat, cat -n, nl -ba, nl -ba | sed -n and sed -n
#   one failure among      go test -v through a shell script, pytest -v through
#   thousands of passes    ./runtests.sh, unittest through runtests.py, node --test
#
# Tools: /usr/bin/python3 (3.11), /usr/bin/pytest (python3-pytest), go,
# rustc, node, jq, wget, tar, du. Every project is written under a fixed
# path ($ROOT) so that the paths the tools print are the same on every run;
# commands run from there with stdout and stderr to files. wget's bar and
# the durations go test, pytest and node print vary between runs.
#
# Each case is CASE.meta (the command and its exit code), CASE.stdout and
# CASE.stderr under corpus/; streams over 1 MB are stored gzipped
# (CASE.stdout.gz), as the tests read them.
#
# Usage: bash shape/testdata/corpus.sh   (then go test ./shape -run TestGolden -update)
set -euo pipefail

ROOT=/tmp/shrinkrun-corpus/shape
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$HERE/corpus
export PATH=/usr/bin:/bin:/usr/local/go/bin:$HOME/.cargo/bin
export LC_ALL=C.UTF-8 PYTHONDONTWRITEBYTECODE=1 NO_COLOR=1
unset PYTEST_ADDOPTS FORCE_COLOR RUST_BACKTRACE GOFLAGS

rm -rf "$ROOT" "$OUT"
mkdir -p "$ROOT" "$OUT"

# capture CASE DIR COMMAND: runs COMMAND (as typed) in $ROOT/DIR.
capture() {
	local name=$1 dir=$2 cmd=$3 code=0
	(cd "$ROOT/$dir" && bash -c "$cmd" >"$OUT/$name.stdout" 2>"$OUT/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\n' "$cmd" "$code" >"$OUT/$name.meta"
	for s in stdout stderr; do
		if [ "$(stat -c %s "$OUT/$name.$s")" -gt 1000000 ]; then
			gzip -n -9 "$OUT/$name.$s"
		fi
	done
	echo "corpus: $name (exit $code)"
}

# Scripts that raise.
mkdir -p "$ROOT/py" "$ROOT/gopanic" "$ROOT/rust" "$ROOT/node"
cp "$HERE/src/process.py" "$HERE/src/records.py" "$ROOT/py/"
capture py_traceback py "python3 process.py"

cp "$HERE/src/panic.go" "$ROOT/gopanic/main.go"
(cd "$ROOT/gopanic" && go mod init example.test/gopanic >/dev/null 2>&1 && go build -o gopanic .)
capture go_panic gopanic "./gopanic"
capture go_run_panic gopanic "go run ."

cp "$HERE/src/panic.rs" "$ROOT/rust/main.rs"
(cd "$ROOT/rust" && rustc -g -o rustpanic main.rs)
capture rust_panic rust "RUST_BACKTRACE=1 ./rustpanic"

cp "$HERE/src/app.js" "$ROOT/node/"
capture node_throw node "node app.js"

# A log of 100,000 lines.
mkdir -p "$ROOT/log"
cp "$HERE/src/server.py" "$ROOT/log/"
capture log_100k log "python3 server.py"

# Progress bars: a script's own, and wget's from a local server.
mkdir -p "$ROOT/progress/www"
cp "$HERE/src/bar.py" "$ROOT/progress/"
capture progress_bar progress "python3 bar.py"
head -c 9000000 /dev/zero >"$ROOT/progress/www/dataset.bin"
(cd "$ROOT/progress/www" && exec python3 -m http.server 8765 --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
	python3 -c 'import socket; socket.create_connection(("127.0.0.1", 8765), 0.2)' 2>/dev/null && break
	sleep 0.1
done
capture wget_progress progress "wget --progress=bar:force --limit-rate=200k -O dataset.bin http://127.0.0.1:8765/dataset.bin"
kill $server
wait $server 2>/dev/null || true
trap - EXIT

# JSON: a document of several MB, and the same as JSON lines.
mkdir -p "$ROOT/json"
python3 "$HERE/src/gen_json.py" "$ROOT/json/data.json"
capture json_document json "jq . data.json"
capture json_lines json "jq -c '.orders[]' data.json"

# A listing through tools no rule knows.
mkdir -p "$ROOT/listing"
(cd "$ROOT/listing" && for d in $(seq -w 1 60); do
	mkdir -p "tree/module_$d/src" "tree/module_$d/tests"
	for f in $(seq -w 1 50); do
		echo "$d $f" >"tree/module_$d/src/file_$f.py"
		echo "$d $f" >"tree/module_$d/tests/test_$f.py"
	done
done && tar --mtime=2026-01-01 --owner=0 --group=0 --numeric-owner -cf tree.tar tree)
capture tar_list listing "tar -tvf tree.tar"
capture du_all listing "du -a tree"

# Source files, viewed whole.
mkdir -p "$ROOT/src"
python3 "$HERE/gen_source.py" "$ROOT/src"
for f in inventory.py store.go widgets.js api.ts engine.rs buffers.c; do
	base=${f%.*}_${f##*.}
	capture "cat_$base" src "cat $f"
	capture "nl_$base" src "nl -ba $f"
done
capture catn_inventory_py src "cat -n inventory.py"
capture nlsed_store_go src "nl -ba store.go | sed -n '400,2600p'"
capture sed_engine_rs src "sed -n '200,2400p' engine.rs"
capture head_api_ts src "head -n 2500 api.ts"

# One failure among thousands of passing lines.
mkdir -p "$ROOT/gotest" "$ROOT/pytest" "$ROOT/unittest" "$ROOT/nodetest/tests"
cp "$HERE/src/calc.go" "$HERE/src/calc_test.go" "$ROOT/gotest/"
(cd "$ROOT/gotest" && go mod init example.test/calc >/dev/null 2>&1)
printf '#!/bin/sh\nset -e\ngo test -v -count=1 ./...\n' >"$ROOT/gotest/run_tests.sh"
capture go_test_script gotest "bash run_tests.sh"

cp "$HERE/src/test_prices.py" "$ROOT/pytest/"
printf '#!/bin/sh\nexec /usr/bin/pytest -v -p no:cacheprovider "$@"\n' >"$ROOT/pytest/runtests.sh"
chmod +x "$ROOT/pytest/runtests.sh"
capture pytest_script pytest "./runtests.sh"

cp "$HERE/src/test_catalog.py" "$HERE/src/runtests.py" "$ROOT/unittest/"
capture unittest_runtests unittest "python3 runtests.py"

cp "$HERE/src/orders.test.js" "$ROOT/nodetest/tests/"
capture node_test nodetest "node --test tests/"
