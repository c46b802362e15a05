package main

import (
	"runtime/debug"
	"strings"
)

// Version is set at release time with -ldflags "-X main.Version=v1.2.3".
var Version = ""

// noRevision ends the version of a build that carries no VCS revision: Go
// stamps none with -buildvcs=false, outside a repository, or in a git
// worktree (a .git file rather than a directory).
const noRevision = ", no VCS revision stamped"

// version is the release version, or the module version, VCS revision and
// modification flag the binary was built from (debug.ReadBuildInfo). exact
// is false when the version does not name one source tree: a build with
// uncommitted changes, or with no revision at all. Two binaries of the same
// inexact version may still differ.
func version() (v string, exact bool) {
	if Version != "" {
		return Version, true
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)" + noRevision, false
	}
	return buildVersion(bi)
}

// buildVersion names a build by its module version and, when the version
// does not already carry them (a local build of an older Go is "(devel)"),
// the first 12 digits of its VCS revision and "+dirty" when the tree had
// uncommitted changes. A build from a clone by Go 1.24 or later gets a
// pseudo-version that ends in those digits (and +dirty), so they are not
// repeated.
func buildVersion(bi *debug.BuildInfo) (string, bool) {
	v := bi.Main.Version
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) >= 12 && !strings.Contains(v, rev[:12]) {
		v += " " + rev[:12]
	}
	if dirty && !strings.HasSuffix(v, "+dirty") {
		v += "+dirty"
	}
	switch {
	case rev == "" && v == "(devel)":
		return v + noRevision, false
	case dirty:
		return v, false
	}
	return v, true
}

// versionLine is what --version prints, and what doctor compares.
func versionLine() string {
	v, _ := version()
	return "shrinkrun " + v
}
