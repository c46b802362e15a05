package main

import "flag"

// update rewrites golden files and testscript files with the actual output
// (go test ./cmd/shrinkrun -update). It is in a file of its own because the
// end-to-end scripts (main_test.go) build on Unix only, and the gain
// goldens on every system.
var update = flag.Bool("update", false, "update testscript files with the actual output of failing cmp commands")
