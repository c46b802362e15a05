#!/usr/bin/env bash
# wrapped.sh regenerates the go_test cases whose command is not go test
# itself: make test, npm test and npm run, a CI script. The table routes
# them to make's or npm test's rule, or to none, and go test's signature
# claims their output (the cases say "recognized_by: output"). Each uncut
# case has its twin, as in go.sh: CASE.test2json holds go test -json of
# the same packages, run directly right after it, for the reference reader.
#
# A module under a fixed path ($ROOT/shop), with a fresh GOCACHE, so the
# paths go prints are the same on every run and no result is "(cached)".
# Timings vary between runs; everything else is reproducible.
#
# Usage: bash rules/golang/testdata/wrapped.sh
#   (then go test ./rules/golang -run TestGolden -update)
set -euo pipefail

ROOT=/tmp/shrinkrun-corpus/go-wrapped
OUT=$(cd "$(dirname "$0")" && pwd)/go_test

unset GOFLAGS GOTRACEBACK GODEBUG GOTOOLCHAIN GOWORK CGO_ENABLED CI
export LC_ALL=C

if [ -d "$ROOT" ]; then chmod -R u+w "$ROOT"; fi
rm -rf "$ROOT"
mkdir -p "$ROOT/shop/cart" "$ROOT/shop/price"
export GOCACHE=$ROOT/.cache/build GOPATH=$ROOT/.cache/gopath GOMODCACHE=$ROOT/.cache/mod

# capture CASE COMMAND TWIN: runs COMMAND (a string, as typed) in
# $ROOT/shop and writes go_test/wrapped_CASE.{meta,stdout,stderr}; TWIN,
# when given, is the go test -json command whose events go to
# wrapped_CASE.test2json.
capture() {
	local name=wrapped_$1 cmd=$2 twin=${3:-} code=0
	(cd "$ROOT/shop" && bash -c "$cmd" >"$OUT/$name.stdout" 2>"$OUT/$name.stderr") || code=$?
	printf 'command: %s\nexit_code: %d\nrecognized_by: output\n' "$cmd" "$code" >"$OUT/$name.meta"
	printf '%-24s exit %3d  %s\n' "$name" "$code" "$cmd"
	if [ -n "$twin" ]; then
		(cd "$ROOT/shop" && bash -c "$twin" >"$OUT/$name.test2json" 2>/dev/null) || true
	fi
}

cd "$ROOT/shop"
printf 'module example.com/shop\n\ngo 1.26\n' >go.mod
cat >cart/cart.go <<'EOF'
// Package cart totals a shopping cart.
package cart

// Total is the sum of the prices, in cents.
func Total(prices []int) int {
	t := 0
	for _, p := range prices[1:] { // bug: skips the first
		t += p
	}
	return t
}

// Count is the number of items.
func Count(prices []int) int { return len(prices) }
EOF
cat >cart/cart_test.go <<'EOF'
package cart

import "testing"

func TestTotal(t *testing.T) {
	cases := []struct {
		name   string
		prices []int
		want   int
	}{
		{"one", []int{100}, 100},
		{"two", []int{100, 250}, 350},
		{"three", []int{1, 2, 3}, 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Total(c.prices); got != c.want {
				t.Errorf("Total(%v) = %d, want %d", c.prices, got, c.want)
			}
		})
	}
}

func TestCount(t *testing.T) {
	if got := Count([]int{1, 2}); got != 2 {
		t.Fatalf("Count = %d", got)
	}
}
EOF
cat >price/price.go <<'EOF'
// Package price applies discounts.
package price

// Discount takes percent off price, rounding down.
func Discount(price, percent int) int { return price * (100 - percent) / 100 }
EOF
cat >price/price_test.go <<'EOF'
package price

import "testing"

func TestDiscount(t *testing.T) {
	for percent := 0; percent <= 100; percent += 10 {
		if got := Discount(1000, percent); got != 1000-10*percent {
			t.Errorf("Discount(1000, %d) = %d", percent, got)
		}
	}
}
EOF
printf 'test:\n\tgo test ./...\n\ncheck:\n\tgo vet ./...\n\tgo test -count=1 -v ./cart\n' >Makefile
cat >package.json <<'EOF'
{
  "name": "shop",
  "version": "1.0.0",
  "private": true,
  "scripts": {
    "test": "go test ./...",
    "test:go": "go test -count=1 ./cart"
  }
}
EOF
cat >ci.sh <<'EOF'
#!/bin/sh
echo "== vet"
go vet ./...
echo "== tests"
go test -count=1 ./...
EOF

capture make 'make test' 'go test -json ./...'
capture make_check 'make check' 'go test -json -count=1 ./cart'
capture npm 'npm test' 'go test -json ./...'
capture npm_run 'npm run test:go' 'go test -json -count=1 ./cart'
capture script 'bash ci.sh' 'go test -json -count=1 ./...'
capture script_tail 'bash ci.sh 2>&1 | tail -12'
