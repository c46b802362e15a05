package classify

import "testing"

// snapshot is the shape of a bash shell snapshot as Claude Code 2.1.332
// wrote it, with a user's alias and function (cut down from one the real
// client wrote in agents/e2e).
const snapshot = `# Snapshot file
# Unset all aliases to avoid conflicts with functions
unalias -a 2>/dev/null || true
# Shopt
shopt -u autocd
# Functions
eval $'cargo () \n{ \n    command cargo "$@"\n}' > /dev/null 2>&1
eval $'weird-name () \n{ \n    echo x\n}' > /dev/null 2>&1
eval -- $'-dash () \n{ \n    echo x\n}' > /dev/null 2>&1
# Shell Options
set -o braceexpand
shopt -s expand_aliases
# Aliases
alias -- git='git -c status.showUntrackedFiles=no'
alias -- ll='ls -l'
# Check for rg availability
if ! hash rg 2>/dev/null && ! typeset -f rg >/dev/null 2>&1; then
  function rg {
  else command rg ${1+"$@"}; fi
}
fi
# Shadow find/grep with embedded bfs/ugrep
unalias find 2>/dev/null || true
unalias grep 2>/dev/null || true
function find {
  else command find ${1+"$@"}; fi
}
function grep {
  local _cc_a
}
`

func TestRedefines(t *testing.T) {
	for name, want := range map[string]Redefinition{
		"git":        Redefined,
		"ll":         Redefined,
		"cargo":      Redefined,
		"weird-name": Redefined,
		"-dash":      Redefined,
		"grep":       Shadowed,
		"find":       Shadowed,
		"rg":         Shadowed,
		"ls":         NotRedefined, // only named in ll's value
		"go":         NotRedefined,
		"gi":         NotRedefined,
		"carg":       NotRedefined,
		"command":    NotRedefined,
	} {
		if got := Redefines([]byte(snapshot), name); got != want {
			t.Errorf("Redefines(%q) = %v, want %v", name, got, want)
		}
	}
	for _, tc := range []struct{ snap, name string }{
		{"alias git=hub\n", "git"},
		{"alias 'git'='hub'\n", "git"},
		{"  alias -p -- git='x'\n", "git"},
		{"git () {\n  hub \"$@\"\n}\n", "git"},
		{"function git {\n :\n}\n", "git"},
		{"function grep () {\n :\n}\n", "go"}, // another name
	} {
		got := Redefines([]byte(tc.snap), tc.name)
		if want := tc.name == "git"; (got == Redefined) != want {
			t.Errorf("%q in %q: %v", tc.name, tc.snap, got)
		}
	}
}
