package summarize

// goRules are the summarizers of the go family of commands.
var goRules = map[string]Func{}
