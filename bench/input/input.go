// Package input builds the summarizer inputs that the benchmarks measure:
// real captured outputs from the rules' corpora, repeated to a given size so
// that throughput is measured on realistic lines, and pathological inputs
// (one huge line, a million tiny lines, a diff of 100k files) that would
// expose a summarizer that is not linear.
//
// It is shared by `go run ./bench` and the `go test -bench` benchmarks in
// package rules, so both measure the same bytes. The rules and their
// corpora come from the rule table (package rules).
package input

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// Rule is one summarizer and the corpus cases that make up its input.
type Rule struct {
	// Name is the rule id without "bash.", its corpus directory.
	Name string
	// Family is the rule's family: its corpus is rules/FAMILY/testdata/NAME.
	Family string
	// Command is the command the input is presented as, in the header: the
	// first form the rule lists (rules.Rule.Usage).
	Command string
	// ExitCode is the exit code the input is presented with: a failing
	// run's, 1, but for the rules whose input is one layout of a
	// successful run (layouts).
	ExitCode int
	// keep selects the corpus cases (by their meta command and exit code)
	// whose output is repeated.
	keep func(cmd string, exit int) bool
}

// Rules are the summarizers, in the table's order: every rule of it, each
// on every case of its corpus, presented as a failing run of its first
// command form, but for those in layouts.
var Rules = fromTable()

func fromTable() []Rule {
	var rs []Rule
	for _, f := range rules.Table {
		for _, r := range f.Rules {
			rl := Rule{Name: strings.TrimPrefix(r.ID, "bash."), Family: f.Name, Command: r.Usage[0], ExitCode: 1, keep: all}
			if keep, ok := layouts[rl.Name]; ok {
				rl.ExitCode, rl.keep = 0, keep
			}
			rs = append(rs, rl)
		}
	}
	return rs
}

// layouts are the rules whose corpus holds the outputs of several layouts
// (long and short status, patches and stats, one-line and graph logs) or of
// failures that print nothing of the layout: their input repeats one
// layout of a successful run, as one command prints it.
var layouts = map[string]func(cmd string, exit int) bool{
	"git_status": func(c string, e int) bool { return c == "git status" && e == 0 },
	"git_diff": func(c string, e int) bool {
		return e == 0 && strings.Contains(c, "diff") && !strings.Contains(c, "--stat") && !strings.Contains(c, "--name")
	},
	"git_log": func(c string, e int) bool {
		return e == 0 && strings.Contains(c, "--oneline") && !strings.Contains(c, "--stat") && !strings.Contains(c, "--graph")
	},
	"git_show": func(_ string, e int) bool { return e == 0 },
	// The search rules' input is the layout their first form prints: rg's
	// "file:text" without numbers, grep -rn's and git grep -n's numbered
	// lines without context.
	"rg": func(c string, e int) bool { return e == 0 && (c == "rg foo" || c == "rg TODO src/api") },
	"grep": func(c string, e int) bool {
		return e == 0 && (c == "grep -rn TODO ." || c == "grep -rn config src/web")
	},
	"git_grep": func(c string, e int) bool { return e == 0 && c == "git grep -n TODO" },
}

func all(string, int) bool { return true }

// Unit is one copy of a rule's corpus: the selected cases' streams
// concatenated in name order.
type Unit struct {
	Rule           Rule
	Stdout, Stderr []byte
	Cases          []string
}

// Root finds the module's root from the current directory or one of its
// parents, so both `go run ./bench` (module root) and `go test` (package
// directory) find the corpora under it: rules/FAMILY/testdata/RULE.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, "rules")); err == nil && fi.IsDir() {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("the module root (go.mod and rules/) not found above the current directory")
		}
		dir = parent
	}
}

// Units reads every rule's corpus under the module root, in Rules' order.
func Units() ([]*Unit, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	units := make([]*Unit, len(Rules))
	for i, r := range Rules {
		if units[i], err = LoadUnit(root, r); err != nil {
			return nil, err
		}
	}
	return units, nil
}

// LoadUnit reads the corpus cases of rule r under the module root.
func LoadUnit(root string, r Rule) (*Unit, error) {
	metas, err := filepath.Glob(filepath.Join(root, "rules", r.Family, "testdata", r.Name, "*.meta"))
	if err != nil {
		return nil, err
	}
	sort.Strings(metas)
	u := &Unit{Rule: r}
	for _, meta := range metas {
		cmd, exit, err := readMeta(meta)
		if err != nil {
			return nil, err
		}
		if !r.keep(cmd, exit) {
			continue
		}
		base := strings.TrimSuffix(meta, ".meta")
		out, _ := os.ReadFile(base + ".stdout")
		errb, _ := os.ReadFile(base + ".stderr")
		u.Stdout = append(u.Stdout, endLine(out)...)
		u.Stderr = append(u.Stderr, endLine(errb)...)
		u.Cases = append(u.Cases, filepath.Base(base))
	}
	if len(u.Stdout)+len(u.Stderr) == 0 {
		return nil, fmt.Errorf("%s: no corpus output for %s", root, r.Name)
	}
	return u, nil
}

func endLine(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(b, '\n')
	}
	return b
}

func readMeta(path string) (cmd string, exit int, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", 0, err
	}
	for l := range strings.Lines(string(data)) {
		l = strings.TrimSuffix(l, "\n")
		if v, ok := strings.CutPrefix(l, "command: "); ok {
			cmd = v
		}
		if v, ok := strings.CutPrefix(l, "exit_code: "); ok {
			exit, _ = strconv.Atoi(v)
		}
	}
	return cmd, exit, nil
}

// Sized returns a Run of about size bytes: the unit repeated, each stream
// cut at a line boundary so that the two streams keep the unit's
// proportions and together hold at most size bytes.
func (u *Unit) Sized(size int) *summarize.Run {
	total := len(u.Stdout) + len(u.Stderr)
	outShare := int(int64(size) * int64(len(u.Stdout)) / int64(total))
	return u.Rule.Run(repeat(u.Stdout, outShare), repeat(u.Stderr, size-outShare))
}

// repeat returns unit repeated to at most n bytes, ending at a line boundary.
func repeat(unit []byte, n int) []byte {
	if len(unit) == 0 || n <= 0 {
		return nil
	}
	b := make([]byte, 0, n+len(unit))
	for len(b) < n {
		b = append(b, unit...)
	}
	b = b[:n]
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	}
	return b
}

// Run presents stdout and stderr as a run of rule r, as the command line
// tool would: counts, exit code, default budget.
func (r Rule) Run(stdout, stderr []byte) *summarize.Run {
	return &summarize.Run{
		Rule:        "bash." + r.Name,
		Command:     r.Command,
		Argv:        strings.Fields(r.Command),
		Stdout:      stdout,
		Stderr:      stderr,
		StdoutBytes: int64(len(stdout)),
		StderrBytes: int64(len(stderr)),
		ExitCode:    r.ExitCode,
		Exited:      true,
		RawOutput:   "shrinkrun show 0123456789abcdef",
	}
}

// Size returns the bytes of a run's input.
func Size(r *summarize.Run) int { return len(r.Stdout) + len(r.Stderr) }

// Pathological inputs. Each returns the bytes for one stream; the caller
// puts them on stdout, or on stderr where the rule reads that stream.

// OneLine is a single line of n bytes without a newline: a minified file
// in a diff, a progress bar that never ends its line.
func OneLine(n int, prefix string) []byte {
	b := make([]byte, n)
	copy(b, prefix)
	for i := len(prefix); i < n; i++ {
		b[i] = 'a' + byte(i%26)
	}
	return b
}

// TinyLines is n lines, each line the given text (its newline included).
func TinyLines(n int, line string) []byte {
	return bytes.Repeat([]byte(line), n)
}

// ManyFileDiff is a `git diff` of n files with one changed line each.
func ManyFileDiff(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 130)
	for i := range n {
		fmt.Fprintf(&b, "diff --git a/src/d%03d/f%06d.go b/src/d%03d/f%06d.go\n", i%1000, i, i%1000, i)
		fmt.Fprintf(&b, "index %07x..%07x 100644\n", i, i+1)
		fmt.Fprintf(&b, "--- a/src/d%03d/f%06d.go\n+++ b/src/d%03d/f%06d.go\n", i%1000, i, i%1000, i)
		fmt.Fprintf(&b, "@@ -1,3 +1,3 @@\n package p\n-var x = %d\n+var x = %d\n \n", i, i+1)
	}
	return b.Bytes()
}
