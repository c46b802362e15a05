package main

import "os"

// executable reports whether path exists: Windows has no execute bit. No
// command string is run by shrinkrun's own reading of it there, since
// every command passes through (platform.go).
func executable(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
