package classify

// nodeRules are the rule ids of the node family.
var nodeRules = []string{}

// matchNode matches the node family's commands. Not written yet: everything
// passes through.
func matchNode(argv []string) verdict {
	return refused(0, "not a recognized command")
}
