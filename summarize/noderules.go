package summarize

// nodeRules are the summarizers of the node family of commands.
var nodeRules = map[string]Func{}

// nodeFailures finds the node family's failures for the boundary check.
// Not written yet.
func nodeFailures(ls []string, failed bool, f *failures) {}
