package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/runner"
)

// This file is what the bash that runs a -c string would know and do where
// shrinkrun does it instead: the state it carries from one part of a list
// to the next (its directory after a cd, PWD and OLDPWD, SHLVL), the world
// its words expand in, and the environment and program of a command it
// would exec as it is. Each is checked against the real bash by the
// differential tests in list_test.go and direct_test.go; where shrinkrun
// cannot know what bash would do, it lets bash do it.

// shell is the state of the bash running a -c string, as a part of it sees
// it: where the part runs, and the environment bash hands it.
type shell struct {
	lookup func(string) (string, bool)
	// pwd is bash's PWD: the one it was started with when that names its
	// directory, else the directory's physical name; after a cd, the
	// directory cd named (logical). dir is where children run ("" until a
	// cd).
	pwd, dir string
	// oldpwd is bash's OLDPWD after a cd, which children then get.
	oldpwd string
	moved  bool
	// level is bash's SHLVL when it started, as bash reads it (0 when
	// unset or not a number); ok is false when bash would warn about it.
	level   int
	levelOK bool
}

// newShell is the state bash starts in, in shrinkrun's directory and with
// its environment.
func newShell(lookup func(string) (string, bool)) *shell {
	sh := &shell{lookup: lookup}
	sh.pwd = startPWD(lookup)
	sh.level, sh.levelOK = shellLevel(lookup)
	return sh
}

// startPWD is the PWD bash starts with: the inherited one when it is an
// absolute name of the current directory, else the directory's physical
// name.
func startPWD(lookup func(string) (string, bool)) string {
	if pwd, ok := lookup("PWD"); ok && filepath.IsAbs(pwd) {
		a, err1 := os.Stat(pwd)
		b, err2 := os.Stat(".")
		if err1 == nil && err2 == nil && os.SameFile(a, b) {
			return pwd
		}
	}
	wd, _ := syscall.Getwd()
	return wd
}

// shellLevel reads SHLVL as bash does at start-up: a number, with leading
// zeros and blanks around it, or nothing (0). bash warns from 999 on, and
// reads a negative one in ways not reproduced here: ok is false then.
func shellLevel(lookup func(string) (string, bool)) (n int, ok bool) {
	v, _ := lookup("SHLVL")
	v = strings.Trim(v, " \t\n")
	if v == "" {
		return 0, true
	}
	for i := range len(v) {
		if v[i] < '0' || v[i] > '9' {
			if i == 0 && v[0] == '-' {
				return 0, false
			}
			return 0, true // not a number: bash reads 0
		}
	}
	n, err := strconv.Atoi(v)
	if err != nil || n >= 999 {
		return 0, false
	}
	return n, true
}

// env is what a part run after the state's cd gets on top of shrinkrun's
// environment: bash's PWD and OLDPWD. forkedExec tells that the list's bash
// would fork the part's command, which the part's own bash execs in place:
// it must then see SHLVL one higher.
func (sh *shell) env(forkedExec bool) []string {
	var env []string
	if sh.moved {
		env = append(env, "PWD="+sh.pwd, "OLDPWD="+sh.oldpwd)
	}
	if forkedExec {
		env = append(env, "SHLVL="+strconv.Itoa(sh.level+1))
	}
	return env
}

// world is where the words of a part expand: the state's directory and
// shrinkrun's environment, with nproc run there for $(nproc).
func (sh *shell) world() classify.Env {
	dir := sh.dir
	if dir == "" {
		dir = sh.pwd
	}
	return classify.Env{
		Dir:       dir,
		LookupEnv: sh.lookup,
		ReadDir:   os.ReadDir,
		Nproc: func() (string, error) {
			if _, ok := exportedFunction(sh.lookup, "nproc"); ok {
				return "", errExportedFunction
			}
			cmd := exec.Command("nproc")
			cmd.Dir = sh.dir
			out, err := cmd.Output()
			return string(out), err
		},
	}
}

// cd does what bash's `cd DIR` does when it succeeds without printing,
// and reports false, having changed nothing, in every other case, which bash
// must then handle itself: an option or `-`, CDPATH in use, a directory
// that does not exist, cannot be entered or whose name bash would not
// canonicalize. bash's cd is logical: the new PWD is the old one with DIR
// appended and `.` and `..` taken off by name, each step checked to be a
// directory (sh_canonpath with PATH_CHECKDOTDOT and PATH_CHECKEXISTS).
func (sh *shell) cd(dir string) bool {
	if dir == "" || strings.HasPrefix(dir, "-") {
		return false
	}
	if cdpath, _ := sh.lookup("CDPATH"); cdpath != "" && !strings.HasPrefix(dir, "/") {
		return false
	}
	t := dir
	if !strings.HasPrefix(dir, "/") {
		t = sh.pwd
		if !strings.HasSuffix(t, "/") {
			t += "/"
		}
		t += dir
	}
	canon, ok := canonPath(t)
	if !ok || !executable(canon) { // chdir would fail
		return false
	}
	sh.oldpwd, sh.pwd, sh.dir, sh.moved = sh.pwd, canon, canon, true
	return true
}

// canonPath is bash's sh_canonpath of an absolute path with
// PATH_CHECKDOTDOT and PATH_CHECKEXISTS: empty elements and `.` dropped,
// `..` taking off the element before it once that is checked to be a
// directory, every element checked to be one; a leading `//` kept.
func canonPath(p string) (string, bool) {
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	root := "/"
	if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
		root = "//"
	}
	var elems []string
	path := func() string { return root + strings.Join(elems, "/") }
	for _, e := range strings.Split(p, "/") {
		switch e {
		case "", ".":
		case "..":
			if len(elems) > 0 {
				if !isDir(path()) {
					return "", false
				}
				elems = elems[:len(elems)-1]
			}
		default:
			elems = append(elems, e)
			if !isDir(path()) {
				return "", false
			}
		}
	}
	return path(), true
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// bashVars are the variables bash sets, resets or acts on at start-up, so
// that a command it execs would not see them as shrinkrun's environment
// holds them (found by setting each of `compgen -v` and reading what the
// command got), or that change what bash runs (BASH_ENV, a start-up file;
// POSIXLY_CORRECT; EXECIGNORE, the command search; BASH_XTRACEFD, a
// warning). PWD, OLDPWD, SHLVL and `_` are reproduced (bashSets).
var bashVars = map[string]bool{
	"BASH": true, "BASHOPTS": true, "BASHPID": true, "BASH_ARGV0": true, "BASH_COMMAND": true,
	"BASH_EXECUTION_STRING": true, "BASH_SUBSHELL": true, "BASH_VERSINFO": true,
	"BASH_VERSION": true, "COMP_WORDBREAKS": true, "EPOCHREALTIME": true, "EPOCHSECONDS": true,
	"HISTCMD": true, "IFS": true, "LINENO": true, "OPTERR": true, "OPTIND": true, "PPID": true,
	"PS1": true, "PS2": true, "PS4": true, "RANDOM": true, "SHELLOPTS": true, "SRANDOM": true,
	"BASH_ENV": true, "ENV": true, "POSIXLY_CORRECT": true, "EXECIGNORE": true,
	"BASH_XTRACEFD": true, "BASH_COMPAT": true, "BASH_LOADABLES_PATH": true,
}

// bashSets are the variables direct sets as bash would.
var bashSets = map[string]bool{"PWD": true, "OLDPWD": true, "SHLVL": true, "_": true}

// errExportedFunction is why nproc is not run: bash would call the
// function of that name.
var errExportedFunction = errors.New("an exported function of that name")

// exportedFunction returns the text of the function bash would import from
// the environment under name.
func exportedFunction(lookup func(string) (string, bool), name string) (string, bool) {
	return lookup("BASH_FUNC_" + name + "%%")
}

// bashBuiltins are the names bash runs itself, never from PATH.
var bashBuiltins = map[string]bool{
	".": true, ":": true, "[": true, "alias": true, "bg": true, "bind": true, "break": true,
	"builtin": true, "caller": true, "cd": true, "command": true, "compgen": true,
	"complete": true, "compopt": true, "continue": true, "declare": true, "dirs": true,
	"disown": true, "echo": true, "enable": true, "eval": true, "exec": true, "exit": true,
	"export": true, "false": true, "fc": true, "fg": true, "getopts": true, "hash": true,
	"help": true, "history": true, "jobs": true, "kill": true, "let": true, "local": true,
	"logout": true, "mapfile": true, "popd": true, "printf": true, "pushd": true, "pwd": true,
	"read": true, "readarray": true, "readonly": true, "return": true, "set": true,
	"shift": true, "shopt": true, "source": true, "suspend": true, "test": true, "times": true,
	"trap": true, "true": true, "type": true, "typeset": true, "ulimit": true, "umask": true,
	"unalias": true, "unset": true, "wait": true,
}

// direct returns the command bash would exec for a plain recognized
// command (classify.Result.Plain), to be run without bash: the argv, and
// the environment bash would give it (PWD as bash has it, OLDPWD, SHLVL,
// and `_`, the program's path). exec tells that bash would replace itself
// with the command (the last command of the string) rather than fork it,
// which decides SHLVL. It reports false wherever bash would do more than
// that: read a start-up file or options from the environment, reformat
// exported functions, warn about SHLVL or the locale, run a builtin or a
// function of that name, search a PATH entry that is not an absolute,
// clean directory, find nothing (bash's message), or drop an OLDPWD that
// is not a directory.
func (sh *shell) direct(c classify.Result, exec bool) (runner.Command, bool) {
	argv := c.Stages[0]
	if !c.Plain || !sh.levelOK || bashBuiltins[argv[0]] || !plainEnviron(os.Environ()) {
		return runner.Command{}, false
	}
	if v, _ := sh.lookup("LC_ALL"); !cLocale(v) {
		return runner.Command{}, false
	}
	for _, a := range c.Assigns {
		// An assigned PATH would be searched for the command.
		if name, _, _ := strings.Cut(a, "="); bashVars[name] || bashSets[name] || name == "PATH" {
			return runner.Command{}, false
		}
	}
	path, ok := searchPath(argv[0], sh.lookup)
	if !ok {
		return runner.Command{}, false
	}
	env := []string{"PWD=" + sh.pwd}
	switch old, set := sh.lookup("OLDPWD"); {
	case sh.moved:
		env = append(env, "OLDPWD="+sh.oldpwd)
	case set && !isDirFrom(sh.dir, old):
		return runner.Command{}, false
	}
	level := sh.level
	if !exec {
		level++
	}
	env = append(env, "SHLVL="+strconv.Itoa(level), "_="+path)
	return runner.Command{Argv: argv, Env: append(env, c.Assigns...), Dir: sh.dir}, true
}

// plainEnviron reports whether bash would pass environ on to a command as
// it is, but for the variables direct sets: no variable bash acts on
// (bashVars), no exported function (bash rewrites its text), no name twice.
func plainEnviron(environ []string) bool {
	seen := make(map[string]bool, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if seen[name] || bashVars[name] || strings.HasPrefix(name, "BASH_FUNC_") {
			return false
		}
		seen[name] = true
	}
	return true
}

// cLocale reports whether LC_ALL names a locale bash can always set (or
// none): with any other, bash may warn on stderr at start-up that it
// cannot, which only the C library can tell.
func cLocale(v string) bool {
	switch v {
	case "", "C", "POSIX", "C.UTF-8", "C.utf8":
		return true
	}
	return false
}

// isDirFrom reports whether p, relative to dir ("" for shrinkrun's own),
// names a directory.
func isDirFrom(dir, p string) bool {
	if !filepath.IsAbs(p) && dir != "" {
		p = filepath.Join(dir, p)
	}
	return isDir(p)
}

// searchPath finds name as bash does, for direct: a name with a slash is
// itself; otherwise the first PATH entry holding an executable file of
// that name, with every entry searched an absolute, clean path, so that
// bash's `_` (the entry, a slash, the name) is known and runner finds the
// same file.
func searchPath(name string, lookup func(string) (string, bool)) (string, bool) {
	if strings.Contains(name, "/") {
		return name, true
	}
	path, ok := lookup("PATH")
	if !ok || name == "" {
		return "", false
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "/" || !filepath.IsAbs(dir) || filepath.Clean(dir) != dir {
			return "", false
		}
		p := dir + "/" + name
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && executable(p) {
			return p, true
		}
	}
	return "", false
}
