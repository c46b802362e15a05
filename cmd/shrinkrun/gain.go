package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/shrinkrun/shrinkrun/history"
	"github.com/shrinkrun/shrinkrun/history/gain"
	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/store"
)

const gainUsage = `Usage: shrinkrun gain [--since WHEN] [--project] [--json] [--runs] [--days N] [--top N]

Reports what summaries saved, from the history every run appends to
(docs/history.md): totals, tables by rule and by command, the runs that saved
least, the commands that passed through most often, and a daily chart.

Tokens are o200k_base tokens, counted from the raw output and the block where
they are still kept, estimated from their bytes otherwise (marked ~).

  --since WHEN  only runs since WHEN: a duration (90m, 24h, 7d, 2w), a date
                (2026-01-02, local midnight) or an RFC 3339 time
  --project     only runs in the current directory and below it
  --json        print the report as JSON (schema in docs/history.md)
  --runs        also list every summarized run
  --days N      days in the chart, ending today (default 14)
  --top N       rows per table and list (default 10)
`

// gainVerb prints the savings report.
func gainVerb(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := newVerbFlags("gain", gainUsage)
	since := fl.String("since", "", "")
	project := fl.Bool("project", false, "")
	asJSON := fl.Bool("json", false, "")
	runs := fl.Bool("runs", false, "")
	days := fl.Int("days", 14, "")
	top := fl.Int("top", 10, "")
	if code, done := fl.parse(args, exactly(0), stdout, stderr); done {
		return code
	}
	var err error
	if *days < 0 || *top < 0 {
		err = errors.New("--days and --top take a non-negative number")
	}
	// SHRINKRUN_GAIN_NOW fixes the clock (RFC 3339), for golden tests; its
	// zone sets the days.
	now := time.Now()
	if v := os.Getenv("SHRINKRUN_GAIN_NOW"); v != "" && err == nil {
		if now, err = time.Parse(time.RFC3339, v); err != nil {
			err = fmt.Errorf("SHRINKRUN_GAIN_NOW: %v", err)
		}
	}
	o := gain.Options{Now: now, Days: *days, Top: *top, Runs: *runs}
	if err == nil && *since != "" {
		o.Since, err = parseSince(*since, now)
	}
	if err == nil && *project {
		o.Project, err = os.Getwd()
	}
	if err != nil {
		return fl.fail(stderr, err)
	}
	path, err := store.Dir()
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: gain: %v\n", err)
		return 1
	}
	// The directories are opened as a run opens them, creating them: what
	// fails here is what keeps every run from recording, and gain says so.
	var recs []history.Record
	var st history.ReadStats
	var storeDir, histDir *privdir.Dir
	storeDir, notRecorded := store.OpenDir(path, true)
	if notRecorded == nil {
		defer storeDir.Close()
		histDir, notRecorded = history.Open(storeDir, true)
	}
	if notRecorded == nil {
		defer histDir.Close()
		if recs, st, err = history.Read(histDir); err != nil {
			fmt.Fprintf(stderr, "shrinkrun: gain: %v\n", err)
			return 1
		}
		notRecorded = history.CheckWritable(histDir)
	}
	rep := gain.Build(recs, gain.CountAll(recs, storeDir, histDir), st, o)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(rep)
	} else {
		err = rep.WriteText(stdout)
		if err == nil && rep.Totals.Runs == 0 && !history.Enabled(os.Getenv) {
			fmt.Fprintf(stdout, "History is off: SHRINKRUN_HISTORY=%s.\n", os.Getenv("SHRINKRUN_HISTORY"))
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: gain: %v\n", err)
		return 1
	}
	if st.Refused > 0 {
		files := "files"
		if st.Refused == 1 {
			files = "file"
		}
		fmt.Fprintf(stderr, "shrinkrun: gain: %d history %s skipped: a link, another user's, or writable by others (shrinkrun doctor names the current one)\n", st.Refused, files)
	}
	if notRecorded != nil && history.Enabled(os.Getenv) {
		fmt.Fprintf(stderr, "shrinkrun: gain: runs are not being recorded: %v\n", notRecorded)
	}
	return 0
}

// parseSince reads --since: a duration back from now (Go's units, and d and
// w for days and weeks), a date (midnight in now's zone) or an RFC 3339
// time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, now.Location()); err == nil {
		return t, nil
	}
	for suffix, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, err := strconv.Atoi(strings.TrimSuffix(s, suffix)); err == nil && strings.HasSuffix(s, suffix) && n >= 0 {
			return now.Add(-time.Duration(n) * unit), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (7d, 24h), a date (2026-01-02) or an RFC 3339 time", s)
}
