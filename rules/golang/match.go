package golang

import (
	"slices"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// The go rules' matchers share the way to go's subcommand and its flags
// (docs/classify.md, Go rules). Options before the subcommand (go -C dir
// test) pass through, as for cargo. Every later word is checked, including
// package patterns and the words after -args that go to the test binary: a
// false match only passes through.

// matchSub reads go NAME: another subcommand is another rule's.
func matchSub(argv []string, name string) (classify.Answer, bool) {
	switch {
	case len(argv) < 2:
		return classify.Other(0, "not a recognized command"), false
	case strings.HasPrefix(argv[1], "-"):
		return classify.Refuse(1, "go option %q before the subcommand", argv[1]), false
	case argv[1] != name:
		return classify.Other(1, "not a recognized command"), false
	}
	return classify.Answer{}, true
}

// matchFlags checks the words from argv[from] on: help and version, and
// formats, the flags that replace or add to the output the summarizer
// reads; and with testBinary, the test binary's own flags. go's flag
// package takes -name and --name, with the value joined by "=" or in the
// next word, and never clusters short flags, so a flag is found by its name
// alone.
func matchFlags(argv []string, from int, formats []string, testBinary bool) classify.Answer {
	for j := from; j < len(argv); j++ {
		switch name := flagName(argv[j]); {
		case name == "":
		case help[name]:
			return classify.Refuse(j, "help or version requested (%s)", argv[j])
		case testBinary && name == "-v" && strings.Contains(argv[j], "=") && !isGoBool(argv[j][strings.IndexByte(argv[j], '=')+1:]):
			// -v=test2json switches the test binary to test2json's
			// framing, which go test -json then decodes: typed by hand,
			// the framing reaches the output.
			return classify.Refuse(j, "option %q changes the output format", argv[j])
		case strings.HasPrefix(name, "-test."):
			// The test binary's own flags (-test.v=test2json, -test.bench,
			// -test.list) are what go test translates its flags into; typed
			// by hand they can change the format, so none is taken.
			if testBinary {
				return classify.Refuse(j, "test binary flag %q", argv[j])
			}
		case slices.Contains(formats, name):
			return classify.Refuse(j, "option %q changes the output format", argv[j])
		}
	}
	return classify.Accept()
}

// buildFlags are the build flags that print the commands run, their plans
// or traces, or change what the compiler prints; every subcommand that
// builds takes them.
var buildFlags = []string{"-x", "-n", "-gcflags", "-asmflags", "-toolexec", "-debug-actiongraph", "-debug-runtime-trace", "-debug-trace"}

// help are the flags that print a manual or a version instead of running.
var help = map[string]bool{"-h": true, "-help": true, "-?": true, "-V": true, "-version": true}

// flagName returns the name of a flag word, "-name" for both -name and
// --name, without any "=value"; "" when the word is not a flag.
func flagName(a string) string {
	if len(a) < 2 || a[0] != '-' || a == "--" {
		return ""
	}
	if strings.HasPrefix(a, "--") {
		a = a[1:]
	}
	name, _, _ := strings.Cut(a, "=")
	return name
}

// isGoBool reports whether a flag value is one strconv.ParseBool takes, as
// go's flag package reads a boolean flag's value.
func isGoBool(v string) bool {
	_, err := strconv.ParseBool(v)
	return err == nil
}

// Env returns the environment check of the rule whose matcher is match:
// go prepends GOFLAGS, a space-separated list of -flag[=value] words, to
// the flags of every subcommand that takes them, so GOFLAGS=-json or
// GOFLAGS=-x changes the output as the flag on the command line does. The
// flags are checked as if typed after the command's own words (where
// matchFlags finds a flag just as well). Other variables that go reads
// (GOTRACEBACK, GODEBUG, GOTOOLCHAIN) change what a trace or a download
// line says, not the shape the rules read.
func Env(match func([]string) classify.Answer) func(argv []string, getenv func(string) string) string {
	return func(argv []string, getenv func(string) string) string {
		v := getenv("GOFLAGS")
		flags := strings.Fields(v)
		if len(flags) == 0 {
			return ""
		}
		if a := match(slices.Concat(argv, flags)); !a.Accepted {
			return "GOFLAGS=" + v + ": " + a.Reason
		}
		return ""
	}
}
