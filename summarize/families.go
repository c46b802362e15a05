package summarize

// Until the rule table lands (package rules), the families register here.

var familyRules = map[string]Func{
	"bash.vitest":      vitest,
	"bash.jest":        jest,
	"bash.npm_test":    npmTest,
	"bash.tsc":         tsc,
	"bash.eslint":      eslint,
	"bash.npm_install": npmInstall,
}

var familyFinders = []Finder{nodeFinder{}}

// LegacyFinders are the finders of the families registered here.
var LegacyFinders = familyFinders

// Has reports whether a summarizer exists for rule.
func Has(rule string) bool {
	_, ok := familyRules[rule]
	return ok
}

// Legacy returns the summarizer of a rule registered here.
func Legacy(rule string) (Func, bool) {
	f, ok := familyRules[rule]
	return f, ok
}

// BlockOf is Block with the rule of r.Rule and every family's finder.
func BlockOf(r *Run) ([]byte, bool) {
	f, ok := familyRules[r.Rule]
	if !ok {
		return nil, false
	}
	return Block(r, f, familyFinders)
}
