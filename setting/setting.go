// Package setting reads shrinkrun's settings from the environment, one way
// for all of them, so that a value one of them understands is never
// ignored by another, and so that a value none understands is reported the
// same way everywhere: by the run on stderr, and by doctor.
//
// A setting in the environment is never a reason for a command not to run.
// It is set once, for every command a session runs (Claude Code's shell
// prefix, an agent's environment); a typo there would otherwise break each
// of them. A value shrinkrun cannot use is reported, naming the variable,
// and the default applies. Only a flag on shrinkrun's own command line is a
// usage error.
package setting

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/agents/clients"
)

// Bool reads a boolean setting: 1, true, on and yes are true; 0, false, off
// and no are false, in any case and with surrounding spaces. ok is false
// for anything else, the empty string included: the caller keeps its
// default, and the value is reported (Check).
func Bool(s string) (value, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "on", "yes":
		return true, true
	case "0", "false", "off", "no":
		return false, true
	}
	return false, false
}

// Count reads a non-negative whole number. A number too large for int64
// is math.MaxInt64: as much "no limit" as a product that overflows. ok is
// false for anything else, the empty string included.
func Count(s string) (n int64, ok bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-"):
		return math.MaxInt64, true
	case err != nil || n < 0:
		return 0, false
	}
	return n, true
}

// Disabled reports whether SHRINKRUN_DISABLE turns summaries off: it is
// set to a true value.
func Disabled(getenv func(string) string) bool {
	v, _ := Bool(getenv("SHRINKRUN_DISABLE"))
	return v
}

// CutOff reports whether SHRINKRUN_CUT turns the cut by shape off: it is
// set to a false value. Output no rule recognizes then passes through
// whole, whatever its size.
func CutOff(getenv func(string) string) bool {
	v, ok := Bool(getenv("SHRINKRUN_CUT"))
	return ok && !v
}

// The smallest block budget (a header and a few lines) and the smallest
// limit past which output is cut by shape.
const (
	MinBudget   = 512
	MinCutLimit = 1024
)

// Budget reads SHRINKRUN_BUDGET: a number of bytes, at least MinBudget,
// or def when it is unset or holds anything else (Check reports it).
func Budget(getenv func(string) string, def int) int {
	if n, ok := Count(getenv("SHRINKRUN_BUDGET")); ok && n >= MinBudget && n <= math.MaxInt32 {
		return int(n)
	}
	return def
}

// CutLimit reads SHRINKRUN_CUT_LIMIT: a number of bytes, at least
// MinCutLimit, or def when it is unset or holds anything else (Check
// reports it).
func CutLimit(getenv func(string) string, def int) int {
	if n, ok := Count(getenv("SHRINKRUN_CUT_LIMIT")); ok && n >= MinCutLimit && n <= math.MaxInt32 {
		return int(n)
	}
	return def
}

// Agent reads SHRINKRUN_AGENT: a client shrinkrun knows, or "" when it is
// unset or names another (Check reports it).
func Agent(getenv func(string) string) clients.Name {
	if n := clients.Name(getenv("SHRINKRUN_AGENT")); clients.Known(n) {
		return n
	}
	return ""
}

// setting is one environment setting: what it wants, and whether a
// non-empty value is one.
type setting struct {
	name, want string
	valid      func(string) bool
}

var settings = []setting{
	{"SHRINKRUN_DISABLE", "1 or 0: true/false, yes/no, on/off", isBool},
	{"SHRINKRUN_HISTORY", "1 or 0: true/false, yes/no, on/off", isBool},
	{"SHRINKRUN_CUT", "1 or 0: true/false, yes/no, on/off", isBool},
	{"SHRINKRUN_AGENT", "claude, codex, gemini, opencode, copilot or qwen", func(s string) bool { return clients.Known(clients.Name(s)) }},
	{"SHRINKRUN_BUDGET", fmt.Sprintf("a number of bytes, at least %d", MinBudget), func(s string) bool {
		return Budget(func(string) string { return s }, 0) != 0
	}},
	{"SHRINKRUN_CUT_LIMIT", fmt.Sprintf("a number of bytes, at least %d", MinCutLimit), func(s string) bool {
		return CutLimit(func(string) string { return s }, 0) != 0
	}},
	{"SHRINKRUN_KEEP_DAYS", "a whole number of days, 0 or more", isCount},
	{"SHRINKRUN_KEEP_MB", "a whole number of MiB, 0 or more", isCount},
}

func isBool(s string) bool {
	_, ok := Bool(s)
	return ok
}

func isCount(s string) bool {
	_, ok := Count(s)
	return ok
}

// Ignored is a setting whose value shrinkrun cannot use.
type Ignored struct {
	Name, Value, Want string
}

func (e Ignored) Error() string {
	return fmt.Sprintf("%s=%s is ignored (want %s); the default applies", e.Name, e.Value, e.Want)
}

// Check returns every setting in the environment that holds a value
// shrinkrun cannot use. An empty value is unset.
func Check(getenv func(string) string) []Ignored {
	var bad []Ignored
	for _, s := range settings {
		if v := getenv(s.name); v != "" && !s.valid(v) {
			bad = append(bad, Ignored{s.name, v, s.want})
		}
	}
	return bad
}
