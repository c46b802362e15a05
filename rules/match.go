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
//
// Behind a launcher (launch.go) the tool is matched by its own name: the
// verdict says how many words only launch it, and a word at fault is
// counted in argv. A launcher whose next word no rule routes on (yarn
// test, pnpm install) is matched as it is.
func Match(argv []string) classify.Verdict {
	skip, tool := launched(argv)
	if !routed(tool[0]) {
		skip, tool = 0, argv
	}
	v := match(tool)
	v.Launcher = skip
	if v.Rule == "" {
		v.At += skip
	}
	return v
}

// routed reports whether a rule routes on name.
func routed(name string) bool {
	for _, f := range declared {
		if slices.Contains(f.Rules[0].Commands, name) {
			return true
		}
	}
	for i := range Table {
		for _, r := range Table[i].Rules {
			if slices.Contains(r.Commands, name) {
				return true
			}
		}
	}
	return false
}

func match(argv []string) classify.Verdict {
	var other *classify.Answer
	for i, fams := range [2][]Family{declared, Table} {
		for _, f := range fams {
			for j := range f.Rules {
				r := &f.Rules[j]
				if !slices.Contains(r.Commands, argv[0]) || i == 1 && overridden(r.ID) {
					continue
				}
				switch a := r.Match(argv); {
				case a.Accepted:
					v := classify.Verdict{Rule: r.ID, Translated: f.Translated}
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
