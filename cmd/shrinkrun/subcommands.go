package main

import (
	"fmt"
	"io"

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
}

// show prints the raw output a block names, byte for byte: stdout then
// stderr, or one of them.
func show(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("show", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	onlyOut := fs.Bool("stdout", false, "")
	onlyErr := fs.Bool("stderr", false, "")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(stderr, "shrinkrun: usage: shrinkrun show [--stdout|--stderr] ID (the ID is on the block's raw_output line)")
		return exitUsage
	}
	which := store.Both
	switch {
	case *onlyOut && !*onlyErr:
		which = store.Stdout
	case *onlyErr && !*onlyOut:
		which = store.Stderr
	}
	dir, err := store.Dir()
	if err == nil {
		err = store.Copy(stdout, dir, fs.Arg(0), which)
	}
	if err != nil {
		fmt.Fprintf(stderr, "shrinkrun: show: %v\n", err)
		return 1
	}
	return 0
}
