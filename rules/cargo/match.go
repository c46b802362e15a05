package cargo

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The cargo rules' matchers share the way to cargo's subcommand
// (docs/classify.md, cargo rules): a rustup toolchain (+nightly) may come
// before it, any cargo option there passes through, and help, version and
// the options that replace the human-readable output pass through after
// it.

// matchSub reads cargo [+toolchain] NAME ...; formats are the options
// that replace its output. Another subcommand is another rule's.
func matchSub(argv []string, name string, formats []string) classify.Answer {
	i := 1
	if i < len(argv) && len(argv[i]) > 1 && argv[i][0] == '+' {
		i++ // a rustup toolchain, +nightly
	}
	switch {
	case i == len(argv):
		return classify.Other(0, "not a recognized command")
	case strings.HasPrefix(argv[i], "-"):
		return classify.Refuse(i, "cargo option %q before the subcommand", argv[i])
	case argv[i] != name:
		return classify.Other(i, "not a recognized command")
	}
	if a, ok := classify.HelpFlag(argv, i+1); ok {
		return a
	}
	// -h and -V can hide in a short-option cluster such as -qh.
	if j := classify.FormatFlag(argv, i+1, formats, "hV"); j >= 0 {
		return classify.Refuse(j, "option %q changes the output format", argv[j])
	}
	return classify.Accept()
}

// formats are the cargo and libtest options that replace the
// human-readable output (JSON, terse or listing formats, colors, a log
// file).
var formats = []string{
	"--message-format", "--format", "--list", "--color", "--logfile",
	"--unit-graph", "--build-plan",
}
