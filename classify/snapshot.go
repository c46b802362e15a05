package classify

import (
	"regexp"
	"slices"
)

// The envelope sources Claude Code's shell snapshot before it evals the
// model's command, and the snapshot defines the user's aliases and
// functions (and turns expand_aliases on): `alias git='git -c
// status.showUntrackedFiles=no'` there makes `git status` another command
// than the one a rule reads. 2.1.332 writes a bash snapshot as
//
//	# Functions
//	eval $'cargo () \n{ \n    command cargo "$@"\n}' > /dev/null 2>&1
//	...
//	shopt -s expand_aliases
//	# Aliases
//	alias -- git='git -c status.showUntrackedFiles=no'
//	...
//	function grep {   (its own: grep, find and rg run its embedded ugrep,
//	                   bfs and rg)
//
// (recorded with the real client; docs/agents.md).

// Redefinition is how a snapshot redefines a command name.
type Redefinition int

const (
	// NotRedefined: the name runs the program on PATH.
	NotRedefined Redefinition = iota
	// Shadowed: Claude Code's own function for grep, find or rg, which runs
	// its embedded ugrep, bfs or rg with the same options: a line filter
	// still, another program's output as a command of its own.
	Shadowed
	// Redefined: an alias or a function of the user's, which may run
	// anything.
	Redefined
)

// clientShadows are the names Claude Code defines itself, as
// `function NAME {`.
var clientShadows = []string{"grep", "find", "rg"}

// Redefines tells how a shell snapshot's text redefines name.
func Redefines(snapshot []byte, name string) Redefinition {
	q := regexp.QuoteMeta(name)
	user := regexp.MustCompile(`(?m)^[ \t]*(?:` +
		// alias NAME=..., alias -- NAME=..., alias 'NAME'=...
		`alias(?:[ \t]+-[-p])*[ \t]+['"]?` + q + `['"]?=` +
		// eval $'NAME () ...': a function as Claude Code serializes it
		`|eval(?:[ \t]+--)?[ \t]+(?:\$?['"])?` + q + `[ \t]*\\?\(` + `)`)
	if user.Match(snapshot) {
		return Redefined
	}
	plain := regexp.MustCompile(`(?m)^[ \t]*(?:function[ \t]+` + q + `[ \t]*(?:\(\)[ \t]*)?(?:\{|$)|` + q + `[ \t]*\(\))`)
	if plain.Match(snapshot) {
		if slices.Contains(clientShadows, name) {
			return Shadowed
		}
		return Redefined
	}
	return NotRedefined
}
