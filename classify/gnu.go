package classify

import "runtime"

// GNUTools reports whether ls, find, grep and sed on this system are the
// GNU tools whose output and options the rules and filters that read them
// were built from (Debian's coreutils, findutils, grep and sed). On Linux
// they are taken to be; on macOS and the BSDs they are the BSD tools,
// which print other layouts and take other options, so the rules for ls,
// find and grep, and a sed filter, pass their commands through there
// (docs/classify.md, "Other systems"). Tests set it to check that.
var GNUTools = runtime.GOOS == "linux"
