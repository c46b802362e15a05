package golang

import (
	"slices"
	"testing"
)

func TestGoModLog(t *testing.T) {
	var m goModLog
	for _, l := range []string{
		"# get https://proxy.golang.org/golang.org/x/text/@v/v0.21.0.info",
		"go: downloading golang.org/x/text v0.21.0",
		"go: finding module for package golang.org/x/text/language",
		"go: found golang.org/x/text/language in golang.org/x/text v0.21.0",
		"go: upgraded go 1.21 => 1.22",
		"go: added toolchain go1.22.0",
		"go: upgraded golang.org/x/text v0.19.0 => v0.21.0",
		"go: module golang.org/x/old is deprecated: use golang.org/x/new",
		"go: warning: \"all\" matched no packages",
		"go: golang.org/x/text@v0.99.0: reading https://proxy.golang.org/x: 404 Not Found",
		"\tserver response: not found",
		"verifying golang.org/x/y@v1.0.0: checksum mismatch",
		"\tdownloaded: h1:abc",
	} {
		m.Feed(l)
	}
	check := func(name string, got [][]string, want []string) {
		t.Helper()
		if g := joinItems(got); !slices.Equal(g, want) {
			t.Errorf("%s = %q, want %q", name, g, want)
		}
	}
	check("modules", m.modules, []string{
		"go: found golang.org/x/text/language in golang.org/x/text v0.21.0",
		"go: upgraded go 1.21 => 1.22",
		"go: added toolchain go1.22.0",
		"go: upgraded golang.org/x/text v0.19.0 => v0.21.0",
	})
	check("warnings", m.warnings, []string{
		"go: module golang.org/x/old is deprecated: use golang.org/x/new",
		"go: warning: \"all\" matched no packages",
	})
	check("errors", m.errors, []string{
		"go: golang.org/x/text@v0.99.0: reading https://proxy.golang.org/x: 404 Not Found\n\tserver response: not found",
	})
	check("other", m.other, []string{"verifying golang.org/x/y@v1.0.0: checksum mismatch\n\tdownloaded: h1:abc"})
	if m.downloads != 1 || m.fetches != 1 {
		t.Errorf("downloads %d fetches %d, want 1 1", m.downloads, m.fetches)
	}
}
