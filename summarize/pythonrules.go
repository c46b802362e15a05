package summarize

// pythonRules are the summarizers of the python family of commands.
var pythonRules = map[string]Func{}

// pythonFailures finds the python family's failures for the boundary check.
// Not written yet.
func pythonFailures(ls []string, failed bool, f *failures) {}
