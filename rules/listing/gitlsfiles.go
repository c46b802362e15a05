package listing

import (
	"strings"
	"sync"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// gitLsFilesOptions are git ls-files' options (git 2.39) the rule knows:
// the ones that choose which paths are printed. git quotes a path with
// unusual characters ("dir/\303\251.txt", core.quotePath): the rule reads
// its directory inside the quotes and shows the entry as printed.
var gitLsFilesOptions = sync.OnceValue(func() options {
	return options{}.
		flags("-c", "--cached", "-d", "--deleted", "-m", "--modified", "-o", "--others",
			"-i", "--ignored", "-k", "--killed", "--exclude-standard", "--directory",
			"--no-empty-directory", "--full-name", "--recurse-submodules", "--error-unmatch",
			"--deduplicate", "--sparse").
		values("-x", "--exclude", "-X", "--exclude-from", "--exclude-per-directory", "--with-tree").
		refuse("prints modes, object names and stages", "-s", "--stage", "-u", "--unmerged", "--resolve-undo").
		refuse("ends paths with NUL bytes", "-z").
		refuse("adds a status tag before each path", "-t", "-v", "-f").
		refuse("adds line-ending information", "--eol").
		refuse("prints its own format", "--format", "--debug", "--abbrev").
		refuse("prints help", "-h", "--help")
})

// MatchGitLsFiles recognizes git [--no-pager] ls-files with the options in
// gitLsFilesOptions. As for git grep, another subcommand, or an option
// before it, is not this rule's.
func MatchGitLsFiles(argv []string) classify.Answer {
	i, ok := gitSub(argv, "ls-files")
	if !ok {
		return classify.Other(min(i, len(argv)-1), "not a recognized command")
	}
	return walk(argv, i+1, gitLsFilesOptions())
}

// gitSub returns the index of git's subcommand in argv, after one
// --no-pager, and whether it is name.
func gitSub(argv []string, name string) (int, bool) {
	i := 1
	if i < len(argv) && argv[i] == "--no-pager" {
		i++
	}
	return i, i < len(argv) && argv[i] == name
}

// GitLsFiles summarizes bash.git_ls_files: its paths, directory by
// directory (docs/format.md).
func GitLsFiles(r *summarize.Run) *summarize.Body {
	ls := readPaths(r, func(l string) bool {
		return strings.HasPrefix(l, "fatal: ") || strings.HasPrefix(l, "error: ") || strings.HasPrefix(l, "warning: ")
	})
	ls.paths = true
	return ls.body(r)
}
