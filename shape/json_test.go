package shape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The JSON structure's oracle is encoding/json: its decoder's tokens,
// walked in the document's order, give each path's kinds and counts, its
// containers' sizes and its first value, which every line of the cut's
// structure must state.

// oraclePath is what encoding/json finds at one path.
type oraclePath struct {
	kinds    [jKinds]int64
	min, max int64
	sized    bool
	first    any
	hasFirst bool
}

// jsonOracle reads a sequence of JSON values with encoding/json; ok is
// false when it is not one.
func jsonOracle(doc []byte) (paths map[string]*oraclePath, order []string, values int64, ok bool) {
	paths = map[string]*oraclePath{}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	at := func(path string) *oraclePath {
		p, ok := paths[path]
		if !ok {
			p = &oraclePath{}
			paths[path] = p
			order = append(order, path)
		}
		return p
	}
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		p := at(path)
		switch v := tok.(type) {
		case json.Delim:
			n := int64(0)
			if v == '[' {
				p.kinds[jArray]++
				for dec.More() {
					n++
					if err := walk(path + "[]"); err != nil {
						return err
					}
				}
			} else {
				p.kinds[jObject]++
				for dec.More() {
					n++
					k, err := dec.Token()
					if err != nil {
						return err
					}
					if err := walk(path + oracleKey(k.(string))); err != nil {
						return err
					}
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			if !p.sized || n < p.min {
				p.min = n
			}
			if !p.sized || n > p.max {
				p.max = n
			}
			p.sized = true
			return nil
		case string:
			p.kinds[jString]++
		case json.Number:
			p.kinds[jNumber]++
		case bool:
			p.kinds[jBoolean]++
		case nil:
			p.kinds[jNull]++
		}
		if !p.hasFirst {
			p.first, p.hasFirst = tok, true
		}
		return nil
	}
	for dec.More() {
		if err := walk("$"); err != nil {
			return nil, nil, 0, false
		}
		values++
		// A number or literal ends where a byte that may go on with it
		// comes: encoding/json reads "00" as two values, a reader of JSON
		// lines as none.
		if end := int(dec.InputOffset()); end < len(doc) && end > 0 && isScalarByte(doc[end-1]) && isScalarByte(doc[end]) {
			return nil, nil, 0, false
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, 0, false
	}
	return paths, order, values, values > 0
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// oracleKey names a key in a path as the structure does.
func oracleKey(k string) string {
	if identRE.MatchString(k) {
		return "." + k
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(k)
	return "[" + strings.TrimSuffix(b.String(), "\n") + "]"
}

// canonicalPath names a path of the cut's structure as the oracle does:
// a key is written there as the document wrote it, escapes included.
func canonicalPath(path string) string {
	out, rest := "$", strings.TrimPrefix(path, "$")
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, "[]"):
			out, rest = out+"[]", rest[2:]
		case strings.HasPrefix(rest, `["`):
			dec := json.NewDecoder(strings.NewReader(rest[1:]))
			var k string
			if err := dec.Decode(&k); err != nil {
				return path
			}
			out += oracleKey(k)
			rest = rest[1+int(dec.InputOffset())+1:]
		case strings.HasPrefix(rest, "."):
			i := 1
			for i < len(rest) && rest[i] != '.' && rest[i] != '[' {
				i++
			}
			out, rest = out+rest[:i], rest[i:]
		default:
			return path
		}
	}
	return out
}

// structLineRE reads a structure line: its path (`.key`, `["a key"]` as
// the document wrote it, spaces and escapes included, and `[]`), then
// what it holds.
var structLineRE = regexp.MustCompile(`^(\$(?:\.[^.\[\s:]+|\["(?:[^"\\]|\\.)*"\]|\[\])*): (.*?)(?:, first (.*))?$`)

// checkStructure holds each path line of a cut's JSON structure to the
// oracle.
func checkStructure(t *testing.T, name string, doc, cut []byte) int {
	t.Helper()
	paths, order, values, ok := jsonOracle(doc)
	if !ok {
		t.Fatalf("%s: encoding/json does not read the document", name)
	}
	header := fmt.Sprintf("%sstdout is one JSON value;", markerPrefix)
	if values > 1 {
		header = fmt.Sprintf("%sstdout is %d JSON values;", markerPrefix, values)
	}
	if !bytes.Contains(cut, []byte(header)) {
		t.Fatalf("%s: no structure header %q in the cut", name, header)
	}
	n := 0
	for l := range strings.Lines(string(cut)) {
		l = strings.TrimSuffix(l, "\n")
		m := structLineRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		path := canonicalPath(m[1])
		if order[n] != path {
			t.Fatalf("%s: path %d is %s, the oracle's %s", name, n, m[1], order[n])
		}
		n++
		p := paths[path]
		var want []string
		for kind, c := range p.kinds {
			if c > 0 {
				want = append(want, fmt.Sprintf("%s ×%d", kindNames[kind], c))
			}
		}
		if p.sized {
			unit := "key"
			if p.kinds[jArray] > 0 {
				unit = "item"
			}
			if p.max != 1 {
				unit += "s"
			}
			size := strconv.FormatInt(p.min, 10)
			if p.max != p.min {
				size += "-" + strconv.FormatInt(p.max, 10)
			}
			want = append(want, size+" "+unit)
		}
		if got := strings.Join(want, ", "); m[2] != got {
			t.Errorf("%s: %s holds %q, the oracle says %q", name, m[1], m[2], got)
		}
		if p.hasFirst != (m[3] != "") {
			t.Errorf("%s: %s: first value %q, the oracle has one: %v", name, m[1], m[3], p.hasFirst)
		} else if p.hasFirst && !strings.Contains(m[3], "… (") {
			var first any
			dec := json.NewDecoder(strings.NewReader(m[3]))
			dec.UseNumber()
			if err := dec.Decode(&first); err != nil || fmt.Sprint(first) != fmt.Sprint(p.first) {
				t.Errorf("%s: %s: first value %s, the oracle's %v", name, m[1], m[3], p.first)
			}
		}
	}
	return n
}

// TestJSONOracle holds the structure of the corpus's JSON to
// encoding/json at every client's limit.
func TestJSONOracle(t *testing.T) {
	seen := 0
	for _, c := range loadCorpus(t) {
		if !strings.HasPrefix(c.name, "json_") {
			continue
		}
		for _, cl := range goldenClients {
			_, cut := joined(cutCase(c, cl.limit, cl.budget))
			if n := checkStructure(t, c.name+"/"+cl.name, c.stdout, cut); n == 0 {
				t.Errorf("%s/%s: no path in the structure", c.name, cl.name)
			}
			seen++
		}
	}
	if seen == 0 {
		t.Fatal("no JSON case in the corpus")
	}
}

// FuzzJSON holds the reader to encoding/json: it takes a document for
// JSON exactly when encoding/json reads it as a sequence of values (within
// the depth it follows), and every structure line it writes is the
// oracle's.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2, {"b": null}], "c d": "x"}`, `[1, "two", true, false, null, -1.5e3]`,
		"{\"a\":1}\n{\"a\":2}\n", `{"s": "\u00e9\n\"q\""}`, `[[[]]]`, `{"a":01}`, `{"a":"\x01"}`, `[1,]`, `{"a" 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) == 0 || bytes.Count(doc, []byte{'['})+bytes.Count(doc, []byte{'{'}) > maxJSONDepth {
			return
		}
		first := bytes.TrimLeft(doc, " \t\r\n")
		if len(first) == 0 {
			return
		}
		j := newJSON(first[0])
		if j == nil {
			return
		}
		j.feed(doc)
		_, _, _, want := jsonOracle(doc)
		if got := j.valid(); got != want {
			t.Fatalf("valid = %v, encoding/json says %v for %q", got, want, doc)
		}
		if !want || len(j.paths) == maxPaths || j.lost > 0 {
			return
		}
		c := &Cutter{o: Options{Budget: 1 << 20}}
		k := newCut(c, 1)
		checkStructure(t, "fuzz", doc, j.fit(k, 1<<20))
	})
}

func TestJSONKeyNames(t *testing.T) {
	j := newJSON('{')
	j.feed([]byte(`{"plain": 1, "with space": 2, "$ok_1": 3, "1st": 4}`))
	if !j.valid() {
		t.Fatal("not valid")
	}
	var names []string
	for i := range j.paths {
		names = append(names, string(j.appendName(nil, i)))
	}
	want := []string{"$", "$.plain", `$["with space"]`, "$.$ok_1", `$["1st"]`}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("paths %q, want %q", names, want)
	}
}
