package python

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestMypyDiag(t *testing.T) {
	tests := []struct {
		in, kind, path string
		isError        bool
	}{
		{`inventory/stock.py:20: error: Unsupported operand types for + ("int" and "str")  [operator]`, "error", "inventory/stock.py", true},
		{`inventory/stock.py:20:31: error: Unsupported operand types  [operator]`, "error", "inventory/stock.py", true},
		{`a.py:1:2:1:5: error: with --show-error-end  [x]`, "error", "a.py", true},
		{`stubs/a.pyi:3: error: bad stub`, "error", "stubs/a.pyi", true},
		{`a.py: error: Duplicate module named "a"`, "error", "a.py", true},
		{`inventory/stock.py:19: note: "restock" defined here`, "note", "inventory/stock.py", false},
		{`a.py:1: note: x: error: y`, "note", "a.py", false},
		{`<string>:1: error: Name "y" is not defined  [name-defined]`, "error", "<string>", false},
		{`myscript:3: error: bad`, "error", "myscript", false},
		{`mypy: error: unrecognized arguments: --nosuch`, "", "", false},
		{`mypy: can't read file 'nosuch.py': No such file or directory`, "", "", false},
		{`src/main.rs:3:5: error: something`, "error", "src/main.rs", false},
		{`Found 8 errors in 3 files (checked 4 source files)`, "", "", false},
		{`some text: error: here`, "", "", false},
	}
	for _, tt := range tests {
		kind, path, ok := mypyDiag(tt.in)
		if kind != tt.kind || path != tt.path || ok != (tt.kind != "") {
			t.Errorf("mypyDiag(%q) = %q, %q, %v; want %q, %q", tt.in, kind, path, ok, tt.kind, tt.path)
		}
		if got := isMypyError(tt.in); got != tt.isError {
			t.Errorf("isMypyError(%q) = %v, want %v", tt.in, got, tt.isError)
		}
	}
}

func TestMypyCodes(t *testing.T) {
	if got := mypyCode(`a.py:1: error: x; expected "int"  [arg-type]`); got != "arg-type" {
		t.Errorf("code = %q", got)
	}
	if got := mypyCode(`a.py:1: error: List item 0 has type [int]`); got != "" {
		t.Errorf("no code = %q", got)
	}
	codes := map[string]int{"return-value": 2, "arg-type": 1, "misc": 1}
	if got, lost := mypyCodes(codes); got != "return-value 2, arg-type 1, misc 1" || lost != 0 {
		t.Errorf("mypyCodes = %q, %d", got, lost)
	}
	many := map[string]int{}
	for i := range mypyMaxErrorCodes + 3 {
		many["code-"+string(rune('a'+i%26))+string(rune('a'+i/26))] = 1
	}
	if _, lost := mypyCodes(many); lost != 3 {
		t.Errorf("codes left out = %d, want 3", lost)
	}
}

// TestMypyNotes: notes go under the error they follow; notes before any
// error are listed on their own; a note past the cap is counted.
func TestMypyNotes(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("a.py:1: note: Revealed type is \"builtins.int\"\n")
	sb.WriteString("a.py:5: error: No overload variant matches  [call-overload]\n")
	for i := 0; i < mypyMaxNotes+2; i++ {
		sb.WriteString("a.py:5: note:     def f(x: int) -> int\n")
	}
	sb.WriteString("b.py:2: error: Name \"y\" is not defined  [name-defined]\n")
	sb.WriteString("Found 2 errors in 2 files (checked 2 source files)\n")
	r := &summarize.Run{Rule: "bash.mypy", Stdout: []byte(sb.String()), ExitCode: 1, Exited: true}
	body := string(Mypy(r).Render())
	for _, want := range []string{
		"errors: 2\n", "notes: 8\n", "files_with_errors: 2\n",
		"error_codes: call-overload 1, name-defined 1\n",
		"notes_without_error:\n- a.py:1: note: Revealed type is \"builtins.int\"\n",
		"- a.py:5: error: No overload variant matches  [call-overload]\n  a.py:5: note:",
		"note_lines_omitted: 2\n",
		"- b.py:2: error: Name \"y\" is not defined  [name-defined]\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
}
