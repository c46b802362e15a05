#!/usr/bin/env bash
# session.sh DIR builds the project the session benchmark (TestSession,
# testdata/session.txt) works in, DIR/project: a small Go module with seeded
# bugs (failing tests in two packages, a go vet finding), a Rust crate with
# two failing tests, a check script and a log with a few errors among many
# lines, a history of 25 commits and uncommitted changes (a refactor in
# progress and refreshed rates: a diff of about 60 KB). Everything is
# fixed (content, authors, dates), so the same tools give the same output.
set -euo pipefail
dir=$1/project
export GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
export GIT_AUTHOR_NAME='Bench Author' GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME='Bench Committer' GIT_COMMITTER_EMAIL=committer@example.com
mkdir -p "$dir"/{ledger,parse,report,cmd/ledger,scripts,config,data,crate/src}
cd "$dir"
git init -q -b main

cat >go.mod <<'EOF'
module example.com/ledger

go 1.22
EOF
cat >README.md <<'EOF'
# ledger

A small double-entry ledger: accounts, transfers, balances, and a parser
for amounts written as "12.34 EUR". `go test ./...` runs the tests;
`scripts/check.sh` checks the configuration; the crate under crate/ holds
the rounding helpers shared with the billing service.

TODO: document the report package.
EOF

cat >ledger/ledger.go <<'EOF'
// Package ledger keeps accounts and moves money between them.
package ledger

import "errors"

// ErrOverdraft is returned when a transfer would take an account below zero.
var ErrOverdraft = errors.New("ledger: overdraft")

// Account holds a balance in cents.
type Account struct {
	Name    string
	Balance int64
}

// Ledger is a set of accounts by name.
type Ledger struct {
	accounts map[string]*Account
}

// New returns an empty ledger.
func New() *Ledger { return &Ledger{accounts: map[string]*Account{}} }

// Open adds an account with an opening balance.
func (l *Ledger) Open(name string, cents int64) *Account {
	a := &Account{Name: name, Balance: cents}
	l.accounts[name] = a
	return a
}

// Balance is an account's balance, 0 for an unknown account.
func (l *Ledger) Balance(name string) int64 {
	a, ok := l.accounts[name]
	if !ok {
		return 0
	}
	return a.Balance
}

// Transfer moves cents from one account to another.
func (l *Ledger) Transfer(from, to string, cents int64) error {
	src, dst := l.accounts[from], l.accounts[to]
	if src == nil || dst == nil {
		return errors.New("ledger: unknown account")
	}
	// BUG: allows the balance to reach -1.
	if src.Balance-cents < -1 {
		return ErrOverdraft
	}
	src.Balance -= cents
	dst.Balance += cents
	return nil
}

// Total is the sum of every balance.
func (l *Ledger) Total() int64 {
	var t int64
	for _, a := range l.accounts {
		t += a.Balance
	}
	return t
}
EOF

{
	cat <<'EOF'
package ledger

import "testing"

func TestTransfer(t *testing.T) {
	cases := []struct {
		name    string
		open    int64
		amount  int64
		wantErr bool
	}{
		{"simple", 100, 40, false},
		{"all of it", 100, 100, false},
		{"overdraft", 100, 101, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := New()
			l.Open("a", tc.open)
			l.Open("b", 0)
			err := l.Transfer("a", "b", tc.amount)
			if (err != nil) != tc.wantErr {
				t.Errorf("Transfer(%d) from %d: err = %v, want error %v", tc.amount, tc.open, err, tc.wantErr)
			}
		})
	}
}

func TestBalanceUnknown(t *testing.T) {
	l := New()
	if got := l.Balance("nobody"); got != -1 {
		t.Fatalf("Balance(nobody) = %d, want -1 for an unknown account", got)
	}
}
EOF
	for i in $(seq 1 40); do
		printf '\nfunc TestTotal%02d(t *testing.T) {\n\tl := New()\n\tl.Open("a", %d)\n\tl.Open("b", %d)\n\tif got := l.Total(); got != %d {\n\t\tt.Errorf("Total = %%d, want %d", got)\n\t}\n}\n' "$i" "$i" "$((i * 2))" "$((i * 3))" "$((i * 3))"
	done
} >ledger/ledger_test.go

cat >parse/parse.go <<'EOF'
// Package parse reads amounts written as "12.34 EUR".
package parse

import (
	"fmt"
	"strconv"
	"strings"
)

// Amount is a number of cents in a currency.
type Amount struct {
	Cents    int64
	Currency string
}

// ParseAmount reads "12.34 EUR" (a comma as the decimal mark too).
func ParseAmount(s string) (Amount, error) {
	num, cur, ok := strings.Cut(strings.TrimSpace(s), " ")
	if !ok || len(cur) != 3 {
		return Amount{}, fmt.Errorf("parse: %q: want NUMBER CURRENCY", s)
	}
	// BUG: the comma is not handled.
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return Amount{}, fmt.Errorf("parse: %q: %v", s, err)
	}
	return Amount{Cents: int64(f*100 + 0.5), Currency: cur}, nil
}
EOF
cat >parse/parse_test.go <<'EOF'
package parse

import "testing"

func TestParseAmount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"12.34 EUR", 1234},
		{"0.99 USD", 99},
		{"7 GBP", 700},
		{"12,50 EUR", 1250},
	} {
		got, err := ParseAmount(tc.in)
		if err != nil || got.Cents != tc.want {
			t.Errorf("ParseAmount(%q) = %d, %v; want %d", tc.in, got.Cents, err, tc.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	if _, err := ParseAmount("12.34"); err == nil {
		t.Error("ParseAmount accepted an amount without a currency")
	}
}
EOF

cat >report/report.go <<'EOF'
// Package report prints balances.
package report

import (
	"fmt"
	"io"
)

// TODO: sort the accounts by name.

// Line prints one account's balance.
func Line(w io.Writer, name string, cents int64) {
	fmt.Fprintf(w, "%-20s %10.2f\n", name, float64(cents)/100)
}
EOF

cat >cmd/ledger/main.go <<'EOF'
// Command ledger prints a demo ledger.
package main

import (
	"fmt"
	"os"

	"example.com/ledger/ledger"
	"example.com/ledger/report"
)

func main() {
	l := ledger.New()
	l.Open("cash", 10000)
	l.Open("bank", 250000)
	if err := l.Transfer("bank", "cash", 5000); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	report.Line(os.Stdout, "cash", l.Balance("cash"))
	report.Line(os.Stdout, "bank", l.Balance("bank"))
	fmt.Printf("total: %d accounts, %s cents\n", 2, l.Total())
}
EOF

cat >scripts/check.sh <<'EOF'
#!/usr/bin/env bash
# check.sh checks every configuration key against the schema.
n=0
for f in $(seq -w 1 240); do
	echo "checking config/part-$f.yaml ... ok"
	n=$((n + 1))
done
echo "config/app.yaml:12: unknown key 'timout' (did you mean 'timeout'?)"
echo "checked $((n + 1)) files: 1 error"
exit 1
EOF
chmod +x scripts/check.sh
printf 'name: ledger\nport: 8080\n' >config/app.yaml

awk 'BEGIN {
	for (i = 1; i <= 3000; i++) {
		if (i == 1234) printf "2025-01-01T10:%02d:%02dZ ERROR payment 4411 declined: card expired\n", (i / 60) % 60, i % 60
		else if (i == 2718) printf "2025-01-01T10:%02d:%02dZ ERROR ledger: overdraft on account 77\n", (i / 60) % 60, i % 60
		else printf "2025-01-01T10:%02d:%02dZ INFO request %d served in %d ms\n", (i / 60) % 60, i % 60, i, (i * 7) % 300
	}
}' >data/app.log

cat >crate/Cargo.toml <<'EOF'
[package]
name = "rounding"
version = "0.1.0"
edition = "2021"

[dependencies]
EOF
{
	cat <<'EOF'
//! Rounding helpers shared with the billing service.

/// Rounds cents to the nearest multiple of five (Swiss rounding).
pub fn round5(cents: i64) -> i64 {
    (cents + 2) / 5 * 5
}

/// Splits an amount into n parts that sum to it.
pub fn split(cents: i64, n: i64) -> Vec<i64> {
    vec![cents / n; n as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_up() {
        assert_eq!(round5(13), 15);
    }

    #[test]
    fn split_sums() {
        let parts = split(100, 3);
        assert_eq!(parts.iter().sum::<i64>(), 100, "parts of 100: {:?}", parts);
    }

    #[test]
    fn rounds_negative() {
        assert_eq!(round5(-13), -15);
    }
EOF
	for i in $(seq -w 1 60); do
		printf '\n    #[test]\n    fn keeps_%s() {\n        assert_eq!(round5(%d), %d);\n    }\n' "$i" "$((10#$i * 5))" "$((10#$i * 5))"
	done
	echo '}'
} >crate/src/lib.rs
(cd crate && CARGO_TARGET_DIR=$1/target cargo test --no-run -q >/dev/null 2>&1) || true
echo 'target/' >.gitignore
awk 'BEGIN { for (i = 1; i <= 1500; i++) printf "%04d,EUR,%d.%04d,2025-01-%02d\n", i, 1 + i % 3, (i * 7919) % 10000, 1 + i % 28 }' >data/rates.csv

# A history: 25 commits of small changes, on fixed dates.
git add -A
GIT_AUTHOR_DATE='@1735689600 +0000' GIT_COMMITTER_DATE='@1735689600 +0000' git commit -qm 'ledger: accounts, transfers and the amount parser'
for i in $(seq 1 24); do
	echo "- change $i: tighten the checks of part $i" >>CHANGES.md
	printf '\n// Rule %d of the report layout.\n' "$i" >>report/report.go
	git add -A
	d=$((1735689600 + i * 3600))
	GIT_AUTHOR_DATE="@$d +0000" GIT_COMMITTER_DATE="@$d +0000" git commit -qm "report: layout rule $i, and its entry in CHANGES.md"
done

# Uncommitted work: a refactor in progress across several files.
sed -i '/^func (l \*Ledger) Transfer/,/^}/ s/cents/amount/g' ledger/ledger.go
for i in $(seq 1 30); do
	printf '\n// Rounding note %d: amounts are kept in cents, never in floats, so that\n// sums are exact; report.Line converts for display only.\n' "$i" >>report/report.go
done
sed -i 's/want NUMBER CURRENCY/want a number and a currency/' parse/parse.go
# The rates refreshed: every third line changes, about 60 KB of diff.
awk -F, -v OFS=, 'NR % 3 == 0 { $3 = sprintf("%d.%04d", 1 + NR % 5, (NR * 104729) % 10000) } { print }' data/rates.csv >data/rates.new
mv data/rates.new data/rates.csv
