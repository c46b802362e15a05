package summarize

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSummarize feeds every rule arbitrary output, seeded with the real
// corpus and hostile shapes. The oracle: no panic, valid UTF-8, the same
// bytes twice, within the budget unless only counts are left, and the
// boundary check holds on the final block.
func FuzzSummarize(f *testing.F) {
	for _, c := range loadCorpus(f) {
		f.Add(c.run.Stdout, c.run.Stderr, uint8(0), 0)
	}
	f.Add([]byte("\x00\xff\xfe binary\r\nerror[E0425]: x\r\n  --> src/a.rs:1:2\r\n"), []byte{}, uint8(1), 0)
	f.Add([]byte("50%\r100%\rtest a ... FAILED\n\x1b[31mred\x1b[0m\n"), []byte("fatal: \xff"), uint8(2), 101)
	f.Add([]byte(strings.Repeat("x", 70000)), []byte(strings.Repeat("error: y\n", 3000)), uint8(3), 1)
	rules := slices.Sorted(func(yield func(string) bool) {
		for k := range familyRules {
			if !yield(k) {
				return
			}
		}
	})
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, rule uint8, exit int) {
		r := &Run{
			Rule:        rules[int(rule)%len(rules)],
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
		block, ok := BlockOf(r)
		if !ok {
			t.Fatal("no block")
		}
		again, _ := BlockOf(r)
		if !bytes.Equal(block, again) {
			t.Fatal("not deterministic")
		}
		if !utf8.Valid(block) {
			t.Fatalf("invalid UTF-8: %q", block)
		}
		if len(block) > r.Budget && bytes.Contains(block, []byte("\n- ")) {
			t.Fatalf("%d bytes over budget %d with list items left", len(block), r.Budget)
		}
		if missing, ok := accounted(findFailures(readable(r), familyFinders), block); !ok {
			t.Fatalf("%d failures neither shown nor counted:\n%s", missing, block)
		}
	})
}
