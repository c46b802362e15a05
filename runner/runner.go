// Package runner starts the child command and reports its exact exit status.
//
// It has two modes. Passthrough hands the child shrinkrun's own streams, so
// its output is byte-identical and live. Capture reads stdout and stderr,
// one goroutine each, into bounded buffers (head and tail kept, every byte
// counted) for a summary, at a cost that follows the bytes rather than the
// child's writes. Both relay the signals a caller sends a command (SIGINT,
// SIGTERM, SIGHUP, SIGQUIT and the others in relayed) to the child and wait
// for it, so shrinkrun never exits before the child it started.
package runner

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Command is what to run: an argv executed directly, or a shell string run
// with bash -c exactly as written.
type Command struct {
	// Argv is executed directly, with no shell in between (argv mode). It
	// is found as execvp finds it: through the PATH of Env when Env sets
	// one, and through "." or an empty PATH entry too.
	Argv []string
	// Shell is run as `bash -c Shell ShellArgs...` when Argv is empty
	// (string mode), the empty string included. sh is used when bash is not
	// on PATH.
	Shell     string
	ShellArgs []string
	// Login runs the shell as a login shell (bash -l), as agents that start
	// their shell with -lc expect.
	Login bool
	// Errexit runs the shell with -e, as make does for .POSIX makefiles
	// (-ec).
	Errexit bool
	// Env holds NAME=value words added to shrinkrun's environment, for
	// leading assignments in argv mode (`shrinkrun -- FOO=1 cargo test`).
	Env []string
	// Dir is the directory the command runs in; "" is shrinkrun's own.
	Dir string
}

// Status is how the child ended.
type Status struct {
	// Exited is true when the child exited normally with Code.
	Exited bool
	Code   int
	// Signal is the signal that killed the child, when it did.
	Signal syscall.Signal
	// StartErr is set when the child never started; Code then holds 127
	// (not found) or 126 (cannot execute), as bash reports them.
	StartErr error
	// Held is true when the child exited but a descendant kept its output
	// pipes open; shrinkrun stopped reading after DrainTimeout.
	Held bool
}

// ExitCode is the status shrinkrun itself exits with: the child's code,
// 128+N when signal N killed it, 127 or 126 when it never started.
func (s Status) ExitCode() int {
	switch {
	case s.StartErr != nil, s.Exited:
		return s.Code
	case s.Signal != 0:
		return 128 + int(s.Signal)
	}
	return 1
}

// DrainTimeout bounds how long output is still read after the child has
// exited, when a background descendant keeps the pipes open.
const DrainTimeout = 2 * time.Second

// Shell reports the shell that string mode runs: bash, or sh without it.
func Shell() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}

func (c Command) cmd() *exec.Cmd {
	path, argv, err := c.resolve()
	cmd := &exec.Cmd{Path: path, Args: argv, Err: err}
	if len(c.Env) > 0 {
		cmd.Env = append(os.Environ(), c.Env...)
	}
	cmd.Dir = c.Dir
	return cmd
}

// resolve finds the program c runs and its argv: the shell with its flags
// and the string in string mode, argv[0] found as execvp finds it in argv
// mode.
func (c Command) resolve() (path string, argv []string, err error) {
	if len(c.Argv) > 0 {
		path, err = lookPath(c.Argv[0], c.Env)
		return path, c.Argv, err
	}
	flag := "-"
	if c.Login {
		flag += "l"
	}
	if c.Errexit {
		flag += "e"
	}
	// argv[0] is the shell's name, as when a shell runs `bash -c`: it is $0
	// and begins bash's error messages.
	path = Shell()
	return path, append([]string{filepath.Base(path), flag + "c", c.Shell}, c.ShellArgs...), nil
}

// lookPath finds name as execvp does, where exec.LookPath differs: in the
// PATH that env assigns (`shrinkrun -- PATH=bin:$PATH tool` runs bin/tool,
// as env and bash do), and in "." or an empty PATH entry, which a shell
// searches and Go refuses (exec.ErrDot).
func lookPath(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	path := os.Getenv("PATH")
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	if name != "" {
		for _, dir := range filepath.SplitList(path) {
			p := filepath.Join(dir, name)
			if dir == "" || dir == "." {
				p = "./" + name
			}
			if found, err := exec.LookPath(p); err == nil {
				return found, nil
			}
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

// startFailed converts an error from Start into the status bash would give.
func startFailed(name string, err error) Status {
	code := 126
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		code = 127
	}
	// execve says EACCES for a directory; bash checks first and says what
	// it is.
	if fi, serr := os.Stat(name); errors.Is(err, fs.ErrPermission) && serr == nil && fi.IsDir() {
		err = syscall.EISDIR
	}
	return Status{Code: code, StartErr: fmt.Errorf("%s: %w", name, unwrapExec(err))}
}

func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		if errors.Is(ee.Err, exec.ErrNotFound) {
			return errors.New("command not found")
		}
		return ee.Err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// waited converts the result of Wait into a Status.
func waited(cmd *exec.Cmd, err error) Status {
	var st Status
	if errors.Is(err, exec.ErrWaitDelay) {
		st.Held = true
	}
	ps := cmd.ProcessState
	if ps == nil {
		return Status{Code: 1, StartErr: err}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		st.Signal = ws.Signal()
		return st
	}
	st.Exited, st.Code = true, ps.ExitCode()
	return st
}

// Passthrough runs c with the given streams. When they are *os.File (the
// normal case) the child inherits them: no copy, no buffering, every byte
// reaches the caller as the child writes it.
func Passthrough(c Command, stdin io.Reader, stdout, stderr io.Writer) Status {
	cmd := c.cmd()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	return start(cmd, c, nil)
}

// start runs cmd to its exit, relaying signals. started, when set, is called
// once the child is running, before the wait.
func start(cmd *exec.Cmd, c Command, started func()) Status {
	dieWithParent(cmd)
	g := newGroup(cmd)
	sigs := catch()
	if err := cmd.Start(); err != nil {
		release(sigs)
		return startFailed(c.name(), err)
	}
	if started != nil {
		started()
	}
	done := g.relay(sigs, cmd.Process)
	st := waited(cmd, cmd.Wait())
	done()
	return st
}

func (c Command) name() string {
	if len(c.Argv) == 0 {
		return Shell()
	}
	return c.Argv[0]
}
