package cc

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchCMakeBuild recognizes cmake --build DIR. Another cmake mode
// (configuring, -P, -E) is not this rule's. The words after "--" go to the
// native tool (make or ninja), whose options that change the output pass
// through as they do there.
func MatchCMakeBuild(argv []string) classify.Answer {
	if len(argv) < 2 || argv[1] != "--build" {
		return classify.Other(1, "not a recognized command")
	}
	for j := 2; j < len(argv); j++ {
		a := argv[j]
		switch {
		case a == "--":
			native := append([]string{"make"}, argv[j+1:]...)
			if m := MatchMake(native); !m.Accepted {
				return classify.Refuse(j+m.At, "%s", m.Reason)
			}
			if n := MatchNinja(native); !n.Accepted {
				return classify.Refuse(j+n.At, "%s", n.Reason)
			}
			return classify.Accept()
		case a == "--help" || strings.HasPrefix(a, "--help-") || a == "--version":
			return classify.Refuse(j, help, a)
		}
	}
	return classify.Accept()
}

// CMakeBuild summarizes bash.cmake_build: what bash.make or bash.ninja
// shows of the native tool cmake ran.
func CMakeBuild(r *summarize.Run) *summarize.Body { return summarizeBuild(r) }
