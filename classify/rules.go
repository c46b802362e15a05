package classify

import (
	"fmt"
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
