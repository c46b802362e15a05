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
	CargoBuild  = "bash.cargo_build"
	CargoClippy = "bash.cargo_clippy"
)
