package git

import (
	"testing"
)

func TestShownLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"Counting objects:  50% (1/2)\rCounting objects: 100% (2/2), done.", "Counting objects: 100% (2/2), done."},
		{"remote: Counting objects: 100% (5/5), done.        ", "remote: Counting objects: 100% (5/5), done."},
		{"Rebasing (1/1)\rerror: could not apply 6fced5b... x", "error: could not apply 6fced5b... x"},
		{"Writing objects: 100% (4/4)\r   \r", "Writing objects: 100% (4/4)"},
		{"\r\r", ""},
		{"\tsrc/a.rs", "\tsrc/a.rs"},
	} {
		if got := shownLine(tt.in); got != tt.want {
			t.Errorf("shownLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsRefLine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"   9bf6138..1f9c799  main -> main", true},
		{" + d61e4a7...61977da main -> main (forced update)", true},
		{" * [new branch]      wip/w001   -> origin/wip/w001", true},
		{" * [new tag]         v1.1        -> v1.1", true},
		{" * branch            main       -> FETCH_HEAD", true},
		{" - [deleted]         (none)     -> origin/topic/t001", true},
		{" - [deleted]         feature/parse", true},
		{" ! [rejected]        main -> main (fetch first)", true},
		{" ! [remote rejected] main -> main (pre-receive hook declined)", true},
		{" = [up to date]      main -> main", true},
		{" t [tag update]      v1 -> v1", true},
		{" src/a.rs | 2 +-", false},
		{" 14 files changed, 61 insertions(+), 60 deletions(-)", false},
		{" * [new branch]", false},
		{" ! [rejected] no arrow", false},
		{"   x", false},
		{"main -> main", false},
	} {
		if got := isRefLine(tt.in); got != tt.want {
			t.Errorf("isRefLine(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIsRemoteLine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"To /tmp/up.git", true},
		{"To https://example.com/r.git", true},
		{"From file:///tmp/up", true},
		{"To push the current branch and set the remote as upstream, use", false},
		{"To have this happen automatically for branches without a tracking", false},
		{"From ", false},
		{"Tomorrow", false},
	} {
		if got := isRemoteLine(tt.in); got != tt.want {
			t.Errorf("isRemoteLine(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIsProgressLine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"Enumerating objects: 52, done.", true},
		{"Delta compression using up to 2 threads", true},
		{"Writing objects: 100% (52/52), 24.42 KiB | 1.74 MiB/s, done.", true},
		{"Total 52 (delta 47), reused 0 (delta 0), pack-reused 0", true},
		{"Receiving objects: 100% (45/45), 18.52 KiB | 6.17 MiB/s, done.", true},
		{"Resolving deltas: 100% (2/2), completed with 2 local objects.", true},
		{"Updating files: 100% (40/40), done.", true},
		{"Rebasing (1/2)", true},
		{"Total war", false},
		{"Updating 19f923d..f0a259b", false},
		{"Counting on you", false},
		{"policy: open a merge request instead", false},
	} {
		if got := isProgressLine(tt.in); got != tt.want {
			t.Errorf("isProgressLine(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestProgressFirst(t *testing.T) {
	for _, p := range append(progressPrefixes, "Total ", "Rebasing (") {
		if !isProgressFirst(p[0]) {
			t.Errorf("isProgressFirst(%q) is false for %q", p[0], p)
		}
	}
}
