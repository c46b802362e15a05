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
	return anyWord(l, func(i, j int) bool {
		w := l[i:j]
		return string(w) == "WARN" || string(w) == "WARNING" ||
			j < len(l) && l[j] == ':' && (string(w) == "warning" || bytes.HasSuffix(w, []byte("Warning")))
	})
}
