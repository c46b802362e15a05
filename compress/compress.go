// Package compress turns a finished command's output into shrinkrun's
// [tool_output_compression] block, for programs that run commands and
// capture their output themselves (an agent harness, a provider boundary)
// and only want the block. It is what `shrinkrun compress` uses, and what
// shrinkrun itself uses to decide whether a block is worth printing.
//
// Block gives the same block shrinkrun would print for the same command
// and output, or reports that the output should be shown as it is: neither
// the command nor the output is one shrinkrun recognizes, or the block
// would not be clearly smaller than the output (the "never bigger" rule).
// A command no rule recognizes (make check, ./runtests.py, bash ci.sh) is
// summarized when its output bears a tool's signature (rules.Claim) and
// is larger than the caller's limit (Output.Limit), as a run of it would
// be: the block then says "recognized_by: output". Below the limit a run
// passes such an output through unchanged, and so does Block.
//
//	block, ok := compress.Block(compress.Output{
//		Command:  "cargo test",
//		Stdout:   out,
//		Stderr:   errOut,
//		ExitCode: 101,
//	})
//	if !ok {
//		// show out and errOut as they are
//	}
//
// For a command no rule recognizes, Shape gives what the caller shows:
// the output unchanged up to the caller's limit (where its client would
// cut the output itself), past it the cut by shape (package shape) that
// shrinkrun prints when it runs such a command, failures kept and every
// omission counted.
package compress

import (
	"cmp"
	"strings"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/shape"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// Output is one finished command and everything it wrote.
type Output struct {
	// Command is the command as run, a shell string (the -c form): it is
	// classified as shrinkrun classifies `shrinkrun -c COMMAND`.
	Command string
	// Stdout and Stderr are the complete streams. A harness that captured
	// them merged passes them all as Stdout.
	Stdout, Stderr []byte
	// ExitCode is the command's exit status; Signaled marks a command that
	// a signal killed, or that never started (the block's exit_code is
	// then null).
	ExitCode int
	Signaled bool
	// Budget bounds the block in bytes; 0 means summarize.DefaultBudget.
	Budget int
	// RawOutput is the block's last line, where the full output can be
	// read ("shrinkrun show ID", a path, a URL); empty leaves the line out.
	RawOutput string
	// Limit is the size in bytes, both streams together, past which the
	// caller's client would cut the output itself: Shape cuts an output no
	// rule recognizes past it. 0 means shape.DefaultLimit.
	Limit int
}

// Recognized reports whether command is one shrinkrun summarizes by
// command. Another command's output may still be summarized by output
// (Rule).
func Recognized(command string) bool {
	return rules.String(command).Rule != ""
}

// Rule returns the rule that summarizes o, and whether its output rather
// than its command chose it (a command no rule recognizes, or make's and
// npm test's whose output another family's rule claims, rules.Route); ""
// when o is shown as it is whatever its size.
func Rule(o Output) (id string, byOutput bool) {
	r, ok := run(o)
	if !ok {
		return "", false
	}
	return rules.Route(r)
}

// Block returns the block for o, or false when o should be shown as it
// is.
func Block(o Output) ([]byte, bool) {
	r, ok := run(o)
	if !ok {
		return nil, false
	}
	block, ok := rules.Block(r)
	raw := summarize.EstimateTokens(o.Stdout) + summarize.EstimateTokens(o.Stderr)
	if !ok || !Worth(len(block), r.StdoutBytes+r.StderrBytes, summarize.EstimateTokens(block), int64(raw)) {
		return nil, false
	}
	return block, true
}

// run returns o as a run of the rule that summarizes it: the command's,
// or, when no rule recognizes the command, the one whose signature
// claims the output, read with what the command's filters may have cut
// (rules.OutputCut). It reports false when there is neither.
func run(o Output) (*summarize.Run, bool) {
	c := rules.String(o.Command)
	r := &summarize.Run{
		Rule:        c.Rule,
		Command:     strings.TrimSpace(o.Command),
		Argv:        c.Tool(),
		Stdout:      o.Stdout,
		Stderr:      o.Stderr,
		StdoutBytes: int64(len(o.Stdout)),
		StderrBytes: int64(len(o.Stderr)),
		ExitCode:    o.ExitCode,
		Exited:      !o.Signaled,
		Budget:      o.Budget,
		RawOutput:   o.RawOutput,
		Cut:         summarize.Cut(c.Cuts()),
	}
	if c.ToStderr {
		// A 1>&2 moved the command's output to stderr: the rule reads it
		// there, while the header still counts each real stream.
		r.Stdout, r.Stderr = r.Stderr, r.Stdout
	}
	if c.Rule == "" {
		if len(o.Stdout)+len(o.Stderr) <= cmp.Or(o.Limit, shape.DefaultLimit) {
			// Below the limit a run passes such a command's output
			// through unchanged: the client shows it whole.
			return nil, false
		}
		id, ok := rules.Claim(r)
		if !ok {
			return nil, false
		}
		r.Rule, r.ByOutput, r.Cut = id, true, rules.OutputCut(c)
	}
	return r, true
}

// Worth is the "never bigger" rule: a block is shown only when it is at
// most 80% of the raw output, in bytes and in estimated tokens (what the
// agent pays for), so tiny outputs and outputs a rule cannot shrink arrive
// as they are. Lines that are already terse, like a status list, can
// shrink in bytes and still grow in tokens once the header is added.
func Worth(blockBytes int, rawBytes int64, blockTokens int, rawTokens int64) bool {
	return int64(blockBytes)*5 <= rawBytes*4 && int64(blockTokens)*5 <= rawTokens*4
}

// Shape returns what the caller shows of the output of a command no rule
// recognizes: its streams unchanged when together they are at most
// o.Limit bytes; past it, the cut by shape (cut true), at most o.Budget
// bytes, whose last line names o.RawOutput. The cut is the one shrinkrun
// prints for a command that wrote its output at once: the cutter is fed
// stdout, then stderr, and no Ticks; the block of a rule that recognizes
// the output by its signature takes the place of the cut's middle and
// tail when it fits. For a command a rule recognizes, Block decides, and
// Shape returns the output unchanged.
func Shape(o Output) (stdout, stderr []byte, cut bool) {
	limit := cmp.Or(o.Limit, shape.DefaultLimit)
	c := rules.String(o.Command)
	if c.Rule != "" || len(o.Stdout)+len(o.Stderr) <= limit {
		return o.Stdout, o.Stderr, false
	}
	ct := shape.New(shape.Options{Limit: limit, Budget: min(cmp.Or(o.Budget, summarize.DefaultBudget), limit), Argv: c.Tool(), Piped: len(c.Stages) > 1})
	chunks := ct.Write(shape.Stdout, o.Stdout)
	chunks = append(chunks, ct.Write(shape.Stderr, o.Stderr)...)
	chunks = append(chunks, ct.Close(o.RawOutput, claimed(o))...)
	var out [2][]byte
	for _, ch := range chunks {
		out[ch.Stream] = append(out[ch.Stream], ch.Data...)
	}
	return out[shape.Stdout], out[shape.Stderr], true
}

// claimed is the block of a rule that recognizes the output by its
// signature whatever the command (rules.Claim), for the cut to print in
// place of its shaped middle and tail when it fits, as the relay does; nil
// when no rule does.
func claimed(o Output) []byte {
	r, ok := run(o)
	if !ok || !r.ByOutput {
		return nil
	}
	block, ok := rules.Block(r)
	if !ok {
		return nil
	}
	return block
}
