package node

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The node rules' matchers (docs/classify.md, node rules) share the way to
// a runner, run directly or through npx, and to a package manager's
// subcommand.

// matchRunner reads vitest, jest, tsc or eslint, run directly or through
// npx (name is the rule's): npx is accepted only directly in front of a
// tool name, with no option of its own, since npx options choose what to
// install and run. m reads the tool's argv. Another tool is another rule's.
func matchRunner(argv []string, name string, m func(tool []string) classify.Answer) classify.Answer {
	tool, at := argv, 0
	if argv[0] == "npx" {
		if len(argv) == 1 {
			return classify.Other(0, "not a recognized command")
		}
		switch argv[1] {
		case "vitest", "jest", "tsc", "eslint":
			tool, at = argv[1:], 1
		default:
			if strings.HasPrefix(argv[1], "-") {
				return classify.Other(1, "npx option %q", argv[1])
			}
			return classify.Other(1, "not a recognized command")
		}
	}
	if tool[0] != name {
		return classify.Other(at, "not a recognized command")
	}
	a := m(tool)
	if !a.Accepted {
		a.At += at
	}
	return a
}

// matchManager reads npm, pnpm or yarn and its subcommand: m reads the
// subcommand at argv[1] and says whether it is the rule's. Options before
// the subcommand pass through, as for cargo: they are the package
// manager's own.
func matchManager(argv []string, m func(argv []string) (classify.Answer, bool)) classify.Answer {
	if len(argv) == 1 {
		return classify.Other(0, "not a recognized command")
	}
	if strings.HasPrefix(argv[1], "-") {
		return classify.Other(1, "%s option %q before the subcommand", argv[0], argv[1])
	}
	if a, ok := m(argv); ok {
		return a
	}
	return classify.Other(1, "not a recognized command")
}

// nodeHelp are the words that turn any of these tools' output into a manual
// or a version string. -v is --version for every tool of the family.
var nodeHelp = map[string]bool{"--help": true, "-h": true, "--version": true, "-v": true}

// matchTool accepts a tool run with any arguments but help, version and the
// format options, each matched as a prefix (--coverage covers
// --coverageProvider, --watch covers --watchAll=false: a false match only
// passes through). Every word is checked, values included.
func matchTool(argv []string, formats []string) classify.Answer {
	for j := 1; j < len(argv); j++ {
		if nodeHelp[argv[j]] {
			return classify.Refuse(j, "help or version requested (%s)", argv[j])
		}
		if hasPrefix(argv[j], formats) {
			return classify.Refuse(j, "option %q changes the output format", argv[j])
		}
	}
	return classify.Accept()
}

func hasPrefix(a string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(a, p) {
			return true
		}
	}
	return false
}
