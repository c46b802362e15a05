package classify

import (
	"fmt"
	"strings"
)

// A Matcher picks the rule for the first stage of a command: its argv, the
// assignments removed, never empty. String and Argv take one; package
// rules makes shrinkrun's from its table.
type Matcher func(argv []string) Verdict

// Verdict is the outcome of matching a first stage's argv: a rule, or the
// reason it passes through and the index of the word at fault.
type Verdict struct {
	Rule   string // the rule id; "" when the command passes through
	Reason string // why it passes through
	At     int    // the index in argv of the word the reason is about
	// Translated tells that the rule reads messages the tool translates
	// by the locale (git's, with gettext): Result.InLocale passes the
	// command through in a locale that would translate them.
	Translated bool
	// Launcher counts the words of argv that only launch the tool (pnpm
	// exec, uv run): the rule reads the rest (Result.Tool).
	Launcher int
	// Environ, when set, reads the child's environment (through getenv,
	// the command's own assignments first) and says why it changes the
	// output the rule reads, as an option would (npm's npm_config_json),
	// or "": Result.InEnviron passes the command through then.
	Environ func(getenv func(string) string) string
}

// Answer is what one rule's matcher says of a first stage's argv: that it
// is the rule's command (Accept), that it is but passes through (Refuse),
// or that it is not the rule's command at all (Other), in which case
// another rule routed on the same name may take it.
type Answer struct {
	Accepted bool
	// Mine tells that the command is the rule's own, accepted or
	// refused: its reason is the command's, and no other rule is asked.
	Mine   bool
	Reason string
	At     int
}

// Accept is the Answer of a rule that recognizes the command.
func Accept() Answer { return Answer{Accepted: true, Mine: true} }

// Refuse is the Answer of a rule whose command this is, which passes
// through all the same: an option changes the output format, help was
// asked for. at is the index of the word at fault.
func Refuse(at int, format string, args ...any) Answer {
	return Answer{Mine: true, Reason: fmt.Sprintf(format, args...), At: at}
}

// Other is the Answer of a rule that does not recognize the command as its
// own; the reason says why, for when no other rule does either.
func Other(at int, format string, args ...any) Answer {
	return Answer{Reason: fmt.Sprintf(format, args...), At: at}
}

// HelpFlag finds a help or version request from argv[from] on: the output
// is then a manual, not what the rule summarizes.
func HelpFlag(argv []string, from int) (Answer, bool) {
	for j := from; j < len(argv); j++ {
		switch argv[j] {
		case "--help", "-h", "--version", "-V":
			return Refuse(j, "help or version requested (%s)", argv[j]), true
		}
	}
	return Answer{}, false
}

// FormatFlag returns the index of the first word from argv[from] on that
// starts with one of the long options, or is a short-option cluster (-abc)
// containing one of the short letters; -1 when there is none. Every word is
// checked, values and paths included: a false match only passes through.
func FormatFlag(argv []string, from int, long []string, short string) int {
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short) {
			return j
		}
		for _, l := range long {
			if strings.HasPrefix(a, l) {
				return j
			}
		}
	}
	return -1
}
