package cargo

import "testing"

func TestLibtestLines(t *testing.T) {
	for _, tt := range []struct {
		line, want string
		ok         bool
	}{
		{"thread 'a::b' (1234) panicked at src/lib.rs:37:9:", "src/lib.rs:37:9", true},
		{"thread 'a::b' panicked at src/lib.rs:7:5:", "src/lib.rs:7:5", true},
		{"thread 'main' panicked at 'boom', src/main.rs:2:5", "", false},
		{"thread 'x' (1) panicked at", "", false},
	} {
		got, ok := panicLocation(tt.line)
		if got != tt.want && tt.ok || ok != tt.ok {
			t.Errorf("panicLocation(%q) = %q, %v", tt.line, got, ok)
		}
	}
	for _, tt := range []struct{ line, want string }{
		{"test a::b ... FAILED", "a::b"},
		{"test a::b - should panic ... FAILED", "a::b"},
		{"test src/lib.rs - add (line 5) ... FAILED", "src/lib.rs - add (line 5)"},
		{"test result: FAILED. 0 passed; 1 failed", ""},
	} {
		if got, _ := libtestFailed(tt.line); got != tt.want {
			t.Errorf("libtestFailed(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestDiagnostic(t *testing.T) {
	for _, tt := range []struct {
		line, level, code, text string
		ok                      bool
	}{
		{"error[E0425]: cannot find value", "error", "E0425", "cannot find value", true},
		{"error: could not compile `demo`", "error", "", "could not compile `demo`", true},
		{"warning: unused import", "warning", "", "unused import", true},
		{"fatal: bad revision 'x'", "fatal", "", "bad revision 'x'", true},
		{"error[E0425]:  two spaces", "error", "E0425", "", true},
		{"error[clippy::x]: lint", "", "", "", false},
		{"errors: 3", "", "", "", false},
		{"error", "", "", "", false},
		{"help: try this", "help", "", "try this", true},
	} {
		level, code, text, ok := diagnostic(tt.line)
		if level != tt.level || code != tt.code || text != tt.text || ok != tt.ok {
			t.Errorf("diagnostic(%q) = %q %q %q %v", tt.line, level, code, text, ok)
		}
	}
}
