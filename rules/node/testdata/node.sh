#!/usr/bin/env bash
# node.sh regenerates the corpus of the node family (vitest, jest, npm_test,
# tsc, eslint, npm_install) from real tools run on small projects written here.
#
# The tools are installed once, at pinned versions, from the npm registry into
# $ROOT/tools (and TypeScript 5 into $ROOT/ts5tools); every project is
# rewritten under a fixed path ($ROOT/<project>) on each run, so the paths the
# tools print are the same every time, and reaches the tools through a
# node_modules symlink, as a project with its own install would.
#
# The command is run exactly as an agent would type it, from the project
# directory, with stdout and stderr redirected to files. The environment is
# an agent's usual one: TERM=xterm-256color, no CI, NO_COLOR or FORCE_COLOR.
# Vitest colors its output whenever TERM is not "dumb", even into a pipe, so
# most vitest cases are colored, as an agent would get them; one case sets
# NO_COLOR=1 to cover the plain form. Jest, tsc and eslint color only on a
# terminal. npm reads the machine's own ~/.npmrc (here: audit and fund off).
# Timings vary between runs; everything else is reproducible.
#
# Usage: bash rules/node/testdata/node.sh [RULE/CASE ...]
#        (then go test ./rules/node -run TestGolden -update)
# With arguments (vitest/head, eslint/grep ...), only those cases are
# captured, so that adding a case leaves the others' timings alone; every
# project is still rewritten.
set -euo pipefail
ONLY=" $* "

ROOT=/tmp/shrinkrun-corpus/node
OUT=$(cd "$(dirname "$0")" && pwd)
TOOLS="vitest@4.1.12 jest@30.5.2 typescript@7.0.2 eslint@10.15.0 pnpm@10.34.9 yarn@1.22.22"

unset CI NO_COLOR FORCE_COLOR NODE_OPTIONS npm_config_loglevel
export TERM=xterm-256color
export PATH="$ROOT/tools/node_modules/.bin:$PATH"

# tools DIR PACKAGES...: installs PACKAGES into DIR unless a previous run did.
tools() {
	local dir=$1
	shift
	if [ "$(cat "$dir/.installed" 2>/dev/null)" != "$*" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		(cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund "$@" >/dev/null 2>&1)
		echo "$*" >"$dir/.installed"
	fi
}
tools "$ROOT/tools" $TOOLS
tools "$ROOT/ts5tools" typescript@5.9.3

# project NAME [TOOLS]: a fresh project directory whose node_modules is the
# shared install (tools or ts5tools).
project() {
	rm -rf "${ROOT:?}/$1"
	mkdir -p "$ROOT/$1/src"
	ln -s "$ROOT/${2:-tools}/node_modules" "$ROOT/$1/node_modules"
}

# wanted KEY: whether this run captures KEY (RULE/CASE, or RULE/CASE.ref
# for a case's machine-readable reference alone).
wanted() {
	[ "$ONLY" = "  " ] || [[ "$ONLY" == *" $1 "* ]]
}

# capture RULE CASE PROJECT COMMAND: runs COMMAND (a string, as typed) in
# $ROOT/PROJECT and writes CASE.meta, CASE.stdout and CASE.stderr under
# OUT/RULE. The meta names the project, so that the tests can tell which
# cases ran on the same code.
capture() {
	local rule=$1 name=$2 dir=$3 cmd=$4 code=0
	wanted "$rule/$name" || return 0
	mkdir -p "$OUT/$rule"
	(cd "$ROOT/$dir" && bash -c "$cmd" >"$OUT/$rule/$name.stdout" 2>"$OUT/$rule/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\nproject: %s\n' "$cmd" "$code" "$dir" >"$OUT/$rule/$name.meta"
	printf '%-12s %-18s exit %3d  %s\n' "$rule" "$name" "$code" "$cmd"
}

# reference RULE CASE PROJECT COMMAND: runs COMMAND, the machine-readable
# form of the case's own command, in $ROOT/PROJECT, for the tests'
# reference reader (reference_test.go) to be checked against. The report
# goes to CASE.json: COMMAND writes it to $REF (vitest's and jest's
# --outputFile, so that a test's own output cannot get in), or to stdout
# (eslint -f json); tsc has no JSON, and its plain form (--pretty false,
# one "file(line,col): error TSnnnn" line per error) goes to CASE.plain.
# Vitest's and jest's reports are reduced to what the reader compares
# (reference_json): their counts, each file's status and message, each
# test's names, status and the first line and project frames of its
# failure messages; their stack frames into node_modules and timings are
# dropped, which made them 170 KB for a run of 150 tests.
reference() {
	local rule=$1 name=$2 dir=$3 cmd=$4 ext=json
	wanted "$rule/$name" || wanted "$rule/$name.ref" || return 0
	case $rule in tsc) ext=plain ;; esac
	local ref="$OUT/$rule/$name.$ext"
	(cd "$ROOT/$dir" && REF="$ref.full" bash -c "$cmd" >"$ref" 2>/dev/null) || true
	if [ -e "$ref.full" ]; then
		reference_json <"$ref.full" >"$ref"
		rm -f "$ref.full"
	fi
	printf '%-12s %-18s %-9s %s\n' "$rule" "$name" "reference" "$cmd"
}

# reference_json reduces a vitest or jest JSON report (stdin) as
# reference describes.
reference_json() {
	node -e '
const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
const keep = (m) => m.split("\n").filter((l, i) => i === 0 || /^\s+at /.test(l) && !l.includes("node_modules") && !l.includes("(node:")).join("\n");
const out = {};
for (const [k, v] of Object.entries(r)) if (k.startsWith("num") || k === "success") out[k] = v;
out.testResults = r.testResults.map((t) => ({
  name: t.name, status: t.status, message: t.message ? keep(t.message) : "",
  assertionResults: t.assertionResults.map((a) => ({
    ancestorTitles: a.ancestorTitles, title: a.title, fullName: a.fullName, status: a.status,
    failureMessages: (a.failureMessages || []).map(keep),
  })),
}));
process.stdout.write(JSON.stringify(out, null, 1) + "\n");
'
}

# filler N: N lines of helper constants, so that the code after them sits at
# line numbers of two and three digits.
filler() {
	local i
	for ((i = 1; i <= $1; i++)); do
		printf 'export const LIMIT_%03d = %d\n' "$i" "$i"
	done
}

# --- vitest ---------------------------------------------------------------

# A passing project: three files, nested describes.
project vt-pass
cat >"$ROOT/vt-pass/package.json" <<'EOF'
{ "name": "vt-pass", "version": "1.0.0", "type": "module", "private": true,
  "scripts": { "test": "vitest run" } }
EOF
cat >"$ROOT/vt-pass/src/math.js" <<'EOF'
export const add = (a, b) => a + b
export const mul = (a, b) => a * b
export const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x))
EOF
for f in add mul clamp; do
	{
		echo "import { describe, it, expect } from 'vitest'"
		echo "import { $f } from './math.js'"
		echo "describe('$f', () => {"
		for i in 1 2 3 4 5 6; do
			case $f in
			add) echo "  it('adds $i and $i', () => { expect(add($i, $i)).toBe($((i + i))) })" ;;
			mul) echo "  it('multiplies $i by $i', () => { expect(mul($i, $i)).toBe($((i * i))) })" ;;
			clamp) echo "  it('clamps $i into 2..4', () => { expect(clamp($i, 2, 4)).toBe($((i < 2 ? 2 : i > 4 ? 4 : i))) })" ;;
			esac
		done
		echo "})"
	} >"$ROOT/vt-pass/src/$f.test.js"
done

# A failing project: assertion diffs, a nested describe, a thrown error,
# a skipped and a todo test, console output and a file that fails to load.
project vt-fail
cat >"$ROOT/vt-fail/package.json" <<'EOF'
{ "name": "vt-fail", "version": "1.0.0", "type": "module", "private": true,
  "scripts": { "test": "vitest run" } }
EOF
{
	filler 12
	cat <<'EOF'
export const add = (a, b) => a + b
export const mul = (a, b) => a * b + 1
export function parse(s) {
  if (!s.includes('=')) throw new TypeError(`cannot parse "${s}": missing '='`)
  const [k, v] = s.split('=')
  return { [k]: v }
}
EOF
} >"$ROOT/vt-fail/src/lib.js"
{
	echo "import { describe, it, expect, test } from 'vitest'"
	echo "import { add, mul, parse } from './lib.js'"
	filler 8 | sed 's/^export //'
	cat <<'EOF'
describe('add', () => {
  it('adds small numbers', () => {
    expect(add(1, 2)).toBe(3)
  })
  it('adds large numbers', () => {
    expect(add(2, 2)).toBe(5)
  })
})

describe('mul', () => {
  describe('nested', () => {
    test('objects differ', () => {
      expect({ id: 7, tags: ['a', 'b', 'c'], name: 'seven', owner: { name: 'ann', admin: false } })
        .toEqual({ id: 7, tags: ['a', 'b', 'd'], name: 'Seven', owner: { name: 'ann', admin: true } })
    })
  })
  test('multiplies', () => {
    console.log('computing', mul(2, 3))
    expect(mul(2, 3)).toBe(6)
  })
  test.skip('skipped one', () => {})
  test.todo('todo one')
})
EOF
} >"$ROOT/vt-fail/src/lib.test.js"
cat >"$ROOT/vt-fail/src/parse.test.js" <<'EOF'
import { it, expect } from 'vitest'
import { parse } from './lib.js'

it('parses a pair', () => { expect(parse('a=1')).toEqual({ a: '1' }) })
it('rejects garbage', () => {
  const out = parse('garbage')
  expect(out).toBeNull()
})
it('parses strings', () => { expect(parse('b=2')).toStrictEqual({ b: 2 }) })
EOF
cat >"$ROOT/vt-fail/src/broken.test.js" <<'EOF'
import { it } from 'vitest'
import { helper } from './missing-helper.js'

it('never runs', () => { helper() })
EOF
cat >"$ROOT/vt-fail/src/ok.test.js" <<'EOF'
import { it, expect } from 'vitest'
it('passes', () => { expect(1).toBe(1) })
it('passes again', () => { expect([1, 2]).toHaveLength(2) })
EOF

# Many failures: 5 files of 28 failing and 2 passing tests each.
project vt-many
echo '{ "name": "vt-many", "version": "1.0.0", "type": "module", "private": true }' >"$ROOT/vt-many/package.json"
for f in alpha beta gamma delta epsilon; do
	{
		echo "import { describe, it, expect } from 'vitest'"
		echo "describe('$f', () => {"
		for i in $(seq 1 30); do
			if ((i % 15 == 0)); then
				echo "  it('case $i holds', () => { expect($i).toBe($i) })"
			else
				echo "  it('case $i matches its table entry', () => { expect({ n: $i, name: '$f-$i' }).toEqual({ n: $((i + 1)), name: '$f-$i' }) })"
			fi
		done
		echo "})"
	} >"$ROOT/vt-many/src/$f.test.js"
done

# An unhandled rejection: every test passes, the run fails.
project vt-unhandled
echo '{ "name": "vt-unhandled", "version": "1.0.0", "type": "module", "private": true }' >"$ROOT/vt-unhandled/package.json"
cat >"$ROOT/vt-unhandled/src/timer.test.js" <<'EOF'
import { it, expect } from 'vitest'

function later() {
  return Promise.reject(new Error('connection reset by peer'))
}

it('starts a request and forgets it', () => {
  later()
  expect(true).toBe(true)
})
it('waits', async () => { await new Promise((r) => setTimeout(r, 20)) })
EOF

# One error thrown by several tests: vitest reports it once, under the
# FAIL lines of all of them.
project vt-shared
echo '{ "name": "vt-shared", "version": "1.0.0", "type": "module", "private": true }' >"$ROOT/vt-shared/package.json"
cat >"$ROOT/vt-shared/src/db.test.js" <<'EOF'
import { describe, it } from 'vitest'

const down = new Error('database is down')
describe('db', () => {
  it('reads', () => { throw down })
  it('writes', () => { throw down })
  it('deletes', () => { throw down })
})
EOF

# Many failures in one file, for a pipe into head: the listing (× lines)
# comes first, the reports last, and head cuts them off. Some test names
# hold vitest's own separator, " > ".
project vt-head
echo '{ "name": "vt-head", "version": "1.0.0", "type": "module", "private": true }' >"$ROOT/vt-head/package.json"
cat >"$ROOT/vt-head/src/parse.test.js" <<'EOF'
import { describe, it, expect } from 'vitest'

describe('parser', () => {
  describe('numbers', () => {
    for (let i = 0; i < 20; i++) it(`case ${i} > rejects`, () => { expect(i).toBe(-1) })
  })
  it.each([[1, 2], [3, 4]])('adds %i + %i', (a, b) => { expect(a + b).toBe(0) })
})
it('throws a string', () => { throw 'plain string thrown' })
it('passes', () => { expect(1).toBe(1) })
it.skip('skipped', () => {})
EOF

# A deep failure: the error is thrown five calls down the project's own
# source, so the test file's frame comes after four others (issue 21: the
# blocks kept three frames and dropped the one in the test file).
project vt-deep
echo '{ "name": "vt-deep", "version": "1.0.0", "type": "module", "private": true }' >"$ROOT/vt-deep/package.json"
mkdir -p "$ROOT/vt-deep/src/core" "$ROOT/vt-deep/src/core/tests"
cat >"$ROOT/vt-deep/src/core/assert.js" <<'EOF'
export function assertShape(node, kind) {
  if (node.kind !== kind) throw new TypeError(`expected a ${kind} node, got ${node.kind}`)
  return node
}
EOF
cat >"$ROOT/vt-deep/src/core/check.js" <<'EOF'
import { assertShape } from './assert.js'
export function checkField(field) {
  return assertShape(field, 'field')
}
EOF
cat >"$ROOT/vt-deep/src/core/schema.js" <<'EOF'
import { checkField } from './check.js'
export function schemaOf(fields) {
  return fields.map((f) => checkField(f))
}
EOF
cat >"$ROOT/vt-deep/src/core/compile.js" <<'EOF'
import { schemaOf } from './schema.js'
export function compile(source) {
  const fields = source.split(',').map((name) => ({ kind: name.startsWith('@') ? 'directive' : 'field', name }))
  return { schema: schemaOf(fields) }
}
EOF
{
	echo "import { describe, it, expect } from 'vitest'"
	echo "import { compile } from '../compile.js'"
	filler 20 | sed 's/^export //'
	cat <<'EOF'
describe('compile', () => {
  it('compiles plain fields', () => {
    expect(compile('a,b').schema).toHaveLength(2)
  })
  it('compiles a directive', () => {
    const out = compile('a,@b')
    expect(out.schema).toHaveLength(2)
  })
})
EOF
} >"$ROOT/vt-deep/src/core/tests/compile.test.js"

capture vitest pass vt-pass 'npx vitest run'
capture vitest pass_verbose vt-pass 'vitest run --reporter=verbose'
capture vitest fail vt-fail 'npx vitest run'
capture vitest fail_nocolor vt-fail 'NO_COLOR=1 npx vitest run 2>&1'
capture vitest fail_verbose vt-fail 'vitest run --reporter=verbose'
capture vitest filter vt-fail 'vitest run src/parse.test.js'
capture vitest many vt-many 'npx vitest run'
capture vitest unhandled vt-unhandled 'vitest run'
capture vitest no_tests vt-pass 'vitest run nomatch'
capture vitest shared_error vt-shared 'vitest run'
capture vitest head vt-head 'npx vitest run src/parse.test.js 2>&1 | head -30'
capture vitest head_reports vt-head 'npx vitest run src/parse.test.js 2>&1 | head -90'
capture vitest head_verbose vt-head 'vitest run --reporter=verbose 2>&1 | head -24'

# A test that prints lines like vitest's summary, through console.log and
# straight to stdout, and fails: the block must not count their passes.
project vt-imitate
echo '{ "name": "vt-imitate", "version": "1.0.0", "type": "module", "private": true }' >"$ROOT/vt-imitate/package.json"
cat >"$ROOT/vt-imitate/src/report.test.js" <<'EOF'
import { it, expect } from 'vitest'

it('prints a summary of its own', () => {
  console.log('\n Test Files  4 passed (4)\n      Tests  40 passed (40)\n')
  process.stdout.write(' Test Files  5 passed (5)\n      Tests  50 passed (50)\n')
  expect(1).toBe(2)
})
it('passes', () => { expect(1).toBe(1) })
EOF
cat >"$ROOT/vt-imitate/src/ok.test.js" <<'EOF'
import { it, expect } from 'vitest'
it('passes', () => { expect(1).toBe(1) })
EOF

capture vitest imitate vt-imitate 'npx vitest run'
capture vitest imitate_head vt-imitate 'npx vitest run 2>&1 | head -12'
capture vitest imitate_grep vt-imitate 'npx vitest run 2>&1 | grep Tests'

# The same outputs cut as agents cut them: tails of several lengths (one
# starting inside a failure's report), heads, a grep of the failure lines
# and one of the noise left out.
capture vitest tail_30 vt-fail 'npx vitest run 2>&1 | tail -30'
capture vitest tail_12 vt-fail 'npx vitest run 2>&1 | tail -12'
capture vitest tail_stdout vt-fail 'npx vitest run | tail -4'
capture vitest head_40 vt-fail 'npx vitest run 2>&1 | head -40'
capture vitest grep_fail vt-fail "npx vitest run 2>&1 | grep -E 'FAIL|❯|Tests'"
capture vitest grep_noise vt-fail "NO_COLOR=1 npx vitest run 2>&1 | grep -v -E '✓|^ *[0-9]*\|'"
capture vitest many_tail vt-many 'npx vitest run 2>&1 | tail -40'
capture vitest pass_tail vt-pass 'npx vitest run 2>&1 | tail -6'
capture vitest pass_head vt-pass 'npx vitest run | head -8'
capture vitest deep vt-deep 'npx vitest run'

# The machine-readable reports of the uncut cases.
reference vitest pass vt-pass 'npx vitest run --reporter=json --outputFile="$REF"'
reference vitest pass_verbose vt-pass 'vitest run --reporter=json --outputFile="$REF"'
reference vitest fail vt-fail 'npx vitest run --reporter=json --outputFile="$REF"'
reference vitest fail_nocolor vt-fail 'NO_COLOR=1 npx vitest run --reporter=json --outputFile="$REF"'
reference vitest fail_verbose vt-fail 'vitest run --reporter=json --outputFile="$REF"'
reference vitest filter vt-fail 'vitest run src/parse.test.js --reporter=json --outputFile="$REF"'
reference vitest many vt-many 'npx vitest run --reporter=json --outputFile="$REF"'
reference vitest unhandled vt-unhandled 'vitest run --reporter=json --outputFile="$REF"'
reference vitest shared_error vt-shared 'vitest run --reporter=json --outputFile="$REF"'
reference vitest imitate vt-imitate 'npx vitest run --reporter=json --outputFile="$REF"'
reference vitest deep vt-deep 'npx vitest run --reporter=json --outputFile="$REF"'

# --- jest -----------------------------------------------------------------

project jt-pass
cat >"$ROOT/jt-pass/package.json" <<'EOF'
{ "name": "jt-pass", "version": "1.0.0", "private": true, "scripts": { "test": "jest" } }
EOF
cat >"$ROOT/jt-pass/src/math.js" <<'EOF'
exports.add = (a, b) => a + b
exports.mul = (a, b) => a * b
exports.clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x))
EOF
for f in add mul clamp; do
	{
		echo "const { $f } = require('./math')"
		echo "describe('$f', () => {"
		for i in 1 2 3 4 5 6; do
			case $f in
			add) echo "  it('adds $i and $i', () => { expect(add($i, $i)).toBe($((i + i))) })" ;;
			mul) echo "  it('multiplies $i by $i', () => { expect(mul($i, $i)).toBe($((i * i))) })" ;;
			clamp) echo "  it('clamps $i into 2..4', () => { expect(clamp($i, 2, 4)).toBe($((i < 2 ? 2 : i > 4 ? 4 : i))) })" ;;
			esac
		done
		echo "})"
	} >"$ROOT/jt-pass/src/$f.test.js"
done

project jt-fail
cat >"$ROOT/jt-fail/package.json" <<'EOF'
{ "name": "jt-fail", "version": "1.0.0", "private": true, "scripts": { "test": "jest" } }
EOF
{
	filler 12 | sed 's/^export const \([A-Z_0-9]*\) = /exports.\1 = /'
	cat <<'EOF'
exports.add = (a, b) => a + b
exports.mul = (a, b) => a * b + 1
exports.parse = function parse(s) {
  if (!s.includes('=')) throw new TypeError(`cannot parse "${s}": missing '='`)
  const [k, v] = s.split('=')
  return { [k]: v }
}
EOF
} >"$ROOT/jt-fail/src/lib.js"
{
	echo "const { add, mul } = require('./lib')"
	filler 8 | sed 's/^export //'
	cat <<'EOF'
describe('add', () => {
  it('adds small numbers', () => {
    expect(add(1, 2)).toBe(3)
  })
  it('adds large numbers', () => {
    expect(add(2, 2)).toBe(5)
  })
})

describe('mul', () => {
  describe('nested', () => {
    test('objects differ', () => {
      expect({ id: 7, tags: ['a', 'b', 'c'], name: 'seven', owner: { name: 'ann', admin: false } })
        .toEqual({ id: 7, tags: ['a', 'b', 'd'], name: 'Seven', owner: { name: 'ann', admin: true } })
    })
  })
  test('multiplies', () => {
    console.log('computing', mul(2, 3))
    expect(mul(2, 3)).toBe(6)
  })
  test.skip('skipped one', () => {})
  test.todo('todo one')
})
EOF
} >"$ROOT/jt-fail/src/lib.test.js"
cat >"$ROOT/jt-fail/src/parse.test.js" <<'EOF'
const { parse } = require('./lib')

it('parses a pair', () => { expect(parse('a=1')).toEqual({ a: '1' }) })
it('rejects garbage', () => {
  const out = parse('garbage')
  expect(out).toBeNull()
})
it('parses strings', () => { expect(parse('b=2')).toStrictEqual({ b: 2 }) })
EOF
cat >"$ROOT/jt-fail/src/broken.test.js" <<'EOF'
const { helper } = require('./missing-helper')

it('never runs', () => { helper() })
EOF
cat >"$ROOT/jt-fail/src/ok.test.js" <<'EOF'
it('passes', () => { expect(1).toBe(1) })
it('passes again', () => { expect([1, 2]).toHaveLength(2) })
EOF
# Over jest's 5 s threshold, so its FAIL line carries the duration.
cat >"$ROOT/jt-fail/src/slow.test.js" <<'EOF'
it('waits for the queue to drain', async () => {
  await new Promise((r) => setTimeout(r, 5200))
  expect('pending').toBe('drained')
}, 10000)
EOF

# Many failures in more than 20 suites, so jest repeats them under "Summary
# of all failing tests".
project jt-many
echo '{ "name": "jt-many", "version": "1.0.0", "private": true, "scripts": { "test": "jest" } }' >"$ROOT/jt-many/package.json"
for n in $(seq -w 1 24); do
	{
		echo "describe('module $n', () => {"
		for i in 1 2 3 4 5 6 7; do
			if ((i == 7)); then
				echo "  it('case $i holds', () => { expect($i).toBe($i) })"
			else
				echo "  it('case $i matches', () => { expect({ n: $i }).toEqual({ n: $((i + 1)) }) })"
			fi
		done
		echo "})"
	} >"$ROOT/jt-many/src/m$n.test.js"
done

# Many failures in one file, for a pipe into head: jest lists every test
# of a single file (its describe blocks as headings, failures marked ✕)
# before the reports, and head cuts the reports off.
project jt-head
cat >"$ROOT/jt-head/package.json" <<'EOF'
{ "name": "jt-head", "version": "1.0.0", "private": true, "scripts": { "test": "jest" } }
EOF
cat >"$ROOT/jt-head/src/parse.test.js" <<'EOF'
describe('parser', () => {
  describe('numbers', () => {
    for (let i = 0; i < 20; i++) it(`case ${i} › rejects`, () => { expect(i).toBe(-1) })
  })
  it.each([[1, 2], [3, 4]])('adds %i + %i', (a, b) => { expect(a + b).toBe(0) })
})
it('throws a string', () => { throw 'plain string thrown' })
it('passes', () => { expect(1).toBe(1) })
it.skip('skipped', () => {})
EOF

# The deep failure of vt-deep, under jest.
project jt-deep
echo '{ "name": "jt-deep", "version": "1.0.0", "private": true }' >"$ROOT/jt-deep/package.json"
mkdir -p "$ROOT/jt-deep/src/core/tests"
for f in assert check schema compile; do
	sed -e 's/^import { \(.*\) } from \(.*\)$/const { \1 } = require(\2)/' -e 's/^export function \([a-zA-Z]*\)/module.exports.\1 = function \1/' \
		"$ROOT/vt-deep/src/core/$f.js" >"$ROOT/jt-deep/src/core/$f.js"
done
sed -e '/^import .* from .vitest.$/d' -e 's/^import { \(.*\) } from \(.*\)$/const { \1 } = require(\2)/' \
	"$ROOT/vt-deep/src/core/tests/compile.test.js" >"$ROOT/jt-deep/src/core/tests/compile.test.js"

capture jest pass jt-pass 'npx jest'
capture jest pass_verbose jt-pass 'jest --verbose'
capture jest fail jt-fail 'npx jest'
capture jest fail_verbose jt-fail 'jest --verbose'
capture jest single_file jt-fail 'jest src/parse.test.js'
capture jest many jt-many 'npx jest'
capture jest no_tests jt-pass 'jest nomatch'
capture jest head jt-head 'npx jest --ci src/parse.test.js 2>&1 | head -40'
capture jest head_reports jt-head 'npx jest --ci src/parse.test.js 2>&1 | head -100'

# A test that prints lines like jest's summary, through console.log and
# straight to both streams, and fails.
project jt-imitate
echo '{ "name": "jt-imitate", "version": "1.0.0", "private": true }' >"$ROOT/jt-imitate/package.json"
cat >"$ROOT/jt-imitate/src/report.test.js" <<'EOF'
it('prints a summary of its own', () => {
  console.log('Tests:       40 passed, 40 total')
  process.stdout.write('Test Suites: 5 passed, 5 total\nTests:       50 passed, 50 total\n')
  process.stderr.write('PASS src/fake.test.js\nTest Suites: 6 passed, 6 total\nTests:       60 passed, 60 total\n')
  expect(1).toBe(2)
})
it('passes', () => { expect(1).toBe(1) })
EOF
cat >"$ROOT/jt-imitate/src/ok.test.js" <<'EOF'
it('passes', () => { expect(1).toBe(1) })
EOF

capture jest imitate jt-imitate 'npx jest'
capture jest imitate_all jt-imitate 'npx jest 2>&1'
capture jest imitate_head jt-imitate 'npx jest 2>&1 | head -8'

capture jest fail_all jt-fail 'npx jest 2>&1'
capture jest tail_30 jt-fail 'npx jest 2>&1 | tail -30'
capture jest tail_8 jt-fail 'npx jest 2>&1 | tail -8'
capture jest tail_80 jt-fail 'npx jest 2>&1 | tail -80'
capture jest tail_stdout jt-fail 'npx jest | tail -5'
capture jest head_30 jt-fail 'npx jest 2>&1 | head -30'
capture jest grep_fail jt-fail "npx jest 2>&1 | grep -E 'FAIL|●|Tests:'"
capture jest grep_noise jt-fail "npx jest 2>&1 | grep -v -E ' \| |^\s*$'"
capture jest many_tail jt-many 'npx jest 2>&1 | tail -40'
capture jest pass_tail jt-pass 'npx jest 2>&1 | tail -5'
capture jest deep jt-deep 'npx jest'

reference jest pass jt-pass 'npx jest --json --outputFile="$REF"'
reference jest pass_verbose jt-pass 'jest --verbose --json --outputFile="$REF"'
reference jest fail jt-fail 'npx jest --json --outputFile="$REF"'
reference jest fail_all jt-fail 'npx jest --json --outputFile="$REF"'
reference jest fail_verbose jt-fail 'jest --verbose --json --outputFile="$REF"'
reference jest single_file jt-fail 'jest src/parse.test.js --json --outputFile="$REF"'
reference jest many jt-many 'npx jest --json --outputFile="$REF"'
reference jest imitate jt-imitate 'npx jest --json --outputFile="$REF"'
reference jest imitate_all jt-imitate 'npx jest --json --outputFile="$REF"'
reference jest deep jt-deep 'npx jest --json --outputFile="$REF"'

# --- npm test and its kin ---------------------------------------------------

project nt-node
cat >"$ROOT/nt-node/package.json" <<'EOF'
{ "name": "nt-node", "version": "1.0.0", "private": true, "scripts": { "test": "node --test" } }
EOF
cat >"$ROOT/nt-node/src/math.test.js" <<'EOF'
const test = require('node:test')
const assert = require('node:assert')

test('adds', () => { assert.strictEqual(1 + 1, 2) })
test('adds wrong', () => { assert.strictEqual(1 + 1, 3) })
test('deep', () => { assert.deepStrictEqual({ a: [1, 2] }, { a: [1, 3] }) })
EOF
project nt-none
echo '{ "name": "nt-none", "version": "1.0.0", "private": true }' >"$ROOT/nt-none/package.json"

capture npm_test vitest_fail vt-fail 'npm test'
capture npm_test jest_pass jt-pass 'npm run test'
capture npm_test jest_many jt-many 'npm test'
capture npm_test pnpm_jest_fail jt-fail 'pnpm test'
capture npm_test yarn_vitest_pass vt-pass 'yarn test'
capture npm_test yarn_jest_fail jt-fail 'yarn test'
capture npm_test node_test_fail nt-node 'npm test'
capture npm_test missing_script nt-none 'npm test'
capture npm_test jest_head jt-head 'npm test -- --ci src/parse.test.js 2>&1 | head -40'
capture npm_test vitest_tail vt-fail 'npm test 2>&1 | tail -30'
capture npm_test jest_tail jt-fail 'npm test 2>&1 | tail -30'
capture npm_test jest_grep jt-fail "npm test 2>&1 | grep -E 'FAIL|●|Tests:'"
capture npm_test pnpm_tail jt-fail 'pnpm test 2>&1 | tail -15'
capture npm_test node_tail nt-node 'npm test 2>&1 | tail -20'
capture npm_test node_head nt-node 'npm test | head -20'
capture npm_test node_grep nt-node "npm test 2>&1 | grep 'not ok'"

# --- tsc ------------------------------------------------------------------

project ts-fail
cat >"$ROOT/ts-fail/tsconfig.json" <<'EOF'
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext" },
  "include": ["src"] }
EOF
{
	filler 9 | sed 's/^export const \(.*\) = \(.*\)/export const \1: number = \2/'
	cat <<'EOF'
export interface User { id: number; name: string; owner: { admin: boolean } }
export const count: number = "seven";
export function greet(u: User): string { return "hi " + u.nme }
greet({ id: 1, name: "ann", owner: { admin: "yes" } });
export const total = missingTotal + 1;
EOF
} >"$ROOT/ts-fail/src/user.ts"
cat >"$ROOT/ts-fail/src/api.ts" <<'EOF'
import { fetchAll } from "./missing-client.js";
import type { User } from "./user.js";

export async function load(): Promise<User[]> {
  const users: User[] = await fetchAll();
  return users.map((u) => ({ ...u, id: String(u.id) }));
}
EOF
# The same project checked by TypeScript 5, whose tsc exits 2, not 1.
project ts5-fail ts5tools
cp "$ROOT/ts-fail/tsconfig.json" "$ROOT/ts5-fail/"
cp "$ROOT/ts-fail/src/"*.ts "$ROOT/ts5-fail/src/"

project ts-many
cat >"$ROOT/ts-many/tsconfig.json" <<'EOF'
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext" },
  "include": ["src"] }
EOF
for f in a b c d e; do
	for i in $(seq 1 30); do
		echo "export const v$i: number = \"value $i\";"
	done >"$ROOT/ts-many/src/$f.ts"
done

project ts-pass
cp "$ROOT/ts-many/tsconfig.json" "$ROOT/ts-pass/"
echo 'export const ok: number = 1;' >"$ROOT/ts-pass/src/ok.ts"

project ts-config
cat >"$ROOT/ts-config/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "strictNulls": true
  },
  "include": ["lib"]
}
EOF

# Errors in many files, for a pipe into tail: what is left is the end of
# the last file's diagnostics (starting inside a code excerpt), the Found
# line and the Errors  Files table.
project ts-tail
cp "$ROOT/ts-many/tsconfig.json" "$ROOT/ts-tail/"
for n in 0 1 2 3 4 5 6 7; do
	cat >"$ROOT/ts-tail/src/mod$n.ts" <<EOF
export const count$n: number = "seven";
export function greet$n(u: { name: string }): string { return "hi " + u.nme; }
export const total$n = missingTotal$n + 1;
import { nope$n } from "./missing$n.js";
export function add$n(a, b) { return a + b; }
EOF
done

capture tsc errors ts-fail 'npx tsc'
capture tsc errors_pretty ts-fail 'tsc --pretty'
capture tsc errors_ts5 ts5-fail 'npx tsc --noEmit'
capture tsc errors_ts5_pretty ts5-fail 'npx tsc --noEmit --pretty'
capture tsc many ts-many 'tsc -p tsconfig.json'
capture tsc clean ts-pass 'tsc --noEmit'
capture tsc config_error ts-config 'npx tsc'
capture tsc tail ts-tail 'npx tsc --pretty | tail -40'

# Errors in more files than a tail keeps of the Errors  Files table.
project ts-wide
cp "$ROOT/ts-many/tsconfig.json" "$ROOT/ts-wide/"
for n in $(seq -w 1 40); do
	printf 'export const a%s: number = "x";\nexport const b%s: string = 1;\n' "$n" "$n" >"$ROOT/ts-wide/src/w$n.ts"
done

capture tsc wide ts-wide 'npx tsc --pretty'
capture tsc wide_tail ts-wide 'npx tsc --pretty 2>&1 | tail -30'
capture tsc tail_12 ts-tail 'npx tsc --pretty | tail -12'
capture tsc head_20 ts-tail 'npx tsc --pretty | head -20'
capture tsc grep_code ts-tail "npx tsc --pretty | grep TS2307"
capture tsc grep_noise ts-tail "npx tsc --pretty | grep -v '~'"
capture tsc plain_tail ts-many 'npx tsc | tail -5'
capture tsc plain_head ts-many 'npx tsc 2>&1 | head -5'
capture tsc plain_grep ts-fail 'npx tsc | grep TS2322'

reference tsc errors ts-fail 'npx tsc --pretty false'
reference tsc errors_pretty ts-fail 'tsc --pretty false'
reference tsc errors_ts5 ts5-fail 'npx tsc --noEmit --pretty false'
reference tsc errors_ts5_pretty ts5-fail 'npx tsc --noEmit --pretty false'
reference tsc many ts-many 'tsc -p tsconfig.json --pretty false'
reference tsc clean ts-pass 'tsc --noEmit --pretty false'
reference tsc config_error ts-config 'npx tsc --pretty false'
reference tsc wide ts-wide 'npx tsc --pretty false'

# --- eslint ---------------------------------------------------------------

eslint_config() {
	cat >"$ROOT/$1/eslint.config.js" <<'EOF'
export default [
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { console: "readonly" } },
    rules: {
      "no-unused-vars": "error", "no-undef": "error", "prefer-const": "error",
      "no-console": "warn", "eqeqeq": "warn", "semi": ["warn", "never"],
    },
  },
];
EOF
	echo "{ \"name\": \"$1\", \"version\": \"1.0.0\", \"type\": \"module\", \"private\": true }" >"$ROOT/$1/package.json"
}
project es-fail
eslint_config es-fail
{
	filler 10
	cat <<'EOF'
let retries = 3
const unused = 2
console.log(retries == 3);
fetchAll()
EOF
} >"$ROOT/es-fail/src/app.js"
echo 'export function log(a) { console.log(a) }' >"$ROOT/es-fail/src/log.js"
echo 'export const ok = 1' >"$ROOT/es-fail/src/ok.js"
printf 'export const = 1\n' >"$ROOT/es-fail/src/broken.js"

project es-warn
eslint_config es-warn
echo 'export function log(a) { console.log(a) }' >"$ROOT/es-warn/src/log.js"

project es-many
eslint_config es-many
for f in a b c d e; do
	for i in $(seq 1 30); do
		echo "const unused_$i = $i"
	done >"$ROOT/es-many/src/$f.js"
done

# Errors after many warnings in one file: the errors are kept first.
project es-mixed
eslint_config es-mixed
{
	for i in $(seq 1 30); do
		echo "console.log($i)"
	done
	echo "undefinedCall()"
	echo "let never = 1"
	echo "export { never }"
} >"$ROOT/es-mixed/src/noisy.js"

# Undefined names in several files, for a pipe into grep: the rows that
# are left have no file path above them.
project es-grep
eslint_config es-grep
for f in api db log ui; do
	for i in $(seq 1 15); do
		echo "export const v$i = helper$i() + 1"
	done >"$ROOT/es-grep/src/$f.js"
done
echo 'export const ok = 1;' >>"$ROOT/es-grep/src/ui.js"

project es-pass
eslint_config es-pass
sed -i 's/^];$/]/' "$ROOT/es-pass/eslint.config.js"
echo 'export const ok = 1' >"$ROOT/es-pass/src/ok.js"

project es-noconfig
echo 'export const ok = 1' >"$ROOT/es-noconfig/src/ok.js"

capture eslint problems es-fail 'npx eslint .'
capture eslint quiet es-fail 'eslint --quiet src'
capture eslint max_warnings es-warn 'eslint --max-warnings 0 .'
capture eslint many es-many 'npx eslint src'
capture eslint clean es-pass 'eslint .'
capture eslint errors_first es-mixed 'eslint src'
capture eslint no_config es-noconfig 'npx eslint src'
capture eslint grep es-grep 'npx eslint src | grep no-undef'
capture eslint tail_5 es-fail 'npx eslint . | tail -5'
capture eslint head_8 es-fail 'npx eslint . | head -8'
capture eslint grep_error es-fail 'npx eslint . | grep error'
capture eslint grep_noise es-fail 'npx eslint . | grep -v warning'
capture eslint many_tail es-many 'npx eslint src | tail -20'
capture eslint many_head es-many 'npx eslint src 2>&1 | head -20'

reference eslint problems es-fail 'npx eslint . -f json'
reference eslint quiet es-fail 'eslint --quiet src -f json'
reference eslint max_warnings es-warn 'eslint --max-warnings 0 . -f json'
reference eslint many es-many 'npx eslint src -f json'
reference eslint clean es-pass 'eslint . -f json'
reference eslint errors_first es-mixed 'eslint src -f json'

# --- npm install and its kin --------------------------------------------------

# dependencies PROJECT JSON: a project whose package.json has these
# dependencies and no node_modules of its own.
dependencies() {
	rm -rf "${ROOT:?}/$1"
	mkdir -p "$ROOT/$1"
	printf '{ "name": "%s", "version": "1.0.0", "private": true, "dependencies": %s }\n' "$1" "$2" >"$ROOT/$1/package.json"
}
dependencies ni-express '{ "express": "5.1.0", "lodash": "4.17.21" }'
capture npm_install install ni-express 'npm install'
capture npm_install up_to_date ni-express 'npm install'
rm -rf "$ROOT/ni-express/node_modules"
capture npm_install ci ni-express 'npm ci'
dependencies ni-scripts '{ "esbuild": "0.25.0" }'
capture npm_install install_scripts ni-scripts 'npm install'
dependencies ni-engine '{}'
capture npm_install engine ni-engine 'npm install undici@8.0.3'
dependencies ni-missing '{}'
capture npm_install not_found ni-missing 'npm install shrinkrun-no-such-package-zz9'
capture npm_install ci_no_lock ni-missing 'npm ci'
dependencies ni-conflict '{ "eslint": "10.15.0" }'
capture npm_install eresolve ni-conflict 'npm install eslint-plugin-react@7.37.5'
dependencies ni-pnpm '{ "express": "5.1.0", "lodash": "4.17.21" }'
capture npm_install pnpm ni-pnpm 'pnpm install'
dependencies ni-pnpm-scripts '{ "esbuild": "0.25.0", "jest": "30.5.2" }'
capture npm_install pnpm_build_scripts ni-pnpm-scripts 'pnpm install'
dependencies ni-pnpm-missing '{ "shrinkrun-no-such-package-zz9": "1.0.0" }'
capture npm_install pnpm_not_found ni-pnpm-missing 'pnpm install'

capture npm_install eresolve_tail ni-conflict 'npm install eslint-plugin-react@7.37.5 2>&1 | tail -5'
capture npm_install eresolve_head ni-conflict 'npm install eslint-plugin-react@7.37.5 2>&1 | head -4'
capture npm_install eresolve_grep ni-conflict "npm install eslint-plugin-react@7.37.5 2>&1 | grep 'npm error'"
capture npm_install not_found_tail ni-missing 'npm install shrinkrun-no-such-package-zz9 2>&1 | tail -3'
dependencies ni-scripts '{ "esbuild": "0.25.0" }'
capture npm_install install_scripts_noise ni-scripts "npm install 2>&1 | grep -v 'npm warn'"
dependencies ni-engine '{}'
capture npm_install engine_tail ni-engine 'npm install undici@8.0.3 2>&1 | tail -4'
dependencies ni-pnpm '{ "express": "5.1.0", "lodash": "4.17.21" }'
capture npm_install pnpm_tail ni-pnpm 'pnpm install | tail -6'
dependencies ni-pnpm-scripts '{ "esbuild": "0.25.0", "jest": "30.5.2" }'
capture npm_install pnpm_head ni-pnpm-scripts 'pnpm install 2>&1 | head -12'
