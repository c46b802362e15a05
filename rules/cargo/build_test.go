package cargo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// GNU ld reports an undefined symbol on two lines, the function and then
// the reference; both are kept, and the linker's own error line too.
func TestBuildLinkerGNU(t *testing.T) {
	stderr := strings.Join([]string{
		"   Compiling demo v0.1.0 (/tmp/demo)",
		"error: linking with `cc` failed: exit status: 1",
		"  |",
		`  = note: LC_ALL="C" PATH="/usr/bin" "cc" "-m64" "/tmp/demo/target/debug/deps/demo.o"`,
		"  = note: /usr/bin/ld: /tmp/demo/target/debug/deps/demo.o: in function `demo::main':",
		"          /tmp/demo/src/main.rs:7: undefined reference to `missing_init'",
		"          /usr/bin/ld: /tmp/demo/src/main.rs:7: multiple definition of `twice'; first defined here",
		"          collect2: error: ld returned 1 exit status",
		"          ",
		"",
		"error: could not compile `demo` (bin \"demo\") due to 1 previous error",
		"",
	}, "\n")
	var x buildExtras
	for _, l := range summarize.Lines([]byte(stderr)) {
		if x.take(l) {
			t.Errorf("take(%q) kept a line from cargoLog", l)
		}
	}
	want := []string{
		"/tmp/demo/src/main.rs:7: undefined reference to `missing_init'",
		"/usr/bin/ld: /tmp/demo/src/main.rs:7: multiple definition of `twice'; first defined here",
		"collect2: error: ld returned 1 exit status",
	}
	if fmt.Sprint(x.linker) != fmt.Sprint(want) {
		t.Errorf("linker = %q, want %q", x.linker, want)
	}
}

// A build script's sections end at cargo's next line at column 0, and
// their lines are not handed on to cargoLog (which would copy them into
// caused_by).
func TestBuildScriptSections(t *testing.T) {
	stderr := strings.Join([]string{
		"error: failed to run custom build command for `demo v0.1.0 (/tmp/demo)`",
		"",
		"Caused by:",
		"  process didn't exit successfully: `/tmp/demo/target/debug/build/demo-1/build-script-build` (exit status: 1)",
		"  --- stdout",
		"  cargo:rerun-if-changed=build.rs",
		"",
		"  --- stderr",
		"",
		"  error: libfoo.so was not found",
		"warning: build failed, waiting for other jobs to finish...",
		"  --- stderr",
	}, "\n")
	var x buildExtras
	var toLog []string
	for _, l := range summarize.Lines([]byte(stderr)) {
		if !x.take(l) {
			toLog = append(toLog, l)
		}
	}
	if fmt.Sprint(x.scriptStdout) != fmt.Sprint([]string{"cargo:rerun-if-changed=build.rs"}) ||
		fmt.Sprint(x.scriptStderr) != fmt.Sprint([]string{"error: libfoo.so was not found"}) {
		t.Errorf("stdout %q, stderr %q", x.scriptStdout, x.scriptStderr)
	}
	// The last line is outside any section: a section starts only right
	// after cargo's lines under the failed build command.
	if got := toLog[len(toLog)-2:]; got[0] != "warning: build failed, waiting for other jobs to finish..." {
		t.Errorf("lines handed on end with %q", got)
	}
}
