// Package setting reads shrinkrun's boolean settings from the environment
// one way for all of them (SHRINKRUN_DISABLE, SHRINKRUN_HISTORY), so that a
// value one of them understands is never ignored by another.
package setting

import "strings"

// Bool reads a boolean setting: 1, true, on and yes are true; 0, false, off
// and no are false, in any case and with surrounding spaces. ok is false
// for anything else, the empty string included: the caller keeps its
// default, and `shrinkrun doctor` names the value it could not read.
func Bool(s string) (value, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "on", "yes":
		return true, true
	case "0", "false", "off", "no":
		return false, true
	}
	return false, false
}

// Disabled reports whether SHRINKRUN_DISABLE turns summaries off: it is
// set to a true value.
func Disabled(getenv func(string) string) bool {
	v, _ := Bool(getenv("SHRINKRUN_DISABLE"))
	return v
}

// Booleans are the boolean settings, for doctor to check.
var Booleans = []string{"SHRINKRUN_DISABLE", "SHRINKRUN_HISTORY"}
