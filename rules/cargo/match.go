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
	if j := configFlag(argv, i+1); j >= 0 {
		return classify.Refuse(j, "--config %q may change the output format", argv[j])
	}
	return classify.Accept()
}

// formats are the cargo and libtest options that replace the
// human-readable output (JSON, terse or listing formats, colors, a log
// file, libtest's times after each result).
var formats = []string{
	"--message-format", "--format", "--list", "--color", "--logfile",
	"--unit-graph", "--build-plan", "--report-time", "--ensure-time",
}

// configFlag returns the index of the value of a --config after the
// subcommand that may change the format, or -1: one that sets a term.progress
// key (Environ says why), or a config file, which could set it. Other
// settings (term.verbose, term.color, build.jobs) keep the lines the rules
// read.
func configFlag(argv []string, from int) int {
	for j := from; j < len(argv); j++ {
		v, ok := strings.CutPrefix(argv[j], "--config=")
		switch {
		case ok:
		case argv[j] == "--config" && j+1 < len(argv):
			j++
			v = argv[j]
		default:
			continue
		}
		if !strings.Contains(v, "=") || strings.Contains(v, "progress") {
			return j
		}
	}
	return -1
}
