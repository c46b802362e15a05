package classify

import (
	"fmt"
	"slices"
	"strings"
)

// verdict is the outcome of matching a first stage's argv: a rule, or the
// reason it passes through and the index of the word at fault.
type verdict struct {
	rule   string
	reason string
	at     int
}

func refused(at int, format string, args ...any) verdict {
	return verdict{reason: fmt.Sprintf(format, args...), at: at}
}

// families maps a command name to the matcher of its family. Each family
// lives in a file of its own with its rule ids.
var families = map[string]func(argv []string) verdict{
	"cargo": matchCargo,

	"go": matchGo,

	"pytest": matchPython, "python": matchPython, "python3": matchPython,
	"mypy": matchPython, "pip": matchPython, "pip3": matchPython,

	"npm": matchNode, "pnpm": matchNode, "yarn": matchNode, "npx": matchNode,
	"vitest": matchNode, "jest": matchNode, "tsc": matchNode, "eslint": matchNode,
}

// Legacy is the matcher of the families whose rules are not in package
// rules' table yet.
func Legacy(argv []string) Verdict {
	if m, ok := families[argv[0]]; ok {
		v := m(argv)
		return Verdict{Rule: v.rule, Reason: v.reason, At: v.at}
	}
	return Verdict{Reason: "not a recognized command"}
}

// cargoFormats are the cargo and libtest options that replace the
// human-readable output (JSON, terse or listing formats, colors, a log file).
var cargoFormats = []string{
	"--message-format", "--format", "--list", "--color", "--logfile",
	"--unit-graph", "--build-plan",
}

func matchCargo(argv []string) verdict {
	i := 1
	if i < len(argv) && len(argv[i]) > 1 && argv[i][0] == '+' {
		i++ // a rustup toolchain, +nightly
	}
	switch {
	case i == len(argv):
		return refused(0, "not a recognized command")
	case strings.HasPrefix(argv[i], "-"):
		return refused(i, "cargo option %q before the subcommand", argv[i])
	}
	var rule string
	formats := cargoFormats
	switch argv[i] {
	case "check":
		rule = CargoCheck
	case "test":
		rule = CargoTest
	case "build":
		rule, formats = CargoBuild, cargoBuildFormats
	case "clippy":
		rule, formats = CargoClippy, cargoClippyFormats
	default:
		return refused(i, "not a recognized command")
	}
	if v, ok := helpFlag(argv, i+1); ok {
		return v
	}
	// -h and -V can hide in a short-option cluster such as -qh.
	if j := formatFlag(argv, i+1, formats, "hV"); j >= 0 {
		return refused(j, "option %q changes the output format", argv[j])
	}
	return verdict{rule: rule}
}

// cargoBuildFormats adds to cargoFormats what cargo build alone prints:
// --timings writes an HTML report and names it on a status line the build
// summary does not keep.
var cargoBuildFormats = slices.Concat(cargoFormats, []string{"--timings"})

// cargoClippyFormats adds --fix to cargoFormats: cargo clippy --fix edits
// the sources and reports each file it fixed on status lines the lint
// summary does not keep; --timings as for cargo build. Lint options after
// "--" (-D warnings, -W clippy::pedantic) keep the format.
var cargoClippyFormats = slices.Concat(cargoFormats, []string{"--fix", "--timings"})

// helpFlag finds a help or version request from argv[from] on: the output
// is then a manual, not what the rule summarizes.
func helpFlag(argv []string, from int) (verdict, bool) {
	for j := from; j < len(argv); j++ {
		switch argv[j] {
		case "--help", "-h", "--version", "-V":
			return refused(j, "help or version requested (%s)", argv[j]), true
		}
	}
	return verdict{}, false
}

// formatFlag returns the index of the first word from argv[from] on that
// starts with one of the long options, or is a short-option cluster (-abc)
// containing one of the short letters; -1 when there is none. Every word is
// checked, values and paths included: a false match only passes through.
func formatFlag(argv []string, from int, long []string, short string) int {
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short) {
			return j
		}
		for _, l := range long {
			if strings.HasPrefix(a, l) {
				return j
			}
		}
	}
	return -1
}
