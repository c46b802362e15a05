// Package e2e drives the real agent clients (Claude Code, Codex CLI, Gemini
// CLI), installed by .ci/deps.d/agents.sh, against a fake model on
// 127.0.0.1 that asks for one shell command and records the tool result the
// client sends back: what a model would read. Each run has a scratch HOME
// and is bounded by `timeout 120`. Every client is run with and without
// shrinkrun installed by `shrinkrun init`, and the tests compare the
// permission outcome and what the model received. A client that is not
// installed skips its tests.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// clientsDir is where .ci/deps.d/agents.sh installs the clients.
func clientsDir() string {
	if d := os.Getenv("SHRINKRUN_AGENTS_DIR"); d != "" {
		return d
	}
	return "/tmp/shrinkrun-ci/agents"
}

// moreClientsDir is where .ci/deps.d/agents-more.sh installs opencode,
// Copilot CLI and Qwen Code.
func moreClientsDir() string {
	if d := os.Getenv("SHRINKRUN_AGENTS_MORE_DIR"); d != "" {
		return d
	}
	return "/tmp/shrinkrun-ci/agents-more"
}

// clientPath is an installed client's executable, looked for in both
// install directories.
func clientPath(name string) (string, error) {
	var err error
	for _, d := range []string{clientsDir(), moreClientsDir()} {
		p := filepath.Join(d, "node_modules", ".bin", name)
		if _, err = os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", err
}

// work holds what every run shares, made once: the shrinkrun binary and
// the fixtures.
var work struct {
	dir       string
	shrinkrun string
	err       error
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "shrinkrun-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	work.dir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var prepared sync.Once

// prepare builds shrinkrun and the fixtures the first time a test needs
// them; a client that is missing never pays for it.
func prepare(t *testing.T) {
	t.Helper()
	prepared.Do(func() {
		work.shrinkrun = filepath.Join(work.dir, "bin", "shrinkrun")
		out, err := exec.Command("go", "build", "-o", work.shrinkrun, "github.com/shrinkrun/shrinkrun/cmd/shrinkrun").CombinedOutput()
		if err != nil {
			work.err = fmt.Errorf("go build: %v\n%s", err, out)
		} else if out, err := exec.Command("bash", "testdata/fixtures.sh", filepath.Join(work.dir, "fx")).CombinedOutput(); err != nil {
			work.err = fmt.Errorf("fixtures.sh: %v\n%s", err, out)
		}
	})
	if work.err != nil {
		t.Fatal(work.err)
	}
}

// client finds an installed client's executable, or skips. The real clients
// take minutes, so they run only when asked (SHRINKRUN_E2E=1, as .ci/run
// does in a step of its own), and go test ./... stays quick.
func client(t *testing.T, name string) string {
	t.Helper()
	if os.Getenv("SHRINKRUN_E2E") != "1" {
		t.Skip("the real agent clients run with SHRINKRUN_E2E=1 (.ci/run sets it)")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the clients are installed for Linux only")
	}
	p, err := clientPath(name)
	if err != nil {
		t.Skipf("%s is not installed (.ci/deps.d/agents.sh and agents-more.sh install it): %v", name, err)
	}
	prepare(t)
	return p
}

// scratch is one run's world: a fresh HOME, copies of the fixtures the run
// works in, and the environment every client gets.
type scratch struct {
	t          *testing.T
	home, repo string
	crate      string
	env        []string
	model      *fakeModel
	// longRun bounds a run by 900 s instead of 120: a whole session.
	longRun bool
}

func newScratch(t *testing.T, command string) *scratch {
	root := t.TempDir()
	s := &scratch{t: t, home: filepath.Join(root, "home"), repo: filepath.Join(root, "repo"), crate: filepath.Join(root, "crate")}
	for _, d := range []string{s.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fx := filepath.Join(work.dir, "fx")
	for _, c := range [][2]string{{filepath.Join(fx, "repo"), s.repo}, {filepath.Join(fx, "crate"), s.crate}} {
		if out, err := exec.Command("cp", "-a", c[0], c[1]).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
	}
	s.model = startModel(t, command)
	// Codex and Claude Code start login shells, whose profile resets PATH:
	// the scratch HOME's profile puts this one back, cargo included.
	s.write(filepath.Join(s.home, ".bash_profile"), "export PATH="+shellQuote(os.Getenv("PATH"))+"\n")
	s.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.home,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"GIT_CONFIG_NOSYSTEM=1",
		"CARGO_TARGET_DIR=" + filepath.Join(fx, "target"),
	}
	realHome, _ := os.UserHomeDir()
	for k, def := range map[string]string{"CARGO_HOME": ".cargo", "RUSTUP_HOME": ".rustup"} {
		v := os.Getenv(k)
		if v == "" && realHome != "" {
			v = filepath.Join(realHome, def)
		}
		s.env = append(s.env, k+"="+v)
	}
	return s
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// write creates a file under the scratch world.
func (s *scratch) write(path, content string) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// read returns a file of the scratch world, or "".
func (s *scratch) read(path string) string {
	data, _ := os.ReadFile(path)
	return string(data)
}

// shrinkrun runs the shrinkrun binary in the scratch world, as the user
// would (`shrinkrun init claude`), and fails the test when it fails.
func (s *scratch) shrinkrun(dir string, args ...string) string {
	s.t.Helper()
	cmd := exec.Command(work.shrinkrun, args...)
	cmd.Dir, cmd.Env = dir, s.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("shrinkrun %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// doctor runs `shrinkrun doctor` in dir and returns what it printed,
// whatever its exit status.
func (s *scratch) doctor(dir string) string {
	cmd := exec.Command(work.shrinkrun, "doctor")
	cmd.Dir, cmd.Env = dir, s.env
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// runResult is what one run of a client produced.
type runResult struct {
	stdout, stderr string
	exit           int
	results        []string // the tool results the model received
	calls          int      // requests that offered the shell tool
	history        []map[string]any
}

// result is the one tool result, or "" when there was none.
func (r runResult) result() string {
	if len(r.results) == 0 {
		return ""
	}
	return r.results[0]
}

// runClient runs a client in dir with `timeout 120` (900 for a long run,
// the session benchmark's), with the scratch
// environment plus extra, and collects what the model received and what
// shrinkrun recorded in its history.
func (s *scratch) runClient(dir string, extra []string, argv ...string) runResult {
	s.t.Helper()
	limit := 120
	if s.longRun {
		limit = 900
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(limit+10)*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "timeout", append([]string{fmt.Sprint(limit)}, argv...)...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, s.env...), extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = nil
	err := cmd.Run()
	r := runResult{stdout: out.String(), stderr: errb.String(), results: s.model.Results(), calls: s.model.Calls()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	} else if err != nil {
		s.t.Fatalf("%s: %v", argv[0], err)
	}
	if r.exit == 124 {
		s.t.Fatalf("%s timed out after %d s\nstderr: %s", filepath.Base(argv[0]), limit, r.stderr)
	}
	r.history = s.history()
	return r
}

// history reads the runs shrinkrun recorded in the scratch HOME.
func (s *scratch) history() []map[string]any {
	data, err := os.ReadFile(filepath.Join(s.home, ".local", "state", "shrinkrun", "history", "runs.jsonl"))
	if err != nil {
		return nil
	}
	var recs []map[string]any
	for _, line := range bytes.Split(data, []byte("\n")) {
		var rec map[string]any
		if json.Unmarshal(line, &rec) == nil {
			recs = append(recs, rec)
		}
	}
	return recs
}

// curated reports whether shrinkrun summarized a run of command: it
// captured it and printed a block.
func (r runResult) curated(command string) bool {
	for _, rec := range r.history {
		if rec["command"] == command && rec["mode"] == "curated" && rec["shown"] == "block" {
			return true
		}
	}
	return false
}

// ranUnder reports whether shrinkrun ran command at all (captured or
// passed through).
func (r runResult) ranUnder(command string) bool {
	for _, rec := range r.history {
		if rec["command"] == command {
			return true
		}
	}
	return false
}

const blockMark = "[tool_output_compression]"
