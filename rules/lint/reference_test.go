package lint_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// The reference reader: what a linter's (possibly cut) text output shows,
// read with the regular expressions of each tool's documented format and
// nothing of the rules' code. Its findings are checked against the tool's
// machine-readable output on the uncut runs (TestReferenceMatchesJSON),
// and every block of the corpus, and of the corpus cut at random
// (FuzzCut), is checked against it (checkBlock).

// refFinding is one finding line of the output.
type refFinding struct {
	loc, file, code string
	error           bool
}

// refFacts is what the output shows.
type refFacts struct {
	findings []refFinding
	byCode   map[string]int
	byFile   map[string]int
	errors   int
	total    string   // flake8 --count's line, golangci-lint's "N issues:"
	stats    []string // golangci-lint's "* LINTER: N" lines, without "* "
	rating   string   // pylint's "Your code has been rated at" line
}

var (
	flake8Line = regexp.MustCompile(`^((.+?):[0-9]+:[0-9]+): ([A-Z]+[0-9]+) `)
	pylintLine = regexp.MustCompile(`^((.+?):[0-9]+:[0-9]+): ([CRWEFI][0-9]{4}): `)
	countLine  = regexp.MustCompile(`^[0-9]+$`)
	gciLine    = regexp.MustCompile(`^((.+?):[0-9]+(?::[0-9]+)?): `)
	gciLinter  = regexp.MustCompile(` \(([A-Za-z0-9_-]+)\)$`)
	gciTotal   = regexp.MustCompile(`^([0-9]+) issues[:.]$`)
	gciStat    = regexp.MustCompile(`^\* ([^ ]+: [0-9]+)$`)
)

// referenceGolangci reads golangci-lint's text output: a finding starts on
// a "PATH:LINE[:COL]: " line and ends on the first line from there that
// ends with " (LINTER)"; a start whose end is not in the output names no
// linter ("unnamed", as the rule counts it).
func referenceGolangci(f refFacts, stream []byte) refFacts {
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 1<<24)
	var open *refFinding
	add := func(rf refFinding) {
		rf.error = rf.code == "typecheck"
		f.findings = append(f.findings, rf)
		f.byCode[rf.code]++
		f.byFile[rf.file]++
		if rf.error {
			f.errors++
		}
	}
	for sc.Scan() {
		l := strings.TrimSuffix(sc.Text(), "\r")
		lin := gciLinter.FindStringSubmatch(l)
		if open != nil {
			if lin != nil {
				open.code = lin[1]
				add(*open)
				open = nil
			}
			continue
		}
		if m := gciLine.FindStringSubmatch(l); m != nil {
			rf := refFinding{loc: m[1], file: m[2]}
			if lin == nil {
				open = &rf
				continue
			}
			rf.code = lin[1]
			add(rf)
			continue
		}
		if m := gciTotal.FindStringSubmatch(l); m != nil {
			f.total = m[1]
		}
		if m := gciStat.FindStringSubmatch(l); m != nil {
			f.stats = append(f.stats, m[1])
		}
	}
	if open != nil {
		open.code = "unnamed"
		add(*open)
	}
	return f
}

// reference reads the findings of rule ("bash.flake8" or "bash.pylint")
// in both streams of the output.
func reference(rule string, stdout, stderr []byte) refFacts {
	f := refFacts{byCode: map[string]int{}, byFile: map[string]int{}}
	re := flake8Line
	if rule == Pylint {
		re = pylintLine
	}
	for _, stream := range [][]byte{stdout, stderr} {
		if rule == Golangci {
			f = referenceGolangci(f, stream)
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(stream))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			l := strings.TrimSuffix(sc.Text(), "\r")
			if m := re.FindStringSubmatch(l); m != nil {
				code := m[3]
				isErr := false
				if rule == Pylint {
					isErr = code[0] == 'E' || code[0] == 'F'
				} else {
					for _, p := range []string{"E9", "F63", "F7", "F82"} {
						isErr = isErr || strings.HasPrefix(code, p)
					}
				}
				f.findings = append(f.findings, refFinding{loc: m[1], file: m[2], code: code, error: isErr})
				f.byCode[code]++
				f.byFile[m[2]]++
				if isErr {
					f.errors++
				}
				continue
			}
			switch {
			case (rule == Flake8 || rule == Pycodestyle) && countLine.MatchString(l):
				f.total = l
			case rule == Pylint && strings.HasPrefix(l, "Your code has been rated at "):
				f.rating = l
			}
		}
	}
	return f
}

// stated returns the number a block states under key, or under KEY_seen
// when the output may have been cut.
func stated(p ruletest.Parsed, key string) (int, bool) {
	if n, ok := p.Int(key); ok {
		return n, true
	}
	return p.Int(key + "_seen")
}

// itemCount reads "LABEL: N" or "LABEL: N seen" from a list item's first
// line: the label's first word and N.
func itemCount(item string) (key string, n int, err error) {
	first, _, _ := strings.Cut(item, "\n")
	i := strings.LastIndex(first, ": ")
	if i < 0 {
		return "", 0, fmt.Errorf("item %q has no count", first)
	}
	n, err = strconv.Atoi(strings.TrimSuffix(first[i+2:], " seen"))
	key, _, _ = strings.Cut(first[:i], " ")
	return key, n, err
}

// checkBlock returns what the block of a run states that the reference
// reading of the same output contradicts, or leaves out.
func checkBlock(rule string, r *summarize.Run, block []byte) []string {
	p, err := ruletest.Parse(block)
	if err != nil {
		return []string{err.Error()}
	}
	if p.Header["rule"] != rule {
		return nil // the fallback's block, another reading
	}
	ref := reference(rule, summarize.Readable(r.Stdout), summarize.Readable(r.Stderr))
	var bad []string
	for key, want := range map[string]int{"findings": len(ref.findings), "errors": ref.errors, "files": len(ref.byFile)} {
		n, ok := stated(p, key)
		if !ok && want > 0 {
			bad = append(bad, fmt.Sprintf("%s: not stated, the output shows %d", key, want))
		}
		if ok && n != want {
			bad = append(bad, fmt.Sprintf("%s: %d stated, the output shows %d", key, n, want))
		}
	}
	if v, ok := p.Scalars["total"]; ok != (ref.total != "") || v != ref.total {
		bad = append(bad, fmt.Sprintf("total: %q stated, the output shows %q", v, ref.total))
	}
	if v, ok := p.Scalars["rating"]; ok != (ref.rating != "") || v != ref.rating {
		bad = append(bad, fmt.Sprintf("rating: %q stated, the output shows %q", v, ref.rating))
	}
	if rule == Golangci && !slices.Equal(p.Lists["statistics"], ref.stats) {
		bad = append(bad, fmt.Sprintf("statistics: %q stated, the output shows %q", p.Lists["statistics"], ref.stats))
	}
	for _, list := range []struct {
		key  string
		want map[string]int
	}{{"by_rule", ref.byCode}, {"by_file", ref.byFile}} {
		seen := map[string]bool{}
		for _, it := range p.Lists[list.key] {
			k, n, err := itemCount(it)
			if list.key == "by_file" {
				first, _, _ := strings.Cut(it, "\n")
				k = first[:strings.LastIndex(first, ": ")]
			}
			switch {
			case err != nil:
				bad = append(bad, err.Error())
			case n != list.want[k]:
				bad = append(bad, fmt.Sprintf("%s %s: %d stated, the output shows %d", list.key, k, n, list.want[k]))
			}
			seen[k] = true
		}
		missing := 0
		for k := range list.want {
			if !seen[k] {
				missing++
			}
		}
		if omitted, _ := p.Int(list.key + "_omitted"); missing > omitted {
			bad = append(bad, fmt.Sprintf("%s: %d of the output's keys neither listed nor counted (%d omitted)", list.key, missing, omitted))
		}
	}
	// Every error-level finding's location is shown, or counted.
	shown := map[string]bool{}
	for _, it := range p.Lists["by_rule"] {
		lines := strings.Split(it, "\n")
		for _, l := range lines[min(2, len(lines)):] {
			if strings.HasPrefix(l, "[") {
				continue
			}
			for w := range strings.FieldsSeq(l) {
				shown[w] = true
			}
		}
	}
	missing := 0
	for _, f := range ref.findings {
		if f.error && !shown[f.loc] {
			missing++
		}
	}
	if omitted, _ := p.Int("locations_omitted"); missing > omitted {
		bad = append(bad, fmt.Sprintf("%d error locations neither shown nor counted (%d omitted)", missing, omitted))
	}
	// No location the output does not show.
	locs := map[string]bool{}
	for _, f := range ref.findings {
		locs[f.loc] = true
	}
	for w := range shown {
		if !locs[w] {
			bad = append(bad, fmt.Sprintf("location %q is none of the output's", w))
		}
	}
	return bad
}

// TestReference runs checkBlock over every lint case of the corpus, at the default budget and at tight ones.
func TestReference(t *testing.T) {
	cases := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		if !isLintRule(c.Run.Rule) {
			continue
		}
		cases++
		for _, budget := range []int{summarize.DefaultBudget, 4096, 1024} {
			r := *c.Run
			r.Budget = budget
			b, ok := rules.Block(&r)
			if !ok {
				t.Fatalf("%s: no block", c.Name)
			}
			for _, e := range checkBlock(c.Run.Rule, &r, b) {
				t.Errorf("%s@%d: %s", c.Name, budget, e)
			}
		}
	}
	t.Logf("%d cases", cases)
}

// jsonFinding is one finding of a tool's machine-readable output: pylint's
// --output-format=json, or the JSON lines flake8's --format template
// writes (testdata/lint.sh). golangci-lint's are gciJSON's.
type jsonFinding struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Row     int    `json:"row"`
	Col     int    `json:"col"`
	MsgID   string `json:"message-id"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// gciJSON is golangci-lint's --output.json.path output.
type gciJSON struct {
	Issues []struct {
		FromLinter string
		Pos        struct {
			Filename     string
			Line, Column int
		}
	}
}

// readJSON reads CASE.json of a rule: an array (pylint), one object a
// line (flake8) or golangci-lint's report, as "PATH:LINE:COL CODE" strings.
func readJSON(t *testing.T, rule string, data []byte) []string {
	var fs []jsonFinding
	switch rule {
	case Golangci:
		// The report is the first value: golangci-lint prints its summary
		// after it.
		var g gciJSON
		if err := json.NewDecoder(bytes.NewReader(data)).Decode(&g); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, i := range g.Issues {
			loc := fmt.Sprintf("%s:%d", i.Pos.Filename, i.Pos.Line)
			if i.Pos.Column > 0 {
				loc += fmt.Sprintf(":%d", i.Pos.Column)
			}
			out = append(out, loc+" "+i.FromLinter)
		}
		slices.Sort(out)
		return out
	case Pylint:
		if err := json.Unmarshal(data, &fs); err != nil {
			t.Fatal(err)
		}
	default:
		for l := range summarize.EachLine(data) {
			var f jsonFinding
			if err := json.Unmarshal([]byte(l), &f); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			f.Line, f.Column, f.MsgID = f.Row, f.Col, f.Code
			fs = append(fs, f)
		}
	}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("%s:%d:%d %s", f.Path, f.Line, f.Column, f.MsgID)
	}
	slices.Sort(out)
	return out
}

// TestReferenceMatchesJSON holds the reference reader to the tools'
// machine-readable output: on every uncut case with a CASE.json, the
// findings it reads in the text are the JSON's, location and code.
func TestReferenceMatchesJSON(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		if !isLintRule(c.Run.Rule) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(c.Dir, c.Base+".json"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if c.Run.Partial() {
			t.Fatalf("%s: a cut case has a JSON oracle", c.Name)
		}
		n++
		want := readJSON(t, c.Run.Rule, data)
		ref := reference(c.Run.Rule, c.Run.Stdout, c.Run.Stderr)
		var got []string
		for _, f := range ref.findings {
			got = append(got, f.loc+" "+f.code)
		}
		slices.Sort(got)
		if c.Run.Rule == Golangci && !uncapped(c.Run.Command) {
			// Past its caps (50 findings a linter, 3 of the same text)
			// golangci-lint keeps findings in no fixed order: the JSON run
			// printed as many of each linter, not the same ones.
			got, want = linters(got), linters(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the reference reads\n%s\nthe JSON has\n%s", c.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if n == 0 {
		t.Fatal("no case with a JSON oracle")
	}
	t.Logf("%d cases with a JSON oracle", n)
}

// uncapped reports whether a golangci-lint command lifts both of its caps
// on the findings it prints.
func uncapped(cmd string) bool {
	return strings.Contains(cmd, "--max-issues-per-linter=0") && strings.Contains(cmd, "--max-same-issues=0")
}

// linters returns the linter of each "LOC LINTER" string, sorted.
func linters(fs []string) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		_, out[i], _ = strings.Cut(f, " ")
	}
	slices.Sort(out)
	return out
}
