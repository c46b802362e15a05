package summarize

import (
	"regexp"
	"slices"
	"testing"
)

var lineCases = []struct {
	in   string
	want []string
}{
	{"", nil},
	{"\n", []string{""}},
	{"a", []string{"a"}},
	{"a\n", []string{"a"}},
	{"a\n\n", []string{"a", ""}},
	{"a\r\nb\r\n", []string{"a", "b"}},
	{"a\r\r\nb", []string{"a\r", "b"}},
	{"\r", []string{""}},
	{"a\nb\nc", []string{"a", "b", "c"}},
}

func TestLines(t *testing.T) {
	for _, c := range lineCases {
		if got := lines([]byte(c.in)); !slices.Equal(got, c.want) {
			t.Errorf("lines(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := slices.Collect(eachLine([]byte(c.in))); !slices.Equal(got, c.want) {
			t.Errorf("eachLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

var locationCases = map[string]bool{
	"src/lib.rs:37:9":    true,
	"C:/x.rs:1:2":        true,
	"a:1:2":              true,
	"a::1:2":             true,
	":1:2":               false,
	"a:1:":               false,
	"a:1":                false,
	"a b:1:2":            false,
	"a\fb:1:2":           false,
	"a:1:2x":             false,
	"a:x:2":              false,
	"\xff:1:2":           true,
	"src/lib.rs:1:2:3:4": true,
	"":                   false,
	"src/lib.rs:37:9 ":   false,
	"src/lib.rs:+37:9":   false,
	"src/lib.rs:37:9\r":  false,
	"src/lib.rs:١:٢":     false,
}

func TestIsLocation(t *testing.T) {
	for s, want := range locationCases {
		if got := isLocation(s); got != want {
			t.Errorf("isLocation(%q) = %v, want %v", s, got, want)
		}
	}
}

// wholeLocation is what isLocation replaces.
var wholeLocation = regexp.MustCompile(`^\S+:\d+:\d+$`)

// FuzzHandParsers checks the parsers written by hand for speed against the
// plain forms they replace: eachLine against lines (a rule and the check
// must see the same lines) and isLocation against its regexp.
func FuzzHandParsers(f *testing.F) {
	for _, c := range lineCases {
		f.Add([]byte(c.in))
	}
	for s := range locationCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := lines(b)
		got := slices.Collect(eachLine(b))
		if !slices.Equal(got, want) {
			t.Fatalf("eachLine(%q) = %q, lines = %q", b, got, want)
		}
		for range eachLine(b) {
			break // stopping early must not panic
		}
		if got, want := isLocation(string(b)), wholeLocation.MatchString(string(b)); got != want {
			t.Fatalf("isLocation(%q) = %v, regexp says %v", b, got, want)
		}
	})
}
