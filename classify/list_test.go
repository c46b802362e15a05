package classify_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
)

// part renders a part for comparison: its op, its text, and its flags.
func part(p classify.Part) string {
	op := map[classify.Op]string{classify.Then: ";", classify.And: "&&", classify.Or: "||"}[p.Op]
	s := fmt.Sprintf("%s %s @%d:%d", op, p.Text, p.Line, p.Offset)
	if p.Cd {
		s += " cd"
	}
	if p.Ends {
		s += " ends"
	}
	if p.Exec {
		s += " exec"
	}
	return s
}

// TestSplit walks docs/classify.md's "Lists": the lists issue 23 names,
// split into their parts, and the lists that pass through as a whole.
func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"cd build && make", []string{"; cd build @1:0 cd", "&& make @1:12 ends exec"}},
		{"cd build && ctest --output-on-failure", []string{"; cd build @1:0 cd", "&& ctest --output-on-failure @1:12 ends exec"}},
		{"cd tests && python3 runtests.py queries", []string{"; cd tests @1:0 cd", "&& python3 runtests.py queries @1:12 ends exec"}},
		{"cd build; make", []string{"; cd build @1:0 cd ends", "; make @1:10 ends exec"}},
		{"git status && git diff", []string{"; git status @1:0 exec", "&& git diff @1:14 ends exec"}},
		{`ls -R && grep -r "class Foo" .`, []string{"; ls -R @1:0 exec", `&& grep -r "class Foo" . @1:9 ends exec`}},
		{"python a.py && python b.py", []string{"; python a.py @1:0 exec", "&& python b.py @1:15 ends exec"}},
		{"a; b || c && d", []string{"; a @1:0 ends exec", "; b @1:3 exec", "|| c @1:8 exec", "&& d @1:13 ends exec"}},
		{"make\nmake test 2>&1 | tail -5\n", []string{"; make @1:0 ends exec", "; make test 2>&1 | tail -5 @2:5 ends"}},
		{"cd ~/proj && make -j$(nproc) 2>&1 | tail", []string{"; cd ~/proj @1:0 cd", "&& make -j$(nproc) 2>&1 | tail @1:13 ends"}},
		{"echo $HOME && ls # done", []string{"; echo $HOME @1:0", "&& ls @1:14 ends exec"}},
		{"cd 'my dir' && ls > out.txt; cat out.txt", []string{"; cd 'my dir' @1:0 cd", "&& ls > out.txt @1:15 ends", "; cat out.txt @1:29 ends exec"}},
		{"cd build", []string{"; cd build @1:0 ends"}},
		{"git status", []string{"; git status @1:0 ends exec"}},
		{"A=1 make; B=2 make", []string{"; A=1 make @1:0 ends exec", "; B=2 make @1:10 ends exec"}},
	} {
		l, res := classify.Split(c.in)
		if l == nil {
			t.Errorf("Split(%q) passes through: %s", c.in, res.Explain())
			continue
		}
		var got []string
		for _, p := range l.Parts {
			got = append(got, part(p))
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("Split(%q) =\n%s\nwant\n%s", c.in, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

func TestSplitRefused(t *testing.T) {
	for _, c := range []struct{ in, why string }{
		{"A=1; make", "1:1: assignment without a command, which sets a shell variable"},
		{"export X=1 && make", "1:1: export builtin"},
		{"set -e; make", `1:1: set changes the shell's state`},
		{"source env.sh && make", `1:1: source changes the shell's state`},
		{". env.sh && make", `1:1: . changes the shell's state`},
		{"exec make && ls", `1:1: exec changes the shell's state`},
		{"make && exit 1", `1:9: exit changes the shell's state`},
		{"printf -v x y && ls", `1:1: printf changes the shell's state`},
		{"command cd x && ls", `1:1: command changes the shell's state`},
		{"cd -P x && make", "1:1: cd in a form shrinkrun does not reproduce"},
		{"cd - && make", "1:4: cd in a form shrinkrun does not reproduce"},
		{"cd && make", "1:1: cd in a form shrinkrun does not reproduce"},
		{"cd a b && make", "1:1: cd in a form shrinkrun does not reproduce"},
		{"A=1 cd x && make", "1:5: cd in a form shrinkrun does not reproduce"},
		{"cd x 2>/dev/null && make", "1:1: cd in a form shrinkrun does not reproduce"},
		{"cd x | cat && make", "1:1: cd in a form shrinkrun does not reproduce"},
		{"make && cd build", "1:9: list ending in cd"},
		{"make & ls", "1:6: background command (&)"},
		{"make && ls &", "1:12: background command (&)"},
		{"! make && ls", "1:1: negated command (!)"},
		{"(cd x && make) && ls", "1:1: subshell"},
		{"{ make; } && ls", "1:1: command group { }"},
		{"for f in a; do make; done; ls", "1:1: for loop"},
		{"cat <<EOF && make\nx\nEOF", "1:5: here-document"},
		{"make; echo $?", "1:12: parameter whose value is the shell's own"},
		{"mkdir x && cd $_", "1:15: parameter whose value is the shell's own"},
		{"make; echo ${HOME:-x}", "1:12: parameter whose value is the shell's own"},
		{"$CMD && ls", "1:1: command word bash expands, which could name a builtin"},
		{"ls && echo $(date)", "1:12: command substitution"},
		{"ls && echo `date`", "1:12: command substitution (backticks)"},
		{"ls && echo $((1+1))", "1:12: arithmetic expansion"},
		{"ls && diff <(ls) x", "1:12: process substitution"},
		{"ls && make |& tail", "1:12: pipe of stderr (|&)"},
	} {
		l, res := classify.Split(c.in)
		if l != nil {
			t.Errorf("Split(%q) = %d parts, want a pass-through (%s)", c.in, len(l.Parts), c.why)
			continue
		}
		if got := res.Pos + ": " + res.Reason; !strings.HasPrefix(got, c.why) {
			t.Errorf("Split(%q) passes through: %q, want %q", c.in, got, c.why)
		}
	}
}

// TestSplitScript: a part run alone keeps its line, so that bash names the
// line it would have named.
func TestSplitScript(t *testing.T) {
	l, _ := classify.Split("make\ncd nowhere && make test; ls")
	if got := l.Parts[2].Script(); got != "\nmake test" {
		t.Errorf("Script() = %q", got)
	}
	if got := l.Text(1, 2); got != "cd nowhere && make test" {
		t.Errorf("Text(1, 2) = %q", got)
	}
}

// TestExecsLast pins when bash replaces itself with the last command
// (which then sees bash's own SHLVL): each case was read from bash 5.2
// (`env -i bash -c '...; env'`), and FuzzList holds the rule to bash.
func TestExecsLast(t *testing.T) {
	for in, want := range map[string]bool{
		"env":                   true,
		"A=1 env":               true,
		"true; env":             true,
		"true && env":           true,
		"true || true && env":   true,
		"true && true; env":     true,
		"true ; true && env":    false,
		"true\ntrue && env":     true,
		"true; \\\ntrue && env": false,
		"true # c\ntrue && env": true,
		"true && env # c":       true,
		"true && env\n":         true,
		"true && env\n\n# x":    false,
		"env\n\n":               false,
		"env \n":                true,
		"env ; ":                true,
		"env\n ":                false,
		"env 2>&1":              false,
		"env | cat":             false,
		"true; echo":            false,
	} {
		l, res := classify.Split(in)
		if l == nil {
			t.Errorf("Split(%q): %s", in, res.Explain())
			continue
		}
		if l.ExecsLast != want {
			t.Errorf("Split(%q).ExecsLast = %v, want %v", in, l.ExecsLast, want)
		}
	}
}
