package classify_test

import (
	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/rules"
)

// The tests classify real commands with the matcher of the rule table, as
// shrinkrun does: classify itself knows no rule. Each family's own
// classification table is in its package (rules/git/classify_test.go, ...).

type Result = classify.Result

func String(src string) Result  { return rules.String(src) }
func Argv(argv []string) Result { return rules.Argv(argv) }

// What the filter and locale tests name unqualified.
type Cut = classify.Cut

const (
	KeepsAll   = classify.KeepsAll
	DropsEnd   = classify.DropsEnd
	DropsStart = classify.DropsStart
	DropsAny   = classify.DropsAny
)

var (
	Translated = classify.Translated
	Getenv     = classify.Getenv
)

// Rule ids, as the block's rule: line shows them.
const (
	GitStatus  = "bash.git_status"
	GitDiff    = "bash.git_diff"
	GitLog     = "bash.git_log"
	CargoCheck = "bash.cargo_check"
	CargoTest  = "bash.cargo_test"
	GoTest     = "bash.go_test"
)

// In classifies a one-part command string with its words expanded in env,
// as shrinkrun does for the -c form.
func In(src string, env classify.Env) Result {
	l, res := classify.Split(src)
	if l == nil {
		return res
	}
	if len(l.Parts) != 1 {
		return Result{Reason: "a list"}
	}
	return l.Parts[0].Classify(rules.Match, env)
}

type Env = classify.Env
