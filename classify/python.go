package classify

import (
	"strconv"
	"strings"
)

// Rule ids of the python family.
const (
	Pytest     = "bash.pytest"
	Mypy       = "bash.mypy"
	PipInstall = "bash.pip_install"
)

// pythonRules are the rule ids of the python family.
var pythonRules = []string{Pytest, Mypy, PipInstall}

// matchPython matches pytest, mypy and pip install, run directly or as
// python -m / python3 -m. The interpreter form is recognized only with -m
// right after the interpreter: any other interpreter option (-X dev, -W,
// -u, -I) changes how the tool runs and passes through.
func matchPython(argv []string) verdict {
	tool, at := argv[0], 1
	if tool == "python" || tool == "python3" {
		switch {
		case len(argv) == 1:
			return refused(0, "not a recognized command")
		case argv[1] != "-m":
			return refused(1, "not python -m (%q)", argv[1])
		case len(argv) == 2:
			return refused(1, "python -m without a module")
		}
		tool, at = argv[2], 3
	}
	switch tool {
	case "pytest":
		return matchPytest(argv, at)
	case "mypy":
		return matchMypy(argv, at)
	case "pip", "pip3":
		if tool == "pip3" && at == 3 {
			break // python -m pip3 is no module
		}
		if at == len(argv) || argv[at] != "install" {
			if at < len(argv) && strings.HasPrefix(argv[at], "-") {
				return refused(at, "pip option %q before the subcommand", argv[at])
			}
			return refused(min(at, len(argv)-1), "not a recognized command")
		}
		return matchPipInstall(argv, at+1)
	}
	return refused(at-1, "not a recognized command")
}

// pytestListings are the pytest options that print something other than a
// test run (help, listings, a plan), start a debugger on the terminal, or
// write JSON reports through plugins: the summary would have nothing to
// read, or would hold back what must be seen live.
var pytestListings = map[string]bool{
	"--help": true, "--version": true, "--collect-only": true, "--co": true,
	"--fixtures": true, "--funcargs": true, "--fixtures-per-test": true,
	"--markers": true, "--setup-plan": true, "--pdb": true, "--trace": true,
}

// pytestValues are pytest's short options that take a value, glued
// (-kfoo) or as the next word; in a cluster (-vx) they end it.
const pytestValues = "kmpcorWnr"

// matchPytest accepts a pytest run with any options except those that
// replace the terminal report the summarizer reads: listings and help,
// --color=yes, --tb=native, -p no:terminal, JSON report plugins, and a
// verbosity of -qq or less, which drops the final summary line. pytest
// does not accept abbreviated long options, so exact names suffice.
func matchPytest(argv []string, from int) verdict {
	verbosity, quietAt := 0, from-1
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if a == "--" {
			break
		}
		// value returns an option's value: after "=", or the next word.
		value := func(v string, glued bool) string {
			if glued || j+1 >= len(argv) {
				return v
			}
			j++
			return argv[j]
		}
		if strings.HasPrefix(a, "--") {
			name, v, eq := strings.Cut(a, "=")
			switch {
			case pytestListings[name]:
				return refused(j, "option %q prints no test run", a)
			case strings.HasPrefix(name, "--json"):
				return refused(j, "option %q changes the output format", a)
			case name == "--verbose":
				verbosity++
			case name == "--quiet":
				verbosity--
				quietAt = j
			case name == "--verbosity":
				n, err := strconv.Atoi(value(v, eq))
				if err != nil {
					return refused(j, "unreadable verbosity %q", argv[j])
				}
				verbosity += n
				quietAt = j
			case name == "--tb":
				if at := j; value(v, eq) == "native" {
					return refused(at, "option %q changes the output format", a)
				}
			case name == "--color":
				if at := j; value(v, eq) == "yes" {
					return refused(at, "option %q changes the output format", a)
				}
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue // a path or node id
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			switch {
			case c == 'h' || c == 'V':
				return refused(j, "help or version requested (%s)", a)
			case c == 'v':
				verbosity++
			case c == 'q':
				verbosity--
				quietAt = j
			case strings.IndexByte(pytestValues, c) >= 0:
				at := j
				if c == 'p' && value(a[k+1:], k+1 < len(a)) == "no:terminal" {
					return refused(at, "option %q turns the terminal report off", a)
				}
				if k+1 == len(a) && c != 'p' {
					j++ // the value is the next word
				}
				k = len(a)
			}
		}
	}
	if verbosity <= -2 {
		return refused(quietAt, "pytest -qq prints no summary line")
	}
	return verdict{rule: Pytest}
}

// mypyFormats are the mypy options that change the shape of the report:
// JSON output, messages wrapped over several lines with source snippets,
// context lines between errors, and type-stub installation (pip output and
// a prompt). mypy accepts any unambiguous abbreviation of a long option,
// so a word that abbreviates one of these matches it too.
var mypyFormats = []string{
	"--output", "--pretty", "--show-error-context", "--install-types",
	"--help", "--version",
}

// matchMypy accepts mypy with any options except mypyFormats, -h, -V and
// -O (--output).
func matchMypy(argv []string, from int) verdict {
	if j := longOrAbbrev(argv, from, mypyFormats, "hVO"); j >= 0 {
		return refused(j, "option %q changes the output format", argv[j])
	}
	return verdict{rule: Mypy}
}

// pipFormats are the pip install options whose output the summarizer
// cannot read: help, and pip's version in place of an install. pip accepts
// abbreviated long options, matched here too.
var pipFormats = []string{"--help", "--version"}

// matchPipInstall accepts pip install with any options except help,
// --version and a report written to stdout (--report -).
func matchPipInstall(argv []string, from int) verdict {
	if j := longOrAbbrev(argv, from, pipFormats, "h"); j >= 0 {
		return refused(j, "option %q changes the output format", argv[j])
	}
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if a == "--" {
			break
		}
		name, v, eq := strings.Cut(a, "=")
		if len(name) < 5 || !strings.HasPrefix("--report", name) {
			continue
		}
		if !eq && j+1 < len(argv) {
			v = argv[j+1]
		}
		if v == "-" {
			return refused(j, "option %q writes a JSON report to stdout", a)
		}
	}
	return verdict{rule: PipInstall}
}

// longOrAbbrev returns the index of the first word from argv[from] on, up
// to "--", that is one of the long options (possibly with "=value") or an
// abbreviation of one (argparse and optparse accept any unambiguous
// prefix), or a short-option cluster (-abc) containing one of the short
// letters; -1 when there is none. Values are checked as words too: a false
// match only passes through.
func longOrAbbrev(argv []string, from int, long []string, short string) int {
	for j := from; j < len(argv); j++ {
		a := argv[j]
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short) {
			return j
		}
		name, _, _ := strings.Cut(a, "=")
		if len(name) < 3 || !strings.HasPrefix(name, "--") {
			continue
		}
		for _, l := range long {
			if strings.HasPrefix(l, name) {
				return j
			}
		}
	}
	return -1
}
