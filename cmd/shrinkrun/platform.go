package main

import (
	"os/exec"

	"github.com/shrinkrun/shrinkrun/privdir"
)

// summariesOff says why this system cannot keep what a block promises, or
// "" when it can: the raw output kept where only the user can change it
// and no link is followed (package privdir: O_NOFOLLOW, file owners,
// flock, which Windows lacks), and, for a string-form command, bash to run
// the string as the classifier read it (without bash, sh runs it). Every
// command then passes through, and doctor says why. shell is whether the
// command is a string-form one; bash is looked up only then.
func summariesOff(shell bool) string {
	if err := privdir.Supported(); err != nil {
		return err.Error()
	}
	if shell {
		if _, err := exec.LookPath("bash"); err != nil {
			return "no bash on PATH: a command string runs with sh, whose reading of it shrinkrun does not check"
		}
	}
	return ""
}
