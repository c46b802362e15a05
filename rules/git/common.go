package git

import (
	"bytes"
	"iter"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Caps shared by the git rules.
const (
	// stderrCap bounds the stderr lines copied besides the fatal: and
	// error: lines.
	stderrCap = 20
	// failureCap bounds the fatal: and error: lines copied. git prints a
	// handful; the cap only matters for pathological output, whose extra
	// lines are counted like any others.
	failureCap = 200
	// otherCap bounds the stdout lines a rule did not recognize that it
	// copies; the rest are counted.
	otherCap = 50
)

// addStderr appends "stderr", the non-blank stderr lines in order. The
// fatal: and error: lines have their own, much higher cap than the others
// (warnings, hints, usage text), so that a failure survives (docs/design.md, Boundary check)
// however much noise comes before it. The lines left out go after the kept
// ones with the cap set at the kept count, so that Body counts them in
// stderr_omitted, together with any the budget takes later.
func addStderr(b *summarize.Body, stderr []byte) {
	var kept, dropped []string
	failures, others := 0, 0
	for l := range summarize.EachLine(stderr) {
		switch {
		case strings.TrimSpace(l) == "":
		case isGitFailure(l) && failures < failureCap:
			failures++
			kept = append(kept, l)
		case !isGitFailure(l) && others < stderrCap:
			others++
			kept = append(kept, l)
		default:
			dropped = append(dropped, l)
		}
	}
	// kept is empty only when dropped is: the first line of each kind is kept.
	b.List("stderr", append(kept, dropped...), len(kept))
}

// isGitFailure reports whether l is one of git's failure messages.
func isGitFailure(l string) bool {
	return strings.HasPrefix(l, "fatal:") || strings.HasPrefix(l, "error:")
}

// showCounts decides whether a rule prints its counts. They are printed when
// the rule recognized something in stdout, or when stdout is empty and the
// command succeeded (a clean status, an empty diff: zero is then the true
// answer). A failed command with empty stdout, or stdout the rule did not
// understand, gets no counts: a zero there would be a guess.
func showCounts(r *summarize.Run, recognized bool) bool {
	if recognized {
		return true
	}
	return len(bytes.TrimSpace(r.Stdout)) == 0 && r.Exited && r.ExitCode == 0
}

// byteLines yields the lines of b with their byte offset, without the
// terminating "\n" or "\r\n". Unlike lines it copies nothing, so a rule can
// walk a 100 MB diff and convert only the lines it keeps.
func byteLines(b []byte) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		off := 0
		for l := range bytes.Lines(b) {
			n := len(l)
			l = bytes.TrimSuffix(l, []byte("\n"))
			l = bytes.TrimSuffix(l, []byte("\r"))
			if !yield(off, l) {
				return
			}
			off += n
		}
	}
}
