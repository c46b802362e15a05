package lint

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The lint rules' matchers (docs/classify.md, lint rules). flake8 and
// pylint run directly or as python -m and python3 -m, with -m right after
// the interpreter, as the python family reads it: any other interpreter
// option changes how the tool runs and passes through. The python family's
// rules are asked first (they route on python too) and answer Other for a
// module they do not own.

// pyTool returns the tool argv runs and the index of its first argument,
// or the answer for an interpreter form that runs no tool.
func pyTool(argv []string) (name string, at int, a classify.Answer, ok bool) {
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

// matchPyTool is a rule's matcher for the python tool named name: m reads
// its arguments from argv[at] on. Another tool is another rule's.
func matchPyTool(argv []string, name string, m func(argv []string, at int) classify.Answer) classify.Answer {
	t, at, a, ok := pyTool(argv)
	switch {
	case !ok:
		return a
	case t != name:
		return classify.Other(at-1, "not a recognized command")
	}
	return m(argv, at)
}

// abbreviates returns the index of the first word from argv[from] on, up to
// "--", that is one of the long options or an abbreviation of one (argparse
// accepts any unambiguous prefix, and an ambiguous one is a usage error),
// with or without "=value"; -1 when there is none. Values are checked as
// words too: a false match only passes through.
func abbreviates(argv []string, from int, long []string) int {
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if a == "--" {
			break
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

// shortCluster returns the index of the first word from argv[from] on, up
// to "--", that is a short-option cluster (-abc) holding one of the
// letters before a letter of takesValue, whose value is the rest of the
// word; -1 when there is none.
func shortCluster(argv []string, from int, letters, takesValue string) int {
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		for _, c := range a[1:] {
			if strings.ContainsRune(takesValue, c) {
				break
			}
			if strings.ContainsRune(letters, c) {
				return j
			}
		}
	}
	return -1
}

// optionValue reads the option at argv[j] if it is name, as "name=value"
// or "name value", and returns its value and whether it is.
func optionValue(argv []string, j int, name string) (string, bool) {
	a := argv[j]
	if v, ok := strings.CutPrefix(a, name+"="); ok {
		return v, true
	}
	if a == name && j+1 < len(argv) {
		return argv[j+1], true
	}
	return "", false
}
