package python

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The python rules' matchers share the way to the tool (docs/classify.md,
// python rules): pytest, mypy and pip run directly, or as python -m and
// python3 -m. The interpreter form is recognized only with -m right after
// the interpreter: any other interpreter option (-X dev, -W, -u, -I)
// changes how the tool runs and passes through.

// tool returns the tool argv runs and the index of its first argument, or
// the answer for an interpreter form that runs no tool.
func tool(argv []string) (name string, at int, a classify.Answer, ok bool) {
	name, at = argv[0], 1
	if name == "python" || name == "python3" {
		switch {
		case len(argv) == 1:
			return "", 0, classify.Other(0, "not a recognized command"), false
		case argv[1] != "-m":
			return "", 0, classify.Other(1, "not python -m (%q)", argv[1]), false
		case len(argv) == 2:
			return "", 0, classify.Other(1, "python -m without a module"), false
		}
		name, at = argv[2], 3
	}
	return name, at, classify.Answer{}, true
}

// matchTool is a rule's matcher for the tool named name: m reads its
// arguments from argv[at] on. Another tool is another rule's.
func matchTool(argv []string, name string, m func(argv []string, at int) classify.Answer) classify.Answer {
	t, at, a, ok := tool(argv)
	switch {
	case !ok:
		return a
	case t != name:
		return classify.Other(at-1, "not a recognized command")
	}
	return m(argv, at)
}

// longOrAbbrev returns the index of the first word from argv[from] on, up
// to "--", that is one of the long options (possibly with "=value") or an
// abbreviation of one (argparse and optparse accept any unambiguous
// prefix), or a short-option cluster (-abc) containing one of the short
// letters; -1 when there is none. Values are checked as words too: a false
// match only passes through.
func longOrAbbrev(argv []string, from int, long []string, short string) int {
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short) {
			return j
		}
		name, _, _ := strings.Cut(a, "=")
		if len(name) < 3 || !strings.HasPrefix(name, "--") {
			continue
		}
		for _, l := range long {
			if strings.HasPrefix(l, name) {
				return j
			}
		}
	}
	return -1
}
