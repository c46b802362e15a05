package ruletest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
)

// Classifier is how a family's tests classify commands: with the table, as
// shrinkrun does (rules.String, rules.Argv and rules.Has).
type Classifier struct {
	String func(src string) classify.Result
	Argv   func(argv []string) classify.Result
	Has    func(id string) bool
}

// FamilyCase is one command of a family's table: the rule it must get
// ("" to pass through) and, when it passes through, the index of the word
// the reason must point at. Cases that pass through are written with single
// spaces, no quotes and no assignments, so the word gives the column.
type FamilyCase struct {
	In   string
	Want string
	At   int
}

// CheckFamily runs a family's table in string mode, then in argv mode for
// the cases whose words a caller's shell would split the same way, and
// checks that ids are rules of the table.
func (c Classifier) CheckFamily(t *testing.T, cases []FamilyCase, ids []string) {
	t.Helper()
	for _, fc := range cases {
		r := c.String(fc.In)
		if r.Rule != fc.Want {
			t.Errorf("String(%q).Rule = %q (%s), want %q", fc.In, r.Rule, r.Explain(), fc.Want)
			continue
		}
		if r.Rule != "" {
			continue
		}
		if strings.HasSuffix(r.Reason, "passing through") {
			t.Errorf("String(%q).Reason = %q: Explain adds \"passing through\" itself", fc.In, r.Reason)
		}
		col := 1
		for _, w := range strings.Fields(fc.In)[:fc.At] {
			col += len(w) + 1
		}
		if want := "1:" + strconv.Itoa(col); r.Pos != want {
			t.Errorf("String(%q): position %s (%s), want %s (word %d)", fc.In, r.Pos, r.Explain(), want, fc.At)
		}
	}
	for _, fc := range cases {
		if strings.ContainsAny(fc.In, "|>'") || strings.Contains(strings.Fields(fc.In)[0], "=") {
			continue
		}
		if r := c.Argv(strings.Fields(fc.In)); r.Rule != fc.Want {
			t.Errorf("Argv(%q).Rule = %q (%s), want %q", fc.In, r.Rule, r.Explain(), fc.Want)
		}
	}
	for _, id := range ids {
		if !c.Has(id) {
			t.Errorf("%s is not a rule of the table", id)
		}
	}
}

// ExplainedCase is one command of a family's table with the exact
// --explain line its pass-through must give.
type ExplainedCase struct{ In, Want, Explain string }

// ArgvCase is one argv-mode command and the rule it must get.
type ArgvCase struct {
	In   []string
	Want string
}

// CheckExplained runs a family's string-mode table, checking the exact
// explanation of every pass-through, then its argv-mode table.
func (c Classifier) CheckExplained(t *testing.T, cases []ExplainedCase, argv []ArgvCase) {
	t.Helper()
	for _, ec := range cases {
		r := c.String(ec.In)
		if r.Rule != ec.Want {
			t.Errorf("String(%q).Rule = %q (%s), want %q", ec.In, r.Rule, r.Explain(), ec.Want)
			continue
		}
		if ec.Want == "" && r.Explain() != ec.Explain {
			t.Errorf("String(%q).Explain() = %q, want %q", ec.In, r.Explain(), ec.Explain)
		}
	}
	for _, ac := range argv {
		if r := c.Argv(ac.In); r.Rule != ac.Want {
			t.Errorf("Argv(%q).Rule = %q (%s), want %q", ac.In, r.Rule, r.Explain(), ac.Want)
		}
	}
}
