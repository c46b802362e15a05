package summarize

// pythonRules are the summarizers of the python family of commands.
var pythonRules = map[string]Func{}
