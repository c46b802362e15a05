package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/shrinkrun/shrinkrun/agents/clients"
	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/runner"
	"github.com/shrinkrun/shrinkrun/setting"
)

// asBash reports whether shrinkrun was started under the name bash (or
// -bash, as a login program starts a login shell): the shell route, where
// `shrinkrun init` made a link named bash to shrinkrun for a client that
// runs its commands with the bash it finds on PATH (Gemini CLI, Qwen Code)
// or the shell its settings name (opencode's shell, Copilot CLI's
// COPILOT_BASH_PATH).
func asBash(argv0 string) bool {
	return strings.TrimPrefix(filepath.Base(argv0), "-") == "bash"
}

// bashMain is shrinkrun started as bash. It is bash for everything it does
// not summarize or cut: it finds the real bash (never itself), takes its
// own directory off PATH, and replaces itself with the real bash, the same
// arguments and the same environment, so a script, a -c string, any flag,
// a login or interactive shell, stdin, $0 and the exit status are bash's
// own. It summarizes only `bash [--norc] [--noprofile] [-l] -c STRING`
// where STRING, or the command inside the client's own wrapper around it
// (Gemini CLI's), is one a rule recognizes; then the real bash runs with
// those same arguments, its output captured, and the block is printed.
// Any other `bash [--norc] [--noprofile] -c STRING` whose output a client
// collects runs the real bash with those arguments through the relay, as
// shrinkrun -c would: byte for byte up to the client's limit, cut by shape
// past it (relayed). The client decided its permission on the command
// before it started bash, so nothing here changes what is allowed.
func bashMain(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sh, err := findBash(argv[0], os.Getenv("PATH"))
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun (as bash): %v\n", err)
		return 127
	}
	os.Setenv("PATH", sh.pathEnv)
	if inv, ok := sh.summarized(argv); ok {
		return inv.execute(stdin, stdout, stderr)
	}
	if inv, ok := sh.relayed(argv, stdin, stdout, stderr); ok {
		return relayAsBash(inv, stdin, stdout, stderr)
	}
	return sh.exec(argv, stderr)
}

// bashShell is the real bash behind the link, found from it.
type bashShell struct {
	// real is the bash that runs: the first on PATH that is not shrinkrun
	// (onPath), else the first of fallbackBash.
	real   string
	onPath bool
	// pathEnv is PATH without the directories whose bash is shrinkrun:
	// what the client's commands would have seen without shrinkrun.
	pathEnv string
	// client is the client the link was installed for, named by the
	// link's directory (shrinkrun init puts each client's link in a
	// directory of that name), or "" when the link says nothing.
	client clients.Name
}

// fallbackBash is where bash is looked for when PATH holds no bash but
// shrinkrun's link (the paths Copilot CLI itself tries).
var fallbackBash = []string{"/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"}

// findBash finds the real bash and the link shrinkrun was started from.
func findBash(argv0, pathEnv string) (bashShell, error) {
	self, err := os.Executable()
	if err != nil {
		return bashShell{}, err
	}
	selfInfo, err := os.Stat(self)
	if err != nil {
		return bashShell{}, err
	}
	isSelf := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && os.SameFile(fi, selfInfo)
	}
	var sh bashShell
	link := ""
	if strings.Contains(argv0, "/") {
		link = argv0
	}
	var keep []string
	for _, dir := range filepath.SplitList(pathEnv) {
		d := dir
		if d == "" {
			d = "."
		}
		p := filepath.Join(d, "bash")
		switch {
		case isSelf(p):
			if link == "" {
				link = p
			}
			continue
		case sh.real == "" && isExecutable(p):
			sh.real, sh.onPath = p, true
		}
		keep = append(keep, dir)
	}
	sh.pathEnv = strings.Join(keep, string(filepath.ListSeparator))
	for _, p := range fallbackBash {
		if sh.real != "" {
			break
		}
		if !isSelf(p) && isExecutable(p) {
			sh.real = p
		}
	}
	if sh.real == "" {
		return sh, errors.New("no bash found on PATH or in " + strings.Join(fallbackBash, ", ") + " but shrinkrun itself")
	}
	if !filepath.IsAbs(sh.real) {
		if abs, err := filepath.Abs(sh.real); err == nil {
			sh.real = abs
		}
	}
	if name := clients.Name(filepath.Base(filepath.Dir(link))); link != "" && clients.Known(name) {
		sh.client = name
	}
	return sh, nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && executable(p)
}

// bashCommandString returns the string of `bash [--norc] [--noprofile] [-l|--login]
// -c STRING`, the invocations a client makes for a command (Copilot CLI
// adds --norc --noprofile, which change nothing for a non-interactive
// shell), and false for any other: more options, positional parameters,
// scripts, stdin, interactive shells.
func bashCommandString(args []string) (string, bool) {
	for i, a := range args {
		switch a {
		case "--norc", "--noprofile", "-l", "--login":
		case "-c", "-lc":
			if i == len(args)-2 {
				return args[i+1], true
			}
			return "", false
		default:
			return "", false
		}
	}
	return "", false
}

// summarized returns the invocation that summarizes argv, when its
// arguments are a command string a rule recognizes (inside its client's
// wrapper or not) and summaries are on. The real bash runs with exactly
// those arguments.
func (sh bashShell) summarized(argv []string) (*invocation, bool) {
	s, ok := bashCommandString(argv[1:])
	if !ok || setting.Disabled(os.Getenv) {
		return nil, false
	}
	inner := s
	if in, ok := classify.GeminiEnvelope(s); ok {
		inner = in
	}
	// The rule files that apply here count as for shrinkrun -c; their
	// notices stay off stderr, which is the command's.
	declareRules(nil)
	if rules.String(inner).Rule == "" {
		return nil, false
	}
	inv, ok := sh.invocation(inner, argv)
	return inv, ok && inv.class.Rule != ""
}

// relayed returns the invocation that relays argv, when its arguments are
// a command string (not a login shell's: Copilot CLI reads its environment
// from one, and must get every byte) whose output a client collects, with
// summaries and the cut on: past the client's limit it is cut by shape, as
// any pass-through. The real bash runs with exactly those arguments.
func (sh bashShell) relayed(argv []string, stdin io.Reader, stdout, stderr io.Writer) (*invocation, bool) {
	s, ok := bashCommandString(argv[1:])
	if !ok || loginArgs(argv[1:]) {
		return nil, false
	}
	inner := s
	if in, ok := classify.GeminiEnvelope(s); ok {
		inner = in
	}
	inv, ok := sh.invocation(inner, argv)
	if !ok || inv.raw {
		return nil, false
	}
	way, _ := inv.passWayFor(stdin, stdout, stderr)
	return inv, way == byRelay
}

// loginArgs reports whether bash's arguments make it a login shell.
func loginArgs(args []string) bool {
	for _, a := range args {
		if a == "-l" || a == "--login" || a == "-lc" {
			return true
		}
	}
	return false
}

// invocation is shrinkrun -c inner for the client the link was installed
// for, run as the real bash with exactly argv's arguments and its $0
// (bashArgv).
func (sh bashShell) invocation(inner string, argv []string) (*invocation, bool) {
	var flags []string
	if client := cmp.Or(sh.client, clients.Detect(os.Getenv)); client != "" {
		flags = []string{"--agent", string(client)}
	}
	opts, words, err := parseArgs(append(flags, "-c", inner))
	if err != nil {
		return nil, false
	}
	inv, err := newInvocation(opts, words)
	if err != nil {
		return nil, false
	}
	inv.list = nil
	inv.cmd = runner.Command{Argv: sh.bashArgv(argv)}
	return inv, true
}

// relayAsBash relays the real bash's output (startPass) and ends as the
// real bash did: with its exit status, or, when a signal killed it, killed
// by that signal (dieBy), as the client's own bash would have been.
func relayAsBash(inv *invocation, stdin io.Reader, stdout, stderr io.Writer) int {
	p := inv.startPass(stdin, stdout, stderr)
	st := p.run(inv.cmd)
	code := p.end(st)
	if st.StartErr == nil && !st.Exited && st.Signal != 0 {
		dieBy(st.Signal)
	}
	return code
}

// exec replaces shrinkrun with the real bash (runner.Exec). $0 stays what
// the client would have given bash without shrinkrun: its own word when it
// named bash bare (found on PATH, which no longer holds the link), the
// real bash's path when it named a path. A bare word other than bash
// (-bash from a login program) becomes the path too. It returns only when
// the exec failed.
func (sh bashShell) exec(argv []string, stderr io.Writer) int {
	return finish(runner.Exec(runner.Command{Argv: sh.bashArgv(argv)}, nil), stderr)
}

// bashArgv is argv for the real bash: its path in place of the link's,
// or the bare word bash when the client named it bare and the real bash is
// the one PATH finds once the link's directory is off it, so that $0 and
// bash's messages read as without shrinkrun.
func (sh bashShell) bashArgv(argv []string) []string {
	args := append([]string{sh.real}, argv[1:]...)
	if argv[0] == "bash" && sh.onPath {
		args[0] = argv[0]
	}
	return args
}
