//go:build unix

package runner

import (
	"os"
	"strings"
	"syscall"
)

// Exec replaces shrinkrun with c (execve): the process becomes the command,
// so its streams, signals, exit status and terminal are the command's own
// by construction, and the pass-through costs what an exec costs, with no
// fork and no wait. It is the pass-through whenever nothing can be cut.
//
// before, when not nil, is called once the program has been found, just
// before the exec: the last moment anything of shrinkrun's runs. Exec
// returns only when the command could not be executed, with the status bash
// would give (127 not found, 126 cannot execute); nothing has run then.
func Exec(c Command, before func()) Status {
	path, argv, err := c.resolve()
	if err == nil {
		err = executable(path)
	}
	if err != nil {
		return startFailed(c.name(), err)
	}
	env := os.Environ()
	if len(c.Env) > 0 {
		env = dedupEnv(append(env, c.Env...))
	}
	if before != nil {
		before()
	}
	err = syscall.Exec(path, argv, env)
	return startFailed(c.name(), &os.PathError{Op: "exec", Path: path, Err: err})
}

// executable reports why execve would refuse path, checked before the exec
// so that a command that cannot run is reported as one before anything of
// the exec (the history record) happens. A path found on PATH was checked
// by the search; one written with a slash was not.
func executable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case fi.IsDir():
		return &os.PathError{Op: "exec", Path: path, Err: syscall.EISDIR}
	}
	if err := syscall.Access(path, 1); err != nil { // X_OK
		return &os.PathError{Op: "exec", Path: path, Err: err}
	}
	return nil
}

// dedupEnv keeps the last of each NAME=value setting, in the place of the
// first, as os/exec does: execve passes duplicates on, and getenv then
// finds the first, where the assignment on the command line must win.
func dedupEnv(env []string) []string {
	last := make(map[string]int, len(env))
	for i, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		last[name] = i
	}
	out := make([]string, 0, len(last))
	seen := make(map[string]bool, len(last))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !seen[name] {
			seen[name] = true
			out = append(out, env[last[name]])
		}
	}
	return out
}
