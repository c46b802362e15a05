package classify_test

import (
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/classify"
)

func TestTranslated(t *testing.T) {
	for _, c := range []struct {
		assigns, environ string // space-separated NAME=value words
		want             bool
		by               string
	}{
		{"", "", false, "LANG"},
		{"", "LANG=C", false, "LANG"},
		{"", "LANG=en_US.UTF-8", false, "LANG"},
		{"", "LANG=C.UTF-8", false, "LANG"},
		{"", "LANG=de_DE.UTF-8", true, "LANG"},
		{"LC_ALL=de_DE.UTF-8", "LANG=en_US.UTF-8", true, "LC_ALL"},
		{"LC_ALL=C", "LANG=de_DE.UTF-8", false, "LC_ALL"},
		{"LC_ALL=", "LANG=de_DE.UTF-8", true, "LANG"},
		{"", "LC_ALL=POSIX LANGUAGE=de", false, "LC_ALL"},
		{"", "LC_MESSAGES=fr_FR.UTF-8 LANG=en_US.UTF-8", true, "LC_MESSAGES"},
		{"", "LC_MESSAGES=en_GB.UTF-8 LANG=fr_FR.UTF-8", false, "LC_MESSAGES"},
		{"", "LANG=en_US.UTF-8 LANGUAGE=de:en", true, "LANGUAGE"},
		{"", "LANG=de_DE.UTF-8 LANGUAGE=en", false, "LANGUAGE"},
		{"", "LANG=C.UTF-8 LANGUAGE=de", true, "LANGUAGE"},
		{"LANGUAGE=", "LANG=en_US.UTF-8 LANGUAGE=de", false, "LANG"},
		{"", "LANG=en@quot", false, "LANG"},
		{"LANG=pt_BR LANG=en_US", "", false, "LANG"},
	} {
		env := map[string]string{}
		for _, w := range strings.Fields(c.environ) {
			n, v, _ := strings.Cut(w, "=")
			env[n] = v
		}
		getenv := Getenv(strings.Fields(c.assigns), func(n string) string { return env[n] })
		by, _, got := Translated(getenv)
		if got != c.want || by != c.by {
			t.Errorf("assigns %q environ %q: Translated = %s %v, want %s %v", c.assigns, c.environ, by, got, c.by, c.want)
		}
	}
}

func TestInLocale(t *testing.T) {
	german := func(n string) string { return map[string]string{"LANG": "de_DE.UTF-8"}[n] }
	for src, want := range map[string]string{
		"git status":                       "",
		"LC_ALL=C git diff":                GitDiff,
		"LC_ALL=C.UTF-8 git log --oneline": GitLog,
		"cargo test":                       CargoTest,
		"go test ./...":                    GoTest,
	} {
		r := String(src).InLocale(german)
		if r.Rule != want || want == "" && !strings.Contains(r.Reason, "LANG=de_DE.UTF-8") {
			t.Errorf("%q in LANG=de_DE.UTF-8: rule %q (%s), want %q", src, r.Rule, r.Reason, want)
		}
	}
}

// TestInEnviron: a rule whose tool takes an option from the environment
// passes through when the command's own assignments, or else the inherited
// environment, set it; the assignments win, as in the child.
func TestInEnviron(t *testing.T) {
	jsonOut := func(argv []string) classify.Verdict {
		return classify.Verdict{Rule: "bash.t", Environ: func(getenv func(string) string) string {
			if getenv("T_FORMAT") == "json" {
				return argv[0] + " prints JSON with T_FORMAT=json"
			}
			return ""
		}}
	}
	for _, c := range []struct {
		src, inherited, want string
	}{
		{"t run", "", "bash.t"},
		{"t run", "json", ""},
		{"T_FORMAT=json t run", "", ""},
		{"T_FORMAT=text t run", "json", "bash.t"},
	} {
		getenv := func(n string) string { return map[string]string{"T_FORMAT": c.inherited}[n] }
		r := classify.String(c.src, jsonOut).InEnviron(getenv)
		if r.Rule != c.want || c.want == "" && r.Reason != "t prints JSON with T_FORMAT=json" {
			t.Errorf("%q with T_FORMAT=%q inherited: rule %q (%s), want %q", c.src, c.inherited, r.Rule, r.Reason, c.want)
		}
	}
}
