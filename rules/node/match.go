package node

import (
	"fmt"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The node rules' matchers (docs/classify.md, node rules) share the way to
// a runner, run directly or through npx, and to a package manager's
// subcommand.

// matchRunner reads vitest, jest, tsc or eslint, run directly or through
// npx (name is the rule's): npx is accepted only directly in front of a
// tool name, with no option of its own, since npx options choose what to
// install and run. m reads the tool's argv. Another tool is another rule's.
func matchRunner(argv []string, name string, m func(tool []string) classify.Answer) classify.Answer {
	tool, at := argv, 0
	if argv[0] == "npx" {
		if len(argv) == 1 {
			return classify.Other(0, "not a recognized command")
		}
		switch argv[1] {
		case "vitest", "jest", "tsc", "eslint":
			tool, at = argv[1:], 1
		default:
			if strings.HasPrefix(argv[1], "-") {
				return classify.Other(1, "npx option %q", argv[1])
			}
			return classify.Other(1, "not a recognized command")
		}
	}
	if tool[0] != name {
		return classify.Other(at, "not a recognized command")
	}
	a := m(tool)
	if !a.Accepted {
		a.At += at
	}
	return a
}

// matchManager reads npm, pnpm or yarn and its subcommand: m reads the
// subcommand at argv[1] and says whether it is the rule's. Options before
// the subcommand pass through, as for cargo: they are the package
// manager's own.
func matchManager(argv []string, m func(argv []string) (classify.Answer, bool)) classify.Answer {
	if len(argv) == 1 {
		return classify.Other(0, "not a recognized command")
	}
	if strings.HasPrefix(argv[1], "-") {
		return classify.Other(1, "%s option %q before the subcommand", argv[0], argv[1])
	}
	if a, ok := m(argv); ok {
		return a
	}
	return classify.Other(1, "not a recognized command")
}

// nodeHelp are the words that turn any of these tools' output into a manual
// or a version string. -v is --version for every tool of the family.
var nodeHelp = map[string]bool{"--help": true, "-h": true, "--version": true, "-v": true}

// matchTool accepts a tool run with any arguments but help, version and the
// format options, each matched as a prefix (--coverage covers
// --coverageProvider, --watch covers --watchAll=false: a false match only
// passes through) in any spelling (optionSpelling). Every word is checked,
// values included.
func matchTool(argv []string, formats []string) classify.Answer {
	for j := 1; j < len(argv); j++ {
		if nodeHelp[argv[j]] {
			return classify.Refuse(j, "help or version requested (%s)", argv[j])
		}
		if hasPrefix(argv[j], formats) {
			return classify.Refuse(j, "option %q changes the output format", argv[j])
		}
	}
	return classify.Accept()
}

// hasPrefix reports whether a, in optionSpelling, starts with one of
// prefixes in theirs.
func hasPrefix(a string, prefixes []string) bool {
	a = optionSpelling(a)
	for _, p := range prefixes {
		if strings.HasPrefix(a, optionSpelling(p)) {
			return true
		}
	}
	return false
}

// optionSpelling is an option word as the runners read its name: jest
// (yargs) and vitest (cac) take --list-tests for --listTests and
// --output-file for --outputFile, and tsc reads option names in any case
// (--showconfig, --LISTFILES). The dashes inside the name go and the
// letters are lowered; the leading dashes stay, so that -w is not --w.
func optionSpelling(w string) string {
	name := strings.TrimLeft(w, "-")
	return w[:len(w)-len(name)] + strings.ToLower(strings.ReplaceAll(name, "-", ""))
}

// npm reads its options from the command line with nopt: an option may be
// written as any unambiguous abbreviation of its name (--jso is --json,
// --pars is --parseable), through a shorthand (-p is --parseable, -dd is
// --loglevel=verbose), an
// abbreviation of a shorthand's name (--porc), or a run of single-letter
// shorthands (-Dp is --save-dev --parseable), with or without a "no-"
// before the name. pnpm reads its shorthands (--sil) alike. npmFormatKeys
// are the option names, and npmFormatShorthands the shorthands, that
// change what npm or pnpm prints: JSON, parseable lines, another reporter,
// a higher log level, a plan instead of an install, another heading on its
// lines, the usage or the version. A lower log level (-s, --silent, -q)
// only hides lines, as npmEnv reads it too.
var (
	npmFormatKeys       = []string{"json", "parseable", "loglevel", "dry-run", "reporter", "heading", "usage", "version"}
	npmFormatShorthands = []string{"d", "dd", "ddd", "verbose", "p", "porcelain", "h", "H", "?", "help", "v"}
)

// npmSingles are npm's single-letter shorthands, which a word may run
// together (-Dg), and npmFormatSingles those among them in
// npmFormatShorthands.
const (
	npmSingles       = "acdfghlmnpqsvwyBCDEHLOPS?"
	npmFormatSingles = "dhpvH?"
)

// npmFormatOption reports whether w, a word of an npm or pnpm command,
// is an option that changes what the command prints, however nopt would
// read it: a name or shorthand in npmFormatKeys or npmFormatShorthands, an
// abbreviation of one (a prefix; npm would refuse one that is ambiguous,
// and the command passes through all the same), after any "no-", or a run
// of single-letter shorthands holding one of npmFormatSingles.
func npmFormatOption(w string) bool {
	name, _, _ := strings.Cut(w, "=")
	bare := strings.TrimLeft(name, "-")
	if len(name) == len(bare) || bare == "" {
		return false
	}
	isPrefix := func(names []string, p string) bool {
		for _, n := range names {
			if strings.HasPrefix(n, p) {
				return true
			}
		}
		return false
	}
	if isPrefix(npmFormatKeys, bare) || isPrefix(npmFormatShorthands, bare) {
		return true
	}
	if strings.Trim(bare, npmSingles) == "" && strings.ContainsAny(bare, npmFormatSingles) {
		return true
	}
	for {
		rest, ok := strings.CutPrefix(strings.ToLower(bare), "no-")
		if !ok {
			return false
		}
		bare = bare[len(bare)-len(rest):]
		if bare != "" && isPrefix(npmFormatKeys, bare) {
			return true
		}
	}
}

// npm (and pnpm, which reads npm's configuration) takes every option from
// the environment too, as npm_config_NAME (any case, "_" for "-"): npm
// exports the options it runs a script with, so a shell started by an npm
// script has some. npmEnv returns why one of keys set there changes the
// output, or "". A boolean set to false changes nothing, and neither does a
// log level that only hides lines (silent, error, warn, notice: npm's
// default is notice).
func npmEnv(getenv func(string) string, keys ...string) string {
	for _, k := range keys {
		u := strings.ReplaceAll(k, "-", "_")
		for _, name := range []string{"npm_config_" + u, "NPM_CONFIG_" + strings.ToUpper(u)} {
			v := getenv(name)
			switch {
			case v == "" || v == "false":
			case k == "loglevel" && (v == "silent" || v == "error" || v == "warn" || v == "notice"):
			default:
				return fmt.Sprintf("%s=%s changes the output format", name, v)
			}
		}
	}
	return ""
}

// InstallEnv is the environment check of bash.npm_install: the
// configuration that would be a refused option.
func InstallEnv(_ []string, getenv func(string) string) string {
	return npmEnv(getenv, npmFormatKeys...)
}

// TestScriptEnv is the environment check of bash.npm_test: the
// configuration that changes what the package manager prints around the
// script, or runs it in several workspaces.
func TestScriptEnv(_ []string, getenv func(string) string) string {
	return npmEnv(getenv, append([]string{"workspace", "workspaces", "include-workspace-root"}, npmFormatKeys...)...)
}

// RunnerEnv is the environment check of the tools npx can run (bash.vitest,
// bash.jest, bash.tsc): through npx, npm's log level adds its own lines.
func RunnerEnv(argv []string, getenv func(string) string) string {
	if argv[0] != "npx" {
		return ""
	}
	return npmEnv(getenv, "loglevel")
}

// ESLintEnv is bash.eslint's environment check: RunnerEnv's, and DEBUG,
// through which ESLint prints its debugging output as --debug does, when
// it names ESLint's namespaces ("eslint:*") or all of them ("*").
func ESLintEnv(argv []string, getenv func(string) string) string {
	if v := getenv("DEBUG"); strings.Contains(v, "eslint") || strings.Contains(v, "*") && !strings.Contains(v, ":") {
		return "DEBUG=" + v + " turns on ESLint's debugging output"
	}
	return RunnerEnv(argv, getenv)
}
