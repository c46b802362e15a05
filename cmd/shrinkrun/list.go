package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/runner"
)

// A list (`cd build && make`, `git status; git diff`) runs part by part,
// as bash runs it: each part in order, by its operator, with the status so
// far; each recognized part gets its block and every other part runs live;
// `cd DIR` changes the directory of the parts after it as bash's cd would.
// Where shrinkrun cannot be sure of doing what bash's cd would (a cd that
// fails, CDPATH), bash runs that cd, and shrinkrun takes the directory it
// leaves. docs/classify.md, "Lists", says what is accepted; list_test.go
// holds it to bash.

// matcher picks the rule of a -c string's command or part: the table's.
// The differential tests (list_test.go) give a command of their own a rule.
var matcher classify.Matcher = rules.Match

// listRefusal says why the environment or the options keep a list from
// running part by part, which bash would then run as a whole: each part's
// own bash would read a start-up file or a login profile again, take
// options from the environment, warn about SHLVL or the locale again, or
// call an exported function of a part's name (which could change the
// shell for the next part); "" when nothing does.
func (sh *shell) listRefusal(l *classify.List, o options) string {
	if o.login {
		return "a list in a login shell (-l): each part would read the profile again"
	}
	for _, name := range []string{"BASH_ENV", "SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT"} {
		if v, _ := sh.lookup(name); v != "" {
			return "a list with " + name + " set: bash reads it once, each part's bash again"
		}
	}
	if !sh.levelOK {
		v, _ := sh.lookup("SHLVL")
		return fmt.Sprintf("a list with SHLVL=%q, which each part's bash would warn about", v)
	}
	if v, _ := sh.lookup("LC_ALL"); !cLocale(v) {
		return "a list with LC_ALL=" + v + ", which each part's bash would warn about if it cannot set it"
	}
	for _, p := range l.Parts {
		name := p.Name
		if p.Cd {
			name = "cd"
		}
		if _, ok := exportedFunction(sh.lookup, name); ok {
			return "a list calling " + name + ", an exported function"
		}
	}
	return ""
}

// planList decides whether the -c string l runs part by part: the
// environment allows it and at least one part is a command shrinkrun
// summarizes where the string starts. It returns why not, for --explain.
func (inv *invocation) planList(l *classify.List, sh *shell) string {
	if why := sh.listRefusal(l, inv.opts); why != "" {
		return why
	}
	world := sh.world()
	for _, p := range l.Parts {
		if !p.Cd && p.Classify(matcher, world).InLocale(os.Getenv).InEnviron(os.Getenv).Rule != "" {
			return ""
		}
	}
	return "a list in which no part is a command shrinkrun summarizes"
}

// runList runs the list part by part and returns the status bash would
// exit with: the last part's that ran.
func (inv *invocation) runList(stdin io.Reader, stdout, stderr io.Writer) int {
	l, sh := inv.list, inv.shell
	inv.note("a list of %d parts, run one after another", len(l.Parts))
	sigs := catchList()
	defer signal.Stop(sigs)
	status := 0
	cds := -1         // the first of the cd parts just before, for the next block's command
	var printed int64 // what the parts so far put on the caller's streams
	for i, p := range l.Parts {
		if sig, ok := caught(sigs); ok {
			return 128 + int(sig)
		}
		if p.Op == classify.And && status != 0 || p.Op == classify.Or && status == 0 {
			continue
		}
		where := fmt.Sprintf("part %d of %d, %q", i+1, len(l.Parts), p.Text)
		if p.Cd {
			if dir, ok := p.Dir(sh.world()); ok && sh.cd(dir) {
				inv.note("%s: into %s", where, sh.pwd)
				status = 0
			} else {
				inv.note("%s: a cd bash runs itself", where)
				status = inv.cdByBash(p, stdin, stdout, stderr)
			}
			if status == 0 && cds < 0 {
				cds = i
			}
			if inv.opts.errexit && status != 0 && p.Ends {
				return status
			}
			continue
		}
		part := inv.part(l, i, cds)
		cds = -1
		part.note("%s: %s", where, part.class.Explain())
		inv.flushExplain(stderr)
		if part.class.Rule != "" {
			status = part.curated(stdin, stdout, stderr)
		} else {
			part.opts.cutLimit = roomLeft(inv.opts.cutLimit, printed)
			status = part.passPart(stdin, stdout, stderr)
		}
		printed += part.printed
		inv.state, inv.stateErr = part.state, part.stateErr
		if sig, ok := caught(sigs); ok {
			return 128 + int(sig)
		}
		if inv.opts.errexit && status != 0 && p.Ends {
			return status // bash -e stops at a failure that ends its chain
		}
	}
	return status
}

// part is the invocation of the i-th part of the list: classified where it
// runs now, to run there with bash (or without, when curated can), its
// block's command the part as written, from the cd parts just before it
// (cds, or -1) on.
func (inv *invocation) part(l *classify.List, i, cds int) *invocation {
	p, sh := l.Parts[i], inv.shell
	execs := i == len(l.Parts)-1 && l.ExecsLast
	sub := &invocation{opts: inv.opts, shell: sh, state: inv.state, stateErr: inv.stateErr, execs: execs}
	sub.text = p.Text
	if cds >= 0 {
		sub.text = l.Text(cds, i)
	}
	sub.cmd = runner.Command{Shell: p.Script(), Dir: sh.dir, Env: sh.env(p.Exec && !execs), Errexit: inv.opts.errexit}
	sub.class = p.Classify(matcher, sh.world()).InLocale(os.Getenv).InEnviron(os.Getenv)
	if disabled(sub.class) {
		sub.class = classify.Result{Reason: "summaries turned off (SHRINKRUN_DISABLE=1)"}
	}
	return sub
}

// cdByBash runs a cd shrinkrun does not reproduce (a directory that is
// missing or that bash would resolve otherwise, CDPATH in use, a word only
// bash can expand) with bash, live, where the parts before left the shell,
// and takes the directory, PWD and OLDPWD bash leaves: bash prints what it
// prints, returns its status, and a failed cd changes nothing. bash writes
// its PWD and OLDPWD after the cd to a file of shrinkrun's.
func (inv *invocation) cdByBash(p classify.Part, stdin io.Reader, stdout, stderr io.Writer) int {
	sh := inv.shell
	f, err := os.CreateTemp("", "shrinkrun-cd-")
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: %v\n", err)
		return 1
	}
	f.Close()
	defer os.Remove(f.Name())
	probe := fmt.Sprintf("\n__shrinkrun_cd=$?; builtin printf '%%s\\0%%s\\0' \"$PWD\" \"${OLDPWD-}\" >|'%s'; exit $__shrinkrun_cd", f.Name())
	sub := &invocation{opts: inv.opts, shell: sh, state: inv.state, stateErr: inv.stateErr, text: p.Text}
	sub.cmd = runner.Command{Shell: p.Script() + probe, Dir: sh.dir, Env: sh.env(false), Errexit: inv.opts.errexit}
	sub.class = classify.Result{Reason: "a cd bash runs itself"}
	status := sub.passPart(stdin, stdout, stderr)
	inv.state, inv.stateErr = sub.state, sub.stateErr
	data, err := os.ReadFile(f.Name())
	if fields := strings.Split(string(data), "\x00"); status == 0 && err == nil && len(fields) == 3 {
		sh.pwd, sh.oldpwd, sh.dir, sh.moved = fields[0], fields[1], fields[0], true
	}
	return status
}

// passPart runs a part of a list that no rule recognizes (or a cd bash
// runs itself), live, and returns its status. It is the one way a list
// passes a part through: relayed, and cut by shape past the part's cut
// limit, or with the caller's streams where nothing is cut; never by exec,
// since the parts after it must still run. Each part has a relay of its
// own, so its cut's tail and markers come before the next part's output,
// in bash's order.
func (inv *invocation) passPart(stdin io.Reader, stdout, stderr io.Writer) int {
	p := inv.startPass(stdin, stdout, stderr)
	return p.end(p.run(inv.cmd))
}

// minPartLimit is the least cut limit a part of a list gets, however much
// the parts before it printed: room for the cut's markers, the failure
// lines and a short tail.
const minPartLimit = 4096

// roomLeft is the cut limit of a list's next part: what the client's limit
// leaves after the earlier parts' output, so that the list's output
// together stays near what the client shows whole.
func roomLeft(limit int, printed int64) int {
	return int(max(int64(minPartLimit), int64(limit)-printed))
}

// catchList catches the signals that stop bash itself while a list runs
// (those the caller does not ignore): the runner passes them to the part
// running, and the list then stops, as bash would, rather than go on with
// the next part.
func catchList() chan os.Signal {
	ch := make(chan os.Signal, 4)
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			signal.Notify(ch, s)
		}
	}
	return ch
}

// caught reports a signal caught since the last call.
func caught(ch chan os.Signal) (syscall.Signal, bool) {
	select {
	case s := <-ch:
		return s.(syscall.Signal), true
	default:
		return 0, false
	}
}
