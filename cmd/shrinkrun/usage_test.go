package main

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
)

// TestUsageListsTheTable: --help and shrinkrun prompt list the table's
// commands.
func TestUsageListsTheTable(t *testing.T) {
	var prompt strings.Builder
	promptVerb(nil, nil, &prompt, nil)
	for name, text := range map[string]string{"--help": usageText(), "prompt": prompt.String()} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), rules.Commands()) {
			t.Errorf("%s does not list %q:\n%s", name, rules.Commands(), text)
		}
	}
}
