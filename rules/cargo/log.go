package cargo

import (
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// This file reads what cargo itself prints (on stderr, or on stdout after
// 2>&1): progress, rustc diagnostics and cargo's status lines. Both cargo
// rules use it, so a test build that fails is reported exactly like a check
// that fails.

// Caps shared by both cargo rules. Errors are what an agent must fix, so they
// get far more room than warnings, and warnings are shown only once every
// error is.
const (
	maxErrorDiags   = 50
	maxWarningDiags = 10
	maxCausedBy     = 10
	maxCargoErrors  = 50
)

// cargoDiag is one rustc or cargo diagnostic.
type cargoDiag struct {
	isError bool
	code    string // "E0425", or "" when the diagnostic has none
	head    string // the diagnostic line as printed
	loc     string // its primary "-->" location line as printed, or ""
	stream  int    // the index of the stream it was read from
}

// cargoLog accumulates the cargo lines of a run, one line at a time, so a
// caller can hand it only the lines that are not test-harness output.
type cargoLog struct {
	diags    []cargoDiag
	status   string   // the last status line (Finished, could not compile, test failed...)
	targets  []string // every "could not compile" and "test failed, to rerun pass" line
	causedBy []string // the indented lines under "Caused by:"
	headers  []string // "Running ..." and "Doc-tests ..." lines, one per test binary

	// Cargo's own totals, kept to cross-check the counts in tests: they are
	// not exact for the block, because cargo prints an error shared by two
	// targets (lib and lib test) once but counts it for each.
	reportedErrors, reportedWarnings int

	cont int // what an indented or follow-up line continues
	// stream is the index of the stream being read; statusStream, the
	// stream status came from.
	stream, statusStream int
}

// What the next line may continue.
const (
	contNone   = iota
	contLoc    // a diagnostic head, waiting for its "-->" line
	contCaused // "Caused by:"
)

// Feed reads one line of cargo output.
func (c *cargoLog) Feed(l string) {
	t := strings.TrimSpace(l)
	indented := t != "" && t != l && (l[0] == ' ' || l[0] == '\t')
	progress := indented && isProgress(l)
	switch c.cont {
	case contCaused:
		if indented && !progress {
			c.causedBy = append(c.causedBy, t)
			return
		}
	case contLoc:
		if strings.HasPrefix(t, "--> ") {
			c.diags[len(c.diags)-1].loc = l
			c.cont = contNone
			return
		}
	}
	prev := c.cont
	c.cont = contNone

	switch {
	case progress && (strings.HasPrefix(t, "Running ") || strings.HasPrefix(t, "Doc-tests ")):
		c.headers = append(c.headers, t)
	case progress && strings.HasPrefix(t, "Finished "):
		c.setStatus(t)
	case t == "Caused by:":
		c.cont = contCaused
	case strings.HasPrefix(l, "error") || strings.HasPrefix(l, "warning"):
		c.cargoLine(l)
	case prev == contLoc && t != "" && !startsSnippet(t) && !progress:
		// A message that goes on over several lines: the location is
		// still to come.
		c.cont = contLoc
	}
}

// isProgress reports whether l is one of cargo's progress lines ("   Compiling
// demo", "     Running tests/api.rs", "   Doc-tests demo"): cargo
// right-aligns their capitalized verb to end at column 12, which sets them
// apart from the two-space indented lines under "Caused by:" and from what a
// test prints.
func isProgress(l string) bool {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	if i == 0 || i == len(l) || l[i] < 'A' || l[i] > 'Z' {
		return false
	}
	end := i // the verb's end: only column 12 will do, so look no further
	for end < len(l) && end <= 12 && l[end] != ' ' {
		end++
	}
	return end == 12
}

// startsSnippet reports whether t (trimmed) begins the part of a rustc
// diagnostic that follows its primary location: the source snippet, a note
// or a help. The "-->" line, when there is one, always comes before these;
// a later "-->" belongs to a note about some other place.
func startsSnippet(t string) bool {
	for _, p := range []string{"|", "= ", "::: ", "note:", "help:", "..."} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// cargoLine reads a line starting with "error" or "warning": a cargo status
// line, one of the summary lines to skip, or a diagnostic.
func (c *cargoLog) cargoLine(l string) {
	switch {
	case strings.HasPrefix(l, "error: could not compile "):
		c.setStatus(l)
		c.targets = append(c.targets, l)
		c.reportedErrors += numberAfter(l, " due to ")
	case strings.HasPrefix(l, "error: test failed, to rerun pass "),
		strings.HasPrefix(l, "error: doctest failed, to rerun pass "):
		c.setStatus(l)
		c.targets = append(c.targets, l)
	case strings.HasPrefix(l, "error: ") && (strings.HasSuffix(l, " targets failed:") || strings.HasSuffix(l, " target failed:")):
		// --no-fail-fast's summary; the targets it lists under it are the
		// "to rerun pass" lines already kept.
		c.setStatus(l)
	case strings.HasPrefix(l, "warning: `") && strings.Contains(l, ") generated "):
		c.reportedWarnings += numberAfter(l, ") generated ") - summarize.NumberBefore(l, " duplicate")
	case strings.HasPrefix(l, "error: aborting due to "):
		// rustc's own summary, which cargo never prints: a rustc that a
		// test ran (a UI test under --nocapture, or a section whose head a
		// cut left out). It is kept as it is, as cargo's errors are.
		c.targets = append(c.targets, l)
	case strings.HasPrefix(l, "warning: build failed, waiting for other jobs"),
		strings.HasPrefix(l, "warning: ") && strings.HasSuffix(l, " emitted") && numberAfter(l, "warning: ") > 0:
		// Summaries of what was already printed.
	default:
		if d, ok := parseDiagHead(l); ok {
			d.stream = c.stream
			c.diags = append(c.diags, d)
			c.cont = contLoc
		}
	}
}

// parseDiagHead recognizes "error: msg", "error[E0425]: msg", "warning: msg"
// and "warning[CODE]: msg" as rustc and cargo print them, at column 0.
func parseDiagHead(l string) (cargoDiag, bool) {
	d := cargoDiag{head: l}
	rest, ok := strings.CutPrefix(l, "error")
	if ok {
		d.isError = true
	} else if rest, ok = strings.CutPrefix(l, "warning"); !ok {
		return d, false
	}
	if code, after, ok := strings.Cut(rest, "]: "); ok && strings.HasPrefix(code, "[") &&
		len(code) > 1 && !strings.ContainsAny(code, " \t") {
		d.code = code[1:]
		rest = ": " + after
	}
	if !strings.HasPrefix(rest, ": ") {
		return d, false
	}
	return d, true
}

// numberAfter returns the integer that directly follows the first sep in s,
// or 0 when there is none.
func numberAfter(s, sep string) int {
	_, rest, ok := strings.Cut(s, sep)
	if !ok {
		return 0
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(rest[:end])
	return n
}

func (c *cargoLog) setStatus(l string) {
	c.status, c.statusStream = l, c.stream
}

// EndStream ends a stream: nothing continues across streams.
func (c *cargoLog) EndStream() {
	c.cont = contNone
	c.stream++
}

// counts returns the number of warnings and errors, counted from the
// diagnostics themselves.
func (c *cargoLog) counts() (warnings, errors int) {
	for _, d := range c.diags {
		if d.isError {
			errors++
		} else {
			warnings++
		}
	}
	return warnings, errors
}

// errorCodes lists the distinct codes of the errors, in first-seen order.
func (c *cargoLog) errorCodes() string {
	var codes []string
	seen := map[string]bool{}
	for _, d := range c.diags {
		if d.isError && d.code != "" && !seen[d.code] {
			seen[d.code] = true
			codes = append(codes, d.code)
		}
	}
	return strings.Join(codes, ", ")
}

// finalStatus is cargo's last status line or, when cargo stopped before
// printing one (a missing manifest), its last error; stream is the stream
// it came from.
func (c *cargoLog) finalStatus() (status string, stream int) {
	if c.status != "" {
		return c.status, c.statusStream
	}
	for i := len(c.diags) - 1; i >= 0; i-- {
		if c.diags[i].isError {
			return c.diags[i].head, c.diags[i].stream
		}
	}
	return "", 0
}

// cargoErrors returns cargo's error line for each target that failed to
// build or whose tests failed, when final_status does not already show the
// only one: with --no-fail-fast, or when a library fails to build both as
// lib and as lib test, several targets fail and each line names one.
func (c *cargoLog) cargoErrors() []string {
	if status, _ := c.finalStatus(); len(c.targets) == 1 && c.targets[0] == status {
		return nil
	}
	return c.targets
}

// diagnosticItems returns the diagnostics as list items, errors first and
// then warnings, each in the order printed, and how many of them to show at
// most. The shown items are always a prefix (all errors up to
// maxErrorDiags; warnings only when every error fits), so the list's
// omitted count is exact and an agent can tell which kind was left out from
// the errors and warnings counts.
func (c *cargoLog) diagnosticItems() ([]string, int) {
	w, e := c.counts()
	limit := min(e, maxErrorDiags)
	if limit == e {
		limit += min(w, maxWarningDiags)
	}
	items := make([]string, 0, len(c.diags))
	for _, errors := range []bool{true, false} {
		for _, d := range c.diags {
			if d.isError != errors {
				continue
			}
			it := d.head
			// Items past the limit are only counted: joining their
			// locations too would cost more than reading the output.
			if d.loc != "" && len(items) < limit {
				it += "\n" + d.loc
			}
			items = append(items, it)
		}
	}
	return items, limit
}

// addBuildFields adds the build fields the cargo rules share, in their
// fixed order: warnings, errors, compiler_error_codes, final_status,
// cargo_errors and caused_by (those after errors only when there is
// something to copy). warnings and errors count diagnostics: lines a cut
// may have left out. A status line read from a stream that may lack its
// end is the last one seen, not cargo's last: it is last_status_seen.
func (c *cargoLog) addBuildFields(b *summarize.Body, cut streamCut) {
	w, e := c.counts()
	b.Tally("warnings", w)
	b.Tally("errors", e)
	if codes := c.errorCodes(); codes != "" {
		b.Field("compiler_error_codes", codes)
	}
	switch s, stream := c.finalStatus(); {
	case s == "":
	case stream == cutStream && cut.end && c.status == "":
		// The last error stands for a status line only when cargo
		// stopped before printing one; here a cut may have left it out.
	case stream == cutStream && cut.end:
		b.Field("last_status_seen", s)
	default:
		b.Field("final_status", s)
	}
	b.List("cargo_errors", c.cargoErrors(), maxCargoErrors)
	b.List("caused_by", c.causedBy, maxCausedBy)
}
