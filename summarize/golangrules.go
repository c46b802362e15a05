package summarize

// goRules are the summarizers of the go family of commands.
var goRules = map[string]Func{}

// goFailures finds the go family's failures for the boundary check.
// Not written yet.
func goFailures(ls []string, failed bool, f *failures) {}
