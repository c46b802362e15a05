package classify

// goRules are the rule ids of the go family.
var goRules = []string{}

// matchGo matches the go family's commands. Not written yet: everything
// passes through.
func matchGo(argv []string) verdict {
	return refused(0, "not a recognized command")
}
