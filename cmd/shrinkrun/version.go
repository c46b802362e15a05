package main

import (
	"runtime/debug"
	"strings"
)

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
	return buildVersion(bi)
}

// buildVersion names a build by its module version and, when the version
// does not already carry it (a local build is "(devel)"), the first 12
// digits of its VCS revision. A build from a checkout gets a pseudo-version
// that ends in those digits (and +dirty when the tree had changes), so they
// are not repeated.
func buildVersion(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 && !strings.Contains(v, s.Value[:12]) {
			v += " " + s.Value[:12]
		}
	}
	return v
}
