package shape

import "bytes"

// Logs keep their errors and warnings, with the line before and after an
// error as its context: errors are failure lines (fail.go); a warning
// ranks above ordinary lines, below failures and the project's frames.
// Runs of log lines that differ only in their timestamps and ids fold as
// similar lines (repeat.go).

// isWarning reports whether a line is a warning: WARN or WARNING as a
// word, "warning:" or "Warning:", or a Python warning category
// ("DeprecationWarning: ...").
func isWarning(l []byte) bool {
	if !bytes.Contains(l, []byte("WARN")) && !bytes.Contains(l, []byte("arning")) {
		return false
	}
	for i := 0; i < len(l); {
		if !isWordByte(l[i]) {
			i++
			continue
		}
		j := i
		for j < len(l) && isWordByte(l[j]) {
			j++
		}
		w := l[i:j]
		switch {
		case string(w) == "WARN" || string(w) == "WARNING":
			return true
		case j < len(l) && l[j] == ':' && (string(w) == "warning" || bytes.HasSuffix(w, []byte("Warning"))):
			return true
		}
		i = j
	}
	return false
}
