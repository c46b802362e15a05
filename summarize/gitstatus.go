package summarize

// gitStatus summarizes bash.git_status. TODO: being written.
func gitStatus(r *Run) *Body {
	return &Body{}
}
