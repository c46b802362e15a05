package shape

import "path/filepath"

// kind is what the command's name says of its output: how much of the
// budget its head and its tail deserve, in percent of what the budget
// affords.
type kind struct {
	name       string
	head, tail int
}

var (
	// kindOther is any command: head and tail alike.
	kindOther = kind{"other", 30, 30}
	// kindRunner is a test runner, build or script: what matters is at
	// its end (the summary, the failure, the traceback).
	kindRunner = kind{"runner", 20, 40}
	// kindView prints a file: its start is what a reader asked for.
	kindView = kind{"view", 45, 10}
)

// viewers print files; runners run tests, builds and scripts.
var (
	viewers = map[string]bool{"cat": true, "nl": true, "sed": true, "head": true, "bat": true, "less": true, "more": true, "awk": true}
	runners = map[string]bool{
		"make": true, "npm": true, "npx": true, "yarn": true, "pnpm": true, "node": true, "python": true, "python3": true,
		"go": true, "cargo": true, "pytest": true, "tox": true, "bash": true, "sh": true, "ruby": true, "java": true,
		"mvn": true, "gradle": true, "cmake": true, "ctest": true, "deno": true, "bun": true,
	}
)

// kindOf reads the kind from the command's first word.
func kindOf(argv []string) kind {
	if len(argv) == 0 {
		return kindOther
	}
	name := filepath.Base(argv[0])
	switch {
	case viewers[name]:
		return kindView
	case runners[name], filepath.Ext(name) == ".sh", filepath.Ext(name) == ".py":
		return kindRunner
	}
	return kindOther
}
