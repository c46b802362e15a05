package classify_test

import (
	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/rules"
)

// The tests classify real commands with the matcher of the rule table, as
// shrinkrun does: classify itself knows no rule.

type Result = classify.Result

func String(src string) Result  { return rules.String(src) }
func Argv(argv []string) Result { return rules.Argv(argv) }

var mergesStreams = classify.MergesStreams

// Rule ids, as the block's rule: line shows them.
const (
	GitStatus   = "bash.git_status"
	GitDiff     = "bash.git_diff"
	GitLog      = "bash.git_log"
	GitPush     = "bash.git_push"
	GitPull     = "bash.git_pull"
	GitFetch    = "bash.git_fetch"
	GitClone    = "bash.git_clone"
	GitShow     = "bash.git_show"
	CargoCheck  = "bash.cargo_check"
	CargoTest   = "bash.cargo_test"
	CargoBuild  = "bash.cargo_build"
	CargoClippy = "bash.cargo_clippy"
	GoTest      = "bash.go_test"
	GoBuild     = "bash.go_build"
	GoVet       = "bash.go_vet"
	GoMod       = "bash.go_mod"
	Pytest      = "bash.pytest"
	Mypy        = "bash.mypy"
	PipInstall  = "bash.pip_install"
	Vitest      = "bash.vitest"
	Jest        = "bash.jest"
	NpmTest     = "bash.npm_test"
	Tsc         = "bash.tsc"
	ESLint      = "bash.eslint"
	NpmInstall  = "bash.npm_install"
)

var nodeRules = []string{Vitest, Jest, NpmTest, Tsc, ESLint, NpmInstall}
