package summarize

import "strings"

// lines splits captured output into lines without their terminators ("\n"
// or "\r\n"). A final line without a newline is kept; a trailing newline
// does not produce an empty last line.
func lines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(b), "\n")
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}
