package listing_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// listingCases walks docs/classify.md (listing rules): what each listing
// rule recognizes and what passes through, with the word the reason must
// point at.
var listingCases = []ruletest.FamilyCase{
	{In: "find", Want: Find},
	{In: "find .", Want: Find},
	{In: "find . -name '*.go'", Want: Find},
	{In: "find src lib -type f -name '*.go'", Want: Find},
	{In: "find . -maxdepth 2 -type d", Want: Find},
	{In: "find -L . -iname readme.md", Want: Find},
	{In: "find . -path ./vendor -prune -o -name '*.go' -print", Want: Find},
	{In: "find . ! -name '*.o' -newer Makefile", Want: Find},
	{In: "find . -name '*.go' -newermt 2020-01-01", Want: Find},
	{In: "find . -name '*.go' | head -50", Want: Find},
	{In: "find . 2>&1 | grep -v node_modules", Want: Find},
	{In: "find . -name '*.go' -exec wc -l ';'", Want: "", At: 4},
	{In: "find . -printf '%p\\n'", Want: "", At: 2},
	{In: "find . -print0", Want: "", At: 2},
	{In: "find . -ls", Want: "", At: 2},
	{In: "find . -delete", Want: "", At: 2},
	{In: "find . -name", Want: "", At: 2},
	{In: "find . -frobnicate", Want: "", At: 2},
	{In: "find --help", Want: "", At: 1},

	{In: "fd", Want: Fd},
	{In: "fdfind", Want: Fd},
	{In: "fdfind -e go", Want: Fd},
	{In: "fd -t d src", Want: Fd},
	{In: "fd -H -I toml", Want: Fd},
	{In: "fdfind . src/web", Want: Fd},
	{In: "fd --max-depth 2 -E vendor", Want: Fd},
	{In: "fdfind -e go | head -40", Want: Fd},
	{In: "fd -x wc -l", Want: "", At: 1},
	{In: "fd -l", Want: "", At: 1},
	{In: "fd -0", Want: "", At: 1},
	{In: "fd --format '{}'", Want: "", At: 1},
	{In: "fd -h", Want: "", At: 1},
	{In: "fd --frobnicate", Want: "", At: 1},
	{In: "fd --color always", Want: "", At: 1},
	{In: "fd -e go --color=always", Want: "", At: 3},
	{In: "fd --color never -e go", Want: Fd},

	{In: "git ls-files", Want: GitLsFiles},
	{In: "git ls-files src", Want: GitLsFiles},
	{In: "git --no-pager ls-files", Want: GitLsFiles},
	{In: "git ls-files -o --exclude-standard", Want: GitLsFiles},
	{In: "git ls-files -m -d", Want: GitLsFiles},
	{In: "git ls-files | grep mod7", Want: GitLsFiles},
	{In: "git ls-files -s", Want: "", At: 2},
	{In: "git ls-files -z", Want: "", At: 2},
	{In: "git ls-files -t", Want: "", At: 2},
	{In: "git ls-files '--format=%(path)'", Want: "", At: 2},
	{In: "git ls-files --eol", Want: "", At: 2},
	{In: "git -C src ls-files", Want: "", At: 1},
	{In: "git ls-tree -r --name-only HEAD", Want: GitLsTree},
	{In: "git ls-tree --name-only HEAD", Want: GitLsTree},
	{In: "git --no-pager ls-tree -r --name-only HEAD src", Want: GitLsTree},
	{In: "git ls-tree -r -t --name-status --full-tree main -- src", Want: GitLsTree},
	{In: "git ls-tree -r --name-only HEAD | grep mod2", Want: GitLsTree},
	{In: "git ls-tree HEAD", Want: "", At: 1},
	{In: "git ls-tree -r HEAD", Want: "", At: 1},
	{In: "git ls-tree -r --name-only", Want: "", At: 1},
	{In: "git ls-tree -r -l --name-only HEAD", Want: "", At: 3},
	{In: "git ls-tree -rz --name-only HEAD", Want: "", At: 2},
	{In: "git ls-tree --object-only HEAD", Want: "", At: 2},
	{In: "git ls-tree '--format=%(path)' HEAD", Want: "", At: 2},
	{In: "git ls-tree --abbrev=8 --name-only HEAD", Want: "", At: 2},
	{In: "git -C src ls-tree --name-only HEAD", Want: "", At: 1},
	{In: "find . -name '*.c' 2>/dev/null", Want: Find},

	{In: "tree", Want: Tree},
	{In: "tree src", Want: Tree},
	{In: "tree -L 2", Want: Tree},
	{In: "tree -L2 -a -d", Want: Tree},
	{In: "tree -P '*.go' --prune src/web", Want: Tree},
	{In: "tree -I node_modules --dirsfirst", Want: Tree},
	{In: "tree --sort=name --noreport", Want: Tree},
	{In: "tree | head -60", Want: Tree},
	{In: "tree -J", Want: "", At: 1},
	{In: "tree -X src", Want: "", At: 1},
	{In: "tree -H .", Want: "", At: 1},
	{In: "tree -C", Want: "", At: 1},
	{In: "tree -aC", Want: "", At: 1},
	{In: "tree -f", Want: "", At: 1},
	{In: "tree -i", Want: "", At: 1},
	{In: "tree -s -h", Want: "", At: 1},
	{In: "tree --charset=ascii", Want: "", At: 1},
	{In: "tree -o out.txt", Want: "", At: 1},
	{In: "tree -L", Want: "", At: 1},
	{In: "tree --frobnicate", Want: "", At: 1},

	{In: "ls", Want: Ls},
	{In: "ls -la", Want: Ls},
	{In: "ls -l src", Want: Ls},
	{In: "ls -A", Want: Ls},
	{In: "ls -lhA docs", Want: Ls},
	{In: "ls -R", Want: Ls},
	{In: "ls -lR src docs", Want: Ls},
	{In: "ls -1 --sort=time", Want: Ls},
	{In: "ls -la --time-style=long-iso", Want: Ls},
	{In: "ls -I '*.o' -l", Want: Ls},
	{In: "ls -R | head -50", Want: Ls},
	{In: "ls -la 2>&1 | tail -20", Want: Ls},
	{In: "ls --color=always", Want: "", At: 1},
	{In: "ls --color", Want: "", At: 1},
	{In: "ls -m", Want: "", At: 1},
	{In: "ls -x", Want: "", At: 1},
	{In: "ls -C", Want: "", At: 1},
	{In: "ls -lC", Want: "", At: 1},
	{In: "ls --format=commas", Want: "", At: 1},
	{In: "ls -li", Want: "", At: 1},
	{In: "ls -s", Want: "", At: 1},
	{In: "ls -Z", Want: "", At: 1},
	{In: "ls --dired -l", Want: "", At: 1},
	{In: "ls --zero", Want: "", At: 1},
	{In: "ls --hyperlink", Want: "", At: 1},
	{In: "ls --all-entries", Want: "", At: 1},
	{In: "ls --help", Want: "", At: 1},
}

const (
	Find       = "bash.find"
	Fd         = "bash.fd"
	GitLsFiles = "bash.git_ls_files"
	GitLsTree  = "bash.git_ls_tree"
	Tree       = "bash.tree"
	Ls         = "bash.ls"
)

func TestListingRules(t *testing.T) {
	table.CheckFamily(t, listingCases, []string{Find, Fd, GitLsFiles, GitLsTree, Tree, Ls})
}

var table = ruletest.Classifier{String: rules.String, Argv: rules.Argv, Has: rules.Has}
