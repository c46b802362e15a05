package python_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// cutWords are what agents grep python tools' output for, and grep -v out.
var cutWords = []string{"FAILED", "Error", "error", "passed", "E ", "::", "note:", "Successfully", "ERROR", "Processing", "warning", "_", "FAIL", " ok", "Traceback", "File", "Ran"}

// FuzzCut cuts the real outputs of the corpus's uncut runs as agents pipe
// them, at random: head and tail of random lengths, grep and grep -v of a
// word, with stderr merged into stdout (2>&1) or not, Run.Cut set as
// classify sets it for the command, and the exit status the filter's.
// Each block must be a valid one that checkBlock, the reference oracle,
// finds nothing wrong with: no count the cut text contradicts, no visible
// failure left out.
func FuzzCut(f *testing.F) {
	var whole []ruletest.Case
	for _, c := range ruletest.Corpus(f, "testdata") {
		if len(c.Run.Cut.By) == 0 && !strings.Contains(c.Run.Command, "2>&1") {
			whole = append(whole, c)
		}
	}
	for i := range whole {
		f.Add(uint16(i), uint8(i%8), uint16(3+i%40), uint8(i))
	}
	f.Fuzz(func(t *testing.T, which uint16, mode uint8, n uint16, word uint8) {
		c := whole[int(which)%len(whole)]
		r := *c.Run
		cmd, stdout, stderr := r.Command, r.Stdout, r.Stderr
		if mode&4 != 0 {
			cmd += " 2>&1"
			stdout, stderr = append(bytes.Clone(stdout), stderr...), nil
		}
		w := cutWords[int(word)%len(cutWords)]
		switch mode % 4 {
		case 0:
			cmd += fmt.Sprintf(" | head -%d", n)
			stdout = ruletest.Head(stdout, int(n))
		case 1:
			cmd += fmt.Sprintf(" | tail -%d", n)
			stdout = ruletest.Tail(stdout, int(n))
		case 2:
			cmd += fmt.Sprintf(" | grep '%s'", w)
			stdout = ruletest.Grep(stdout, func(l string) bool { return strings.Contains(l, w) })
		case 3:
			cmd += fmt.Sprintf(" | grep -v '%s'", w)
			stdout = ruletest.Grep(stdout, func(l string) bool { return !strings.Contains(l, w) })
		}
		cl := classify.String(cmd, func([]string) classify.Verdict { return classify.Verdict{Rule: "fixture"} })
		if len(cl.Stages) == 0 {
			t.Fatalf("%q does not take apart: %s", cmd, cl.Explain())
		}
		r.Command, r.Cut = cmd, summarize.Cut(cl.Cuts())
		r.Stdout, r.Stderr = stdout, stderr
		r.StdoutBytes, r.StderrBytes = int64(len(stdout)), int64(len(stderr))
		r.ExitCode, r.Exited = 0, true
		block, ok := rules.Block(&r)
		if !ok {
			t.Fatalf("%s (%s): no block", c.Name, cmd)
		}
		if problems := checkBlock(&r, block); len(problems) > 0 {
			t.Fatalf("%s (%s):\n  %s\n%s", c.Name, cmd, strings.Join(problems, "\n  "), block)
		}
	})
}
