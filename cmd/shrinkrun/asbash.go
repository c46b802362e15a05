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
// not summarize: it finds the real bash (never itself), takes its own
// directory off PATH, and replaces itself with the real bash, the same
// arguments and the same environment, so a script, a -c string, any flag,
// a login or interactive shell, stdin, $0 and the exit status are bash's
// own. It summarizes only `bash [--norc] [--noprofile] [-l] -c STRING`
// where STRING, or the command inside the client's own wrapper around it
// (Gemini CLI's), is one a rule recognizes; then the real bash runs with
// those same arguments, its output captured, and the block is printed.
// The client decided its permission on the command before it started
// bash, so nothing here changes what is allowed.
func bashMain(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sh, err := findBash(argv[0], os.Getenv("PATH"))
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun (as bash): %v\n", err)
		return 127
	}
	os.Setenv("PATH", sh.pathEnv)
	if inv, ok := sh.summarized(argv[1:]); ok {
		return inv.execute(stdin, stdout, stderr)
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

// summarized returns the invocation that summarizes args, when they are a
// command string a rule recognizes (inside its client's wrapper or not) and
// summaries are on. The real bash runs with exactly args.
func (sh bashShell) summarized(args []string) (*invocation, bool) {
	s, ok := bashCommandString(args)
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
	var flags []string
	if client := cmp.Or(sh.client, clients.Detect(os.Getenv)); client != "" {
		flags = []string{"--agent", string(client)}
	}
	opts, words, err := parseArgs(append(flags, "-c", inner))
	if err != nil {
		return nil, false
	}
	inv, err := newInvocation(opts, words)
	if err != nil || inv.class.Rule == "" {
		return nil, false
	}
	inv.cmd = runner.Command{Argv: append([]string{sh.real}, args...)}
	return inv, true
}

// exec replaces shrinkrun with the real bash (runner.Exec). $0 stays what
// the client would have given bash without shrinkrun: its own word when it
// named bash bare (found on PATH, which no longer holds the link), the
// real bash's path when it named a path. A bare word other than bash
// (-bash from a login program) becomes the path too. It returns only when
// the exec failed.
func (sh bashShell) exec(argv []string, stderr io.Writer) int {
	args := append([]string{sh.real}, argv[1:]...)
	if argv[0] == "bash" && sh.onPath {
		args[0] = argv[0]
	}
	return finish(runner.Exec(runner.Command{Argv: args}, nil), stderr)
}
