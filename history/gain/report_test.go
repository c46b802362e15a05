package gain

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/shrinkrun/shrinkrun/history"
)

func TestKey(t *testing.T) {
	for cmd, want := range map[string]string{
		"git diff --stat":                "git diff",
		"git '--no-pager' log":           "git",
		"/usr/bin/git status":            "git status",
		"cargo test --workspace":         "cargo test",
		"CI=1 RUST_LOG=debug cargo test": "cargo test",
		"cd web && npm test":             "npm test",
		"cd web; export X=1; make build": "make build",
		"npm run lint | tail -5":         "npm run",
		"python3 -m pytest -x":           "python3 -m pytest",
		"ls src":                         "ls",
		"ls -la":                         "ls",
		"go test ./...":                  "go test",
		"make ./weird":                   "make",
		"cd only":                        "cd",
		"   ":                            "",
	} {
		if got := Key(cmd); got != want {
			t.Errorf("Key(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func rec(at time.Time, cwd, rule string, raw, shown int64, rawID, shownID string) history.Record {
	r := history.Record{V: 1, Time: at, Cwd: cwd, Mode: history.Curated, Rule: rule, Command: strings.TrimPrefix(rule, "bash."),
		RawBytes: history.Int64(raw), ShownBytes: history.Int64(shown), Shown: history.ShownBlock, RawID: rawID, ShownID: shownID}
	if raw == shown {
		r.Shown, r.ShownID = history.ShownRaw, ""
	}
	return r
}

func TestBuild(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	recs := []history.Record{
		rec(now.Add(-5*day), "/p/a", "bash.git_diff", 1000, 100, "r1", "s1"),
		rec(now.Add(-4*day), "/p/a/sub", "bash.git_diff", 1000, 100, "r1", "s1"),
		rec(now.Add(-3*day), "/p/ab", "bash.git_status", 200, 200, "r2", ""),
		rec(now.Add(-1*day), "/p/a", "bash.git_diff", 3000, 300, "gone", "gone"),
		{V: 1, Time: now.Add(-time.Hour), Cwd: "/p/a", Mode: history.Passthrough, Reason: "not a recognized command", Command: "ls", Exit: history.Int(2), DurationMS: 1500},
	}
	c := Counts{
		Raw:   map[string]Count{"r1": {Bytes: 1000, Tokens: 400}, "r2": {Bytes: 200, Tokens: 50}},
		Shown: map[string]Count{"s1": {Bytes: 100, Tokens: 30}},
	}
	rep := Build(recs, c, history.ReadStats{}, Options{Now: now, Days: 7, Top: 10})
	tot := rep.Totals
	// r1 twice (400, shown 30), r2 (50, shown 50), the gone run estimated
	// at the all-outputs ratio 450/1200 and the default block ratio.
	wantRaw := int64(400 + 400 + 50 + 1125)
	wantShown := int64(30 + 30 + 50 + 104)
	if tot.Runs != 5 || tot.CuratedRuns != 4 || tot.PassthroughRuns != 1 || tot.RawTokens != wantRaw || tot.ShownTokens != wantShown {
		t.Errorf("totals %+v, want raw %d shown %d", tot, wantRaw, wantShown)
	}
	if tot.RawCounted != 3 || tot.RawEstimated != 1 || tot.ShownCounted != 3 || tot.ShownEstimated != 1 {
		t.Errorf("counted/estimated %+v", tot)
	}
	if len(rep.Days) != 6 || rep.Days[0].Date != "2026-03-05" || rep.Days[5].Date != "2026-03-10" || rep.Days[5].Runs != 1 {
		t.Errorf("days %+v", rep.Days)
	}
	if len(rep.Passthrough) != 1 || rep.Passthrough[0].Failed != 1 || rep.Passthrough[0].DurationMS != 1500 {
		t.Errorf("pass-through %+v", rep.Passthrough)
	}
	if rep.Worst[0].Rule != "bash.git_status" || *rep.Worst[0].SavedPct != 0 {
		t.Errorf("worst %+v", rep.Worst[0])
	}

	// --project /p/a: /p/a and /p/a/sub, not /p/ab.
	rep = Build(recs, c, history.ReadStats{}, Options{Now: now, Project: "/p/a", Days: 7})
	if rep.Totals.Runs != 4 || rep.Totals.CuratedRuns != 3 {
		t.Errorf("project totals %+v", rep.Totals)
	}
	// --since: the calibration still uses the whole history.
	rep = Build(recs, c, history.ReadStats{}, Options{Now: now, Since: now.Add(-2 * day), Days: 7})
	if rep.Totals.CuratedRuns != 1 || rep.Totals.RawTokens != 1125 || len(rep.Days) != 2 {
		t.Errorf("since: %+v days %+v", rep.Totals, rep.Days)
	}
}

func TestEmpty(t *testing.T) {
	rep := Build(nil, Counts{}, history.ReadStats{}, Options{Now: time.Unix(0, 0).UTC(), Days: 14})
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "No runs recorded") {
		t.Errorf("empty report:\n%s", b.String())
	}
	if rep.Rules == nil || rep.Worst == nil || rep.Days == nil {
		t.Error("empty lists must encode as [], not null")
	}
}

func TestBar(t *testing.T) {
	if b := bar(100, 100); b != strings.Repeat("█", chartWidth) {
		t.Errorf("full bar %q", b)
	}
	if b := bar(1, 1_000_000); b != "▏" {
		t.Errorf("a day that saved anything shows: %q", b)
	}
	if b := bar(0, 100); b != "" {
		t.Errorf("zero bar %q", b)
	}
	if num(1234567) != "1,234,567" || num(-1000) != "-1,000" || num(12) != "12" {
		t.Error("num")
	}
}

// TestBaseline: a run for a client that would have cut the raw output
// itself is counted against what that client would have shown, and the
// report says which baseline it used. The figures are TestModelVisible's
// for an 86 KB git diff (agents/e2e).
func TestBaseline(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	claude := rec(now.Add(-time.Hour), "/p", "bash.git_diff", 87576, 16322, "r1", "s1")
	claude.Agent = "claude"
	codex := rec(now.Add(-time.Hour), "/p", "bash.git_diff", 87576, 8148, "r1", "s2")
	codex.Agent = "codex"
	small := rec(now.Add(-time.Hour), "/p", "bash.cargo_test", 5095, 962, "r3", "s3")
	small.Agent = "claude"
	c := Counts{
		Raw:   map[string]Count{"r1": {Bytes: 87576, Tokens: 31000}, "r3": {Bytes: 5095, Tokens: 1600}},
		Shown: map[string]Count{"s1": {Bytes: 16322, Tokens: 6024}, "s2": {Bytes: 8148, Tokens: 3053}, "s3": {Bytes: 962, Tokens: 334}},
	}
	rep := Build([]history.Record{claude, codex, small}, c, history.ReadStats{}, Options{Now: now, Days: 1, Top: 10})
	runs := map[string]Run{}
	for _, r := range rep.Worst {
		runs[r.Rule+" "+r.ShownID] = r
	}
	// Claude Code shows 2 KB of 87,576 bytes: 31000*2048/87576 = 725
	// tokens, against a block of 6024: a loss, said as one.
	cl := runs["bash.git_diff s1"]
	if cl.Baseline == "" || cl.BaselineTokens != 725 || cl.SavedPct == nil || *cl.SavedPct >= 0 {
		t.Errorf("claude run: %+v", cl)
	}
	// Codex shows 10,000 bytes: 3540 tokens, against 3053.
	cx := runs["bash.git_diff s2"]
	if cx.BaselineTokens != 3540 || cx.SavedPct == nil || *cx.SavedPct <= 0 {
		t.Errorf("codex run: %+v", cx)
	}
	// Output under the client's cut: the raw output is the baseline.
	if sm := runs["bash.cargo_test s3"]; sm.Baseline != "" || sm.BaselineTokens != 0 {
		t.Errorf("small run: %+v", sm)
	}
	if tot := rep.Totals; tot.BaselineTokens != 725+3540+1600 || tot.SavedTokens != tot.BaselineTokens-tot.ShownTokens {
		t.Errorf("totals: %+v", tot)
	}
	if len(rep.Baselines) != 2 || rep.Baselines[0].Runs != 1 {
		t.Errorf("baselines: %+v", rep.Baselines)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil || !strings.Contains(text.String(), "Claude Code shows a 2 KB preview of output over 30,000 characters: 1 run") {
		t.Errorf("text report does not say the baseline:\n%s", text.String())
	}
}
