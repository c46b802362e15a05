package classify

import "testing"

// gemini builds the string Gemini CLI 0.61 passes to bash -c for command,
// as its wrapCommandForBackgroundPIDs and ensurePromptvarsDisabled do.
func gemini(file, command string) string {
	return "shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=" + file +
		"\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n" + command + "\n)\n__code=$?\nexit $__code"
}

func TestGeminiEnvelope(t *testing.T) {
	cases := []struct {
		in    string
		inner string // "" when it is not an envelope
	}{
		{gemini("/tmp/gemini-shell-AbC123/bgpids.tmp", "git status"), "git status"},
		{gemini("'/tmp/odd dir/bgpids.tmp'", "git diff --stat"), "git diff --stat"},
		{gemini("/tmp/x/bgpids.tmp", "cargo test 2>&1 | tail -n 40"), "cargo test 2>&1 | tail -n 40"},
		{gemini("/tmp/x/bgpids.tmp", "git status && git diff"), "git status && git diff"},
		// The one statement inside may be a compound one, but only one.
		{gemini("/tmp/x/bgpids.tmp", "git status\ngit diff"), ""},
		{gemini("/tmp/x/bgpids.tmp", "git status\n)\nrm -rf x\n("), ""},
		{gemini("/tmp/x/bgpids.tmp", "git status # why"), ""},
		{gemini("$HOME/bgpids.tmp", "git status"), ""},
		{gemini("/tmp/x/bgpids.tmp", ""), ""},
		{"git status", ""},
		{gemini("/tmp/x/bgpids.tmp", "git status") + "\necho more", ""},
		{"echo hi; " + gemini("/tmp/x/bgpids.tmp", "git status"), ""},
	}
	for _, tc := range cases {
		inner, ok := GeminiEnvelope(tc.in)
		if ok != (tc.inner != "") || inner != tc.inner {
			t.Errorf("GeminiEnvelope(%q) = %q, %v; want %q", tc.in, inner, ok, tc.inner)
		}
	}
}
