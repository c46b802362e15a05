package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/compress"
	"github.com/shrinkrun/shrinkrun/setting"
	"github.com/shrinkrun/shrinkrun/shape"
	"github.com/shrinkrun/shrinkrun/store"
)

const compressHelp = `Usage: shrinkrun compress --command 'CMD' [--exit N] [--signaled]
                          [--stdout FILE] [--stderr FILE] [--budget N] [--agent NAME]
                          [--cut-limit N]

Prints the [tool_output_compression] block shrinkrun would print for CMD
and the output given, or the output unchanged when shrinkrun would show it
as it is (neither CMD nor its output recognized, or the block not clearly
smaller). The output of a command no rule recognizes passes unchanged up
to the cut limit and is cut by shape past it, as a run of CMD would be:
when a rule knows its tool by its own lines (pytest's, unittest's, go
test's...), with that rule's block in place of the cut's middle and tail
when it fits. For programs that run commands and capture their output
themselves.

The output is read from stdin, as one stream (stdout), unless --stdout or
--stderr name files holding the streams; unchanged output goes back to the
same streams. The raw output is kept, as for a run, and the block's last
line names it. The exit status is 0, or 2 for a mistake in the arguments
and 1 when the output cannot be read; CMD's own status is --exit.

  --command CMD   the command as run, a shell string (as with -c)
  --exit N        its exit status (default 0)
  --signaled      it was killed by a signal or never started: exit_code null
  --stdout FILE   its stdout; --stderr FILE its stderr
  --budget N      largest block or cut in bytes (default: the agent's, or 16384)
  --agent NAME    the client the block is for: claude, codex, gemini,
                  opencode, copilot or qwen
  --cut-limit N   output no rule recognizes passes whole up to N bytes, both
                  streams together (default: SHRINKRUN_CUT_LIMIT, else the
                  most the agent's client shows whole, else 30000)
`

// compressVerb is `shrinkrun compress`: the block for output a harness
// captured itself, built by package compress.
func compressVerb(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := newVerbFlags("compress", compressHelp)
	command := fl.String("command", "", "")
	exit := fl.Int("exit", 0, "")
	signaled := fl.Bool("signaled", false, "")
	outFile := fl.String("stdout", "", "")
	errFile := fl.String("stderr", "", "")
	budget := fl.Int("budget", 0, "")
	agent := fl.String("agent", "", "")
	limit := fl.Int("cut-limit", 0, "")
	if code, done := fl.parse(args, exactly(0), stdout, stderr); done {
		return code
	}
	var err error
	switch {
	case !fl.Changed("command"):
		err = errors.New("--command is required")
	case *agent != "" && !clients.Known(clients.Name(*agent)):
		err = fmt.Errorf("--agent %q: want %s", *agent, clientNames())
	case fl.Changed("budget") && *budget < setting.MinBudget:
		err = fmt.Errorf("--budget must be at least %d bytes", setting.MinBudget)
	case fl.Changed("cut-limit") && *limit < setting.MinCutLimit:
		err = fmt.Errorf("--cut-limit must be at least %d bytes", setting.MinCutLimit)
	}
	if err != nil {
		return fl.fail(stderr, err)
	}
	for _, e := range setting.Check(os.Getenv) {
		fmt.Fprintf(stderr, "shrinkrun: warning: %v\n", e)
	}
	if !fl.Changed("agent") {
		*agent = string(setting.Agent(os.Getenv))
	}
	if !fl.Changed("budget") {
		*budget = setting.Budget(os.Getenv, 0)
	}
	if !fl.Changed("cut-limit") {
		*limit = setting.CutLimit(os.Getenv, cmp.Or(clients.Limit(clients.Name(*agent)), shape.DefaultLimit))
	}
	o := compress.Output{Command: *command, ExitCode: *exit, Signaled: *signaled, Limit: *limit}
	if *outFile == "" && *errFile == "" {
		o.Stdout, err = io.ReadAll(stdin)
	} else {
		o.Stdout, err = readIf(*outFile)
		if err == nil {
			o.Stderr, err = readIf(*errFile)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: compress: %v\n", err)
		return 1
	}
	o.Budget = blockBudget(*budget, clients.Name(*agent), int64(len(o.Stdout)+len(o.Stderr)))
	// Notices stay off stderr, which may carry the command's own stderr.
	declareRules(nil)
	// A command no rule recognizes is cut past the limit as a run of it
	// would be: the block of a rule that recognizes its output, if any,
	// in place of the cut's middle and tail (compress.Shape).
	cut := !compress.Recognized(o.Command) && len(o.Stdout)+len(o.Stderr) > o.Limit
	switch id, _ := compress.Rule(o); {
	case cut:
		if e := keepRaw(&o); e != nil {
			defer e.Close()
		}
		o.Stdout, o.Stderr, _ = compress.Shape(o)
	case id != "":
		if e := keepRaw(&o); e != nil {
			defer e.Close()
		}
		if block, ok := compress.Block(o); ok {
			stdout.Write(block)
			return 0
		}
	}
	stdout.Write(o.Stdout)
	stderr.Write(o.Stderr)
	return 0
}

// keepRaw keeps the output given as a run's raw output is kept, and names
// it in o.RawOutput for the block or the cut. The entry stays locked
// until the caller closes it, once what names it is printed.
func keepRaw(o *compress.Output) *store.Pending {
	inv := &invocation{}
	e := inv.newEntry()
	e.Stdout().Write(o.Stdout)
	e.Stderr().Write(o.Stderr)
	_, o.RawOutput = inv.keep(e, store.Meta{Command: o.Command, ExitCode: o.ExitCode, Exited: !o.Signaled})
	return e
}

// readIf reads a file, or gives nothing for no name.
func readIf(name string) ([]byte, error) {
	if name == "" {
		return nil, nil
	}
	return os.ReadFile(name)
}
