package cargo

import (
	"regexp"
	"strings"
	"testing"
)

// The cargo rules' and finder's parsers written by hand for speed, held by
// FuzzHandParsers to the plain forms they replace.

// arrowRE is what arrowLocation stands for.
var arrowRE = regexp.MustCompile(`^\s*--> (\S+:\d+:\d+)`)

var arrowCases = map[string]string{
	"  --> src/main.rs:12:30":       "src/main.rs:12:30",
	"--> a:1:2":                     "a:1:2",
	" \t--> a:1:2:3:4 more":         "a:1:2:3:4",
	"   --> a:1:2x":                 "a:1:2",
	"   --> a:1:2:x":                "a:1:2",
	"   --> a::1:2":                 "a::1:2",
	"   --> :1:2":                   "",
	"   -->  a:1:2":                 "",
	"   --> a:1":                    "",
	"   --> src/lib.rs:1:2\xff:3:4": "src/lib.rs:1:2\xff:3:4",
	"   ::: src/lib.rs:1:2":         "",
}

func TestArrowLocation(t *testing.T) {
	for l, want := range arrowCases {
		if got, ok := arrowLocation(l); got != want || ok != (want != "") {
			t.Errorf("arrowLocation(%q) = %q, %v; want %q", l, got, ok, want)
		}
	}
}

// isProgressByCut is what isProgress replaces.
func isProgressByCut(l string) bool {
	t := strings.TrimLeft(l, " ")
	verb, _, _ := strings.Cut(t, " ")
	return t != l && verb != "" && verb[0] >= 'A' && verb[0] <= 'Z' && len(l)-len(t)+len(verb) == 12
}

// FuzzHandParsers checks the cargo parsers written by hand for speed
// against the plain forms they replace: arrowLocation against its regexp,
// isProgress against the plain form.
func FuzzHandParsers(f *testing.F) {
	for s := range arrowCases {
		f.Add([]byte(s))
	}
	for _, s := range []string{"error[E0425]: x", "error: could not compile", "fatal: bad", "error[E04255]: x", "error:  x", "errors: x", "error[X]: y",
		"   Compiling demo v0.1.0", "     Running tests/api.rs", "    Finished", "  Doc-tests x", "12 |     for x in y {"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := string(b)
		var arrow string
		if m := arrowRE.FindStringSubmatch(s); m != nil {
			arrow = m[1]
		}
		if got, ok := arrowLocation(s); got != arrow || ok != (arrow != "") {
			t.Fatalf("arrowLocation(%q) = %q, %v; regexp says %q", s, got, ok, arrow)
		}
		if got, want := isProgress(s), isProgressByCut(s); got != want {
			t.Fatalf("isProgress(%q) = %v, the plain form says %v", s, got, want)
		}
	})
}
