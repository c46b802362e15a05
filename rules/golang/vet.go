package golang

import (
	"slices"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchVet recognizes go vet but with the flags of vetFormats.
func MatchVet(argv []string) classify.Answer {
	if a, ok := matchSub(argv, "vet"); !ok {
		return a
	}
	return matchFlags(argv, 2, vetFormats, false)
}

// vetFormats: -json prints the diagnostics as JSON, -fix and -diff the
// fixes, -v the packages.
var vetFormats = slices.Concat([]string{"-json", "-fix", "-diff", "-v"}, buildFlags)

// Vet summarizes bash.go_vet exactly as go_build: vet's findings and the
// type errors that stop it ("vet: file.go:1:2: ...") are file.go:line:col
// diagnostics grouped under "# pkg" headers, and go vet -c=N's context
// lines ("12\tsource") stay under the finding they belong to. Since go 1.26
// vet prints a header only before type errors, so findings without one
// follow whatever header came last, as in the raw output; their paths
// name their package.
func Vet(r *summarize.Run) *summarize.Body {
	return goDiagBody(r)
}
