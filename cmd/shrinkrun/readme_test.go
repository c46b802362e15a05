package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/store"
)

// TestREADME keeps the numbers README.md states true: how many rules there
// are (rules.TestREADME holds its list of them to the table), and the
// example block, which must be the block of the corpus output
// it names, with that output's sizes and the ID the store gives it.
func TestREADME(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)

	m := regexp.MustCompile(`Recognized today \((\d+) rules\)`).FindStringSubmatch(readme)
	if m == nil {
		t.Fatal(`README: no "Recognized today (N rules)"`)
	}
	n := 0
	for _, f := range rules.Table {
		n += len(f.Rules)
	}
	if m[1] != strconv.Itoa(n) {
		t.Errorf("README says %s rules; the rule table has %d", m[1], n)
	}

	m = regexp.MustCompile("A real run \\((rules/[^:]+): (\\d+) raw bytes on stderr, an? (\\d+)-byte block\\):\n\n```\n\\$ shrinkrun -- ([^\n]*)\n((?s:.*?))```").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("README: no example block in the form the test reads")
	}
	corpus, rawBytes, size, command, block := filepath.Join(root, m[1]), m[2], m[3], m[4], m[5]
	golden, err := os.ReadFile(corpus + ".golden")
	if err != nil {
		t.Fatal(err)
	}
	body, footer, ok := strings.Cut(block, "raw_output: ")
	if !ok || body != string(golden) {
		t.Errorf("README's block is not %s.golden followed by its raw_output line:\n%s", m[1], block)
	}
	stdout, _ := os.ReadFile(corpus + ".stdout")
	stderr, err := os.ReadFile(corpus + ".stderr")
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.Itoa(len(stderr)); rawBytes != want || len(stdout) != 0 {
		t.Errorf("README says %s raw bytes on stderr; %s.stderr has %s (stdout %d)", rawBytes, m[1], want, len(stdout))
	}
	if want := strconv.Itoa(len(block)); size != want {
		t.Errorf("README says a %s-byte block; it is %s bytes", size, want)
	}
	code, err := strconv.Atoi(regexp.MustCompile(`(?m)^exit_code: (\d+)$`).FindStringSubmatch(body + "exit_code: -1\n")[1])
	if err != nil {
		t.Fatal(err)
	}
	state, err := store.OpenDir(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	e, err := store.Create(state, store.DefaultMaxBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	e.Stdout().Write(stdout)
	e.Stderr().Write(stderr)
	id, err := e.Commit(store.Meta{Command: command, ExitCode: code, Exited: code >= 0})
	if err != nil {
		t.Fatal(err)
	}
	if want := "shrinkrun show " + id + "\n"; footer != want {
		t.Errorf("README's block ends raw_output: %q; the store names that output %q", footer, want)
	}
}
