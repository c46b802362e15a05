package classify

import "testing"

// gitCargoCases are git's network verbs, git show, cargo build and cargo
// clippy in string mode: want is the rule, or "" for a pass-through, and
// explain the exact --explain text.
var gitCargoCases = []struct{ in, want, explain string }{
	{"git push", GitPush, ""},
	{"git push origin main", GitPush, ""},
	{"git push -u origin feature/x", GitPush, ""},
	{"git push --force-with-lease origin HEAD", GitPush, ""},
	{"git push --progress origin main 2>&1", GitPush, ""},
	{"git push -v --dry-run", GitPush, ""},
	{"git push origin --delete old", GitPush, ""},
	{"git push --tags", GitPush, ""},
	{"git --no-pager push", GitPush, ""},
	{"git pull", GitPull, ""},
	{"git pull --rebase", GitPull, ""},
	{"git pull --no-rebase origin main", GitPull, ""},
	{"git pull --ff-only --progress 2>&1 | tail -20", GitPull, ""},
	{"git fetch", GitFetch, ""},
	{"git fetch --all --prune --tags", GitFetch, ""},
	{"git fetch origin main:refs/remotes/origin/main", GitFetch, ""},
	{"git fetch -q", GitFetch, ""},
	{"git clone https://example.com/r.git", GitClone, ""},
	{"git clone --depth 1 --progress file:///tmp/r.git dir", GitClone, ""},
	{"git clone --bare r.git", GitClone, ""},
	{"git show", GitShow, ""},
	{"git show HEAD~1", GitShow, ""},
	{"git show --stat v1.0", GitShow, ""},
	{"git show abc123 -- src", GitShow, ""},
	{"git show -m --first-parent HEAD", GitShow, ""},
	{"git show --abbrev-commit --decorate", GitShow, ""},
	{"git show HEAD~3..HEAD", GitShow, ""},
	{"cargo build", CargoBuild, ""},
	{"cargo build --release", CargoBuild, ""},
	{"cargo +stable build --workspace --all-targets", CargoBuild, ""},
	{"cargo build -q 2>&1 | head -50", CargoBuild, ""},
	{"RUSTFLAGS=-Dwarnings cargo build", CargoBuild, ""},
	{"cargo clippy", CargoClippy, ""},
	{"cargo clippy --all-targets -- -D warnings", CargoClippy, ""},
	{"cargo clippy -- -W clippy::pedantic", CargoClippy, ""},
	{"cargo clippy -q", CargoClippy, ""},

	{"git push --porcelain", "", `1:10: option "--porcelain" changes the output format; passing through`},
	{"git fetch --porcelain", "", `1:11: option "--porcelain" changes the output format; passing through`},
	{"git fetch --negotiate-only --negotiation-tip=HEAD", "", `1:11: option "--negotiate-only" changes the output format; passing through`},
	{"git pull --help", "", "1:10: help or version requested (--help); passing through"},
	{"git clone -h", "", "1:11: help or version requested (-h); passing through"},
	{"git -C repo push", "", `1:5: git global option "-C"; passing through`},
	{"git show HEAD:src/main.rs", "", `1:10: "HEAD:src/main.rs" names a file or tree, whose content git show prints; passing through`},
	{"git show v1.0:", "", `1:10: "v1.0:" names a file or tree, whose content git show prints; passing through`},
	{"git show :0:a.go", "", `1:10: ":0:a.go" names a file or tree, whose content git show prints; passing through`},
	{"git show --format=%H", "", `1:10: option "--format=%H" changes the output format; passing through`},
	{"git show --pretty=fuller", "", `1:10: option "--pretty=fuller" changes the output format; passing through`},
	{"git show --oneline", "", `1:10: option "--oneline" changes the output format; passing through`},
	{"git show --name-only", "", `1:10: option "--name-only" changes the output format; passing through`},
	{"git show --name-status HEAD", "", `1:10: option "--name-status" changes the output format; passing through`},
	{"git show -s", "", `1:10: option "-s" changes the output format; passing through`},
	{"git show --no-patch", "", `1:10: option "--no-patch" changes the output format; passing through`},
	{"git show --word-diff", "", `1:10: option "--word-diff" changes the output format; passing through`},
	{"git show --color=always", "", `1:10: option "--color=always" changes the output format; passing through`},
	{"git show --graph", "", `1:10: option "--graph" changes the output format; passing through`},
	{"git show --show-signature", "", `1:10: option "--show-signature" changes the output format; passing through`},
	{"git show --help", "", "1:10: help or version requested (--help); passing through"},
	{"cargo build --message-format=json", "", `1:13: option "--message-format=json" changes the output format; passing through`},
	{"cargo build --timings", "", `1:13: option "--timings" changes the output format; passing through`},
	{"cargo build -V", "", "1:13: help or version requested (-V); passing through"},
	{"cargo clippy --fix --allow-dirty", "", `1:14: option "--fix" changes the output format; passing through`},
	{"cargo clippy --message-format short", "", `1:14: option "--message-format" changes the output format; passing through`},
	{"cargo clippy --version", "", "1:14: help or version requested (--version); passing through"},
	{"cargo -v build", "", `1:7: cargo option "-v" before the subcommand; passing through`},
	{"cargo b", "", "1:7: not a recognized command; passing through"},
	{"cargo nextest run", "", "1:7: not a recognized command; passing through"},
	{"cargo-clippy", "", "1:1: not a recognized command; passing through"},
	{"git remote -v", "", "1:5: not a recognized command; passing through"},
}

func TestGitCargoString(t *testing.T) {
	for _, c := range gitCargoCases {
		r := String(c.in)
		if r.Rule != c.want {
			t.Errorf("String(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
			continue
		}
		if c.want == "" && r.Explain() != c.explain {
			t.Errorf("String(%q).Explain() = %q, want %q", c.in, r.Explain(), c.explain)
		}
	}
}

func TestGitCargoArgv(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"git", "push", "origin", "HEAD:refs/for/main"}, GitPush},
		{[]string{"git", "show", "HEAD", "--", "a b.go"}, GitShow},
		{[]string{"git", "show", "HEAD:a b.go"}, ""},
		{[]string{"git", "show", "--format=%H %s"}, ""},
		{[]string{"cargo", "clippy", "--", "-D", "warnings"}, CargoClippy},
		{[]string{"cargo", "build", "|", "tail"}, CargoBuild},
	} {
		if got := Argv(c.in).Rule; got != c.want {
			t.Errorf("Argv(%q).Rule = %q, want %q", c.in, got, c.want)
		}
	}
}
