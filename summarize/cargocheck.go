package summarize

// cargoCheck summarizes bash.cargo_check: the exit code, exact counts of
// warnings and errors, the distinct error codes, cargo's final status line
// and every diagnostic line with its primary location (errors first, then a
// few warnings), within the block budget. Diagnostics go to stderr, but
// both streams are read so that "cargo check 2>&1" gives the same body.
func cargoCheck(r *Run) *Body {
	var c cargoLog
	ReadStreams(&c, r.Stderr, r.Stdout)

	b := &Body{}
	b.Field("exit_code", r.ExitCodeValue())
	c.addBuildFields(b)

	room := r.BodyRoom() - len(b.Render())
	items, limit := c.diagnosticItems()
	n, _ := FitList("diagnostics", items, limit, room)
	AddList(b, "diagnostics", items, n)
	return b
}
