package rules_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// FuzzSummarize feeds every rule arbitrary output, seeded with the real
// corpus and hostile shapes. The oracle: no panic, valid UTF-8, the same
// bytes twice, within the budget unless only counts are left, and the
// boundary check holds on the final block.
func FuzzSummarize(f *testing.F) {
	for _, c := range ruletest.Corpus(f, "*/testdata") {
		f.Add(c.Run.Stdout, c.Run.Stderr, uint8(0), 0)
	}
	f.Add([]byte("\x00\xff\xfe binary\r\nerror[E0425]: x\r\n  --> src/a.rs:1:2\r\n"), []byte{}, uint8(1), 0)
	f.Add([]byte("50%\r100%\rtest a ... FAILED\n\x1b[31mred\x1b[0m\n"), []byte("fatal: \xff"), uint8(2), 101)
	f.Add([]byte(strings.Repeat("x", 70000)), []byte(strings.Repeat("error: y\n", 3000)), uint8(3), 1)
	var ids []string
	for _, fam := range rules.Table {
		for _, r := range fam.Rules {
			ids = append(ids, r.ID)
		}
	}
	slices.Sort(ids)
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, rule uint8, exit int) {
		r := &summarize.Run{
			Rule:        ids[int(rule)%len(ids)],
			Command:     "fuzz",
			Stdout:      stdout,
			Stderr:      stderr,
			StdoutBytes: int64(len(stdout)),
			StderrBytes: int64(len(stderr)),
			ExitCode:    exit,
			Exited:      true,
			Budget:      2048,
			RawOutput:   "shrinkrun show 0123456789abcdef",
		}
		block, ok := rules.Block(r)
		if !ok {
			t.Fatal("no block")
		}
		again, _ := rules.Block(r)
		if !bytes.Equal(block, again) {
			t.Fatal("not deterministic")
		}
		if !utf8.Valid(block) {
			t.Fatalf("invalid UTF-8: %q", block)
		}
		if len(block) > r.Budget && bytes.Contains(block, []byte("\n- ")) {
			t.Fatalf("%d bytes over budget %d with list items left", len(block), r.Budget)
		}
		if missing := ruletest.Unaccounted(r, block, rules.Finders()); missing > 0 {
			t.Fatalf("%d failures neither shown nor counted:\n%s", missing, block)
		}
	})
}
