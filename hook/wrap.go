package hook

import (
	"errors"
	"path/filepath"
	"slices"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shrinkrun/shrinkrun/rules"
)

// Wrap returns the command that runs cmd under the shrinkrun binary bin,
// for the agent a:
//
//	BIN --agent AGENT -c 'CMD'
//
// --agent sizes the block to what the agent shows its model
// (docs/agents.md). BIN and CMD are quoted for bash (and zsh, which reads bash quoting the
// same way). The string form is used for every command, pipes and 2>&1
// included, because shrinkrun -c classifies and runs exactly the string
// the agent wrote: the rewrite cannot change what runs or which rule
// applies. The result is parsed back and must give exactly the words
// [BIN --agent AGENT -c CMD], or Wrap fails; this refuses the few commands whose quoting
// needs $'...' (control characters such as a tab inside quotes).
func Wrap(bin string, a Agent, cmd string) (string, error) {
	if !filepath.IsAbs(bin) {
		return "", errors.New("no absolute path to the shrinkrun binary")
	}
	qb, err := syntax.Quote(bin, syntax.LangBash)
	if err != nil {
		return "", errors.New("the shrinkrun path cannot be quoted: " + err.Error())
	}
	qc, err := syntax.Quote(cmd, syntax.LangBash)
	if err != nil {
		return "", errors.New("the command cannot be quoted: " + err.Error())
	}
	s := qb + " --agent " + string(a) + " -c " + qc
	back := rules.String(s)
	if len(back.Stages) != 1 || len(back.Assigns) != 0 || !slices.Equal(back.Stages[0], []string{bin, "--agent", string(a), "-c", cmd}) {
		return "", errors.New("the rewrite would not read back as the same command")
	}
	return s, nil
}
