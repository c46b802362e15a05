package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/shrinkrun/shrinkrun/compress"
	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/runner"
	"github.com/shrinkrun/shrinkrun/store"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// child is the command curated runs. Under --pty git would start its pager
// on the terminal shrinkrun captures, where nobody can press a key and a
// long log waits for ever: GIT_PAGER=cat (which outranks core.pager and
// PAGER) makes it print, as it does on a pipe. The command's own
// assignments come after it and still win.
func (inv *invocation) child(c runner.Command) runner.Command {
	if !inv.opts.pty {
		return c
	}
	c.Env = append([]string{"GIT_PAGER=cat"}, c.Env...)
	return c
}

// command is what curated runs: the command bash would exec, without bash,
// where shell.direct finds that nothing else bash does would show, and the
// command as given otherwise. fallback is the command as given, for when
// the first cannot be started: bash then says why, as it would have.
func (inv *invocation) command() (c runner.Command, fallback *runner.Command) {
	if inv.shell == nil || inv.opts.login || inv.opts.errexit {
		return inv.cmd, nil
	}
	d, ok := inv.shell.direct(inv.class, inv.execs)
	if !ok {
		return inv.cmd, nil
	}
	inv.note("runs %s without bash in between: bash would run exactly that", d.Argv[0])
	return d, &inv.cmd
}

// curated runs a recognized command with its output captured, then prints
// the block, or the raw output when the block would not be clearly smaller.
func (inv *invocation) curated(stdin io.Reader, stdout, stderr io.Writer) int {
	runner.Prepare()
	inv.flushExplain(stderr)
	opt := runner.Options{Limit: inv.opts.captureLimit, PTY: inv.opts.pty, Stdin: stdin}
	entry := inv.newEntry()
	defer entry.Close()
	opt.StdoutTee, opt.StderrTee = entry.Stdout(), entry.Stderr()
	stopProgress := func() {}
	if progressWanted(stderr) {
		m := &meter{}
		opt.StdoutTee, opt.StderrTee = teeTo(opt.StdoutTee, m), teeTo(opt.StderrTee, m)
		stopProgress = startProgress(stderr, m)
	}
	c, fallback := inv.command()
	out, st := runner.Capture(inv.child(c), opt)
	if st.StartErr != nil && fallback != nil {
		out, st = runner.Capture(inv.child(*fallback), opt)
	}
	stopProgress()
	capOut, capErr := out.Stdout.Bytes(), out.Stderr.Bytes()
	r := inv.captured(out, st, inv.class.Tool(), blockBudget(inv.opts.budget, inv.opts.client, out.Stdout.Total()+out.Stderr.Total()))
	r.Rule, r.Cut, r.Terminal = inv.class.Rule, summarize.Cut(inv.class.Cuts()), inv.opts.pty
	if inv.class.ToStderr {
		// A 1>&2 moved the command's output to stderr: the rule reads it
		// there, while the header still counts each real stream.
		r.Stdout, r.Stderr = r.Stderr, r.Stdout
	}
	id, kept := inv.keep(entry, store.Meta{Command: inv.text, ExitCode: st.Code, Exited: st.Exited})
	r.RawOutput = kept
	w := &checkedWriter{w: stdout}
	defer w.report(stderr, kept)
	stdout = w
	if id, by := rules.Route(r); by {
		inv.note("the output is %s's, recognized by what it printed", id)
		// The history names the rule whose block this is, as the
		// block's header does.
		inv.class.Rule = id
	}
	block, ok := rules.Block(r)
	ignoreBrokenPipe()
	raw := r.StdoutBytes + r.StderrBytes
	blockTokens, rawTokens := summarize.EstimateTokens(block), rawTokens(out)
	worth := ok && compress.Worth(len(block), raw, blockTokens, rawTokens)
	truncated := r.StdoutTruncated || r.StderrTruncated
	switch {
	case !ok:
		inv.note("rule %s failed on this output; printing the raw output", r.Rule)
	case !worth:
		inv.note("block of %d bytes (~%d tokens) is not clearly smaller than the raw %d bytes (~%d tokens); printing the raw output", len(block), blockTokens, raw, rawTokens)
	}
	for _, o := range outputs(ok, worth, truncated, id != "") {
		switch o {
		case theBlock:
			if !worth {
				inv.note("the capture lost the middle of the output and no copy was kept; printing the block")
			}
		case storedCopy:
			inv.note("the capture lost the middle of the output; printing the stored copy")
			inv.flushExplain(stderr)
			warnImitation(stderr, capOut, capErr)
			if replayRaw(stdout, stderr, inv.state, id) != nil {
				continue
			}
			return inv.record(finish(st, stderr), r, nil)
		case captured:
			inv.flushExplain(stderr)
			warnImitation(stderr, capOut, capErr)
			stdout.Write(capOut)
			stderr.Write(capErr)
			if truncated {
				fmt.Fprintf(stderr, "shrinkrun: printed the head and tail of the output: %d bytes in the middle were not kept, nor was a copy (%s)\n",
					raw-int64(len(capOut)+len(capErr)), kept)
			}
			return inv.record(finish(st, stderr), r, nil)
		}
	}
	inv.note("printing a %d-byte block for %d raw bytes", len(block), raw)
	inv.flushExplain(stderr)
	stdout.Write(block)
	return inv.record(finish(st, stderr), r, block)
}

// captured is the run a rule reads: the bounded capture of the command's
// streams, their full sizes, and how it ended.
func (inv *invocation) captured(out *runner.Output, st runner.Status, argv []string, budget int) *summarize.Run {
	return &summarize.Run{
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
	}
}

// warnImitation says on stderr, before raw output that holds a line like a
// block's first, that the command printed it: a test can print a whole
// [tool_output_compression] block, and a reader must not take it for
// shrinkrun's summary of the run.
func warnImitation(stderr io.Writer, streams ...[]byte) {
	for _, b := range streams {
		if summarize.HasMarker(b) {
			fmt.Fprintf(stderr, "shrinkrun: the command's own output below has a %s line; it is not a block from shrinkrun\n", summarize.Marker)
			return
		}
	}
}

// output is what curated prints in place of the command's output.
type output int

const (
	theBlock   output = iota // the block
	storedCopy               // the raw output as stored, when the capture lost a stream's middle
	captured                 // the captured streams: the raw output, or its head and tail
)

// outputs decides what curated prints, in order of preference: each but
// the last only if it can be printed (the stored copy may be unreadable).
// ok tells that the rule made a block, worth that it is clearly smaller
// than the raw output, truncated that the capture lost the middle of a
// stream, and stored that a copy of the raw output was kept. The capture
// is the raw output only when nothing was lost; otherwise the stored copy
// is, and without one the block, which counts what was dropped, is what
// can be printed faithfully, or, when the rule failed, the head and tail.
func outputs(ok, worth, truncated, stored bool) []output {
	if worth {
		return []output{theBlock}
	}
	var out []output
	if truncated && stored {
		out = append(out, storedCopy)
	}
	if !truncated || !ok {
		return append(out, captured)
	}
	return append(out, theBlock)
}

// checkedWriter remembers the first failure to write what shrinkrun prints
// in place of the output, other than a reader that went away (EPIPE, the
// caller's choice, as for any command in a pipeline). The exit status stays
// the child's, so a full disk or a closed stdout would otherwise lose the
// output without a word.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil && !errors.Is(err, syscall.EPIPE) {
		c.err = err
	}
	return n, err
}

// report says on stderr that the output was not delivered, and where it is.
func (c *checkedWriter) report(stderr io.Writer, kept string) {
	if c.err != nil {
		fmt.Fprintf(stderr, "shrinkrun: the output could not be written to stdout: %v (raw output: %s)\n", c.err, kept)
	}
}

// ignoreBrokenPipe keeps a reader that went away (`shrinkrun -- git log |
// true`) from killing shrinkrun with SIGPIPE before it exits with the
// child's status: the write then just fails. Catching the signal, unlike
// ignoring it, is not inherited by children started later.
func ignoreBrokenPipe() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}

// rawTokens estimates the raw output's tokens from the capture, escapes
// included (the agent would pay for them), scaled up to the full size when
// the middle of a stream was dropped.
func rawTokens(out *runner.Output) int64 {
	var n int64
	for _, b := range []*runner.Buffer{out.Stdout, out.Stderr} {
		kept := b.Bytes()
		t := int64(summarize.EstimateTokens(kept))
		if len(kept) > 0 && b.Total() > int64(len(kept)) {
			t = t * b.Total() / int64(len(kept))
		}
		n += t
	}
	return n
}

func teeTo(w io.Writer, m *meter) io.Writer {
	if w == nil {
		return m
	}
	return io.MultiWriter(w, m)
}

// newEntry is the on-disk copy of the raw output, created by the first
// byte the command writes (store.Pending), so the state directory is not
// on the way to starting the child. A store that cannot be used never stops
// the command; the block then says why.
func (inv *invocation) newEntry() *store.Pending {
	_, maxBytes := store.LimitsFromEnv(os.Getenv)
	return store.CreateLater(inv.openState, maxBytes)
}

// keep commits the raw output and returns the block's raw_output value.
// The entry stays locked until the caller closes it, after the block is
// printed, so the prune here (or another run's) cannot remove it first. A
// relayed pass-through that began its cut after its start was dropped has
// no entry (nil).
func (inv *invocation) keep(e *store.Pending, m store.Meta) (id, rawOutput string) {
	if e == nil {
		return "", "not kept (the start of the output was not held, so no copy would be whole)"
	}
	id, err := e.Commit(m)
	if err != nil {
		return "", "not kept (" + err.Error() + ")"
	}
	maxAge, maxBytes := store.LimitsFromEnv(os.Getenv)
	_ = store.MaybePrune(inv.state, maxAge, maxBytes, time.Now())
	return id, "shrinkrun show " + id
}

// replayRaw prints a stored entry's stdout and stderr to ours, byte for
// byte.
func replayRaw(stdout, stderr io.Writer, dir *privdir.Dir, id string) error {
	if err := store.Copy(stdout, dir, id, store.Stdout); err != nil {
		return err
	}
	return store.Copy(stderr, dir, id, store.Stderr)
}
