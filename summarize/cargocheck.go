package summarize

// cargoCheck summarizes bash.cargo_check. TODO: being written.
func cargoCheck(r *Run) *Body {
	return &Body{}
}
