package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/spf13/pflag"

	"github.com/shrinkrun/shrinkrun/store"
)

// subcommands are shrinkrun's own verbs. A command of the same name is run
// with `shrinkrun -- NAME`.
var subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"show":     show,
	"hook":     hookVerb,
	"init":     initVerb,
	"doctor":   doctorVerb,
	"prompt":   promptVerb,
	"gain":     gainVerb,
	"compress": compressVerb,
	"rules":    rulesVerb,
	"trust":    trustVerb,
	"untrust":  untrustVerb,
}

// verbFlags is a verb's flag set, parsed the same way for every verb:
// -h/--help prints the verb's help on stdout and exits 0; a mistake prints
// one line on stderr, with the usage line, and exits 2.
type verbFlags struct {
	*pflag.FlagSet
	help string // the whole help; its first line is the usage line
}

func newVerbFlags(name, help string) *verbFlags {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &verbFlags{FlagSet: fs, help: help}
}

// parse parses args and checks the number of operands with nargs (nil: any
// number). It returns done with the exit code when the verb must stop: help
// was printed, or a usage error.
func (v *verbFlags) parse(args []string, nargs func(int) bool, stdout, stderr io.Writer) (code int, done bool) {
	err := v.Parse(args)
	switch {
	case errors.Is(err, pflag.ErrHelp):
		fmt.Fprint(stdout, v.help)
		return 0, true
	case err == nil && nargs != nil && !nargs(v.NArg()):
		if v.NArg() == 0 {
			err = errors.New("missing argument")
		} else {
			err = fmt.Errorf("unexpected argument %q", v.Arg(v.NArg()-1))
		}
	}
	if err != nil {
		return v.fail(stderr, err), true
	}
	return 0, false
}

// fail reports a usage error on one line and returns its exit status.
func (v *verbFlags) fail(stderr io.Writer, err error) int {
	line, _, _ := strings.Cut(v.help, "\n")
	fmt.Fprintf(stderr, "shrinkrun: %s: %v (%s; shrinkrun %s --help)\n", v.Name(), err, strings.ToLower(line[:1])+line[1:], v.Name())
	return exitUsage
}

func exactly(n int) func(int) bool { return func(k int) bool { return k == n } }

const showHelp = `Usage: shrinkrun show [--stdout|--stderr] ID

Prints the raw output a block names on its raw_output line, byte for byte:
the command's stdout, then its stderr. The ID is kept for
SHRINKRUN_KEEP_DAYS days (default 7) while the store holds less than
SHRINKRUN_KEEP_MB MiB (default 256); docs/store.md.

  --stdout  print only the stored stdout
  --stderr  print only the stored stderr
`

// show prints the raw output a block names, byte for byte: stdout then
// stderr, or one of them.
func show(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := newVerbFlags("show", showHelp)
	onlyOut := fl.Bool("stdout", false, "")
	onlyErr := fl.Bool("stderr", false, "")
	if code, done := fl.parse(args, exactly(1), stdout, stderr); done {
		return code
	}
	which := store.Both
	switch {
	case *onlyOut && !*onlyErr:
		which = store.Stdout
	case *onlyErr && !*onlyOut:
		which = store.Stderr
	}
	id := fl.Arg(0)
	path, err := store.Dir()
	if err == nil {
		state, oerr := store.OpenDir(path, false)
		if errors.Is(oerr, fs.ErrNotExist) {
			oerr = fmt.Errorf("no stored output with id %s: nothing has been kept in %s yet", id, path)
		}
		if err = oerr; err == nil {
			err = store.Copy(stdout, state, id, which)
			state.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: show: %v\n", err)
		return 1
	}
	return 0
}
