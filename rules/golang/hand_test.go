package golang

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// goHandSeeds are FuzzHandParsers' seeds for the go parsers written by
// hand: test2json events as go writes them and in the shapes where a
// scanner could part from encoding/json (escapes, surrogates, invalid
// UTF-8, keys in another case, null and duplicate fields, blanks, nested
// values, numbers), and logs mixing events with text.
var goHandSeeds = []string{
	`{"Time":"2026-11-30T12:23:08.365097429Z","Action":"output","Package":"example.com/demo/calc","Test":"TestAdd","Output":"=== RUN   TestAdd\n"}`,
	`{"Time":"2026-11-30T12:23:08.36519291Z","Action":"pass","Package":"example.com/demo/calc","Test":"TestAdd","Elapsed":0}`,
	`{"Action":"pass","Package":"p","Elapsed":0.015}`,
	`{"Action":"output","Package":"p","Output":"ok  \tp\t0.01s\n"}`,
	`{"Action":"output","Package":"p","Output":"got \u003cnil\u003e \u0026 \"q\" \\ \/ \b\f\r\n"}`,
	`{"Action":"output","Package":"p","Output":"\ud83d\ude00 \ud800 x\n"}`,
	`{"Action":"output","Package":"p","Output":"caf` + "\xc3\xa9 \xff" + `\n"}`,
	`{"Action":"output","Package":"p","Output":"\u00e9\u2028\u0000"}`,
	`{"Action":"output","Package":"p","Output":"a\u000ab\r\u000A\\n\t\n\r"}`,
	`{"action":"output","PACKAGE":"p","OutPut":"x\n"}`,
	`{"Action":"output","Package":"p","Output":"a\n","Output":null}`,
	`{"Action":"output","Package":"p","Output":"a\n","Output":"b"}`,
	`{"Action":"output","Package":"p","Output":"a\n","output":"\tb"}`,
	`{"Action":null,"Package":"p"}`,
	`{"Action":"run","Package":"p","Test":"T\u00e9"}`,
	`{"Action":"run","Package":"p","Test":"Té/ſ"}`,
	`{"Action":"run","Package":"p","Teſt":"T"}`,
	`{"Action":"run","Package":"p","Test":1}`,
	`{"Action":"run","Package":"p","Elapsed":-0.5e+3,"N":1E2,"B":true,"F":false,"Z":null}`,
	`{"Action":"run","Package":"p","Elapsed":01}`,
	`{"Action":"run","Package":"p","Elapsed":1.}`,
	`{"Action":"run","Package":"p","Elapsed":-}`,
	`{"Action":"run","Package":"p","X":{"a":[1,2]}}`,
	`{"Action":"run","Package":"p","X":[]}`,
	`{"Action":"run", "Package":"p"}`,
	`{"Action":"run","Package":"p"} `,
	`{"Action":"run","Package":"p"}x`,
	`{"Action":"run","Package":"p",}`,
	`{"Action":"run","Package":"p"`,
	`{"Act\u0069on":"run","Package":"p"}`,
	`{"Action":"run","Package":"p","Output":"x` + "\t" + `"}`,
	`{"Action":"run","Package":"p","Output":"\x"}`,
	`{"Action":"run","Package":"p","Output":"\u12"}`,
	`{"Action":"","Package":"p","Output":"x\n"}`,
	`{"ImportPath":"c [c.test]","Action":"build-output","Output":"# c\n"}`,
	`{"ImportPath":"c [c.test]","Action":"build-fail"}`,
	"loading fixture...--- FAIL: TestLoad (0.00s)",
	"header ok--- PASS: TestHeader (0.00s)\nx\t--- SKIP: T (1.5s)\n  --- FAIL: T (0.00s)\n\t--- FAIL: T (0.00s)",
	"body done=== RUN   TestSections/footer\n=== PAUSE T\n x=== CONT  T\nx=== NAME  T\tU\nx=== NAME  \nx=== RUN   (0.00s)",
	"summing    report_test.go:24: total = 7, want 6\nx     a.go:1: y\nx\t    a.go:1: y\nx    .go:1: y\nx    a.go:1:y\nb.go:2    a.go:1: y",
	"x--- FAIL: T (0.00)\nx--- FAIL: T A (0.00s)\nx--- FAIL:  (0.00s)\nx--- FAIL: T (s)\nx--- FAIL: T\t(0.00s)\n--- FAIL: a.go:1: (0.00s)",
	`{"Action":"output","Package":"p","Test":"T","Output":"partial"}` + "\n" +
		`{"Action":"output","Package":"p","Test":"T","Output":"--- FAIL: T (0.00s)\n"}` + "\n" +
		`{"Action":"output","Package":"p","Test":"T","Output":"more"}` + "\n" +
		`{"Action":"output","Package":"p","Test":"T","Output":"=== RUN   T\u00e9\n"}` + "\n" +
		`{"Action":"output","Package":"p","Test":"T","Output":"more"}` + "\n" +
		`{"Action":"output","Package":"p","Test":"T","Output":"--- FAIL: T\t(0.00s)\n"}` + "\n" +
		`{"Action":"output","Package":"p","Test":"T","Output":"more"}` + "\n" +
		`{"Action":"output","Package":"p","Test":"T","Output":"--- FAIL: T (0.00s)\nx\n"}` + "\n" +
		`{"Action":"output","Package":"p","Test":"T","Output":"summing    t_test.go:3: bad\n"}` + "\n" +
		`{"Action":"fail","Package":"p"}`,
	`{"Action":"start","Package":"a"}` + "\n" +
		`{"Action":"output","Package":"a","Test":"TestA","Output":"=== RUN   TestA\n"}` + "\n" +
		`{"Action":"output","Package":"b","Output":"ok  \tb\t0.01s\r\n"}` + "\n" +
		`{"Action":"pass","Package":"b"}` + "\n" +
		`{"Action":"output","Package":"a","Test":"TestA","Output":"    a_test.go:3: no newline yet "}` + "\n" +
		"go: a plain line\n" +
		`{"Action":"output","Package":"a","Test":"TestA","Output":"then the rest\r"}` + "\n" +
		`{"Action":"output","Package":"a","Test":"TestA","Output":"\n\n"}` + "\n" +
		`{"Action":"fail","Package":"a","Test":"TestA"}` + "\n" +
		`{"Action":"output","Package":"a","Output":"FAIL\ta\t0.01s\n"}` + "\n" +
		`{"Action":"fail","Package":"a"}` + "\n" +
		`{"Action":"output","Package":"a","Output":"late"}` + "\n",
}

// checkGoHandParsers holds the go parsers written by hand to what they
// replace: the test2json scanner and goTextLines to encoding/json and
// the goTextLines that decoded every event with it and split each
// package's text with lines.
func checkGoHandParsers(t *testing.T, s string) {
	var want struct{ Action, Package, ImportPath, Test, Output string }
	wantOK := json.Unmarshal([]byte(s), &want) == nil
	e, ok := decodeGoEvent(s)
	if e.quoted {
		e.Output = new(textArena).unquote(e.Output)
	}
	got := struct{ Action, Package, ImportPath, Test, Output string }{e.Action, e.Package, e.ImportPath, e.Test, e.Output}
	if ok != wantOK || ok && got != want {
		t.Fatalf("decodeGoEvent(%q) = %+v, %v; encoding/json says %+v, %v", s, got, ok, want, wantOK)
	}
	if _, ok := scanGoEvent(s); ok && !wantOK {
		t.Fatalf("scanGoEvent(%q) takes what encoding/json rejects", s)
	}

	ls := summarize.Lines([]byte(s))
	if got, want := slices.Collect(goTextLines(ls)), goTextLinesJSON(ls); !slices.Equal(got, want) {
		t.Fatalf("goTextLines(%q) =\n%q\nwith encoding/json\n%q", ls, got, want)
	}
	if got, want := goText(ls), goTextLinesJSON(ls); !slices.Equal(got, want) {
		t.Fatalf("goText(%q) =\n%q\nwith encoding/json\n%q", ls, got, want)
	}
	for _, l := range ls {
		if got, want := goTailStart(l), goTailStartRE(l); got != want {
			t.Fatalf("goTailStart(%q) = %d, the regexps say %d", l, got, want)
		}
	}
	for range goTextLines(ls) {
		break // stopping early must not panic
	}
}

// The plain forms of goTailStart: go's text that test output without a
// final newline ran into, a marker or (at the line's first ".go:") a
// reason, after text that is not blank.
const goMarkerPattern = `--- (?:FAIL|PASS|SKIP): [^ \t]+ \([0-9.]+s\)|=== (?:RUN   |PAUSE |CONT  |NAME  )[^ \t]+`

var (
	goMarkerRE      = regexp.MustCompile(`^(?:` + goMarkerPattern + `)$`)
	goMarkerTailRE  = regexp.MustCompile(`^(.*)(` + goMarkerPattern + `)$`)
	goReasonWordRE  = regexp.MustCompile(`^(.*)    [^ \t]+$`)
	goReasonAfterRE = regexp.MustCompile(`^\.go:[0-9]+: `)
)

func goTailStartRE(l string) int {
	i := -1
	if m := goMarkerTailRE.FindStringSubmatchIndex(l); m != nil {
		i = m[3]
	} else if at := strings.Index(l, ".go:"); at >= 0 && goReasonAfterRE.MatchString(l[at:]) {
		if m := goReasonWordRE.FindStringSubmatchIndex(l[:at]); m != nil {
			i = m[3]
		}
	}
	if i <= 0 || strings.Trim(l[:i], " \t") == "" {
		return 0
	}
	return i
}

// goTextLinesJSON is goTextLines as it was before events were scanned by
// hand: each decoded by json.Unmarshal, each package's text split by lines,
// a line ended before an event that is a go marker line, and a line that
// output without a newline ran into go's text cut where goTailStartRE says.
func goTextLinesJSON(ls []string) []string {
	split := func(ls []string) []string {
		var out []string
		for _, l := range ls {
			if i := goTailStartRE(l); i > 0 {
				out = append(out, l[:i], l[i:])
			} else {
				out = append(out, l)
			}
		}
		return out
	}
	if !hasGoEvents(ls) {
		return split(ls)
	}
	out := make([]string, 0, len(ls))
	texts := map[string]*strings.Builder{}
	var order []string
	release := func(key string) {
		if b := texts[key]; b != nil && b.Len() > 0 {
			out = append(out, split(summarize.Lines([]byte(b.String())))...)
			b.Reset()
		}
	}
	for _, l := range ls {
		var e struct{ Action, Package, ImportPath, Test, Output string }
		if !strings.HasPrefix(l, `{"`) || json.Unmarshal([]byte(l), &e) != nil || e.Action == "" {
			out = append(out, split([]string{l})...)
			continue
		}
		key := e.Package
		if key == "" {
			key = "build " + e.ImportPath
		}
		b := texts[key]
		if b == nil {
			b = &strings.Builder{}
			texts[key] = b
			order = append(order, key)
		}
		if text := b.String(); text != "" && !strings.HasSuffix(text, "\n") &&
			goMarkerRE.MatchString(strings.TrimSuffix(e.Output, "\n")) {
			b.WriteString("\n")
		}
		b.WriteString(e.Output)
		switch {
		case e.Action == "build-fail":
			release(key)
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			release(key)
		}
	}
	for _, key := range order {
		release(key)
	}
	return out
}

// TestGoHandParsers runs the oracle on its seeds and on the go corpus, so
// that plain go test holds the scanner to encoding/json.
func TestGoHandParsers(t *testing.T) {
	for _, s := range goHandSeeds {
		checkGoHandParsers(t, s)
		for _, l := range summarize.Lines([]byte(s)) {
			checkGoHandParsers(t, l)
		}
	}
	for _, c := range ruletest.Corpus(t, "testdata") {
		if strings.HasPrefix(c.Run.Rule, "bash.go_") {
			for _, b := range [][]byte{c.Run.Stdout, c.Run.Stderr} {
				checkGoHandParsers(t, string(b))
				for _, l := range summarize.Lines(b) {
					checkGoHandParsers(t, l)
				}
			}
		}
	}
}

// FuzzHandParsers holds the go parsers written by hand to what they
// replace (checkGoHandParsers), on any line.
func FuzzHandParsers(f *testing.F) {
	for _, s := range goHandSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkGoHandParsers(t, string(b))
	})
}
