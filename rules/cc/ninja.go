package cc

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchNinja recognizes ninja building. Help and version, a tool (-t), a
// dry run (-n) and debug modes (-d) pass through.
func MatchNinja(argv []string) classify.Answer {
	for j := 1; j < len(argv); j++ {
		a := argv[j]
		next := ""
		if j+1 < len(argv) {
			next = argv[j+1]
		}
		switch {
		case a == "--version" || a == "--help" || longPrefix(a, []string{"--version", "--help"}):
			return classify.Refuse(j, help, a)
		case strings.HasPrefix(a, "--"):
			// ninja has only --version, --verbose and --quiet.
			if !longPrefix(a, []string{"--verbose", "--quiet"}) {
				return classify.Refuse(j, format, a)
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			c, words := shortOptions(a, next, "hntd", "Cfjklw", "")
			switch c {
			case 'h':
				return classify.Refuse(j, help, a)
			case 0:
				j += words - 1
			default:
				return classify.Refuse(j, format, a)
			}
		}
	}
	return classify.Accept()
}

// Ninja summarizes bash.ninja: what bash.cc shows of the compilers it ran,
// each "FAILED:" line (the output that failed) and "ninja: build stopped".
func Ninja(r *summarize.Run) *summarize.Body { return summarizeBuild(r) }
