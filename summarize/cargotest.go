package summarize

// cargoTest summarizes bash.cargo_test. TODO: being written.
func cargoTest(r *Run) *Body {
	return &Body{}
}
