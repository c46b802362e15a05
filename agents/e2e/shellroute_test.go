package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shell route: shrinkrun's bash link, named by opencode's shell setting
// or put first by the launch function `shrinkrun init` writes to the shell's
// startup file (Gemini CLI, Qwen Code, Copilot CLI). These helpers are
// shared by the clients' tests.

// launched returns argv run the way the user starts the client once init
// wrote its launch function: by a bash that has read the scratch HOME's
// .bashrc, calling the function of the client's name.
func (s *scratch) launched(name string, argv []string) []string {
	return append([]string{"bash", "-c", `source "$HOME/.bashrc" && ` + name + ` "$@"`, "bash"}, argv[1:]...)
}

// withClientBin returns the scratch environment's extra variables with the
// directory of the client's executable first on the scratch PATH, as an
// installed client is: the launch function runs `command NAME`.
func (s *scratch) withClientBin(bin string, extra []string) []string {
	path := os.Getenv("PATH")
	for _, e := range s.env {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			path = p
		}
	}
	return append(extra, "PATH="+filepath.Dir(bin)+string(filepath.ListSeparator)+path)
}

// outcome is what a client did with the call, read from the result: "ran"
// when the model got the command's output (one of marks, or a block),
// "refused" otherwise ("not offered" when the client never offered the
// shell tool, which checkShellCase tells from the requests).
func outcome(result string, marks ...string) string {
	if strings.Contains(result, blockMark) {
		return "ran"
	}
	for _, m := range marks {
		if strings.Contains(result, m) {
			return "ran"
		}
	}
	return "refused"
}

// shellCase is one permission situation for a client of the shell route:
// the same outcome with and without shrinkrun, and with shrinkrun a block
// for a command it recognizes that ran.
type shellCase struct {
	name    string
	command string
	setup   func(s *scratch) // the client's permission settings
	args    []string         // more of the client's command line
	want    string           // outcome (or "not offered"), with and without shrinkrun
	// wantOn is the outcome with shrinkrun when it differs from want: an
	// allow rule for shrinkrun show makes a client offer its shell tool
	// where it did not, and a command no rule allows is refused instead.
	// It runs in neither case.
	wantOn string
	block  bool // with shrinkrun, the model gets a block
	// measure names the case TestModelVisible reports for the command.
	measure bool
}

// ranMarks are lines the fixtures' commands print when they run.
var ranMarks = []string{"diff --git", "test result:", "initial files", "running 154 tests"}

// checkShellCase runs tc without and with shrinkrun through run, which
// installs the route when on is set, and compares.
func checkShellCase(t *testing.T, client string, tc shellCase, run func(s *scratch, dir string, on bool) runResult) {
	var results [2]string
	defer func() {
		if tc.measure {
			measured.put(client, tc.command, results)
		}
	}()
	for _, on := range []bool{false, true} {
		s := newScratch(t, tc.command)
		if tc.setup != nil {
			tc.setup(s)
		}
		dir := s.repo
		if strings.HasPrefix(tc.command, "cargo") {
			dir = s.crate
		}
		r := run(s, dir, on)
		results[b2i(on)] = r.result()
		got := outcome(r.result(), ranMarks...)
		if r.calls == 0 {
			got = "not offered"
		}
		want := tc.want
		if on && tc.wantOn != "" {
			want = tc.wantOn
		}
		t.Logf("shrinkrun=%v: %s, %d bytes to the model: %.200q", on, got, len(r.result()), r.result())
		if got != want {
			t.Errorf("shrinkrun=%v: %s, want %s; the model got:\n%.2000s\nstderr:\n%.2000s", on, got, want, r.result(), r.stderr)
		}
		switch {
		case on && tc.want == "ran" && tc.block && (!strings.Contains(r.result(), blockMark) || !r.curated(tc.command)):
			t.Errorf("with shrinkrun the model got no block for %q:\n%.3000s\nhistory: %v", tc.command, r.result(), r.history)
		case !on && (strings.Contains(r.result(), blockMark) || r.ranUnder(tc.command)):
			t.Errorf("without shrinkrun the command ran under shrinkrun")
		case on && tc.want != "ran" && r.ranUnder(tc.command):
			t.Errorf("a refused command ran under shrinkrun: %v", r.history)
		}
	}
}
