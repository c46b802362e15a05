package listing

import (
	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// gitLsTreeOptions are git ls-tree's options (git 2.39) the rule knows. A
// path is listed as git ls-files lists it (relative to the working
// directory, quoted when unusual) only with --name-only, or its synonym
// --name-status: without, each line starts with the entry's mode, type and
// object name, which a listing would drop.
var gitLsTreeOptions = options{}.
	flags("-d", "-r", "-t", "--full-name", "--full-tree").
	spell(opt{kind: flag}, "--name-only", "--name-status").
	refuse("adds each blob's size", "-l", "--long").
	refuse("ends paths with NUL bytes", "-z").
	refuse("prints object names alone", "--object-only").
	refuse("prints its own format", "--format").
	refuse("prints help", "-h", "--help")

// MatchGitLsTree recognizes git [--no-pager] ls-tree --name-only TREE
// [PATH...] with the options in gitLsTreeOptions.
func MatchGitLsTree(argv []string) classify.Answer {
	i, ok := gitSub(argv, "ls-tree")
	if !ok {
		return classify.Other(min(i, len(argv)-1), "not a recognized command")
	}
	names, operands := false, 0
	a := scan(argv, i+1, gitLsTreeOptions, func(name string) {
		switch name {
		case "--name-only", "--name-status":
			names = true
		case "":
			operands++
		}
	})
	switch {
	case !a.Accepted:
		return a
	case !names:
		return classify.Refuse(i, "git ls-tree without --name-only prints modes, types and object names")
	case operands == 0:
		return classify.Refuse(i, "git ls-tree without a tree")
	}
	return a
}

// GitLsTree summarizes bash.git_ls_tree as bash.git_ls_files: its paths,
// directory by directory (docs/format.md).
func GitLsTree(r *summarize.Run) *summarize.Body {
	return GitLsFiles(r)
}
