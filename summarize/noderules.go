package summarize

// nodeRules are the summarizers of the node family of commands.
var nodeRules = map[string]Func{}
