package summarize

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
)

// Every rule classify can return has a summarizer, and no summarizer is
// unreachable.
func TestRulesMatchClassify(t *testing.T) {
	seen := map[string]bool{}
	for _, id := range classify.Rules {
		if !Has(id) {
			t.Errorf("classify rule %s has no summarizer", id)
		}
		seen[id] = true
	}
	for id := range familyRules {
		if !seen[id] {
			t.Errorf("summarizer %s is not a classify rule", id)
		}
	}
}
