package ruletest

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The boundary check's oracle: what the finders require of a run's output,
// recorded through their Report, and whether a block shows or counts it,
// judged as plainly as the check's contract says (a required string is a
// substring of the block, or one of its KEY_omitted counts covers it).

// recorder is a summarize.Report that keeps what a finder requires.
type recorder struct {
	required map[string]bool
	lines    []string
	views    [][]string
}

func (rec *recorder) Require(req, line string, at int) {
	if req = strings.TrimSpace(summarize.Clean(req)); req != "" {
		rec.required[req] = true
	}
}

func (rec *recorder) Take(string, int) {}

func (rec *recorder) View(lines []string) int {
	base := len(rec.lines)
	for _, v := range rec.views {
		if len(v) == len(lines) && (len(v) == 0 || &v[0] == &lines[0]) {
			return base
		}
		base += len(v)
	}
	if len(lines) == len(rec.lines) && (len(lines) == 0 || &lines[0] == &rec.lines[0]) {
		return 0
	}
	rec.views = append(rec.views, lines)
	return base
}

// readable returns r with its streams as Block gives them to rules and
// finders.
func readable(r *summarize.Run) *summarize.Run {
	plain := *r
	plain.Stdout, plain.Stderr = summarize.Readable(r.Stdout), summarize.Readable(r.Stderr)
	return &plain
}

// Required returns what finders require of r's output, as Block's check
// reads it, in order.
func Required(r *summarize.Run, finders ...summarize.Finder) []string {
	r = readable(r)
	required := map[string]bool{}
	streams := make([]summarize.Stream, 2)
	for i, raw := range [][]byte{r.Stdout, r.Stderr} {
		ls := r.Lines(raw)
		streams[i] = summarize.Stream{Index: i, Raw: raw, Lines: ls, Report: &recorder{required: required, lines: ls}}
	}
	for _, f := range finders {
		f.Find(r, streams)
	}
	return sorted(required)
}

// CheckRequired compares what finder requires of a run whose streams are
// stdout and stderr (in a run that failed, or passed) with want, in any
// order.
func CheckRequired(t *testing.T, finder summarize.Finder, failed bool, stdout, stderr string, want []string) {
	t.Helper()
	r := &summarize.Run{Stdout: []byte(stdout), Stderr: []byte(stderr), Exited: true}
	if failed {
		r.ExitCode = 1
	}
	EqualRequired(t, Required(r, finder), want)
}

// EqualRequired compares required strings with want, in any order.
func EqualRequired(t *testing.T, got, want []string) {
	t.Helper()
	set := map[string]bool{}
	for _, w := range want {
		set[w] = true
	}
	if w := sorted(set); !slices.Equal(got, w) {
		t.Errorf("required = %q, want %q", got, w)
	}
}

// Unaccounted returns how many of the failures finders (every family's:
// rules.Finders()) find in r's output block neither shows nor counts in an
// _omitted line.
func Unaccounted(r *summarize.Run, block []byte, finders []summarize.Finder) int {
	required := Required(r, finders...)
	omitted := 0
	for l := range summarize.EachLine(block) {
		t := strings.TrimSpace(strings.TrimPrefix(l, "- "))
		if k, v, ok := strings.Cut(t, ": "); ok && strings.HasSuffix(k, "_omitted") {
			n, _ := strconv.Atoi(v)
			omitted += n
		}
	}
	missing := 0
	for _, req := range required {
		if !strings.Contains(string(block), req) {
			missing++
		}
	}
	if missing <= omitted {
		return 0
	}
	return missing
}

// Unshown returns how many of the failures finders find in r's output
// block does not show: the check of a rule read from a file, whose
// _omitted counts stand for nothing (summarize.BlockShown). The fallback
// body is the core's, whose count of the failure lines it leaves out is
// exact: Unaccounted judges it.
func Unshown(r *summarize.Run, block []byte, finders []summarize.Finder) int {
	if strings.Contains(string(block), "\nfallback: true\n") {
		return Unaccounted(r, block, finders)
	}
	missing := 0
	for _, req := range Required(r, finders...) {
		if !strings.Contains(string(block), req) {
			missing++
		}
	}
	return missing
}
