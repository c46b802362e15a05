package main

import (
	"os"
	"strings"
	"time"

	"github.com/shrinkrun/shrinkrun/history"
	"github.com/shrinkrun/shrinkrun/store"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// started is when this process began: a record's time and duration.
var started = time.Now()

// record appends this run to the history (docs/history.md) and returns
// code unchanged. It is called once the output has been delivered: r is nil
// for a pass-through run; block is what a curated run printed, or nil when
// it printed the raw output. Nothing here can fail the run or change its
// status: SHRINKRUN_HISTORY=0 skips it, and errors are dropped.
func (inv *invocation) record(code int, r *summarize.Run, block []byte) int {
	switch {
	case block != nil:
		inv.printed = int64(len(block))
	case r != nil:
		inv.printed = r.StdoutBytes + r.StderrBytes
	case inv.relayed != nil:
		inv.printed = inv.relayed.out
	}
	inv.appendRecord(history.Int(code), r, block)
	return code
}

// recordExec appends the record of a pass-through about to end in an exec,
// just before it: its exit status is unknown (null), and its duration is
// shrinkrun's own part. It costs the command no fork and no wait.
func (inv *invocation) recordExec() {
	inv.appendRecord(nil, nil, nil)
}

// appendRecord appends the run's record once, whatever calls it.
func (inv *invocation) appendRecord(exit *int, r *summarize.Run, block []byte) {
	if inv.recorded || !history.Enabled(os.Getenv) {
		return
	}
	inv.recorded = true
	state, err := inv.openState()
	if err != nil {
		return
	}
	dir, err := history.Open(state, true)
	if err != nil {
		return
	}
	defer dir.Close()
	now := time.Now()
	cwd, _ := os.Getwd()
	rec := history.Record{Time: started, Cwd: cwd, Command: inv.text, Exit: exit,
		DurationMS: float64(now.Sub(started).Microseconds()) / 1000, Agent: string(inv.opts.client)}
	switch {
	case r == nil:
		rec.Mode, rec.Reason = history.Passthrough, inv.class.Reason
		if inv.class.Rule != "" {
			rec.Reason = "no summarizer for " + inv.class.Rule
		}
		if rel := inv.relayed; rel != nil {
			// The relay saw the output: every byte, and what reached the
			// caller (less when it was cut).
			rec.RawBytes, rec.ShownBytes, rec.RawID = history.Int64(rel.in), history.Int64(rel.out), rel.rawID
		}
	case block != nil:
		rec.Mode, rec.Rule, rec.Shown = history.Curated, inv.class.Rule, history.ShownBlock
		rec.ShownBytes = history.Int64(int64(len(block)))
		maxAge, _ := store.LimitsFromEnv(os.Getenv)
		rec.ShownID, _ = history.KeepShown(dir, block, maxAge, now)
	default:
		// The raw output was printed: all of it (a capture that lost its
		// middle is replayed from the stored copy), unless no copy was kept
		// of a capture that lost its middle.
		rec.Mode, rec.Rule, rec.Shown = history.Curated, inv.class.Rule, history.ShownRaw
		rec.ShownBytes = history.Int64(r.StdoutBytes + r.StderrBytes)
		if (r.StdoutTruncated || r.StderrTruncated) && !strings.HasPrefix(r.RawOutput, "shrinkrun show ") {
			rec.ShownBytes = history.Int64(int64(len(r.Stdout) + len(r.Stderr)))
		}
	}
	if r != nil {
		rec.RawBytes = history.Int64(r.StdoutBytes + r.StderrBytes)
		if id, ok := strings.CutPrefix(r.RawOutput, "shrinkrun show "); ok {
			rec.RawID = id
		}
	}
	_ = history.Append(dir, rec)
}
