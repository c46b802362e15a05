package classify

// pythonRules are the rule ids of the python family.
var pythonRules = []string{}

// matchPython matches the python family's commands. Not written yet: everything
// passes through.
func matchPython(argv []string) verdict {
	return refused(0, "not a recognized command")
}
