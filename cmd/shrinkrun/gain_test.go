package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shrinkrun/shrinkrun/history"
	"github.com/shrinkrun/shrinkrun/history/gain"
	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// fixedHistory copies testdata/history/state, a store with six kept raw
// outputs and one kept block and a history that names them (and outputs
// that are gone), into a temporary state directory, and fixes gain's clock.
func fixedHistory(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "history", "state"))); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SHRINKRUN_STATE_DIR", dir)
	t.Setenv("SHRINKRUN_GAIN_NOW", "2026-01-10T18:00:00Z")
	return dir
}

// TestGainGolden checks gain's output on the fixed history, byte for byte.
// go test -run TestGainGolden -update rewrites the golden files.
func TestGainGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"gain.golden", nil},
		{"gain.json", []string{"--json"}},
		{"gain_since.golden", []string{"--since", "2026-01-08", "--runs", "--top", "3", "--days", "3"}},
	} {
		t.Run(c.golden, func(t *testing.T) {
			dir := fixedHistory(t)
			var out, errb bytes.Buffer
			if code := run(append([]string{"gain"}, c.args...), nil, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			path := filepath.Join("..", "..", "testdata", "history", c.golden)
			if *update {
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("gain %s differs from %s:\n%s", strings.Join(c.args, " "), c.golden, out.String())
			}
			// A second gain reads the counts from the cache and agrees.
			if _, err := os.Stat(filepath.Join(dir, "history", "tokens.cache")); err != nil {
				t.Errorf("no token cache: %v", err)
			}
			var again bytes.Buffer
			run(append([]string{"gain"}, c.args...), nil, &again, &errb)
			if !bytes.Equal(again.Bytes(), out.Bytes()) {
				t.Error("gain with the token cache differs from gain without it")
			}
		})
	}
}

// TestGainArithmetic checks the JSON report against the history and the
// store it comes from: each counted raw output has the bytes the record
// says (what `shrinkrun show ID | wc -c` prints), and the totals are the
// sums of the runs.
func TestGainArithmetic(t *testing.T) {
	fixedHistory(t)
	var out, errb bytes.Buffer
	if code := run([]string{"gain", "--json", "--runs"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep gain.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var raw, shown, rawBytes int64
	for _, r := range rep.Runs {
		raw += r.RawTokens
		shown += r.ShownTokens
		rawBytes += r.RawBytes
		if r.RawCounted {
			var shownOut bytes.Buffer
			if code := run([]string{"show", r.RawID}, nil, &shownOut, &errb); code != 0 || int64(shownOut.Len()) != r.RawBytes {
				t.Errorf("%s: shrinkrun show prints %d bytes, the record says %d", r.RawID, shownOut.Len(), r.RawBytes)
			}
		}
	}
	tot := rep.Totals
	if raw != tot.RawTokens || shown != tot.ShownTokens || tot.SavedTokens != raw-shown || rawBytes != tot.RawBytes {
		t.Errorf("totals %+v do not add up: raw %d shown %d bytes %d", tot, raw, shown, rawBytes)
	}
	if tot.CuratedRuns != len(rep.Runs) || tot.Runs != tot.CuratedRuns+tot.PassthroughRuns {
		t.Errorf("run counts %+v", tot)
	}
}

// openHistory opens the history of the state directory state.
func openHistory(t *testing.T, state string) *privdir.Dir {
	t.Helper()
	d, err := privdir.Open(filepath.Join(state, "history"), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TestRecordEveryRun runs commands in process and checks the records they
// leave: one per run, pass-through and curated, and none when history is
// off or for shrinkrun's own verbs.
func TestRecordEveryRun(t *testing.T) {
	state := t.TempDir()
	t.Setenv("SHRINKRUN_STATE_DIR", state)
	t.Chdir(t.TempDir())
	var out, errb bytes.Buffer
	if code := run([]string{"--", "sh", "-c", "echo hi; exit 3"}, nil, &out, &errb); code != 3 {
		t.Fatalf("exit %d", code)
	}
	git := exec.Command("git", "init", "-q")
	if err := git.Run(); err != nil {
		t.Skip("git missing:", err)
	}
	run([]string{"--", "git", "status"}, nil, &out, &errb)
	t.Setenv("SHRINKRUN_HISTORY", "0")
	run([]string{"--", "true"}, nil, &out, &errb)
	t.Setenv("SHRINKRUN_HISTORY", "")
	run([]string{"show", "0123456789abcdef"}, nil, &out, &errb)
	recs, st, err := history.Read(openHistory(t, state))
	if err != nil || st.Malformed != 0 || len(recs) != 2 {
		t.Fatalf("%d records %+v %v", len(recs), st, err)
	}
	p, c := recs[0], recs[1]
	cwd, _ := os.Getwd()
	if p.Mode != history.Passthrough || p.Exit == nil || *p.Exit != 3 || p.RawBytes == nil || *p.RawBytes != 3 || p.ShownBytes == nil || *p.ShownBytes != 3 || p.Reason == "" || p.Cwd != cwd || p.Command != "sh -c 'echo hi; exit 3'" {
		t.Errorf("pass-through record %+v", p)
	}
	if c.Mode != history.Curated || c.Rule != "bash.git_status" || c.RawID == "" || c.RawBytes == nil || *c.RawBytes == 0 || c.DurationMS <= 0 {
		t.Errorf("curated record %+v", c)
	}
	var shown bytes.Buffer
	run([]string{"show", c.RawID}, nil, &shown, &errb)
	if int64(shown.Len()) != *c.RawBytes {
		t.Errorf("record says %d raw bytes, show prints %d", *c.RawBytes, shown.Len())
	}
}

// TestConcurrentRuns starts 50 shrinkrun processes at once; the history
// must then hold 50 whole records, one per run.
func TestConcurrentRuns(t *testing.T) {
	sr, err := exec.LookPath("shrinkrun") // installed on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	const n = 50
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			cmd := exec.Command(sr, "--", "echo", "run", strconv.Itoa(i))
			cmd.Env = append(os.Environ(), "SHRINKRUN_STATE_DIR="+state, "SHRINKRUN_HISTORY=1")
			if out, err := cmd.Output(); err != nil || string(out) != fmt.Sprintf("run %d\n", i) {
				t.Errorf("run %d: %q %v", i, out, err)
			}
		})
	}
	wg.Wait()
	recs, st, err := history.Read(openHistory(t, state))
	if err != nil || st.Malformed != 0 || len(recs) != n {
		t.Fatalf("%d records, %+v, %v; want %d", len(recs), st, err, n)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.Command] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct commands, want %d", len(seen), n)
	}
}

// BenchmarkRecord is what a run pays for its record, in process: the
// pass-through record, and the curated one that also keeps its block.
func BenchmarkRecord(b *testing.B) {
	b.Setenv("SHRINKRUN_STATE_DIR", b.TempDir())
	inv := &invocation{text: "go test ./..."}
	inv.class.Reason = "not a recognized command"
	b.Run("passthrough", func(b *testing.B) {
		for b.Loop() {
			inv.record(0, nil, nil)
		}
	})
	b.Run("curated-block", func(b *testing.B) {
		inv := &invocation{text: "git diff"}
		inv.class.Rule = "bash.git_diff"
		block := bytes.Repeat([]byte("files:\n- a.go +1 -2\n"), 100)
		r := &summarize.Run{StdoutBytes: 123456, RawOutput: "shrinkrun show 0123456789abcdef"}
		for b.Loop() {
			inv.record(0, r, block)
		}
	})
}

// BenchmarkRunTrue runs plain `true`, then `shrinkrun -- true` with the
// history off and on, as processes, in turn in every iteration so that a
// busy machine slows all three alike. It reports the median of each and the
// median of the paired differences on-off: what the history adds to a run.
func BenchmarkRunTrue(b *testing.B) {
	sr, err := exec.LookPath("shrinkrun") // installed on PATH by testscript.Main
	if err != nil {
		b.Skip(err)
	}
	state := b.TempDir()
	start := func(env string, argv ...string) time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "SHRINKRUN_STATE_DIR="+state, env)
		t := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t)
	}
	var plain, off, on, added []time.Duration
	for b.Loop() {
		plain = append(plain, start("", "true"))
		o := start("SHRINKRUN_HISTORY=0", sr, "--", "true")
		n := start("SHRINKRUN_HISTORY=1", sr, "--", "true")
		off, on, added = append(off, o), append(on, n), append(added, n-o)
	}
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds())
	}
	b.ReportMetric(median(plain), "plain-µs")
	b.ReportMetric(median(off), "history-off-µs")
	b.ReportMetric(median(on), "history-on-µs")
	b.ReportMetric(median(added), "added-µs")
}

// TestGainManyDays is issue 21's defect: gain --days 999999999999 walked
// every one of those days to fill the chart, for minutes. The chart starts
// at the first day with a run, so the days asked for beyond it cost
// nothing, and the report equals the one for a span that just covers the
// history.
func TestGainManyDays(t *testing.T) {
	fixedHistory(t)
	var want, errb bytes.Buffer
	if code := run([]string{"gain", "--days", "3650"}, nil, &want, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	done := make(chan string, 1)
	go func() {
		var out bytes.Buffer
		run([]string{"gain", "--days", "999999999999"}, nil, &out, &errb)
		done <- out.String()
	}()
	select {
	case got := <-done:
		if got != want.String() {
			t.Errorf("gain --days 999999999999:\n%s\nwant, as with --days 3650:\n%s", got, want.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("gain --days 999999999999 took more than 5 s")
	}
}
