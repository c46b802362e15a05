package classify_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
)

// familyCase is one command of a family's table: the rule it must get
// ("" to pass through) and, when it passes through, the index of the word
// the reason must point at. Cases that pass through are written with single
// spaces, no quotes and no assignments, so the word gives the column.
type familyCase struct {
	in   string
	want string
	at   int
}

// checkFamily runs a family's table in string mode, then in argv mode for
// the cases whose words a caller's shell would split the same way.
func checkFamily(t *testing.T, cases []familyCase, ids []string) {
	t.Helper()
	for _, c := range cases {
		r := String(c.in)
		if r.Rule != c.want {
			t.Errorf("String(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
			continue
		}
		if r.Rule != "" {
			continue
		}
		if strings.HasSuffix(r.Reason, "passing through") {
			t.Errorf("String(%q).Reason = %q: Explain adds \"passing through\" itself", c.in, r.Reason)
		}
		col := 1
		for _, w := range strings.Fields(c.in)[:c.at] {
			col += len(w) + 1
		}
		if want := "1:" + strconv.Itoa(col); r.Pos != want {
			t.Errorf("String(%q): position %s (%s), want %s (word %d)", c.in, r.Pos, r.Explain(), want, c.at)
		}
	}
	for _, c := range cases {
		if strings.ContainsAny(c.in, "|>'") || strings.Contains(strings.Fields(c.in)[0], "=") {
			continue
		}
		if r := Argv(strings.Fields(c.in)); r.Rule != c.want {
			t.Errorf("Argv(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
		}
	}
	for _, id := range ids {
		if !rules.Has(id) {
			t.Errorf("%s is not a rule of the table", id)
		}
	}
}

// explainedCase is one command of a family's table with the exact
// --explain line its pass-through must give.
type explainedCase struct{ in, want, explain string }

// argvCase is one argv-mode command and the rule it must get.
type argvCase struct {
	in   []string
	want string
}

// checkExplained runs a family's string-mode table, checking the exact
// explanation of every pass-through, then its argv-mode table.
func checkExplained(t *testing.T, cases []explainedCase, argv []argvCase) {
	t.Helper()
	for _, c := range cases {
		r := String(c.in)
		if r.Rule != c.want {
			t.Errorf("String(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
			continue
		}
		if c.want == "" && r.Explain() != c.explain {
			t.Errorf("String(%q).Explain() = %q, want %q", c.in, r.Explain(), c.explain)
		}
	}
	for _, c := range argv {
		if r := Argv(c.in); r.Rule != c.want {
			t.Errorf("Argv(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
		}
	}
}
