//go:build unix

package main

import "syscall"

// executable reports whether this user may execute (or, for a directory,
// enter) path, as access(2) with X_OK answers.
func executable(path string) bool { return syscall.Access(path, 1) == nil }
