package classify

import "strings"

// Rule ids of the go family.
const (
	GoTest  = "bash.go_test"
	GoBuild = "bash.go_build"
	GoVet   = "bash.go_vet"
	GoMod   = "bash.go_mod"
)

// goRules are the rule ids of the go family.
var goRules = []string{GoTest, GoBuild, GoVet, GoMod}

// goFormats are, per subcommand, the flags that replace or add to the
// output the summarizer reads. go's flag package takes -name and --name,
// with the value joined by "=" or in the next word, and never clusters
// short flags, so a flag is found by its name alone. docs/classify.md (Go rules)
// gives the reason for each.
var goFormats = map[string][]string{
	GoTest:  {"-bench", "-fuzz", "-list", "-x", "-n", "-gcflags", "-asmflags", "-toolexec", "-debug-actiongraph", "-debug-runtime-trace", "-debug-trace"},
	GoBuild: {"-json", "-v", "-x", "-n", "-gcflags", "-asmflags", "-toolexec", "-debug-actiongraph", "-debug-runtime-trace", "-debug-trace"},
	GoVet:   {"-json", "-fix", "-diff", "-v", "-x", "-n", "-gcflags", "-asmflags", "-toolexec", "-debug-actiongraph", "-debug-runtime-trace", "-debug-trace"},
	GoMod:   {"-json"},
}

// goHelp are the flags that print a manual or a version instead of running.
var goHelp = map[string]bool{"-h": true, "-help": true, "-?": true, "-V": true, "-version": true}

// matchGo recognizes go test, go build, go vet, go get and go mod download.
// Options before the subcommand (go -C dir test) pass through, as for
// cargo. Every later word is checked, including package patterns and the
// words after -args that go to the test binary: a false match only passes
// through.
func matchGo(argv []string) verdict {
	if len(argv) < 2 {
		return refused(0, "not a recognized command")
	}
	if strings.HasPrefix(argv[1], "-") {
		return refused(1, "go option %q before the subcommand", argv[1])
	}
	rule, from := "", 2
	switch argv[1] {
	case "test":
		rule = GoTest
	case "build":
		rule = GoBuild
	case "vet":
		rule = GoVet
	case "get":
		rule = GoMod
	case "mod":
		if len(argv) < 3 || argv[2] != "download" {
			return refused(min(2, len(argv)-1), "not a recognized command")
		}
		rule, from = GoMod, 3
	default:
		return refused(1, "not a recognized command")
	}
	for j := from; j < len(argv); j++ {
		name := goFlagName(argv[j])
		switch {
		case name == "":
		case goHelp[name]:
			return refused(j, "help or version requested (%s)", argv[j])
		case strings.HasPrefix(name, "-test."):
			// The test binary's own flags (-test.v=test2json, -test.bench,
			// -test.list) are what go test translates its flags into; typed
			// by hand they can change the format, so none is taken.
			if rule == GoTest {
				return refused(j, "test binary flag %q", argv[j])
			}
		default:
			for _, f := range goFormats[rule] {
				if name == f {
					return refused(j, "option %q changes the output format", argv[j])
				}
			}
		}
	}
	return verdict{rule: rule}
}

// goFlagName returns the name of a flag word, "-name" for both -name and
// --name, without any "=value"; "" when the word is not a flag.
func goFlagName(a string) string {
	if len(a) < 2 || a[0] != '-' || a == "--" {
		return ""
	}
	if strings.HasPrefix(a, "--") {
		a = a[1:]
	}
	name, _, _ := strings.Cut(a, "=")
	return name
}
