package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"mvdan.cc/sh/v3/syntax"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/runner"
	"github.com/shrinkrun/shrinkrun/setting"
	"github.com/shrinkrun/shrinkrun/shape"
	"github.com/shrinkrun/shrinkrun/store"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// Exit codes of shrinkrun's own failures. Every other exit status is the
// child's.
const (
	exitUsage = 2
)

// options are the parsed command line.
type options struct {
	shell        bool
	login        bool
	errexit      bool
	raw          bool
	explain      bool
	pty          bool
	captureLimit int
	// budget is the largest block, when --budget or SHRINKRUN_BUDGET sets
	// it; 0 sizes the block to what the agent's client shows of an output
	// of its size (blockBudget).
	budget int
	// agent is the client shrinkrun runs for (--agent, SHRINKRUN_AGENT):
	// with claude a lone argument is the string Claude Code passes its
	// shell prefix.
	agent clients.Name
	// client is the client the output is sized for: agent, else the one
	// whose markers are in the environment (clients.Detect), else none. It
	// sets the default budget and cut limit.
	client clients.Name
	// cutLimit is the size past which output no rule recognizes is cut by
	// shape (--cut-limit, SHRINKRUN_CUT_LIMIT, else the client's limit);
	// noCut turns the cut off (SHRINKRUN_CUT=0).
	cutLimit    int
	cutLimitSet bool
	noCut       bool
	version     bool
	help        bool
	// prefix is set when the command string came from Claude Code's shell
	// prefix: its Bash envelope is unwrapped for classifying.
	prefix bool
	// dashed is true when the command came after `--`: a word there is never
	// one of shrinkrun's verbs.
	dashed bool
}

// usageError is a mistake in shrinkrun's own command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, words, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: %v (see shrinkrun --help)\n", err)
		return exitUsage
	}
	switch {
	case opts.help:
		fmt.Fprint(stdout, usageText())
		return 0
	case opts.version && len(words) > 0:
		fmt.Fprintf(stderr, "shrinkrun: --version takes no argument, got %q (see shrinkrun --help)\n", words[0])
		return exitUsage
	case opts.version:
		fmt.Fprintln(stdout, versionLine())
		return 0
	}
	if !opts.shell && !opts.dashed && len(words) > 0 {
		if sub, ok := subcommands[words[0]]; ok {
			return sub(words[1:], stdin, stdout, stderr)
		}
		if words[0] == "help" {
			return helpVerb(words[1:], stdout, stderr)
		}
		if opts.agent == clients.Claude && len(words) == 1 && len(args) == 1 {
			// Claude Code's shell prefix: the whole command string as the
			// one argument (docs/agents.md).
			opts.shell, opts.prefix = true, true
		}
	}
	for _, e := range setting.Check(os.Getenv) {
		fmt.Fprintf(stderr, "shrinkrun: warning: %v\n", e)
	}
	if !opts.raw {
		declareRules(stderr)
	}
	inv, err := newInvocation(opts, words)
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: %v (see shrinkrun --help)\n", err)
		return exitUsage
	}
	if inv.denied(stderr) {
		return exitDenied
	}
	return inv.execute(stdin, stdout, stderr)
}

func parseArgs(args []string) (options, []string, error) {
	var o options
	fs := pflag.NewFlagSet("shrinkrun", pflag.ContinueOnError)
	fs.SetInterspersed(false)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.BoolVarP(&o.shell, "command", "c", false, "")
	fs.BoolVarP(&o.login, "login", "l", false, "")
	fs.BoolVarP(&o.errexit, "errexit", "e", false, "")
	fs.BoolVar(&o.raw, "raw", false, "")
	fs.BoolVar(&o.explain, "explain", false, "")
	fs.BoolVar(&o.pty, "pty", false, "")
	fs.IntVar(&o.captureLimit, "capture-limit", runner.DefaultLimit, "")
	fs.IntVar(&o.budget, "budget", 0, "")
	fs.IntVar(&o.cutLimit, "cut-limit", 0, "")
	agent := fs.String("agent", "", "")
	fs.BoolVar(&o.version, "version", false, "")
	fs.BoolVarP(&o.help, "help", "h", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			o.help = true
			return o, nil, nil
		}
		return o, nil, err
	}
	// A bad flag is a usage error; a bad setting in the environment is
	// reported (warnSettings) and the default applies.
	o.agent = clients.Name(*agent)
	if *agent != "" && !clients.Known(o.agent) {
		return o, nil, usageError{fmt.Sprintf("--agent %q: want %s", *agent, clientNames())}
	}
	if !fs.Changed("agent") {
		o.agent = setting.Agent(os.Getenv)
	}
	o.client = cmp.Or(o.agent, clients.Detect(os.Getenv))
	if !fs.Changed("budget") {
		o.budget = setting.Budget(os.Getenv, 0)
	}
	o.cutLimitSet = fs.Changed("cut-limit") || setting.CutLimit(os.Getenv, 0) > 0
	if !fs.Changed("cut-limit") {
		o.cutLimit = setting.CutLimit(os.Getenv, cmp.Or(clients.Limit(o.client), shape.DefaultLimit))
	}
	o.noCut = setting.CutOff(os.Getenv)
	if o.captureLimit < 1024 {
		return o, nil, usageError{"--capture-limit must be at least 1024 bytes"}
	}
	if o.budget != 0 && o.budget < setting.MinBudget {
		return o, nil, usageError{fmt.Sprintf("--budget must be at least %d bytes", setting.MinBudget)}
	}
	if o.cutLimit < setting.MinCutLimit {
		return o, nil, usageError{fmt.Sprintf("--cut-limit must be at least %d bytes", setting.MinCutLimit)}
	}
	if setting.Disabled(os.Getenv) {
		o.raw = true
	}
	o.dashed = fs.ArgsLenAtDash() == 0
	return o, fs.Args(), nil
}

// blockBudget is the budget for a block summarizing raw bytes of output:
// the one set with --budget or SHRINKRUN_BUDGET, else what the agent's
// client shows of such an output (clients.BlockBudget), else the default.
func blockBudget(set int, agent clients.Name, raw int64) int {
	if set > 0 {
		return set
	}
	return cmp.Or(clients.BlockBudget(agent, raw), summarize.DefaultBudget)
}

// clientNames lists the values --agent takes, for messages.
func clientNames() string {
	names := make([]string, len(clients.All))
	for i, n := range clients.All {
		names[i] = string(n)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// invocation is one command to run, classified.
type invocation struct {
	opts    options
	cmd     runner.Command
	text    string // the command as shown in the header
	typed   string // the command as the model would type it without shrinkrun
	class   classify.Result
	explain []string
	// raw is set when summaries are turned off (--raw, SHRINKRUN_DISABLE):
	// nothing is cut either.
	raw bool
	// recorded is set once the run's history record is written.
	recorded bool
	// relayed is what the relay saw of a pass-through's output.
	relayed *relayStats
	// printed is how many bytes the run put on the caller's streams, as far
	// as shrinkrun knows them (0 for streams the child inherited): a list
	// lowers the cut limit of its later parts by what the earlier printed.
	printed int64
	// state is the checked state directory, opened on first use by
	// openState; stateErr says why it could not be.
	state    *privdir.Dir
	stateErr error
	// shell is the state of the bash that runs a -c string, for a command
	// run without it (shell.direct) and for a list's parts; nil in argv
	// mode and for Claude Code's envelope.
	shell *shell
	// execs tells that the bash running the string would replace itself
	// with the command: the last one of the string (bash's SHLVL).
	execs bool
	// list is a -c string that runs part by part (list.go).
	list *classify.List
}

// openState opens the state directory once per run, creating it, for the
// raw output and the history.
func (inv *invocation) openState() (*privdir.Dir, error) {
	if inv.state == nil && inv.stateErr == nil {
		path, err := store.Dir()
		if err == nil {
			inv.state, err = store.OpenDir(path, true)
		}
		inv.stateErr = err
	}
	return inv.state, inv.stateErr
}

func newInvocation(o options, words []string) (*invocation, error) {
	inv := &invocation{opts: o}
	if o.shell {
		if len(words) == 0 {
			return nil, usageError{"-c needs a command string"}
		}
		inv.cmd = runner.Command{Shell: words[0], ShellArgs: words[1:], Login: o.login, Errexit: o.errexit}
		inv.text, inv.typed = strings.TrimSpace(words[0]), words[0]
		if !o.prefix {
			inv.class = inv.shellString(words[0])
		}
		if o.prefix {
			inv.cmd.Env = []string{prefixedEnv + "=1"}
			inv.class = classify.Result{Reason: "not Claude Code's Bash envelope (a hook, an MCP server, or a shape this version does not know)"}
			if inner, ok := classify.Envelope(words[0]); ok {
				// The whole string runs as Claude Code built it; the block
				// describes the model's command inside it, unless the shell
				// snapshot it sources redefines one of its programs.
				inv.text, inv.class = strings.TrimSpace(inner), rules.String(inner)
				if inv.class.Rule != "" {
					if why := snapshotRedefines(classify.EnvelopeSources(words[0]), inv.class); why != "" {
						inv.class = classify.Result{Reason: why}
					}
				}
			}
		}
		if len(words) > 1 {
			// Extra words become $0, $1...: the string is still what runs,
			// but a rule cannot know what they expand to.
			inv.class = classify.Result{Reason: "positional parameters after the command string"}
			inv.list = nil
		}
	} else {
		if len(words) == 0 {
			return nil, usageError{"no command given"}
		}
		if o.login || o.errexit {
			return nil, usageError{"-l and -e go with -c"}
		}
		assigns, argv := classify.SplitAssigns(words)
		if len(argv) == 0 {
			return nil, usageError{"no command after the assignments " + strings.Join(assigns, " ")}
		}
		inv.cmd = runner.Command{Argv: argv, Env: assigns}
		inv.text = quoteArgv(words)
		inv.typed = inv.text
		inv.class = rules.Argv(words)
	}
	inv.class = inv.class.InLocale(os.Getenv).InEnviron(os.Getenv)
	if inv.class.Rule != "" || inv.list != nil {
		if why := summariesOff(o.shell); why != "" {
			inv.class = classify.Result{Reason: "summaries are off on this system: " + why}
			inv.list = nil
		}
	}
	if o.raw || disabled(inv.class) {
		inv.class = classify.Result{Reason: "summaries turned off (--raw or SHRINKRUN_DISABLE=1)"}
		inv.list = nil
		inv.raw = true
	}
	return inv, nil
}

// disabled reports the documented per-command opt-out, SHRINKRUN_DISABLE=1
// CMD, which reaches shrinkrun as one of the command's own assignments.
func disabled(c classify.Result) bool {
	return setting.Disabled(classify.Getenv(c.Assigns, func(string) string { return "" }))
}

// shellString classifies a -c string: as one command, its words expanded
// where it runs, or, for a list, as parts to run one by one (list.go) when
// that is what bash would do.
func (inv *invocation) shellString(src string) classify.Result {
	l, res := classify.Split(src)
	if l == nil {
		return res
	}
	inv.shell, inv.execs = newShell(os.LookupEnv), l.ExecsLast
	if len(l.Parts) == 1 {
		return l.Parts[0].Classify(matcher, inv.shell.world())
	}
	if why := inv.planList(l, inv.shell); why != "" {
		return classify.Result{Reason: why}
	}
	inv.list = l
	return classify.Result{Reason: "a list, run part by part"}
}

// quoteArgv renders argv as shell words, so the header's command can be
// pasted back into a shell.
func quoteArgv(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		s, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			s = strconv.Quote(w)
		}
		q[i] = s
	}
	return strings.Join(q, " ")
}

func (inv *invocation) note(format string, args ...any) {
	if inv.opts.explain {
		inv.explain = append(inv.explain, fmt.Sprintf(format, args...))
	}
}

func (inv *invocation) flushExplain(stderr io.Writer) {
	for _, l := range inv.explain {
		fmt.Fprintf(stderr, "shrinkrun: %s\n", l)
	}
	inv.explain = nil
}

func (inv *invocation) execute(stdin io.Reader, stdout, stderr io.Writer) int {
	if inv.list != nil {
		return inv.runList(stdin, stdout, stderr)
	}
	inv.note("%s", inv.class.Explain())
	if src := ruleSource(inv.class.Rule); src != "" {
		inv.note("rule %s is read from %s", inv.class.Rule, src)
	}
	if inv.class.Rule == "" {
		return inv.passthrough(stdin, stdout, stderr)
	}
	return inv.curated(stdin, stdout, stderr)
}

// finish reports a child that never started the way bash does and returns
// the exit status.
func finish(st runner.Status, stderr io.Writer) int {
	if st.StartErr != nil {
		fmt.Fprintf(stderr, "shrinkrun: %v\n", st.StartErr)
	}
	if st.Held {
		fmt.Fprintf(stderr, "shrinkrun: a background process kept the output open after the command exited; stopped reading after %v\n", runner.DrainTimeout)
	}
	return st.ExitCode()
}
