package summarize

// goVet summarizes bash.go_vet exactly as go_build: vet's findings and the
// type errors that stop it ("vet: file.go:1:2: ...") are file.go:line:col
// diagnostics grouped under "# pkg" headers, and go vet -c=N's context
// lines ("12\tsource") stay under the finding they belong to. Since go 1.26
// vet prints a header only before type errors, so findings without one
// follow whatever header came last, as in the raw output; their paths
// name their package.
func goVet(r *Run) *Body {
	return goDiagBody(r)
}
