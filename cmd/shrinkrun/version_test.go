package main

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	const rev = "48e7ea132f5a534be94e9a48720eb8505543294a"
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}}
	tests := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"release", "v1.2.3", nil, "v1.2.3"},
		{"go install of a tag", "v1.2.3", vcs, "v1.2.3 48e7ea132f5a"},
		{"checkout", "v0.0.0-20261130163834-48e7ea132f5a", vcs, "v0.0.0-20261130163834-48e7ea132f5a"},
		{"dirty checkout", "v0.0.0-20261130163834-48e7ea132f5a+dirty", vcs, "v0.0.0-20261130163834-48e7ea132f5a+dirty"},
		{"-buildvcs=false", "(devel)", nil, "(devel)"},
		{"devel with revision", "(devel)", vcs, "(devel) 48e7ea132f5a"},
	}
	for _, tt := range tests {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tt.version}, Settings: tt.settings}
		if got := buildVersion(bi); got != tt.want {
			t.Errorf("%s: buildVersion = %q, want %q", tt.name, got, tt.want)
		}
	}
}
