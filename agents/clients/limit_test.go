package clients

import "testing"

// TestLimitOverBudget: every known client cuts past its limit and gets
// blocks of at most its budget, which must fit under the limit (a cut
// output is at most the budget and never more than the limit); an unknown
// client has neither, and the defaults apply.
func TestLimitOverBudget(t *testing.T) {
	for n := range limits {
		if Limit(n) <= Budget(n) {
			t.Errorf("%s: limit %d not above budget %d", n, Limit(n), Budget(n))
		}
	}
	if Limit("") != 0 || Limit("aider") != 0 {
		t.Errorf("an unknown client has a limit: %d, %d", Limit(""), Limit("aider"))
	}
}
