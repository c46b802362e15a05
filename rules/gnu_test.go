package rules_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/rules"
)

// TestNotGNUTools: where ls, find, grep and sed are not the GNU tools
// (macOS, the BSDs), the rules that read their output and a sed filter pass
// the command through; the tools that are the same program everywhere are
// still recognized.
func TestNotGNUTools(t *testing.T) {
	defer func(was bool) { classify.GNUTools = was }(classify.GNUTools)
	for _, gnu := range []bool{true, false} {
		classify.GNUTools = gnu
		for cmd, onlyGNU := range map[string]bool{
			"ls -la":                          true,
			"find . -name '*.go'":             true,
			"grep -rn TODO .":                 true,
			"git log --oneline | sed -n 1,5p": true,
			"git log --oneline | head -5":     false,
			"rg TODO":                         false,
			"git grep -n TODO":                false,
			"tree":                            false,
			"git status":                      false,
		} {
			got := rules.String(cmd).Rule != ""
			if want := gnu || !onlyGNU; got != want {
				t.Errorf("GNUTools=%v: %q recognized %v, want %v (%s)", gnu, cmd, got, want, rules.String(cmd).Explain())
			}
		}
	}
}
