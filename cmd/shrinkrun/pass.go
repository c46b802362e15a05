package main

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/runner"
	"github.com/shrinkrun/shrinkrun/shape"
	"github.com/shrinkrun/shrinkrun/store"
	"github.com/shrinkrun/shrinkrun/summarize"
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
	switch way {
	case byExec:
		inv.note("pass-through by exec: %s", why)
		inv.flushExplain(stderr)
		// Returns only when the command could not be executed.
		st := runner.Exec(inv.cmd, inv.recordExec)
		return inv.record(finish(st, stderr), nil, nil)
	case byRelay:
		return inv.relay(stdin, stdout, stderr)
	}
	inv.note("pass-through, streams inherited: %s", why)
	inv.flushExplain(stderr)
	st := runner.Passthrough(inv.cmd, stdin, stdout, stderr)
	return inv.record(finish(st, stderr), nil, nil)
}

// relay runs the command with its output relayed: byte for byte and live
// while it stays at or below the cut limit, cut by shape past it, with the
// raw output kept from its first byte and named in the cut.
func (inv *invocation) relay(stdin io.Reader, stdout, stderr io.Writer) int {
	limit, budget := inv.opts.cutLimit, min(inv.opts.budget, inv.opts.cutLimit)
	inv.note("pass-through, relayed: cut by shape past %d bytes (%s), to at most %d", limit, inv.limitSource(), budget)
	inv.flushExplain(stderr)
	argv := inv.class.Tool()
	if argv == nil {
		argv = inv.cmd.Argv
	}
	var entry *store.Entry
	var keepErr error
	r := runner.NewRelay(runner.RelayOptions{
		Cutter: shape.New(shape.Options{Limit: limit, Budget: budget, Argv: argv}),
		Limit:  limit,
		Stdin:  stdin, Stdout: stdout, Stderr: stderr,
		CaptureLimit: inv.opts.captureLimit,
		Keep: func() (io.Writer, io.Writer) {
			if entry, keepErr = inv.openEntry(); entry == nil {
				return nil, nil
			}
			return entry.Stdout(), entry.Stderr()
		},
	})
	st := r.Run(inv.cmd)
	var rawName, rawID string
	var block []byte
	if r.Cutting() {
		if entry != nil {
			defer entry.Close()
		}
		rawID, rawName = inv.keep(entry, keepErr, store.Meta{Command: inv.text, ExitCode: st.Code, Exited: st.Exited})
		block = inv.claim(r.Capture(), st, argv, budget, rawName)
	}
	in, out, werr := r.Close(rawName, block)
	inv.flushExplain(stderr)
	if werr != nil {
		fmt.Fprintf(stderr, "shrinkrun: the output could not be written: %v\n", werr)
	}
	inv.relayed = &relayStats{in: in, out: out, rawID: rawID}
	return inv.record(finish(st, stderr), nil, nil)
}

// claim is the block of the rule that recognizes a cut output by its
// signature (rules.Claim), whatever its command, made from the capture, for
// the cutter to print in place of its shaped middle and tail; nil when no
// rule does or its rule fails on it.
func (inv *invocation) claim(out *runner.Output, st runner.Status, argv []string, budget int, rawName string) []byte {
	r := &summarize.Run{
		Command:         inv.text,
		Argv:            argv,
		Stdout:          out.Stdout.Bytes(),
		Stderr:          out.Stderr.Bytes(),
		StdoutBytes:     out.Stdout.Total(),
		StderrBytes:     out.Stderr.Total(),
		StdoutTruncated: out.Stdout.Truncated(),
		StderrTruncated: out.Stderr.Truncated(),
		ExitCode:        st.Code,
		Exited:          st.Exited,
		Budget:          budget,
		Cut:             rules.OutputCut(inv.class),
		RawOutput:       rawName,
	}
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
	var st syscall.Stat_t
	if syscall.Fstat(int(f.Fd()), &st) != nil {
		return false
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFIFO, syscall.S_IFSOCK, syscall.S_IFREG:
		return true
	}
	return false
}
