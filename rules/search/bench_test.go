package search_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// BenchmarkLargeSearch is Block on the corpus' searches with thousands of
// matches in hundreds of files (3569 matching lines in 309 files).
//
//	go test ./rules/search -run '^$' -bench LargeSearch
func BenchmarkLargeSearch(b *testing.B) {
	for _, c := range ruletest.Corpus(b, "testdata") {
		switch c.Name {
		case "rg/proj_n", "grep/proj_rn", "git_grep/n":
		default:
			continue
		}
		b.Run(c.Name, func(b *testing.B) {
			b.SetBytes(int64(len(c.Run.Stdout) + len(c.Run.Stderr)))
			for b.Loop() {
				rules.Block(c.Run)
			}
		})
	}
}
