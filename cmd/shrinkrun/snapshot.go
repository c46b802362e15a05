package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/deny"
)

// snapshotRedefines returns why the command Claude Code's envelope evals
// may not be the one its rule reads, or "": the envelope first sources the
// user's shell snapshot, and an alias or function defined there for one of
// the command's programs runs instead of the program (issue 21: `alias
// git='git -c status.showUntrackedFiles=no'` made a block say
// untracked_files: 0 beside 260 untracked files). Claude Code's own
// functions for grep, find and rg run its embedded ugrep, bfs and rg: as a
// filter stage such a function still only selects lines, so only the
// first stage must be the program itself.
func snapshotRedefines(sources []string, c classify.Result) string {
	for _, src := range sources {
		data, err := deny.ReadFile(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue // source ... 2>/dev/null || true: nothing defined
		}
		if err != nil {
			return fmt.Sprintf("cannot read the shell snapshot it runs after (%v): an alias there could change what runs", err)
		}
		for i, st := range c.Stages {
			switch classify.Redefines(data, st[0]) {
			case classify.Redefined:
				return fmt.Sprintf("%s is an alias or a function in the shell snapshot %s: it may not run what a rule reads", st[0], src)
			case classify.Shadowed:
				if i == 0 {
					return fmt.Sprintf("%s is Claude Code's own function in the shell snapshot %s (its embedded tool runs): its output is not the one a rule reads", st[0], src)
				}
			}
		}
	}
	return ""
}
