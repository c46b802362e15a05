package shape

// Logs keep their errors and warnings, with the line before and after an
// error as its context: errors are failure lines (fail.go); a warning
// ranks above ordinary lines, below failures and the project's frames.
// Runs of log lines that differ only in their timestamps and ids fold as
// similar lines (repeat.go).

// isWarning reports whether a line is a warning: WARN or WARNING as a
// word, "warning:" or "Warning:", or a Python warning category
// ("DeprecationWarning: ...").
func isWarning(l []byte) bool {
	for i := 0; i < len(l); {
		if !isWordByte(l[i]) {
			i++
			continue
		}
		j := i
		for j < len(l) && isWordByte(l[j]) {
			j++
		}
		w := string(l[i:j])
		switch {
		case w == "WARN" || w == "WARNING":
			return true
		case j < len(l) && l[j] == ':' && (w == "warning" || w == "Warning" || len(w) > len("Warning") && w[len(w)-len("Warning"):] == "Warning"):
			return true
		}
		i = j
	}
	return false
}
