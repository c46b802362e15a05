package main

import (
	"fmt"
	"io"
	"os"

	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/layers"
	"github.com/shrinkrun/shrinkrun/store"
)

// findRules finds the rule files for a command run here (package layers):
// the trusted project's and the user's. The state directory, which keeps
// the trust store, is opened only when the project has rule files; its
// failure is returned, never fatal.
func findRules() (layers.Set, error) {
	wd, _ := os.Getwd()
	var trustErr error
	set := layers.Find(wd, os.Getenv, func() layers.Trust {
		var t layers.Trust
		t, trustErr = readTrust()
		return t
	})
	return set, trustErr
}

// readTrust reads the trust store from the state directory.
func readTrust() (layers.Trust, error) {
	state, err := openStateDir(false)
	if err != nil {
		if os.IsNotExist(err) {
			return layers.Trust{}, nil
		}
		return layers.Trust{}, err
	}
	defer state.Close()
	return layers.ReadTrust(state)
}

// openStateDir opens the state directory (store.Dir), creating it when
// create is true.
func openStateDir(create bool) (*privdir.Dir, error) {
	path, err := store.Dir()
	if err != nil {
		return nil, err
	}
	return store.OpenDir(path, create)
}

// declareRules puts the rule files that apply here before the table
// (rules.Declare), and says on stderr, once for each file's content, why
// one does not apply: it does not load, or it is a project file the user
// has not trusted or that changed since (nil stderr: say nothing, and
// remember nothing). It never stops the command.
func declareRules(stderr io.Writer) {
	set, trustErr := findRules()
	rules.Declare(set.Rules())
	var notices [][2]string // the key a notice is remembered by, and its text
	if trustErr != nil {
		n := "the trust store cannot be read, so no project rule file applies: " + trustErr.Error()
		notices = append(notices, [2]string{n, n})
	}
	for _, f := range set.Files {
		if p := f.Problem(); p != "" {
			notices = append(notices, [2]string{f.Hash + " " + p, p})
		}
	}
	if len(notices) == 0 || stderr == nil {
		return
	}
	state, _ := openStateDir(true)
	if state != nil {
		defer state.Close()
	}
	for _, n := range notices {
		if layers.Noticed(state, n[0]) {
			fmt.Fprintf(stderr, "shrinkrun: %s\n", n[1])
		}
	}
}

// ruleSource is where --explain says the rule id was read from, "" for a
// rule written in Go.
func ruleSource(id string) string {
	if r, ok := rules.Lookup(id); ok {
		return r.Source
	}
	return ""
}

// ruleFilesStatus is what doctor says of the rule files here: how many
// apply, from where, and every one that does not, and why.
func ruleFilesStatus() []string {
	set, trustErr := findRules()
	applied := 0
	var lines []string
	for _, f := range set.Files {
		p := f.Problem()
		if p == "" {
			if err := f.Rule.Check(); err != nil {
				p = fmt.Sprintf("rule file %v; its commands pass through", err)
			}
		}
		if p != "" {
			lines = append(lines, "  not applied: "+p)
			continue
		}
		applied++
	}
	where := set.UserDir
	if set.Root != "" {
		where += " and " + layers.ProjectDir(set.Root)
	}
	if trustErr != nil {
		lines = append(lines, "  not applied: the trust store cannot be read, so no project rule file applies: "+trustErr.Error())
	}
	return append([]string{fmt.Sprintf("rule files: %d apply, from %s (shrinkrun rules list)", applied, where)}, lines...)
}
