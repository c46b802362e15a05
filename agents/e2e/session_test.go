package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/history/tokens"
)

// sessionCall is one tool call of the session benchmark and the facts its
// output holds that the model must get.
type sessionCall struct {
	command string
	facts   []string
}

// readSession reads testdata/session.txt.
func readSession(t *testing.T) []sessionCall {
	f, err := os.Open(filepath.Join("testdata", "session.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls []sessionCall
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "$ "):
			calls = append(calls, sessionCall{command: line[2:]})
		case strings.HasPrefix(line, "= ") && len(calls) > 0:
			calls[len(calls)-1].facts = append(calls[len(calls)-1].facts, line[2:])
		}
	}
	if len(calls) == 0 {
		t.Fatal("testdata/session.txt holds no calls")
	}
	return calls
}

var sessionBuilt sync.Once

// sessionProject builds the benchmark's project once (testdata/session.sh)
// and returns where; each run works in a copy.
func sessionProject(t *testing.T) string {
	dir := filepath.Join(work.dir, "session")
	var err error
	var out []byte
	sessionBuilt.Do(func() {
		out, err = exec.Command("bash", "testdata/session.sh", dir).CombinedOutput()
	})
	if err != nil {
		t.Fatalf("session.sh: %v\n%s", err, out)
	}
	return dir
}

// truncationMarks are what each client puts in a result it cut itself.
var truncationMarks = []string{
	"Output too large",                  // Claude Code, Copilot CLI, Gemini CLI
	"Warning: truncated output",         // Codex
	"...output truncated...",            // opencode
	"Tool output was too large",         // Qwen Code
	"<persisted-output>",                // Claude Code
	"Full output saved to",              // opencode
	"Output too large to read at once.", // Copilot CLI
}

// requestTokens counts the tokens (o200k_base) of every string in a model
// request: the system prompt, the tools, the messages and the results, all
// the model is given to read, without the JSON around them.
func requestTokens(body []byte) int {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return tokens.Count(body)
	}
	n := 0
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			n += tokens.CountString(v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return n
}

// sessionRun is what one client's session cost and delivered.
type sessionRun struct {
	calls, results   int
	requests, input  int // model requests, and the tokens they carried
	resultTokens     int // tokens of the tool results
	facts, factsSeen int
	cut, blocks      int // results the client cut itself; blocks
}

// TestSession is the session benchmark: the fixed list of tool calls of
// testdata/session.txt (tests, builds, diffs, searches, listings, file
// views, a script) on the project of testdata/session.sh, made by the fake
// model through each real client, without shrinkrun and with its route,
// everything allowed. It reports the input tokens the model received over
// the whole session (every request, o200k_base, the requests kept as
// requests.jsonl), the tokens of the tool results, how many of the seeded
// failures and locations reached the model, and how many results the
// client cut itself. It takes minutes, so it runs when asked (a list of
// clients in place of 1 runs only those):
//
//	SHRINKRUN_E2E=1 SHRINKRUN_E2E_SESSION=1 go test ./agents/e2e -run TestSession -v -timeout 60m
//
// SHRINKRUN_E2E_SESSION_OUT=DIR keeps each run's requests.jsonl and
// results.jsonl there.
func TestSession(t *testing.T) {
	only := os.Getenv("SHRINKRUN_E2E_SESSION")
	if only == "" {
		t.Skip("benchmark: SHRINKRUN_E2E_SESSION=1")
	}
	calls := readSession(t)
	out := os.Getenv("SHRINKRUN_E2E_SESSION_OUT")
	if out == "" {
		out = t.TempDir()
	}
	var table strings.Builder
	table.WriteString("| client | route | calls answered | input tokens (session) | tool result tokens | facts reached | cut by the client | blocks |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, name := range measuredClients(t, only) {
		project := sessionProject(t)
		var runs [2]sessionRun
		for i, on := range []bool{false, true} {
			r := runSession(t, name, on, calls, project, filepath.Join(out, fmt.Sprintf("%s-%s", name, map[bool]string{false: "without", true: "with"}[on])))
			runs[i] = r
			route := "without shrinkrun"
			if on {
				route = "shrinkrun"
			}
			fmt.Fprintf(&table, "| %s | %s | %d of %d | %d | %d | %d of %d | %d | %d |\n", name, route, r.results, r.calls,
				r.input, r.resultTokens, r.factsSeen, r.facts, r.cut, r.blocks)
		}
		if runs[1].results == runs[1].calls && runs[1].factsSeen < runs[0].factsSeen {
			t.Errorf("%s: with shrinkrun %d facts reached the model, without %d", name, runs[1].factsSeen, runs[0].factsSeen)
		}
	}
	t.Log("\n" + table.String())
}

// runSession runs the whole session in one client and measures it; the
// requests and results are written under dir.
func runSession(t *testing.T, name clients.Name, on bool, calls []sessionCall, project, dir string) sessionRun {
	s := newScratch(t, calls[0].command)
	s.longRun = true
	var more []string
	for _, c := range calls[1:] {
		more = append(more, c.command)
	}
	s.model.more = more
	s.model.mu.Lock()
	s.model.keep = true
	s.model.mu.Unlock()
	root := filepath.Dir(s.home)
	if out, err := exec.Command("cp", "-a", filepath.Join(project, "project"), root).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	wd := filepath.Join(root, "project")
	// The Go and cargo builds share their caches with the test run's, as a
	// developer's machine does: no run pays for a cold cache.
	goCache, _ := exec.Command("go", "env", "GOCACHE").Output()
	s.env = append(s.env, "GOCACHE="+strings.TrimSpace(string(goCache)), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod",
		"CARGO_TARGET_DIR="+filepath.Join(project, "target"))
	for i, e := range s.env {
		if strings.HasPrefix(e, "CARGO_TARGET_DIR=") && !strings.Contains(e, project) {
			s.env[i] = "CARGO_TARGET_DIR=" + filepath.Join(project, "target")
		}
	}
	s.onPath()
	r := s.allowAll(name, on)(wd)

	run := sessionRun{calls: len(calls), results: len(r.results)}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	req, _ := os.Create(filepath.Join(dir, "requests.jsonl"))
	defer req.Close()
	s.model.mu.Lock()
	requests := s.model.requests
	s.model.mu.Unlock()
	for _, q := range requests {
		n := requestTokens(q.body)
		run.requests++
		run.input += n
		line, _ := json.Marshal(map[string]any{"path": q.path, "bytes": len(q.body), "tokens": n, "body": json.RawMessage(orNull(q.body))})
		req.Write(append(line, '\n'))
	}
	res, _ := os.Create(filepath.Join(dir, "results.jsonl"))
	defer res.Close()
	for i, c := range calls {
		run.facts += len(c.facts)
		if i >= len(r.results) {
			continue
		}
		got := r.results[i]
		run.resultTokens += tokens.CountString(got)
		var seen []string
		for _, f := range c.facts {
			if strings.Contains(got, f) {
				seen = append(seen, f)
			}
		}
		run.factsSeen += len(seen)
		cut := false
		for _, m := range truncationMarks {
			cut = cut || strings.Contains(got, m)
		}
		if cut {
			run.cut++
		}
		if strings.Contains(got, blockMark) {
			run.blocks++
		}
		line, _ := json.Marshal(map[string]any{"command": c.command, "bytes": len(got), "tokens": tokens.CountString(got),
			"facts": len(c.facts), "seen": len(seen), "cut": cut, "block": strings.Contains(got, blockMark), "result": got})
		res.Write(append(line, '\n'))
	}
	t.Logf("%s shrinkrun=%v: %d of %d calls answered, %d requests, %d input tokens, %d result tokens, facts %d of %d, %d cut, %d blocks",
		name, on, run.results, run.calls, run.requests, run.input, run.resultTokens, run.factsSeen, run.facts, run.cut, run.blocks)
	if run.results < run.calls {
		t.Logf("stderr: %.2000s", r.stderr)
	}
	return run
}

func orNull(b []byte) []byte {
	if json.Valid(b) {
		return b
	}
	return []byte("null")
}
