// Package summarize is the core that every rule is built on: the Run a rule
// reads, the Body it fills, the block's header, the budget and the fitting
// of lists into it, the text helpers rules share, and the boundary check
// that no rule can skip.
//
// A rule is a pure function from a Run to a Body. Rules only ever copy lines
// from the raw output or count things in it; the Body type is the only way to
// emit text, so caps and their "left out" counts are applied in one place.
// The rules themselves live in one package per family of tools
// (rules/git, rules/cargo, ...), and the table of them in package rules:
// nothing here names a rule or a family.
package summarize

import (
	"strconv"
	"strings"
)

// Run is one captured execution of a recognized command, as a rule sees it.
type Run struct {
	Rule    string   // rule id, e.g. "bash.git_status"
	Command string   // the command text as the user wrote it, trimmed
	Argv    []string // words of the first pipeline stage, assignments removed

	// Stdout and Stderr are the captured bytes. They must not be modified
	// while a rule runs: rules read them as strings without copying. When a stream was larger than
	// the capture limit they hold its head and tail joined at line boundaries.
	Stdout, Stderr []byte
	// StdoutBytes and StderrBytes count every byte the child wrote.
	StdoutBytes, StderrBytes int64
	StdoutTruncated          bool
	StderrTruncated          bool

	// ExitCode is the child's exit code; Exited is false when there is none
	// (killed by a signal, never started), which the header prints as null.
	ExitCode int
	Exited   bool

	// Budget bounds the whole block in bytes; 0 means DefaultBudget. Rules
	// with an excerpt of variable size (git_diff) size it from what the
	// budget leaves.
	Budget int

	// RawOutput tells where the raw output is kept, for the block's last
	// line: "shrinkrun show ID", or why it was not kept. Empty omits it.
	RawOutput string

	// Cut says what filter stages left out of Stdout (the command's output
	// after a pipe); the zero Cut says nothing was.
	Cut Cut

	// Terminal tells that the command wrote to a terminal (--pty), not to
	// pipes: tools then print the layout a person reads (rg's headings and
	// line numbers, ls's columns), and stderr arrives merged into Stdout.
	Terminal bool

	// ByOutput tells that Rule was chosen by what the output shows (its
	// tool's signature), not by the command: Block starts the body with
	// "recognized_by: output", since the header's rule is then not the
	// command's.
	ByOutput bool

	split   [2]splitStream // Stdout's and Stderr's lines, for Lines
	derived [2]derived     // what Derive computed from each stream
}

// DefaultBudget is the block size limit when none is given: about 4k tokens,
// large enough for a whole small diff, small against the outputs worth
// summarizing.
const DefaultBudget = 16 << 10

// BlockBudget is the limit on the whole block in bytes: Budget, or
// DefaultBudget when Budget is 0.
func (r *Run) BlockBudget() int {
	if r.Budget > 0 {
		return r.Budget
	}
	return DefaultBudget
}

// BodyRoom is how many bytes the budget leaves for the body: Block puts the
// header before it and the raw_output line after it. Rules with long lists
// size them from it so they choose what to leave out, before fit must.
func (r *Run) BodyRoom() int {
	room := r.BlockBudget() - len(header(r))
	if r.RawOutput != "" {
		room -= len(footer(r))
	}
	return room
}

// Cut describes what the filter stages of a pipe (| tail -40, | grep X)
// may have left out of the output a rule reads on Stdout. Stderr never
// passes a filter: without 2>&1 it reaches the caller whole.
type Cut struct {
	// By holds each filter stage that may leave lines out, as written.
	By []string
	// Start, End and Any say where Stdout may lack lines: before its
	// first line (tail), after its last (head), or anywhere (grep).
	Start, End, Any bool
	// Discarded is the redirect that discarded the command's stderr
	// (2>/dev/null, 2>&-), as written, or "": what the rule reads there is
	// empty, and the caller saw none of it either.
	Discarded string
}

// Partial reports whether a rule reads less than the command printed: a
// filter may have left lines out, a redirect discarded stderr, or the
// capture limit dropped the middle of a stream. Counts of lines are then
// counts of what was seen (Tally).
func (r *Run) Partial() bool {
	return r.Cut.Start || r.Cut.End || r.Cut.Any || r.Cut.Discarded != "" || r.StdoutTruncated || r.StderrTruncated
}

// MayLackStart reports whether lines before the first one of Stdout may
// be missing: a tail, a grep, or the capture limit's cut. A rule then
// cannot place what comes before the first header it sees.
func (r *Run) MayLackStart() bool {
	return r.Cut.Start || r.Cut.Any || r.StdoutTruncated
}

// MayLackEnd reports whether lines after the last one of Stdout may be
// missing: a head, a grep, or the capture limit's cut. The tool's closing
// totals may then be gone.
func (r *Run) MayLackEnd() bool {
	return r.Cut.End || r.Cut.Any || r.StdoutTruncated
}

// partial applies to body what a cut output changes: the filters and the
// lines seen first, then tallies as counts of what was seen.
func (r *Run) partial(body *Body) {
	if !r.Partial() {
		return
	}
	body.seen()
	var head Body
	if r.Cut.Discarded != "" {
		head.Field("stderr_discarded_by", r.Cut.Discarded)
	}
	if len(r.Cut.By) > 0 {
		head.Field("cut_by", strings.Join(r.Cut.By, " | "))
		head.Count("lines_seen", len(r.Lines(r.Stdout)))
	}
	body.prepend(&head)
}

// recognized starts body with what chose the rule, when the output did.
func (r *Run) recognized(body *Body) {
	if r.ByOutput {
		var head Body
		head.Field("recognized_by", "output")
		body.prepend(&head)
	}
}

// Failed reports whether the run failed: an exit code other than 0, or
// none at all.
func (r *Run) Failed() bool {
	return !r.Exited || r.ExitCode != 0
}

// ExitCodeValue is the body's exit_code value: the integer, or null when the
// command did not exit (killed by a signal, never started), as in the header.
func (r *Run) ExitCodeValue() string {
	if !r.Exited {
		return "null"
	}
	return strconv.Itoa(r.ExitCode)
}

func footer(r *Run) string {
	return "raw_output: " + oneLine(r.RawOutput) + "\n"
}

// Func is a rule: a pure function from captured output to a body.
type Func func(r *Run) *Body

// readable returns r with its streams as Readable shows them, or r itself
// when they have nothing a terminal would hide.
func readable(r *Run) *Run {
	out, errs := Readable(r.Stdout), Readable(r.Stderr)
	if sameBytes(out, r.Stdout) && sameBytes(errs, r.Stderr) {
		return r
	}
	plain := *r
	plain.Stdout, plain.Stderr = out, errs
	return &plain
}

// Block renders the curated block for r: the header, then the body rule
// makes, fitted to the budget and held to the boundary check of every
// family's finder. It reports false when the rule failed on this output (a
// panic is recovered): the caller then prints the raw output, so a bug in a
// rule can never cost the user the output or the exit status. The fuzz
// tests treat false as a failure. Rules and finders read the streams as a
// terminal would show them (Readable); the header counts the raw bytes.
func Block(r *Run, rule Func, finders []Finder) ([]byte, bool) {
	return render(r, rule, finders, true)
}

// BlockShown is Block for a rule that is not trusted to count what it
// leaves out: a rule read from a file (package declare), which can make a
// list's _omitted count large with lines that are no failures and drop a
// failure line into a count. Its check credits no _omitted line: every
// failure a finder requires is shown in the body, or the body is the
// fallback, the failure lines themselves.
func BlockShown(r *Run, rule Func, finders []Finder) ([]byte, bool) {
	return render(r, rule, finders, false)
}

// render is Block; credit tells whether the check lets a body's _omitted
// counts stand for the failures it does not show.
func render(r *Run, rule Func, finders []Finder, credit bool) (block []byte, ok bool) {
	defer func() {
		if recover() != nil {
			block, ok = nil, false
		}
	}()
	r = readable(r)
	body := rule(r)
	r.partial(body)
	r.recognized(body)
	out := header(r)
	var foot string
	if r.RawOutput != "" {
		foot = footer(r)
	}
	room := r.BlockBudget() - len(out) - len(foot)
	body.fit(room)
	rendered := body.Render()
	if f := findFailures(r, finders); len(f.required) > 0 {
		if _, ok := accounted(f, rendered, credit); !ok {
			body = fallbackBody(r, f)
			r.partial(body)
			r.recognized(body)
			body.fit(room)
			rendered = body.Render()
		}
	}
	out = append(out, rendered...)
	return append(out, foot...), true
}
