package rules_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
)

// TestTable: ids are unique and every rule is complete; every command name
// a rule routes on leads to it with its first usage form (whose own argv
// is a command the rule recognizes), and Commands lists every form.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	list := rules.Commands()
	for _, f := range rules.Table {
		if f.Name == "" || f.Finder == nil || len(f.Rules) == 0 {
			t.Errorf("family %q is incomplete", f.Name)
		}
		for _, r := range f.Rules {
			if seen[r.ID] {
				t.Errorf("%s: two rules", r.ID)
			}
			seen[r.ID] = true
			if !strings.HasPrefix(r.ID, "bash.") || len(r.Commands) == 0 || r.Match == nil || r.Summarize == nil || len(r.Usage) == 0 {
				t.Errorf("%s: incomplete rule", r.ID)
			}
			for _, form := range r.Usage {
				argv := strings.Fields(form)
				if got := rules.Argv(argv); got.Rule != r.ID && r.ID != "bash.vitest" {
					t.Errorf("%s: usage %q classifies as %q (%s)", r.ID, form, got.Rule, got.Explain())
				}
				if _, rest, _ := strings.Cut(form, " "); !strings.Contains(list, form) && !strings.Contains(list, rest) {
					t.Errorf("%s: Commands() lacks %q: %s", r.ID, form, list)
				}
			}
		}
	}
	// shrinkrun prompt lists the forms of the rules that change nothing,
	// and none of the others' (issue 21). Each family's list names its
	// first command once: "git status, diff" is git status and git diff.
	listed := map[string]bool{}
	for _, family := range strings.Split(rules.PromptCommands(), "; ") {
		forms := strings.Split(family, ", ")
		first, _, _ := strings.Cut(forms[0], " ")
		for _, form := range forms {
			listed[form] = true
			listed[first+" "+form] = true
		}
	}
	for _, f := range rules.Table {
		for _, r := range f.Rules {
			for _, form := range r.Usage {
				if listed[form] == r.Changes {
					t.Errorf("%s (Changes %v): %q listed by PromptCommands is %v: %s", r.ID, r.Changes, form, listed[form], rules.PromptCommands())
				}
			}
		}
	}
	// vitest is listed by its name; it runs the tests with run.
	if got := rules.Argv([]string{"vitest", "run"}); got.Rule != "bash.vitest" {
		t.Errorf("vitest run: %q", got.Rule)
	}
}

// TestMatchOrder: a rule that claims a command decides it, even when a
// rule before it routed on the same name does not know it; and when none
// claims it, the first rule's reason stands.
func TestMatchOrder(t *testing.T) {
	for _, c := range []struct {
		argv   []string
		rule   string
		reason string
		at     int
	}{
		{[]string{"python", "-m", "pip", "list"}, "", "not a recognized command", 3},
		{[]string{"python", "-m", "mypy"}, "bash.mypy", "", 0},
		{[]string{"go", "mod", "tidy"}, "", "not a recognized command", 2},
		{[]string{"git", "frobnicate"}, "", "not a recognized command", 1},
		{[]string{"npx", "jest"}, "bash.jest", "", 0},
		{[]string{"cmake", "-S", "."}, "", "not a recognized command", 1},
	} {
		if v := rules.Match(c.argv); v.Rule != c.rule || v.Reason != c.reason || v.At != c.at {
			t.Errorf("Match(%q) = %+v, want %q %q at %d", c.argv, v, c.rule, c.reason, c.at)
		}
	}
}

// TestREADME holds README.md's list of the recognized commands to the
// table: the number of rules, and one row per family, in the table's order,
// that names every command form of its rules.
func TestREADME(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	m := regexp.MustCompile(`Recognized today \((\d+) rules\):`).FindStringSubmatchIndex(readme)
	if m == nil {
		t.Fatal(`README.md has no "Recognized today (N rules):" line`)
	}
	n := 0
	for _, f := range rules.Table {
		n += len(f.Rules)
	}
	if got, _ := strconv.Atoi(readme[m[2]:m[3]]); got != n {
		t.Errorf("README.md says %d rules, the table has %d", got, n)
	}
	var rows []string
	for l := range strings.Lines(strings.TrimLeft(readme[m[1]:], "\n")) {
		if !strings.HasPrefix(l, "|") {
			break
		}
		if !strings.HasPrefix(l, "| family") && !strings.HasPrefix(l, "| ---") {
			rows = append(rows, strings.TrimSpace(l))
		}
	}
	if len(rows) != len(rules.Table) {
		t.Fatalf("README.md's table has %d rows, the rule table %d families:\n%s", len(rows), len(rules.Table), strings.Join(rows, "\n"))
	}
	for i, f := range rules.Table {
		for _, r := range f.Rules {
			for _, form := range r.Usage {
				if !strings.Contains(rows[i], "`"+form+"`") {
					t.Errorf("README.md's row %d (family %s) does not name `%s` (%s):\n%s", i+1, f.Name, form, r.ID, rows[i])
				}
			}
		}
	}
}

// TestSlowTestsRunInCI: every test under rules/ that only runs with
// SHRINKRUN_SLOW_TESTS=1 (ruletest.Slow) is one that .ci/run's slow step
// runs.
func TestSlowTestsRunInCI(t *testing.T) {
	ci, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*_test.go")
	more, _ := filepath.Glob("*/*_test.go")
	n := 0
	for _, name := range append(files, more...) {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(node ast.Node) bool {
				sel, ok := node.(*ast.SelectorExpr)
				if ok && sel.Sel.Name == "Slow" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "ruletest" {
						n++
						if !strings.Contains(string(ci), fd.Name.Name) {
							t.Errorf("%s: %s calls ruletest.Slow, but .ci/run's slow step does not run it", name, fd.Name.Name)
						}
					}
				}
				return true
			})
		}
	}
	if n == 0 {
		t.Error("no test calls ruletest.Slow")
	}
}

// TestMatchShortArgv: every command a rule routes on, alone or with one
// word, gets a verdict whose word at fault is in argv (classify points
// --explain at it; cmake alone once indexed past the end).
func TestMatchShortArgv(t *testing.T) {
	for _, f := range rules.Table {
		for _, r := range f.Rules {
			for _, c := range r.Commands {
				for _, argv := range [][]string{{c}, {c, "x"}, {c, "--"}} {
					if v := rules.Match(argv); v.Rule == "" && (v.At < 0 || v.At >= len(argv)) {
						t.Errorf("Match(%q) points at word %d (%s)", argv, v.At, v.Reason)
					}
				}
			}
		}
	}
}
