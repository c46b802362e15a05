package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/runner"
	"github.com/shrinkrun/shrinkrun/shape"
	"github.com/shrinkrun/shrinkrun/store"
)

// passWay is how a command no rule recognizes runs.
type passWay int

const (
	// byExec: shrinkrun becomes the command (runner.Exec). Nothing can be
	// cut, so nothing of shrinkrun's needs to outlive the start.
	byExec passWay = iota
	// byRelay: the output is relayed to the caller, byte for byte below the
	// cut limit and cut by shape above it.
	byRelay
	// inherited: the child is started with the caller's streams and waited
	// for; for a run whose streams are not the process's own (run called
	// in-process), which an exec would not reach.
	inherited
)

// passWayFor decides how a command that passes through runs, and why.
// Nothing is cut when stdout is a terminal (a person reads it, and no
// client cuts it), when summaries or the cut are turned off, or when
// neither stream is one a reader collects (both /dev/null, say).
func (inv *invocation) passWayFor(stdin io.Reader, stdout, stderr io.Writer) (passWay, string) {
	why := ""
	switch {
	case inv.raw:
		why = "summaries turned off: nothing is cut"
	case inv.opts.noCut:
		why = "the cut is turned off (SHRINKRUN_CUT=0)"
	case isTerminalWriter(stdout):
		why = "stdout is a terminal: nothing is cut"
	case !collected(stdout) && !collected(stderr):
		why = "neither stdout nor stderr is a pipe, socket or file: nothing reads the output"
	default:
		return byRelay, ""
	}
	if stdin != io.Reader(os.Stdin) || stdout != io.Writer(os.Stdout) || stderr != io.Writer(os.Stderr) {
		return inherited, why
	}
	return byExec, why
}

// passthrough runs a command no rule recognizes, by the way passWayFor
// chooses.
func (inv *invocation) passthrough(stdin io.Reader, stdout, stderr io.Writer) int {
	way, why := inv.passWayFor(stdin, stdout, stderr)
	if way == byExec {
		inv.note("pass-through by exec: %s", why)
		inv.flushExplain(stderr)
		// Returns only when the command could not be executed.
		st := runner.Exec(inv.cmd, inv.recordExec)
		return inv.record(finish(st, stderr), nil, nil)
	}
	p := inv.startPass(stdin, stdout, stderr)
	return p.end(p.run(inv.cmd))
}

// passRun is a pass-through that may run several commands one after the
// other, never by exec: the parts of a list that no rule recognizes, when
// a list runs part by part. When the output can be cut, one relay carries
// every part's output, so the cut limit applies to what the caller gets of
// them all; otherwise each part inherits the caller's streams.
//
// inv.startPass, then run for each part, then end once.
type passRun struct {
	inv            *invocation
	stdout, stderr io.Writer
	stdin          io.Reader
	relay          *runner.Relay // nil when nothing can be cut
	argv           []string      // for the cutter and a claiming rule
	budget         int
	entry          *store.Pending // the raw copy, from the start of the cut
}

// startPass starts a pass-through on the caller's streams and says which
// way it goes under --explain.
func (inv *invocation) startPass(stdin io.Reader, stdout, stderr io.Writer) *passRun {
	p := &passRun{inv: inv, stdin: stdin, stdout: stdout, stderr: stderr}
	if way, why := inv.passWayFor(stdin, stdout, stderr); way != byRelay {
		inv.note("pass-through, streams inherited: %s", why)
		inv.flushExplain(stderr)
		return p
	}
	limit := inv.opts.cutLimit
	// The cut, and a block for what a rule recognizes by its output, come
	// only past the limit: sized as for an output the client would cut.
	p.budget = min(blockBudget(inv.opts.budget, inv.opts.client, int64(limit)+1), limit)
	if p.argv = inv.class.Tool(); p.argv == nil {
		p.argv = inv.cmd.Argv
	}
	inv.note("pass-through, relayed: cut by shape past %d bytes (%s), to at most %d", limit, inv.limitSource(), p.budget)
	// A person reads a terminal: stderr on one reaches it whole and live,
	// from the command itself, while stdout is relayed (`shrinkrun -- make
	// | less`). (stdout on a terminal runs by exec: passWayFor.)
	var direct [2]bool
	if isTerminalWriter(stderr) {
		direct[shape.Stderr] = true
		inv.note("stderr is a terminal: the command writes it itself, nothing of it is cut")
	}
	inv.flushExplain(stderr)
	p.relay = runner.NewRelay(runner.RelayOptions{
		Cutter: shape.New(shape.Options{Limit: limit, Budget: p.budget, Argv: p.argv, Piped: len(inv.class.Stages) > 1}),
		Limit:  limit,
		Stdin:  stdin, Stdout: stdout, Stderr: stderr,
		Direct:       direct,
		CaptureLimit: inv.opts.captureLimit,
		Keep: func() (io.Writer, io.Writer) {
			p.entry = inv.newEntry()
			return p.entry.Stdout(), p.entry.Stderr()
		},
	})
	return p
}

// run runs one command of the pass-through to its end.
func (p *passRun) run(c runner.Command) runner.Status {
	if p.relay == nil {
		return runner.Passthrough(c, p.stdin, p.stdout, p.stderr)
	}
	return p.relay.Run(c)
}

// end ends the pass-through whose last command ended with st: the rest of
// the output (the cut's markers, tail and the raw copy's name, with the
// block of a rule that recognizes the output by its signature), the
// history record, and the exit status.
func (p *passRun) end(st runner.Status) int {
	inv := p.inv
	if p.relay == nil {
		return inv.record(finish(st, p.stderr), nil, nil)
	}
	var rawName, rawID string
	var block []byte
	if p.relay.Cutting() {
		if p.entry != nil {
			defer p.entry.Close()
		}
		rawID, rawName = inv.keep(p.entry, store.Meta{Command: inv.text, ExitCode: st.Code, Exited: st.Exited})
		block = inv.claim(p.relay.Capture(), st, p.argv, p.budget, rawName)
	}
	in, out, werr := p.relay.Close(rawName, block)
	inv.flushExplain(p.stderr)
	if werr != nil {
		fmt.Fprintf(p.stderr, "shrinkrun: the output could not be written: %v\n", werr)
	}
	inv.relayed = &relayStats{in: in, out: out, rawID: rawID}
	return inv.record(finish(st, p.stderr), nil, nil)
}

// claim is the block of the rule that recognizes a cut output by its
// signature (rules.Claim), whatever its command, made from the capture, for
// the cutter to print in place of its shaped middle and tail; nil when no
// rule does or its rule fails on it.
func (inv *invocation) claim(out *runner.Output, st runner.Status, argv []string, budget int, rawName string) []byte {
	r := inv.captured(out, st, argv, budget)
	r.Cut, r.RawOutput = rules.OutputCut(inv.class), rawName
	id, ok := rules.Claim(r)
	if !ok {
		return nil
	}
	r.Rule, r.ByOutput = id, true
	block, ok := rules.Block(r)
	if !ok {
		return nil
	}
	inv.note("recognized by output: %s", id)
	return block
}

// relayStats is what the relay saw: the bytes the command wrote, the bytes
// that reached the caller, and the store ID of the raw copy when it was cut.
type relayStats struct {
	in, out int64
	rawID   string
}

// limitSource says where the cut limit came from, for --explain.
func (inv *invocation) limitSource() string {
	switch {
	case inv.opts.cutLimitSet:
		return "--cut-limit or SHRINKRUN_CUT_LIMIT"
	case inv.opts.client != "":
		return string(inv.opts.client) + "'s limit"
	}
	return "the default limit: no client known"
}

// isTerminalWriter reports whether w is a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}

// collected reports whether w is a stream a reader collects and whose size
// a client may cut: a pipe, a socket or a regular file (Claude Code gives
// commands a file, Codex pipes, Gemini CLI sockets; docs/agents.md). A
// writer that is not a file is an in-process caller's buffer, collected
// too; a character device (/dev/null) is not.
func collected(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return true
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	m := fi.Mode()
	return m.IsRegular() || m&(fs.ModeNamedPipe|fs.ModeSocket) != 0
}
