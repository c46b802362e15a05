// Package declare reads rules written in shrinkrun's rule file format (TOML,
// docs/rules.md) and makes each one what the table needs of a rule: a
// matcher, a summarizer and the finder of the rule's own failures.
//
// A rule file declares; it runs nothing. It names the commands it matches,
// the options it reads and those that pass through, and for each line of
// output a pattern (RE2's syntax, run by an automaton that counts its work:
// linear time, a bounded cost, cost.go) and what becomes of the lines it
// matches: a list, a count, a field copied from the output,
// or nothing. The body is built here from those declarations and nothing
// else, so every count in it is one the core counted from the lines, every
// line is copied, and every list is capped with an exact _omitted count;
// the rule's failure patterns become a summarize.Finder that the boundary
// check runs with every family's. A rule file can make a block less useful,
// never hide a failure from it or state a count the output contradicts.
//
// The package reads bytes and knows no file system, no trust and no table:
// package layers finds the files and decides which apply, package rules
// puts them in the table.
package declare

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Limits on what one rule file may ask for, so that reading one, and
// running it on every line of a large output, stays cheap whatever it holds.
const (
	MaxFileBytes   = 64 << 10 // a rule file
	MaxPatterns    = 32       // line patterns and failure patterns together
	MaxPatternLen  = 1024     // bytes of one pattern
	MaxEntries     = 32       // [[lines]] entries
	MaxListItems   = 1000     // a list's max
	DefaultMaxList = 20       // a list's max when it gives none
)

// Rule is one rule read from a file.
type Rule struct {
	// ID is the rule's id, "bash." and the file's name without .toml:
	// the block's rule: line.
	ID string
	// Source names where the rule was read from, for --explain and
	// shrinkrun rules list.
	Source      string
	Description string
	// Commands are the argv[0] names the rule routes on.
	Commands []string
	// Usage lists the command forms --help shows.
	Usage []string
	// Translated tells that the tool translates the messages the rule
	// reads: in a locale that would translate them it passes through.
	Translated bool

	subcommands [][]string
	accept      []option // nil: every option that refuse does not name
	refuse      []option
	entries     []entry
	other       *entry
	failureSrc  []string
	failures    []*pattern
	// compile compiles the patterns, once: on the first command the rule
	// is asked about, not when the file is read, so that a rule file whose
	// commands are not run costs no regexp compilation (Check compiles
	// them at once, for the verbs that report a file).
	compile func() error
}

// keep is what becomes of the lines an entry matches.
type keep int

const (
	keepList keep = iota
	keepCount
	keepField
	keepDrop
)

// entry is one [[lines]] table, or [other].
type entry struct {
	name    string
	src     string   // the pattern; "" for [other]
	pattern *pattern // src compiled (Rule.compile)
	keep    keep
	max     int
	last    bool   // a list keeps its last max lines; a field its last line
	unique  bool   // a list shows each distinct line once
	tally   string // a list's count of its lines, under this name, before it
}

// file is the format as TOML decodes it.
type file struct {
	Description string    `toml:"description"`
	Translated  bool      `toml:"translated"`
	Match       matchSpec `toml:"match"`
	Lines       []lines   `toml:"lines"`
	Other       *lines    `toml:"other"`
	Failures    []string  `toml:"failures"`
}

type matchSpec struct {
	Command    []string `toml:"command"`
	Subcommand []string `toml:"subcommand"`
	Accept     []string `toml:"accept"`
	Refuse     []string `toml:"refuse"`
	Usage      []string `toml:"usage"`
}

type lines struct {
	Name   string `toml:"name"`
	Match  string `toml:"match"`
	Keep   string `toml:"keep"`
	Max    int    `toml:"max"`
	At     string `toml:"at"`
	Unique bool   `toml:"unique"`
	Tally  string `toml:"tally"`
}

// Error is a rule file that does not load: where and why.
type Error struct {
	Source string
	Line   int // 0 when the error has no place in the file
	Col    int
	Msg    string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Source, e.Line, e.Col, e.Msg)
	}
	return e.Source + ": " + e.Msg
}

// ID returns the id of the rule in the file named name (a base name or a
// path): "bash." and the name without .toml. ok is false when the name
// cannot be an id: it must end in .toml and be lowercase letters, digits
// and underscores.
func ID(name string) (id string, ok bool) {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	base, found := strings.CutSuffix(name, ".toml")
	if !found || !isName(base) {
		return "", false
	}
	return "bash." + base, true
}

// isName reports whether s is a field or rule name: a lowercase letter,
// then lowercase letters, digits and underscores.
func isName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// reserved are the keys the header and the core write: a rule's field may
// not take one, nor end like the keys the core derives from a field's.
var reserved = []string{
	"tool", "rule", "command", "success", "exit_code", "raw_stdout_bytes", "raw_stderr_bytes",
	"stdout_truncated", "stderr_truncated", "compression", "raw_output",
	"fallback", "failure_lines", "failures", "cut_by", "lines_seen",
}

// Parse reads the rule file name (its base name gives the id; source is
// where it was read from, for messages) from src.
func Parse(name, source string, src []byte) (*Rule, error) {
	fail := func(format string, args ...any) error {
		return &Error{Source: source, Msg: fmt.Sprintf(format, args...)}
	}
	id, ok := ID(name)
	if !ok {
		return nil, fail("a rule file's name must be NAME.toml, NAME in lowercase letters, digits and _ (it gives the rule's id, bash.NAME)")
	}
	if len(src) > MaxFileBytes {
		return nil, fail("%d bytes: a rule file holds at most %d", len(src), MaxFileBytes)
	}
	var f file
	md, err := toml.Decode(string(src), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{Source: source, Line: pe.Position.Line, Col: pe.Position.Col, Msg: pe.Message}
		}
		return nil, fail("%v", err)
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		k := keys[0]
		if len(k) == 2 && slices.Contains([]string{"description", "translated", "failures"}, k[1]) {
			return nil, fail("unknown key %s: %s belongs before the first [table] (in TOML, a key under a table header is the table's)", k, k[1])
		}
		return nil, fail("unknown key %s (docs/rules.md lists the format's keys)", k)
	}
	r := &Rule{ID: id, Source: source, Description: f.Description, Translated: f.Translated}
	if err := r.readMatch(f.Match); err != nil {
		return nil, fail("[match]: %v", err)
	}
	patterns := len(f.Failures)
	if len(f.Lines) > MaxEntries {
		return nil, fail("%d [[lines]] entries: at most %d", len(f.Lines), MaxEntries)
	}
	seen := map[string]bool{}
	for i, l := range f.Lines {
		e, err := readEntry(l, false, seen)
		if err != nil {
			return nil, fail("[[lines]] %d: %v", i+1, err)
		}
		r.entries = append(r.entries, e)
		patterns++
	}
	if f.Other != nil {
		e, err := readEntry(*f.Other, true, seen)
		if err != nil {
			return nil, fail("[other]: %v", err)
		}
		r.other = &e
	}
	if patterns > MaxPatterns {
		return nil, fail("%d patterns: a rule holds at most %d", patterns, MaxPatterns)
	}
	for i, p := range f.Failures {
		if err := checkPattern(p); err != nil {
			return nil, fail("failures %d: %v", i+1, err)
		}
	}
	r.failureSrc = f.Failures
	r.compile = sync.OnceValue(func() error {
		for i := range r.entries {
			e := &r.entries[i]
			p, err := compilePattern(e.src)
			if err != nil {
				return fail("[[lines]] %s: pattern %q: %v", e.name, e.src, err)
			}
			e.pattern = p
		}
		for i, p := range r.failureSrc {
			pt, err := compilePattern(p)
			if err != nil {
				return fail("failures %d: pattern %q: %v", i+1, p, err)
			}
			r.failures = append(r.failures, pt)
		}
		return nil
	})
	return r, nil
}

// Check compiles the rule's patterns now and says which one does not: a
// rule is read without compiling them (Parse), and a pattern that does
// not compile makes the rule pass its commands through when asked.
func (r *Rule) Check() error { return r.compile() }

func (r *Rule) readMatch(m matchSpec) error {
	if len(m.Command) == 0 {
		return errors.New("command is required: the names the rule's commands start with")
	}
	for _, c := range m.Command {
		if c == "" || strings.ContainsAny(c, "/ \t\n=") {
			return fmt.Errorf("command %q: a program's name, without a path", c)
		}
	}
	r.Commands = m.Command
	for _, s := range m.Subcommand {
		words := strings.Fields(s)
		if len(words) == 0 || slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "-") }) {
			return fmt.Errorf("subcommand %q: one or more words, none an option", s)
		}
		r.subcommands = append(r.subcommands, words)
	}
	var err error
	if m.Accept != nil {
		if r.accept, err = readOptions("accept", m.Accept); err != nil {
			return err
		}
		if r.accept == nil {
			r.accept = []option{} // accept = []: no option at all
		}
	}
	if r.refuse, err = readOptions("refuse", m.Refuse); err != nil {
		return err
	}
	r.Usage = m.Usage
	if len(r.Usage) == 0 {
		form := r.Commands[0]
		if len(r.subcommands) > 0 {
			form += " " + strings.Join(r.subcommands[0], " ")
		}
		r.Usage = []string{form}
	}
	return nil
}

func readEntry(l lines, other bool, seen map[string]bool) (entry, error) {
	e := entry{name: l.Name, max: l.Max, unique: l.Unique}
	if err := fieldName(l.Name, seen); err != nil {
		return e, err
	}
	switch {
	case other && l.Match != "":
		return e, errors.New("[other] takes the lines no [[lines]] entry matched: it has no match")
	case !other:
		if err := checkPattern(l.Match); err != nil {
			return e, err
		}
		e.src = l.Match
	}
	switch l.Keep {
	case "", "list":
		e.keep = keepList
	case "count":
		e.keep = keepCount
	case "field":
		e.keep = keepField
		e.last = true
	case "drop":
		e.keep = keepDrop
	default:
		return e, fmt.Errorf("keep %q: list, count, field or drop", l.Keep)
	}
	if other && e.keep != keepList && e.keep != keepCount && e.keep != keepDrop {
		return e, fmt.Errorf("[other] keeps a list, a count or nothing (drop), not %s", l.Keep)
	}
	switch l.At {
	case "":
	case "first":
		e.last = false
	case "last":
		e.last = true
	default:
		return e, fmt.Errorf("at %q: first or last", l.At)
	}
	if e.keep != keepList && (l.Max != 0 || l.Unique || l.Tally != "") {
		return e, errors.New("max, unique and tally are for a list")
	}
	if l.Tally != "" {
		if err := fieldName(l.Tally, seen); err != nil {
			return e, fmt.Errorf("tally: %v", err)
		}
		e.tally = l.Tally
	}
	if e.keep == keepCount || e.keep == keepDrop {
		if l.At != "" {
			return e, errors.New("at is for a list or a field")
		}
	}
	switch {
	case e.keep != keepList:
	case l.Max == 0:
		e.max = DefaultMaxList
	case l.Max < 0 || l.Max > MaxListItems:
		return e, fmt.Errorf("max %d: from 1 to %d", l.Max, MaxListItems)
	}
	return e, nil
}

// fieldName checks the name of a field a rule writes: not one the header
// or the core writes, nor one of seen, the rule's other names, to which
// it is added.
func fieldName(name string, seen map[string]bool) error {
	switch {
	case !isName(name):
		return fmt.Errorf("name %q: a field's name is lowercase letters, digits and _, starting with a letter", name)
	case slices.Contains(reserved, name) || strings.HasSuffix(name, "_omitted") || strings.HasSuffix(name, "_seen"):
		return fmt.Errorf("name %q is one shrinkrun writes itself", name)
	case seen[name]:
		return fmt.Errorf("name %q: two fields have it", name)
	}
	seen[name] = true
	return nil
}

// checkPattern checks what can be checked of a pattern without compiling
// it.
func checkPattern(p string) error {
	switch {
	case p == "":
		return errors.New("match is required: the pattern of the lines it takes")
	case len(p) > MaxPatternLen:
		return fmt.Errorf("a pattern of %d bytes: at most %d", len(p), MaxPatternLen)
	}
	return nil
}
