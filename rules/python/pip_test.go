package python

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

func TestIsPipInnerError(t *testing.T) {
	tests := map[string]bool{
		"      cext.c:4:28: error: ‘undefined_speed’ undeclared":                       true,
		"      error: command '/usr/bin/x86_64-linux-gnu-gcc' failed with exit code 1": true,
		"      ModuleNotFoundError: No module named 'shop_build_helpers'":              true,
		"      setuptools.errors.CompileError: command failed":                         true,
		"      a.c:1:10: fatal error: Python.h: No such file or directory":             true,
		"      cext.c:3:18: warning: ‘speed’ defined but not used":                     false,
		"      running build_ext":                  false,
		"      Traceback (most recent call last):": false,
		"      raise an Error: no":                 false,
	}
	for l, want := range tests {
		if got := isPipInnerError(l); got != want {
			t.Errorf("isPipInnerError(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestPipErrorContinuation: the lines an ERROR line goes on with are kept
// under it, up to a blank line, pip's next message or the cap.
func TestPipErrorContinuation(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.\n")
	for i := 0; i < pipMaxErrorLines+3; i++ {
		sb.WriteString("pkg 1.0 requires dep>=2, but you have dep 1.0 which is incompatible.\n")
	}
	sb.WriteString("WARNING: Retrying\n")
	sb.WriteString("ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/usr/lib/x'\n")
	sb.WriteString("Consider using the `--user` option or check the permissions.\n")
	sb.WriteString("\n")
	sb.WriteString("after a blank line\n")
	var p pipLog
	for _, l := range summarize.Lines([]byte(sb.String())) {
		p.Feed(l)
	}
	p.EndStream()
	if len(p.errors) != 2 {
		t.Fatalf("errors = %d, want 2", len(p.errors))
	}
	if n := len(p.errors[0].lines); n != pipMaxErrorLines+1 || p.errors[0].lost != 3 {
		t.Errorf("first error: %d lines, %d lost", n, p.errors[0].lost)
	}
	if got := p.errors[1].lines; len(got) != 2 || got[1] != "Consider using the `--user` option or check the permissions." {
		t.Errorf("second error: %q", got)
	}
	if len(p.warnings) != 1 {
		t.Errorf("warnings = %q", p.warnings)
	}
}

// TestPipUsageError: a failed run without any error line shows the end of
// stderr, where pip's usage error is.
func TestPipUsageError(t *testing.T) {
	stderr := "\nUsage:   \n  pip install [options] <requirement specifier> [package-index-options] ...\n\nno such option: --nosuch\n"
	r := &summarize.Run{Rule: "bash.pip_install", Stderr: []byte(stderr), ExitCode: 2, Exited: true}
	body := string(PipInstall(r).Render())
	if !strings.Contains(body, "- no such option: --nosuch\n") {
		t.Errorf("usage error lost:\n%s", body)
	}
}
