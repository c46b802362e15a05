package classify

import "strings"

// Rule ids of the node family: JavaScript and TypeScript test runners, the
// TypeScript compiler, ESLint and the package managers' install commands.
const (
	Vitest     = "bash.vitest"
	Jest       = "bash.jest"
	NpmTest    = "bash.npm_test"
	Tsc        = "bash.tsc"
	ESLint     = "bash.eslint"
	NpmInstall = "bash.npm_install"
)

// nodeRules are the rule ids of the node family.
var nodeRules = []string{Vitest, Jest, NpmTest, Tsc, ESLint, NpmInstall}

// nodeHelp are the words that turn any of these tools' output into a manual
// or a version string. -v is --version for every tool of the family.
var nodeHelp = map[string]bool{"--help": true, "-h": true, "--version": true, "-v": true}

// vitestFormats are the vitest options whose output the summarizer does not
// read: watch mode and the UI never end, coverage adds a table that would be
// dropped, --outputFile sends a report elsewhere, and other reporters change
// the format (--reporter is handled apart: default and verbose are kept).
var vitestFormats = []string{
	"--watch", "-w", "--ui", "--coverage", "--outputFile", "--standalone", "--mergeReports",
	"--listTags", "--clearCache",
}

// jestFormats are the jest options that replace the human-readable report:
// JSON and custom reporters, watch modes, coverage tables, listings and
// configuration dumps.
var jestFormats = []string{
	"--json", "--outputFile", "--watch", "--coverage", "--collectCoverage", "--listTests",
	"--showConfig", "--reporters", "--init", "--clearCache", "--debug",
}

// tscFormats are the tsc options that print something other than
// diagnostics (listings, configuration, traces, timing tables) or never end.
var tscFormats = []string{
	"--watch", "-w", "--listFiles", "--listEmittedFiles", "--explainFiles", "--showConfig",
	"--traceResolution", "--extendedDiagnostics", "--diagnostics", "--init",
	"--generateTrace", "-?",
}

// eslintFormats are the ESLint options that change or redirect the report,
// print configuration or debugging output (-f and --format are handled apart:
// stylish, the default, is kept).
var eslintFormats = []string{
	"--output-file", "-o", "--print-config", "--inspect-config", "--init", "--env-info",
	"--debug", "--mcp",
}

// installFormats are the npm and pnpm install options that replace the
// human-readable output (JSON, parseable, reporters, log levels) or install
// nothing (--dry-run prints a plan in another format).
var installFormats = []string{
	"--json", "--parseable", "--reporter", "--loglevel", "--verbose", "-d", "--dry-run",
}

// runnerFormats are the options that, handed to whichever runner a test
// script starts, would change its report: the union of the vitest and jest
// ones, and of the reporters of both.
var runnerFormats = append(append([]string{"--reporter", "--json"}, vitestFormats...), jestFormats...)

// matchNode matches the node family. npx is accepted only directly in front
// of a tool name, with no option of its own: npx options choose what to
// install and run.
func matchNode(argv []string) verdict {
	tool, at := argv, 0
	if argv[0] == "npx" {
		if len(argv) == 1 {
			return refused(0, "not a recognized command")
		}
		switch argv[1] {
		case "vitest", "jest", "tsc", "eslint":
			tool, at = argv[1:], 1
		default:
			if strings.HasPrefix(argv[1], "-") {
				return refused(1, "npx option %q", argv[1])
			}
			return refused(1, "not a recognized command")
		}
	}
	var v verdict
	switch tool[0] {
	case "vitest":
		v = matchVitest(tool)
	case "jest":
		v = matchTool(tool, Jest, jestFormats)
	case "tsc":
		v = matchTool(tool, Tsc, tscFormats)
	case "eslint":
		v = matchESLint(tool)
	default:
		v = matchPackageManager(tool)
	}
	if v.rule == "" {
		v.at += at
	}
	return v
}

// matchTool accepts a tool run with any arguments but help, version and the
// format options, each matched as a prefix (--coverage covers
// --coverageProvider, --watch covers --watchAll=false: a false match only
// passes through). Every word is checked, values included.
func matchTool(argv []string, rule string, formats []string) verdict {
	for j := 1; j < len(argv); j++ {
		if nodeHelp[argv[j]] {
			return refused(j, "help or version requested (%s)", argv[j])
		}
		if hasPrefix(argv[j], formats) {
			return refused(j, "option %q changes the output format", argv[j])
		}
	}
	return verdict{rule: rule}
}

// matchVitest accepts vitest run, or vitest with the exact word --run:
// without either, vitest watches for changes and never ends on a terminal.
// The default and verbose reporters are the formats the summarizer reads.
func matchVitest(argv []string) verdict {
	run := len(argv) > 1 && argv[1] == "run"
	for j := 1; j < len(argv); j++ {
		a := argv[j]
		switch {
		case a == "--run":
			run = true
		case a == "--reporter" && j+1 < len(argv) && isVitestReporter(argv[j+1]):
			j++
		case strings.HasPrefix(a, "--reporter=") && isVitestReporter(strings.TrimPrefix(a, "--reporter=")):
		case strings.HasPrefix(a, "--reporter"):
			return refused(j, "option %q changes the output format", a)
		}
	}
	if len(argv) > 1 && vitestCommands[argv[1]] {
		return refused(1, "vitest %s is not a test run", argv[1])
	}
	if v := matchTool(argv, Vitest, vitestFormats); v.rule == "" {
		return v
	}
	if !run {
		return refused(0, "vitest without run may watch for changes")
	}
	return verdict{rule: Vitest}
}

// vitestCommands are the vitest subcommands other than run (and related,
// which runs the tests related to some files): benchmarks, listings, setup
// and the watch modes.
var vitestCommands = map[string]bool{"bench": true, "list": true, "init": true, "dev": true, "watch": true}

func isVitestReporter(name string) bool {
	return name == "default" || name == "verbose"
}

// matchESLint accepts eslint with the default stylish format, given or not.
func matchESLint(argv []string) verdict {
	for j := 1; j < len(argv); j++ {
		a := argv[j]
		switch {
		case (a == "-f" || a == "--format") && j+1 < len(argv) && argv[j+1] == "stylish":
			j++
		case a == "--format=stylish":
		case a == "-f" || strings.HasPrefix(a, "--format"):
			return refused(j, "option %q changes the output format", a)
		}
	}
	return matchTool(argv, ESLint, eslintFormats)
}

// matchPackageManager accepts the test script and the install commands of
// npm, pnpm and yarn. Options before the subcommand pass through, as for
// cargo: they are the package manager's own.
func matchPackageManager(argv []string) verdict {
	pm := argv[0]
	if len(argv) == 1 {
		return refused(0, "not a recognized command")
	}
	sub := 1
	if strings.HasPrefix(argv[sub], "-") {
		return refused(sub, "%s option %q before the subcommand", pm, argv[sub])
	}
	switch argv[sub] {
	case "test", "t", "tst":
		if pm != "npm" && argv[sub] != "test" {
			return refused(sub, "not a recognized command")
		}
		return matchTestScript(argv, sub+1)
	case "run", "run-script":
		if sub+1 < len(argv) && argv[sub+1] == "test" && (pm == "npm" || argv[sub] == "run") {
			return matchTestScript(argv, sub+2)
		}
		return refused(sub, "a script other than test")
	case "install", "i", "add":
		if pm == "yarn" {
			return refused(sub, "yarn install is not recognized")
		}
		return matchTool(argv, NpmInstall, installFormats)
	case "ci":
		if pm != "npm" {
			return refused(sub, "not a recognized command")
		}
		return matchTool(argv, NpmInstall, installFormats)
	}
	return refused(sub, "not a recognized command")
}

// matchTestScript checks the arguments of a test script run from argv[from]
// on. Before "--" they are the package manager's (npm also hands words that
// are not options to the script): only --silent and -s, which hide the
// script header, are accepted, because the others (--workspaces, -r,
// --filter, --json, --loglevel) run several scripts, prefix their lines or
// change what is printed. After "--" the words go to the runner, whichever
// it is, and the format options of vitest and jest pass through.
func matchTestScript(argv []string, from int) verdict {
	dashes := false
	for j := from; j < len(argv); j++ {
		a := argv[j]
		switch {
		case nodeHelp[a]:
			return refused(j, "help or version requested (%s)", a)
		case a == "--" && !dashes:
			dashes = true
		case dashes && (a == "-w" || hasPrefix(a, runnerFormats)):
			return refused(j, "option %q changes the output format", a)
		case !dashes && strings.HasPrefix(a, "-") && a != "--silent" && a != "-s":
			return refused(j, "%s option %q", argv[0], a)
		}
	}
	return verdict{rule: NpmTest}
}

func hasPrefix(a string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(a, p) {
			return true
		}
	}
	return false
}
