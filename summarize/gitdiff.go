package summarize

// gitDiff summarizes bash.git_diff. TODO: being written.
func gitDiff(r *Run) *Body {
	return &Body{}
}
