package main

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	const rev = "48e7ea132f5a534be94e9a48720eb8505543294a"
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}
	dirty := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
		exact    bool
	}{
		{"release", "v1.2.3", nil, "v1.2.3", true},
		{"go install of a tag", "v1.2.3", vcs, "v1.2.3 48e7ea132f5a", true},
		{"clone", "v0.0.0-20261130163834-48e7ea132f5a", vcs, "v0.0.0-20261130163834-48e7ea132f5a", true},
		{"dirty clone", "v0.0.0-20261130163834-48e7ea132f5a+dirty", dirty, "v0.0.0-20261130163834-48e7ea132f5a+dirty", false},
		{"-buildvcs=false", "(devel)", nil, "(devel), no VCS revision stamped", false},
		{"devel with revision", "(devel)", vcs, "(devel) 48e7ea132f5a", true},
		{"devel with changes", "(devel)", dirty, "(devel) 48e7ea132f5a+dirty", false},
	}
	for _, tt := range tests {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tt.version}, Settings: tt.settings}
		if got, exact := buildVersion(bi); got != tt.want || exact != tt.exact {
			t.Errorf("%s: buildVersion = %q, %v; want %q, %v", tt.name, got, exact, tt.want, tt.exact)
		}
	}
}
