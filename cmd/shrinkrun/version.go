package main

import "runtime/debug"

// Version is set at release time with -ldflags "-X main.Version=v1.2.3".
var Version = ""

// version is the release version, or the module version and VCS revision
// the binary was built from.
func version() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
