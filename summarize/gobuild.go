package summarize

// goBuild summarizes bash.go_build: the exit code, the number of
// diagnostics with a file.go:line location, of other messages (import
// cycles, missing modules, "too many errors") and of packages reported,
// and every diagnostic with its continuation lines, grouped under its
// package's "# pkg" header as go prints them. A clean build prints
// nothing, so its block is never smaller than the raw output and the raw
// output is shown.
func goBuild(r *Run) *Body {
	return goDiagBody(r)
}

// goDiagBody is the body of go_build and go_vet, whose outputs are the
// same shape: "# pkg" headers and messages on stderr (stdout after 2>&1).
func goDiagBody(r *Run) *Body {
	var d goDiags
	ReadStreams(&d, r.Stderr, r.Stdout)
	b := &Body{}
	b.Field("exit_code", r.ExitCodeValue())
	b.Count("errors", d.errors)
	b.Count("messages", d.messages)
	b.Count("packages", d.headers)
	room := r.BodyRoom() - len(b.Render())
	if d.lost > 0 {
		room -= len("diagnostic_lines_omitted: 0000000000\n")
	}
	items := d.list()
	n, _ := FitHead("diagnostics", items, d.total, maxGoDiags, room)
	AddHead(b, "diagnostics", items, d.total, n)
	if d.lost > 0 {
		b.Count("diagnostic_lines_omitted", d.lost)
	}
	return b
}
