package summarize

import (
	"bytes"
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
		if got := Lines([]byte(c.in)); !slices.Equal(got, c.want) {
			t.Errorf("lines(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := slices.Collect(EachLine([]byte(c.in))); !slices.Equal(got, c.want) {
			t.Errorf("eachLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLinesWith(t *testing.T) {
	r := &Run{Stdout: []byte("a\nb x\n"), Stderr: []byte("x c\nd\n")}
	var seen []string
	r.HasLine("x", func(l string, next []byte) bool { seen = append(seen, l+"|"+string(next)); return false })
	if want := []string{"b x|", "x c|d\n"}; !slices.Equal(seen, want) {
		t.Errorf("HasLine read %q, want %q", seen, want)
	}
	type hit struct{ line, rest string }
	for _, c := range []struct {
		in, marker string
		want       []hit
	}{
		{"", "x", nil},
		{"a\nxb\nc\n", "x", []hit{{"xb", "c\n"}}},
		{"xx x\r\nx", "x", []hit{{"xx x", "x"}, {"x", ""}}},
		{"no\nmarker\n", "z", nil},
		{"ab\nab\n", "b\nab", []hit{{"ab", "ab\n"}}},
	} {
		var got []hit
		for l, rest := range linesWith([]byte(c.in), c.marker) {
			got = append(got, hit{l, string(rest)})
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("linesWith(%q, %q) = %q, want %q", c.in, c.marker, got, c.want)
		}
	}
}

func TestLastLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want []string
	}{
		{"", 3, nil},
		{"a\nb\nc\n", 2, []string{"b", "c"}},
		{"a\nb\nc", 2, []string{"b", "c"}},
		{"a\nb\n", 5, []string{"a", "b"}},
		{"a\r\n\nb\n", 3, []string{"a", "", "b"}},
		{"\n\n", 1, []string{""}},
	} {
		if got := LastLines([]byte(c.in), c.n); !slices.Equal(got, c.want) {
			t.Errorf("LastLines(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
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
		if got := IsLocation(s); got != want {
			t.Errorf("isLocation(%q) = %v, want %v", s, got, want)
		}
	}
}

// The regexps the hand-written parsers replace.
var (
	wholeLocation = regexp.MustCompile(`^\S+:\d+:\d+$`)
	anyLocationRE = regexp.MustCompile(`\S+:\d+:\d+`)
	rustErrorRE   = regexp.MustCompile(`^error(\[E\d{4}\])?: \S`)
	fatalRE       = regexp.MustCompile(`^(fatal|error): \S`)
)

// FuzzHandParsers checks the core's parsers written by hand for speed
// against the plain forms they replace: EachLine against Lines (a rule and
// the check must see the same lines), the location and error-line parsers
// against their regexps, StripTerminal against its byte-by-byte form,
// FitHead and AddHead against FitList and AddList, and Readable against
// its promises. Each family holds its own parsers to theirs in a
// FuzzHandParsers of its own.
func FuzzHandParsers(f *testing.F) {
	for _, c := range lineCases {
		f.Add([]byte(c.in))
	}
	for s := range locationCases {
		f.Add([]byte(s))
	}
	for _, s := range []string{"a|b|c|ddddddddddddddddddddddddddd|e\nf", "\x1b\n\x1b[\n\n\x1b]8;;x\x1b\\y\n",
		"a\x1b(", "\r\x1b\r\n", "\x1b]0;t\x07\r\n", "\x1b\x1b[1m\r", "x\x1bPq\x1b\\y", "\x1b(\x1b[m"} {
		f.Add([]byte(s))
	}
	for _, s := range []string{"error[E0425]: x", "error: could not compile", "fatal: bad", "error[E04255]: x", "error:  x", "errors: x", "error[X]: y",
		"  ╰─> [3 lines of output]", "\u00a0╰─> [3 lines of output]", "a.py:1: error: x", "a b.py:1: error: x",
		"tests/t.py::x FAILED [ 50%]", "\ttests/t.py::x ERROR", "== 1 failed in 0.1s ==", "___ test_x ___", "E   assert 1",
		"1 passed in 0.1s", "no tests ran in 0.00s", "= 3 passed in 61.20s (0:01:01) =", "mypy: can't read file",
		"----- Captured stdout call -----", "12 |     for x in y {",
		"at f (src/a.js:1:2) and src/b.rs:3:4: x:1:2:3 y:1:2x:5:6\tz:7:8",
		"  12:5  error  'x' is not defined  no-undef", " 10 |     let x = 1;",
		"   Compiling demo v0.1.0", "     Running tests/api.rs", "    Finished", "  Doc-tests x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := Lines(b)
		got := slices.Collect(EachLine(b))
		if !slices.Equal(got, want) {
			t.Fatalf("eachLine(%q) = %q, lines = %q", b, got, want)
		}
		for range EachLine(b) {
			break // stopping early must not panic
		}
		checkReadable(t, b)
		s := string(b)
		checkFitHead(t, s)
		if got, want := StripTerminal(b), stripTerminalByByte(b); !bytes.Equal(got, want) {
			t.Fatalf("StripTerminal(%q) = %q, byte by byte %q", s, got, want)
		}
		if got, want := IsLocation(s), wholeLocation.MatchString(s); got != want {
			t.Fatalf("isLocation(%q) = %v, regexp says %v", s, got, want)
		}
		if got, want := slices.Collect(locations(s)), anyLocationRE.FindAllString(s, -1); !slices.Equal(got, want) {
			t.Fatalf("locations(%q) = %q, regexp finds %q", s, got, want)
		}
		if got, want := IsErrorLine(s), rustErrorRE.MatchString(s) || fatalRE.MatchString(s); got != want {
			t.Fatalf("isErrorLine(%q) = %v, regexps say %v", s, got, want)
		}
	})
}

// TestLinesOf: each stream is split once, and a stream is never taken for
// the other, even with the same content.
func TestLinesOf(t *testing.T) {
	r := &Run{Stdout: []byte("a\nb\n"), Stderr: []byte("a\nb\n")}
	out, errs := r.Lines(r.Stdout), r.Lines(r.Stderr)
	if !slices.Equal(out, []string{"a", "b"}) || !slices.Equal(errs, out) {
		t.Fatalf("lines %q, %q", out, errs)
	}
	if &r.Lines(r.Stdout)[0] != &out[0] || &r.Lines(r.Stderr)[0] != &errs[0] {
		t.Error("a stream was split twice")
	}
	if &out[0] == &errs[0] {
		t.Error("stdout and stderr share one split")
	}
	other := []byte("c\n")
	if got := r.Lines(other); !slices.Equal(got, []string{"c"}) {
		t.Errorf("other bytes: %q", got)
	}
	r.Stdout = []byte("d\n")
	if got := r.Lines(r.Stdout); !slices.Equal(got, []string{"d"}) {
		t.Errorf("replaced stdout: %q", got)
	}
}
