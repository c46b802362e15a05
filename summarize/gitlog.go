package summarize

// gitLog summarizes bash.git_log. TODO: being written.
func gitLog(r *Run) *Body {
	return &Body{}
}
