package main

import "io"

// subcommands are shrinkrun's own verbs. A command of the same name is run
// with `shrinkrun -- NAME`.
var subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{}
