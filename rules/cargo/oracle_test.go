package cargo_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/compress"
	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// TestReferenceOracle holds the block of every corpus case, whole or cut
// by the filters of its command, to what the reference reader reads in
// the output the block was made from (checkBlock).
func TestReferenceOracle(t *testing.T) {
	cases, cut, wrong := 0, 0, 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		cases++
		if len(c.Run.Cut.By) > 0 {
			cut++
		}
		block := ruletest.MustBlock(t, rules.Block, c.Run)
		if bad := checkBlock(c.Run, block); len(bad) > 0 {
			wrong++
			t.Errorf("%s (%s):\n  %s\n%s", c.Name, c.Run.Command, strings.Join(bad, "\n  "), block)
		}
	}
	t.Logf("%d cases, %d of them cut by a filter; %d blocks the reference contradicts", cases, cut, wrong)
}

// jsonTruth is what a case's machine-readable twin (CASE.json, made by the
// corpus scripts' truth) says: libtest's totals over its finished suites,
// its failing tests with their panics, and rustc's diagnostics.
type jsonTruth struct {
	suites   int
	total    counts
	failed   map[string]bool
	panics   map[refPanic]bool
	captured bool // every failing test's output came with its event
	errors   map[refDiag]bool
	warnings map[refDiag]bool
}

func readTruth(t *testing.T, path string) jsonTruth {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	jt := jsonTruth{failed: map[string]bool{}, panics: map[refPanic]bool{}, captured: true,
		errors: map[refDiag]bool{}, warnings: map[refDiag]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		// libtest's events and cargo's messages; "message" is a string in
		// the one and an object in the other.
		var ev struct {
			Type, Event, Name, Reason string
			Stdout                    *string
			Passed, Failed, Ignored   int
			Measured                  int
			FilteredOut               int `json:"filtered_out"`
			Message                   json.RawMessage
		}
		var msg struct {
			Level, Rendered string
			Spans           []struct {
				FileName    string `json:"file_name"`
				LineStart   int    `json:"line_start"`
				ColumnStart int    `json:"column_start"`
				IsPrimary   bool   `json:"is_primary"`
			}
		}
		if !strings.HasPrefix(sc.Text(), "{") || json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue // what a test printed with --nocapture
		}
		if ev.Reason == "compiler-message" && json.Unmarshal(ev.Message, &msg) != nil {
			t.Fatalf("%s: %s", path, sc.Text())
		}
		switch {
		case ev.Type == "suite" && (ev.Event == "ok" || ev.Event == "failed"):
			jt.suites++
			jt.total.add(counts{ev.Passed, ev.Failed, ev.Ignored, ev.Measured, ev.FilteredOut})
		case ev.Type == "test" && ev.Event == "failed":
			jt.failed[ev.Name] = true
			if ev.Stdout == nil {
				jt.captured = false
				break
			}
			for _, l := range splitLines(*ev.Stdout) {
				if m := rePanic.FindStringSubmatch(l); m != nil && m[1] == ev.Name {
					jt.panics[refPanic{m[1], m[2]}] = true
				}
			}
		case ev.Reason == "compiler-message" && (msg.Level == "error" || msg.Level == "warning"):
			head, _, _ := strings.Cut(msg.Rendered, "\n")
			if reSummary.MatchString(head) {
				break
			}
			d := refDiag{head: head, isError: msg.Level == "error"}
			for _, s := range msg.Spans {
				if s.IsPrimary {
					d.loc = fmt.Sprintf("%s:%d:%d", s.FileName, s.LineStart, s.ColumnStart)
					break
				}
			}
			if d.isError {
				jt.errors[d] = true
			} else {
				jt.warnings[d] = true
			}
		}
	}
	return jt
}

// TestReferenceMatchesJSON: on every whole run of the corpus, the
// reference reader reads from the human-readable output what cargo's and
// libtest's JSON output of the same crate say: libtest's totals, the
// failing tests and where they panicked, rustc's errors and warnings with
// their locations. (cargo's own errors, a missing manifest or a build
// script, are not rustc's messages and are not in the JSON.)
func TestReferenceMatchesJSON(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		path := filepath.Join(c.Dir, c.Base+".json")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		n++
		jt, f := readTruth(t, path), read(c.Run)
		if got := f.total(); got != jt.total || len(f.results) != jt.suites {
			t.Errorf("%s: %d result lines sum to %+v; JSON: %d suites, %+v", c.Name, len(f.results), got, jt.suites, jt.total)
		}
		if !maps(f.names, jt.failed) {
			t.Errorf("%s: failing tests %q; JSON %q", c.Name, keys(f.names), keys(jt.failed))
		}
		if jt.captured {
			panics := map[refPanic]bool{}
			for _, p := range f.panics {
				panics[p] = true
			}
			if !maps(panics, jt.panics) {
				t.Errorf("%s: panics %v; JSON %v", c.Name, keys(panics), keys(jt.panics))
			}
		}
		errs, warns := map[refDiag]bool{}, map[refDiag]bool{}
		for _, d := range f.diags {
			switch {
			case cargoOwn(d.head):
			case !d.isError:
				warns[d] = true
			default:
				errs[d] = true
			}
		}
		// cargo test stops building at the first target that fails; its
		// twin built them all (--keep-going).
		if stopped := c.Run.Rule == "bash.cargo_test" && strings.HasPrefix(f.status, "error: could not compile"); !maps(errs, jt.errors) && !(stopped && subset(errs, jt.errors)) {
			t.Errorf("%s: errors %q; JSON %q", c.Name, keys(errs), keys(jt.errors))
		}
		if !maps(warns, jt.warnings) {
			t.Errorf("%s: warnings %q; JSON %q", c.Name, keys(warns), keys(jt.warnings))
		}
	}
	if n < 40 {
		t.Errorf("only %d cases have their JSON twin", n)
	}
}

// cargoOwn reports whether a diagnostic line is cargo's own, not
// rustc's: a missing manifest, a build script that failed or printed a
// cargo:warning.
func cargoOwn(head string) bool {
	return strings.HasPrefix(head, "error: could not find `Cargo.toml`") ||
		strings.HasPrefix(head, "error: failed to run custom build command") ||
		reScriptWarning.MatchString(head)
}

var reScriptWarning = regexp.MustCompile(`^warning: [\w-]+@[\w.-]+: `)

func maps[K comparable](a, b map[K]bool) bool {
	return len(a) == len(b) && subset(a, b)
}

func subset[K comparable](a, b map[K]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys[K comparable](m map[K]bool) []string {
	var out []string
	for k := range m {
		out = append(out, fmt.Sprint(k))
	}
	slices.Sort(out)
	return out
}

// cutFilters are the filters FuzzCut pipes a whole corpus output through,
// as an agent types them; %d and %[2]d take the fuzzer's two numbers.
var cutFilters = []string{
	"tail -%d",
	"head -%d",
	"sed -n '%d,%dp'",
	"grep -E 'FAILED|panicked|test result'",
	"grep 'test result'",
	"grep -E '^(error|warning)'",
	"grep -v ' ok$'",
	"grep -v '^ *[0-9]* *|'",
	"grep -E 'error|-->'",
}

// FuzzCut cuts the real outputs of the corpus's whole runs at random, with
// the filters agents use (cutFilters: random head and tail lengths, sed
// ranges, greps of some lines), and holds each block to the reference
// reader (checkBlock): no count the cut text contradicts, no failing name,
// panic location or error it shows left out, a valid header. The filter
// cuts stdout, as in CMD | FILTER (a case run with 2>&1 has everything
// there); Run.Cut is what classify makes of the piped command, and the
// exit status is the filter's, 0. A block is printed only when Worth says
// so, which keeps it smaller than the cut output; the fuzzer checks every
// block regardless.
func FuzzCut(f *testing.F) {
	var whole []ruletest.Case
	for _, c := range ruletest.Corpus(f, "testdata") {
		if len(c.Run.Cut.By) == 0 {
			whole = append(whole, c)
		}
	}
	for i := range whole {
		for k := range cutFilters {
			f.Add(uint(i), uint8(k), uint16(7*i+3*k)%60+1, uint16(9*i+k)%40+1)
		}
	}
	f.Fuzz(func(t *testing.T, i uint, k uint8, a, b uint16) {
		c := whole[i%uint(len(whole))]
		filter := cutFilters[int(k)%len(cutFilters)]
		n, m := int(a%400), int(b%400)
		switch {
		case strings.HasPrefix(filter, "sed"):
			filter = fmt.Sprintf(filter, n+1, n+1+m)
		case strings.Contains(filter, "%d"):
			filter = fmt.Sprintf(filter, n)
		}
		cmd := c.Run.Command + " | " + filter
		cl := rules.String(cmd)
		if cl.Rule != c.Run.Rule {
			t.Fatalf("%s: %q classifies as %q (%s)", c.Name, cmd, cl.Rule, cl.Explain())
		}
		r := *c.Run
		r.Command, r.Cut = cmd, summarize.Cut(cl.Cuts())
		r.ExitCode, r.Exited = 0, true
		r.Stdout = cutLike(c.Run.Stdout, filter, n, m)
		block := ruletest.MustBlock(t, rules.Block, &r)
		if bad := checkBlock(&r, block); len(bad) > 0 {
			t.Errorf("%s (%s):\n  %s\n%s\n--- cut stdout:\n%s", c.Name, cmd, strings.Join(bad, "\n  "), block, r.Stdout)
		}
		raw := int64(len(r.Stdout) + len(r.Stderr))
		rawTokens := int64(summarize.EstimateTokens(r.Stdout) + summarize.EstimateTokens(r.Stderr))
		if int64(len(block)) > raw && compress.Worth(len(block), raw, summarize.EstimateTokens(block), rawTokens) {
			t.Errorf("%s (%s): a block of %d bytes for %d raw would be printed", c.Name, cmd, len(block), raw)
		}
	})
}

// cutLike cuts b as the filter does.
func cutLike(b []byte, filter string, n, m int) []byte {
	switch {
	case strings.HasPrefix(filter, "tail"):
		return ruletest.Tail(b, n)
	case strings.HasPrefix(filter, "head"):
		return ruletest.Head(b, n)
	case strings.HasPrefix(filter, "sed"):
		// Lines n+1 to n+1+m.
		rest := b[len(ruletest.Head(b, n)):]
		return ruletest.Head(rest, m+1)
	}
	invert := strings.HasPrefix(filter, "grep -v")
	_, pat, _ := strings.Cut(filter, "'")
	pat = strings.TrimSuffix(pat, "'")
	if !strings.Contains(filter, " -E ") {
		pat = strings.ReplaceAll(pat, "|", `\|`) // a basic regular expression's | is itself
	}
	re := regexp.MustCompile(pat)
	return ruletest.Grep(b, func(l string) bool { return re.MatchString(l) != invert })
}
