package summarize

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
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

	ls := lines([]byte(s))
	if got, want := slices.Collect(goTextLines(ls)), goTextLinesJSON(ls); !slices.Equal(got, want) {
		t.Fatalf("goTextLines(%q) =\n%q\nwith encoding/json\n%q", ls, got, want)
	}
	for range goTextLines(ls) {
		break // stopping early must not panic
	}
}

// goTextLinesJSON is goTextLines as it was before events were scanned by
// hand: each decoded by json.Unmarshal, each package's text split by lines.
func goTextLinesJSON(ls []string) []string {
	if !hasGoEvents(ls) {
		return ls
	}
	out := make([]string, 0, len(ls))
	texts := map[string]*strings.Builder{}
	var order []string
	release := func(key string) {
		if b := texts[key]; b != nil && b.Len() > 0 {
			out = append(out, lines([]byte(b.String()))...)
			b.Reset()
		}
	}
	for _, l := range ls {
		var e struct{ Action, Package, ImportPath, Test, Output string }
		if !strings.HasPrefix(l, `{"`) || json.Unmarshal([]byte(l), &e) != nil || e.Action == "" {
			out = append(out, l)
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
		for _, l := range lines([]byte(s)) {
			checkGoHandParsers(t, l)
		}
	}
	for _, c := range loadCorpus(t) {
		if strings.HasPrefix(c.run.Rule, "bash.go_") {
			for _, b := range [][]byte{c.run.Stdout, c.run.Stderr} {
				checkGoHandParsers(t, string(b))
				for _, l := range lines(b) {
					checkGoHandParsers(t, l)
				}
			}
		}
	}
}
