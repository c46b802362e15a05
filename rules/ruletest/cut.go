package ruletest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// Cutter cuts a corpus run as a filter after the command would, for the
// cut fuzzers and tests: classify is the table's string classifier (so the
// run's Cut, Argv and exit status are what a real run would give), Words
// picks the words a grep cut uses (ones that need no quoting), and
// Fallback is the word used on a line that has none.
type Cutter struct {
	Classify func(src string) classify.Result
	Words    *regexp.Regexp
	Fallback string
}

// Cut returns run's output as a filter leaves it: kind 0 is head -n, 1 tail
// -n, 2 grep -F WORD, 3 grep -vF WORD, WORD taken from the line pick
// chooses. The command stays the run's rule's; the exit status is the
// filter's (grep's 1 when it printed nothing).
func (c Cutter) Cut(t testing.TB, run *summarize.Run, kind, n int, pick uint32) *summarize.Run {
	r := *run
	var filter string
	switch kind {
	case 0:
		filter = "head -" + strconv.Itoa(n)
		r.Stdout = Head(run.Stdout, n)
	case 1:
		filter = "tail -" + strconv.Itoa(n)
		r.Stdout = Tail(run.Stdout, n)
	default:
		lines := strings.Split(strings.TrimSuffix(string(run.Stdout), "\n"), "\n")
		words := c.Words.FindAllString(lines[int(pick)%len(lines)], -1)
		word := c.Fallback
		if len(words) > 0 {
			word = words[int(pick/7)%len(words)]
		}
		invert := kind == 3
		filter = "grep -F " + word
		if invert {
			filter = "grep -vF " + word
		}
		r.Stdout = Grep(run.Stdout, func(l string) bool { return strings.Contains(l, word) != invert })
	}
	r.Command = run.Command + " | " + filter
	cls := c.Classify(r.Command)
	if cls.Rule != run.Rule {
		t.Fatalf("%s: classified %q, want %s", r.Command, cls.Rule, run.Rule)
	}
	r.Cut = summarize.Cut(cls.Cuts())
	r.Argv = cls.Tool()
	r.StdoutBytes = int64(len(r.Stdout))
	r.ExitCode = 0
	if kind >= 2 && len(r.Stdout) == 0 {
		r.ExitCode = 1
	}
	return &r
}
