package cargo_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// cargoCases are cargo build and cargo clippy in string mode: Want is the
// rule, or "" for a pass-through, and Explain the exact --explain text.
var cargoCases = []ruletest.ExplainedCase{
	{In: "cargo build", Want: CargoBuild, Explain: ""},
	{In: "cargo build --release", Want: CargoBuild, Explain: ""},
	{In: "cargo +stable build --workspace --all-targets", Want: CargoBuild, Explain: ""},
	{In: "cargo build -q 2>&1 | head -50", Want: CargoBuild, Explain: ""},
	{In: "RUSTFLAGS=-Dwarnings cargo build", Want: CargoBuild, Explain: ""},
	{In: "cargo clippy", Want: CargoClippy, Explain: ""},
	{In: "cargo clippy --all-targets -- -D warnings", Want: CargoClippy, Explain: ""},
	{In: "cargo clippy -- -W clippy::pedantic", Want: CargoClippy, Explain: ""},
	{In: "cargo clippy -q", Want: CargoClippy, Explain: ""},

	{In: "cargo build --message-format=json", Want: "", Explain: `1:13: option "--message-format=json" changes the output format; passing through`},
	{In: "cargo build --timings", Want: "", Explain: `1:13: option "--timings" changes the output format; passing through`},
	{In: "cargo build -V", Want: "", Explain: "1:13: help or version requested (-V); passing through"},
	{In: "cargo clippy --fix --allow-dirty", Want: "", Explain: `1:14: option "--fix" changes the output format; passing through`},
	{In: "cargo clippy --message-format short", Want: "", Explain: `1:14: option "--message-format" changes the output format; passing through`},
	{In: "cargo clippy --version", Want: "", Explain: "1:14: help or version requested (--version); passing through"},
	{In: "cargo -v build", Want: "", Explain: `1:7: cargo option "-v" before the subcommand; passing through`},
	{In: "cargo b", Want: "", Explain: "1:7: not a recognized command; passing through"},
	{In: "cargo nextest run", Want: "", Explain: "1:7: not a recognized command; passing through"},
	{In: "cargo-clippy", Want: "", Explain: "1:1: not a recognized command; passing through"},

	// Spellings and settings that change the format, or do not (issue 14).
	{In: "cargo test -v", Want: CargoTest, Explain: ""},
	{In: "CARGO_TERM_VERBOSE=true cargo test 2>&1 | tail -40", Want: CargoTest, Explain: ""},
	{In: "cargo check --config term.verbose=true", Want: CargoCheck, Explain: ""},
	{In: "cargo test -- --test-threads=1 --nocapture", Want: CargoTest, Explain: ""},
	{In: "cargo test -- -Zunstable-options --report-time", Want: "", Explain: `1:34: option "--report-time" changes the output format; passing through`},
	{In: "cargo test -- -Zunstable-options --ensure-time", Want: "", Explain: `1:34: option "--ensure-time" changes the output format; passing through`},
	{In: "cargo check --config 'term.progress.when=\"always\"'", Want: "", Explain: `1:22: --config "term.progress.when=\"always\"" may change the output format; passing through`},
	{In: "cargo build --config=term.progress.when=always", Want: "", Explain: `1:13: --config "--config=term.progress.when=always" may change the output format; passing through`},
	{In: "cargo clippy --config ci.toml", Want: "", Explain: `1:23: --config "ci.toml" may change the output format; passing through`},
	{In: "cargo test --message-format json", Want: "", Explain: `1:12: option "--message-format" changes the output format; passing through`},
	{In: "cargo check --message-format=short", Want: "", Explain: `1:13: option "--message-format=short" changes the output format; passing through`},
}

func TestClassify(t *testing.T) {
	table.CheckExplained(t, cargoCases, []ruletest.ArgvCase{
		{In: []string{"cargo", "clippy", "--", "-D", "warnings"}, Want: CargoClippy},
		{In: []string{"cargo", "build", "|", "tail"}, Want: CargoBuild},
	})
}

// table classifies commands as shrinkrun does.
var table = ruletest.Classifier{String: rules.String, Argv: rules.Argv, Has: rules.Has}

// Rule ids, as the block's rule: line shows them.
const (
	CargoCheck  = "bash.cargo_check"
	CargoTest   = "bash.cargo_test"
	CargoBuild  = "bash.cargo_build"
	CargoClippy = "bash.cargo_clippy"
)

// TestEnviron: a progress bar forced onto a pipe, set by the command's
// own assignment or inherited, makes every cargo rule pass through, with
// the reason, and so does a doc-tests' format in RUSTDOCFLAGS for cargo
// test; the other CARGO_TERM_ settings, RUSTFLAGS (cargo fails on a second
// --error-format and says so as usual) and other families' commands are
// unaffected.
func TestEnviron(t *testing.T) {
	none := func(string) string { return "" }
	always := func(name string) string {
		if name == "CARGO_TERM_PROGRESS_WHEN" {
			return "always"
		}
		return ""
	}
	const progress = "CARGO_TERM_PROGRESS_WHEN=always draws cargo's progress bar over its messages"
	const doc = " to the doc-tests' runner, which changes their output format"
	for _, c := range []struct {
		cmd     string
		environ func(string) string
		want    string // the rule, or "" with the reason why
		why     string
	}{
		{"cargo check", none, CargoCheck, ""},
		{"CARGO_TERM_PROGRESS_WHEN=always cargo check", none, "", progress},
		{"CARGO_TERM_PROGRESS_WHEN=always cargo test 2>&1 | tail -40", none, "", progress},
		{"cargo build", always, "", progress},
		{"cargo clippy", always, "", progress},
		{"CARGO_TERM_PROGRESS_WHEN=never cargo test", always, CargoTest, ""},
		{"CARGO_TERM_PROGRESS_WHEN=auto CARGO_TERM_PROGRESS_WIDTH=80 cargo test", none, CargoTest, ""},
		{"CARGO_TERM_VERBOSE=true CARGO_TERM_COLOR=always CARGO_TERM_QUIET=false CARGO_TERM_HYPERLINKS=true cargo test", none, CargoTest, ""},
		{"RUSTFLAGS=--error-format=json cargo build", none, CargoBuild, ""},
		{"CARGO_BUILD_RUSTFLAGS='--json=diagnostic-short' cargo check", none, CargoCheck, ""},
		{"RUSTDOCFLAGS='--test-args --format=terse' cargo test", none, CargoTest, ""},
		{"RUSTDOCFLAGS='-Z unstable-options --test-args --format=json' cargo test", none, "", "RUSTDOCFLAGS passes --format=json" + doc},
		{"RUSTDOCFLAGS='--test-args --format --test-args junit' cargo +nightly test --doc", none, "", "RUSTDOCFLAGS passes --format" + doc},
		{"RUSTDOCFLAGS=--test-args=--list cargo test 2>&1 | tail", none, "", "RUSTDOCFLAGS passes --list" + doc},
		{"cargo test", func(n string) string {
			return map[string]string{"CARGO_ENCODED_RUSTDOCFLAGS": "--test-args\x1f--logfile=x"}[n]
		}, "", "CARGO_ENCODED_RUSTDOCFLAGS passes --logfile=x" + doc},
		{"RUSTDOCFLAGS='--test-args --format=json' cargo build", none, CargoBuild, ""},
		{"git status", always, "bash.git_status", ""},
	} {
		got := rules.String(c.cmd).InEnviron(c.environ)
		if got.Rule != c.want || got.Rule == "" && got.Reason != c.why {
			t.Errorf("%s: rule %q, reason %q; want %q %q", c.cmd, got.Rule, got.Reason, c.want, c.why)
		}
	}
}
