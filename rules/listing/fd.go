package listing

import (
	"strings"
	"sync"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// fdOptions are fd's options (8.6) the rule knows. fd prints a path per
// line, a directory's with a '/' after it.
var fdOptions = sync.OnceValue(func() options {
	return options{}.
		flags("-H", "--hidden", "-I", "--no-ignore", "--no-ignore-vcs", "--no-ignore-parent",
			"--no-global-ignore-file", "--no-require-git", "-u", "--unrestricted",
			"-s", "--case-sensitive", "-i", "--ignore-case", "-g", "--glob", "--regex",
			"-F", "--fixed-strings", "-a", "--absolute-path", "-L", "--follow", "-p", "--full-path",
			"--prune", "-1", "--show-errors", "--strip-cwd-prefix", "--one-file-system").
		values("--and", "-d", "--max-depth", "--min-depth", "--exact-depth", "-E", "--exclude",
			"-t", "--type", "-e", "--extension", "-S", "--size", "--changed-within", "--changed-before",
			"--change-newer-than", "--change-older-than", "--newer", "--older", "--changed-after",
			"-o", "--owner", "--ignore-file", "-j", "--threads", "--max-results",
			"--base-directory", "--search-path").
		refuse("runs a command for each path", "-x", "--exec", "-X", "--exec-batch", "--batch-size").
		refuse("prints ls -l lines", "-l", "--list-details").
		values("-c", "--color").
		refuse("ends paths with NUL bytes", "-0", "--print0").
		refuse("prints nothing", "-q", "--quiet").
		refuse("prints its own format", "--format").
		refuse("rewrites the paths", "--path-separator").
		refuse("prints no listing", "-h", "--help", "-V", "--version")
})

// MatchFd recognizes fd and fdfind (Debian's name for it) [PATTERN]
// [PATH...] with the options in fdOptions.
func MatchFd(argv []string) classify.Answer {
	for i, a := range argv {
		if a == "--color=always" || a == "-calways" || (a == "-c" || a == "--color") && i+1 < len(argv) && argv[i+1] == "always" {
			return classify.Refuse(i, "option %q puts color codes in the lines", strings.TrimSuffix(strings.TrimSuffix(a, "=always"), "always"))
		}
	}
	return walk(argv, 1, fdOptions())
}

// Fd summarizes bash.fd: its paths, directory by directory
// (docs/format.md).
func Fd(r *summarize.Run) *summarize.Body {
	ls := readPaths(r, func(l string) bool { return strings.HasPrefix(l, "[fd error]: ") })
	ls.paths = true
	return ls.body(r)
}
