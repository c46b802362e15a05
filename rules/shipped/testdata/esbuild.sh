#!/usr/bin/env bash
# esbuild.sh regenerates the test cases of esbuild.toml (esbuild/CASE.*)
# from real runs of esbuild 0.25 (npm's esbuild package, installed into
# $TOOL by this script) on a JavaScript project written here for the
# purpose: a bundle split into many chunks, a build with warnings, builds
# that fail (an import that resolves to nothing, a syntax error, many
# errors past esbuild's own limit), and forms cut by a filter.
#
# The project is written under a fixed path ($ROOT/app) so that the paths
# esbuild prints are the same on every run. The timings ("Done in 5ms")
# are whatever the run took.
#
# Usage: bash rules/shipped/testdata/esbuild.sh
#        (then go test ./rules/shipped -run TestGolden -update)
set -euo pipefail

OUT=$(cd "$(dirname "$0")" && pwd)/esbuild
ROOT=/tmp/shrinkrun-corpus/esbuild
TOOL=$ROOT/tool
mkdir -p "$OUT" "$TOOL"
. "$(dirname "$0")/caselib.sh"
if [ ! -x "$TOOL/node_modules/.bin/esbuild" ]; then
	(cd "$TOOL" && npm init -y >/dev/null && npm install --no-audit --no-fund esbuild@0.25 >/dev/null)
fi
export PATH=$TOOL/node_modules/.bin:/usr/bin:/bin NO_COLOR=1
unset FORCE_COLOR

app=$ROOT/app
rm -rf "$app" && mkdir -p "$app/src/pages" "$app/src/lib"
cd "$app"
for i in $(seq 1 24); do
	cat >"src/lib/util$i.js" <<JS
export function format$i(value) {
  return "util$i:" + String(value).padStart($i, "0");
}
export const LIMIT_$i = $i * 10;
JS
done
for i in $(seq 1 12); do
	uses=$(for j in $(seq 1 $((i + 6))); do echo $(( (i * j) % 24 + 1 )); done | sort -nu)
	{
		for k in $uses; do
			echo "import { format$k } from \"../lib/util$k.js\";"
		done
		echo "export default function page$i() {"
		echo "  return [$(for k in $uses; do printf 'format%s(%s), ' "$k" "$i"; done)];"
		echo "}"
		echo "const lazy = () => import(\"./shared$((i % 3)).js\");"
		echo "export { lazy };"
	} >"src/pages/page$i.js"
done
for i in 0 1 2; do
	echo "export const shared$i = () => \"shared $i\";" >"src/pages/shared$i.js"
done
entries=$(echo src/pages/page*.js)

run split "esbuild $entries --bundle --splitting --format=esm --outdir=dist"
run single "esbuild src/pages/page12.js --bundle --minify --outfile=dist/app.js"

cat >src/warn.js <<'JS'
const config = { mode: "dev", retries: 3, mode: "prod" };
export function check(x) {
  if (x === -0) return "negative zero";
  if (typeof x == "strng") return "never";
  return config.mode;
}
export function loop(items) {
  for (let item in items) { if (item = 3) return item; }
}
JS
run warnings "esbuild src/warn.js --bundle --outfile=dist/warn.js"

cat >src/broken.js <<'JS'
import { render } from "missing-renderer";
import { format1 } from "./lib/util1.js";
import { nothing } from "./lib/does-not-exist.js";
export const view = () => render(format1(nothing));
JS
run unresolved "esbuild src/broken.js --bundle --outfile=dist/broken.js"

cat >src/syntax.js <<'JS'
export function total(items) {
  let sum = 0
  for (const item of items) {
    sum += item.price *
  }
  return sum
}
JS
run syntax "esbuild src/syntax.js --bundle --outfile=dist/syntax.js"

{
	for i in $(seq 1 30); do
		echo "import { missing$i } from \"./gone/module$i.js\";"
	done
	echo "export default [$(for i in $(seq 1 30); do printf 'missing%s, ' "$i"; done)];"
} >src/many.js
run many_errors "esbuild src/many.js --bundle --outfile=dist/many.js"

run split_tail "esbuild $entries --bundle --splitting --format=esm --outdir=dist 2>&1 | tail -6"
run unresolved_merged "esbuild src/broken.js --bundle --outfile=dist/broken.js 2>&1"
run many_grep "esbuild src/many.js --bundle --outfile=dist/many.js 2>&1 | grep gone/module1"
