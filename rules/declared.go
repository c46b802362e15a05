package rules

import (
	"embed"

	"github.com/shrinkrun/shrinkrun/rules/declare"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// Rules written in the format (package declare) are entries of the table
// like the others: the shipped ones in Table's "shipped" family, read on
// first use; the user's and the trusted project's, which Declare puts
// before Table, so that they are asked first.
//
// A rule read from a file overrides a rule of the table in two ways. One
// with the same id replaces it: the table's is never asked (Lookup,
// Match), as when a user edits a rule ejected from the shipped ones. One
// with another id is asked first: a command it accepts or refuses is
// decided by it, one it does not claim goes on to the table.

// declared holds the rules read from files, one Family each, in the order
// Declare was given them.
var declared []Family

// Declare puts rs, rules read from files, before the table, in the order
// they are to be asked (package layers gives the trusted project's, then
// the user's), for every lookup that follows. When two have the same id,
// the first is the rule of that id. It is called once, before a command is
// classified; a later call replaces what an earlier one declared.
func Declare(rs []*declare.Rule) {
	declared = nil
	for _, r := range rs {
		if isDeclared(r.ID) {
			continue
		}
		declared = append(declared, Family{Name: r.ID, Rules: []Rule{{
			ID: r.ID, Commands: r.Commands, Usage: r.Usage, Source: r.Source,
			Match: r.Match, Summarize: r.Summarize, Finder: r, Env: r.Env,
		}}})
	}
}

// Declared returns the rules Declare put before the table, in order.
func Declared() []Rule {
	rs := make([]Rule, len(declared))
	for i, f := range declared {
		rs[i] = f.Rules[0]
	}
	return rs
}

func isDeclared(id string) bool {
	for _, f := range declared {
		if f.Rules[0].ID == id {
			return true
		}
	}
	return false
}

// overridden reports whether a rule read from a file has the id of a
// rule of the table, which it replaces.
func overridden(id string) bool { return len(declared) > 0 && isDeclared(id) }

// shippedFiles are the rule files compiled into shrinkrun
// (rules/shipped/testdata/NAME.toml) and their test cases, which shrinkrun
// rules eject copies out with them.
//
//go:embed shipped/testdata/*.toml shipped/testdata/*/*.meta shipped/testdata/*/*.stdout shipped/testdata/*/*.stderr shipped/testdata/*/*.golden
var shippedFiles embed.FS

// shipped is the table's entry for the shipped rule file name: its
// commands and command forms are written here too, so that routing a
// command reads no file (TestShipped holds them to the file's).
func shipped(name string, commands []string, usage ...string) Rule {
	l := declare.Embedded(shippedFiles, "shipped/testdata/"+name, "rules/shipped/testdata/"+name)
	return Rule{ID: l.ID(), Commands: commands, Usage: usage, Source: l.Path(),
		Match: l.Match, Summarize: l.Summarize, Finder: l, Env: l.Env}
}

// Shipped returns the rule files compiled into shrinkrun, for shrinkrun
// rules eject and the tests.
func Shipped() []*declare.Lazy {
	var ls []*declare.Lazy
	for _, f := range Table {
		for _, r := range f.Rules {
			if l, ok := r.Finder.(*declare.Lazy); ok {
				ls = append(ls, l)
			}
		}
	}
	return ls
}

// noFinder is the finder of the shipped family: each of its rules finds
// its own failures (Rule.Finder), in its own output only.
var noFinder = summarize.StreamFinder(func(*summarize.Run, summarize.Stream) {})
