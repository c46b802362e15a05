package main

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
)

// TestUsageListsTheTable: --help lists the table's commands, and
// shrinkrun prompt those that change nothing: no push, pull, fetch, clone
// or install (issue 21).
func TestUsageListsTheTable(t *testing.T) {
	var prompt strings.Builder
	promptVerb(nil, nil, &prompt, nil)
	for name, c := range map[string]struct{ text, want string }{
		"--help": {usageText(), rules.Commands()},
		"prompt": {prompt.String(), rules.PromptCommands()},
	} {
		if !strings.Contains(strings.Join(strings.Fields(c.text), " "), c.want) {
			t.Errorf("%s does not list %q:\n%s", name, c.want, c.text)
		}
	}
	for _, changes := range []string{"push", "pull", "fetch", "clone", "install", "go get", "mod download", "docker"} {
		if strings.Contains(prompt.String(), changes) {
			t.Errorf("prompt lists %q:\n%s", changes, prompt.String())
		}
	}
}
