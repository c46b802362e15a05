package rules

import (
	"slices"

	"github.com/shrinkrun/shrinkrun/classify"
)

// Match is the table's classify.Matcher. The rules routed on argv[0] are
// asked in table order: the first whose command it is (classify.Accept or
// classify.Refuse) decides; when none claims it, the first one's reason
// stands (classify.Other), and a name no rule routes on is not a
// recognized command.
func Match(argv []string) classify.Verdict {
	var other *classify.Answer
	for i := range Table {
		for j := range Table[i].Rules {
			r := &Table[i].Rules[j]
			if !slices.Contains(r.Commands, argv[0]) {
				continue
			}
			switch a := r.Match(argv); {
			case a.Accepted:
				v := classify.Verdict{Rule: r.ID, Translated: Table[i].Translated}
				if r.Env != nil {
					v.Environ = func(getenv func(string) string) string { return r.Env(argv, getenv) }
				}
				return v
			case a.Mine:
				return classify.Verdict{Reason: a.Reason, At: a.At}
			case other == nil:
				other = &a
			}
		}
	}
	if other != nil {
		return classify.Verdict{Reason: other.Reason, At: other.At}
	}
	return classify.Verdict{Reason: "not a recognized command"}
}

// String classifies a command string (the -c form) with the table.
func String(src string) classify.Result { return classify.String(src, Match) }

// Argv classifies words already split by the caller's shell with the
// table.
func Argv(argv []string) classify.Result { return classify.Argv(argv, Match) }
