// Package setting reads shrinkrun's boolean settings from the environment
// one way for all of them (SHRINKRUN_DISABLE, SHRINKRUN_HISTORY,
// SHRINKRUN_CUT), so that a
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

// CutOff reports whether SHRINKRUN_CUT turns the cut by shape off: it is
// set to a false value. Output no rule recognizes then passes through
// whole, whatever its size.
func CutOff(getenv func(string) string) bool {
	v, ok := Bool(getenv("SHRINKRUN_CUT"))
	return ok && !v
}

// Booleans are the boolean settings, for doctor to check.
var Booleans = []string{"SHRINKRUN_DISABLE", "SHRINKRUN_HISTORY", "SHRINKRUN_CUT"}
