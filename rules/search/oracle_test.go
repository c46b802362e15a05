package search_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// The independent oracle: for each whole output of the corpus, the tools'
// own machine-readable account of the same search (CASE.truth, from the
// .meta's truth command: rg --json, grep -c, git grep -c), read here apart
// from the rules. Every file it names must be named in the block with its
// exact count, or counted in the list's _omitted line; every total must
// equal its sum; a binary file that matches is named among the binary
// notices. The test logs the recall: how many of the files and of the
// match locations the block shows, not only counts.

// truth is what a machine-readable account says of one search.
type truth struct {
	files   map[string]*truthFile
	binary  map[string]bool // files rg (binary_offset) or the block report as binary
	ordered []string
}

type truthFile struct {
	lines   int   // matching lines
	matches int   // matches (rg's submatches)
	at      []int // line numbers, when the account gives them (rg --json)
}

func (tr *truth) file(p string) *truthFile {
	f := tr.files[p]
	if f == nil {
		f = &truthFile{}
		tr.files[p] = f
		tr.ordered = append(tr.ordered, p)
	}
	return f
}

// readTruth reads rg --json events, or "FILE:N" count lines (grep -c, git
// grep -c, rg -c --include-zero; with one file, "N" alone, for only).
func readTruth(t *testing.T, data []byte, only string) *truth {
	tr := &truth{files: map[string]*truthFile{}, binary: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "{") {
			var ev struct {
				Type string `json:"type"`
				Data struct {
					Path struct {
						Text string `json:"text"`
					} `json:"path"`
					LineNumber   int               `json:"line_number"`
					Submatches   []json.RawMessage `json:"submatches"`
					BinaryOffset *int              `json:"binary_offset"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(l), &ev); err != nil {
				t.Fatalf("truth: %v: %s", err, l)
			}
			switch ev.Type {
			case "match":
				f := tr.file(ev.Data.Path.Text)
				f.lines++
				f.matches += len(ev.Data.Submatches)
				f.at = append(f.at, ev.Data.LineNumber)
			case "end":
				if ev.Data.BinaryOffset != nil {
					tr.binary[ev.Data.Path.Text] = true
				}
			}
			continue
		}
		p, n := only, l
		if i := strings.LastIndexByte(l, ':'); i >= 0 {
			p, n = l[:i], l[i+1:]
		}
		c, err := strconv.Atoi(n)
		if err != nil {
			t.Fatalf("truth line %q", l)
		}
		f := tr.file(p)
		f.lines, f.matches = c, c
	}
	return tr
}

// meta reads a case's .meta fields.
func meta(t *testing.T, dir, base string) map[string]string {
	data, err := os.ReadFile(filepath.Join(dir, base+".meta"))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for l := range strings.Lines(string(data)) {
		if k, v, ok := strings.Cut(strings.TrimSuffix(l, "\n"), ": "); ok {
			m[k] = v
		}
	}
	return m
}

// itemHead splits a by_file item's first line, "FILE: N".
func itemHead(item string) (path string, n int, lines []string) {
	head, rest, _ := strings.Cut(item, "\n")
	i := strings.LastIndex(head, ": ")
	n, _ = strconv.Atoi(head[i+2:])
	if rest != "" {
		lines = strings.Split(rest, "\n")
	}
	return head[:i], n, lines
}

// recall counts what the block shows of what the truth names.
type recall struct {
	cases, files, filesNamed, locations, locationsShown int
}

func TestOracle(t *testing.T) {
	per := map[string]*recall{}
	for _, c := range ruletest.Corpus(t, "testdata") {
		m := meta(t, c.Dir, c.Base)
		if m["truth"] == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(c.Dir, c.Base+".truth"))
		if err != nil {
			t.Fatal(err)
		}
		rule := strings.TrimPrefix(c.Run.Rule, "bash.")
		if per[rule] == nil {
			per[rule] = &recall{}
		}
		per[rule].cases++
		// At the default budget, and at tight ones, where files are counted
		// rather than named.
		for _, budget := range []int{0, 4096, 1024} {
			r := *c.Run
			r.Budget = budget
			block, ok := rules.Block(&r)
			if !ok {
				t.Fatalf("%s: no block", c.Name)
			}
			p, err := ruletest.Parse(block)
			if err != nil {
				t.Fatalf("%s: %v\n%s", c.Name, err, block)
			}
			rc := &recall{}
			if budget == 0 {
				rc = per[rule]
			}
			checkTruth(t, c.Name+"@"+strconv.Itoa(budget), m["command"], readTruth(t, data, p.Scalars["file"]), whole(p), rc)
		}
	}
	for rule, rc := range per {
		t.Logf("%-9s %2d cases: files named %d of %d, match locations shown %d of %d", rule, rc.cases, rc.filesNamed, rc.files, rc.locationsShown, rc.locations)
	}
	if len(per) != 3 {
		t.Errorf("truth for %d rules, want 3", len(per))
	}
}

// whole reads a block whose stderr was discarded (2>/dev/null) as one of a
// whole output: its stdout, where the results are, is whole, so its counts
// of what was seen (match_lines_seen) must be the truth's.
func whole(p ruletest.Parsed) ruletest.Parsed {
	if p.Scalars["stderr_discarded_by"] == "" {
		return p
	}
	q := ruletest.Parsed{Header: p.Header, Scalars: map[string]string{}, Lists: map[string][]string{}}
	for k, v := range p.Scalars {
		q.Scalars[strings.Replace(k, "_seen", "", 1)] = v
	}
	for k, v := range p.Lists {
		q.Lists[strings.Replace(k, "_seen", "", 1)] = v
	}
	for _, k := range p.Keys {
		q.Keys = append(q.Keys, strings.Replace(k, "_seen", "", 1))
	}
	return q
}

// checkTruth holds one block to the truth.
func checkTruth(t *testing.T, name, command string, tr *truth, p ruletest.Parsed, rc *recall) {
	t.Helper()
	// The block's binary notices name their files; those have no lines.
	for _, n := range p.Lists["binary_matches"] {
		tr.binary[noticePath(n)] = true
	}
	fields := strings.Fields(command)
	only := slicesContains(fields, "-o") || strings.Contains(command, " -rno ") || strings.Contains(command, "--vimgrep") || strings.Contains(command, "--count-matches")
	var want, wantLines, files, withMatches, zero int
	for _, path := range tr.ordered {
		f := tr.files[path]
		if tr.binary[path] {
			continue
		}
		files++
		if f.lines == 0 {
			zero++
			continue
		}
		withMatches++
		wantLines += f.lines
		if only {
			want += f.matches
		} else {
			want += f.lines
		}
	}
	if n := len(p.Lists["binary_matches"]); n > 0 {
		if got, _ := p.Int("binary_files"); got != n {
			t.Errorf("%s: binary_files %d for %d notices", name, got, n)
		}
	}
	switch {
	case p.Lists["paths"] != nil || p.Scalars["paths_omitted"] != "":
		key, wantN := "files", withMatches
		if _, ok := p.Scalars["files_without_match"]; ok {
			key, wantN = "files_without_match", zero
		}
		if got, _ := p.Int(key); got != wantN {
			t.Errorf("%s: %s %d, truth %d", name, key, got, wantN)
		}
		shown := map[string]bool{}
		for _, it := range p.Lists["paths"] {
			shown[it] = true
		}
		missing := 0
		for _, path := range tr.ordered {
			f := tr.files[path]
			if tr.binary[path] || (key == "files") != (f.lines > 0) {
				continue
			}
			rc.files++
			if shown[path] {
				rc.filesNamed++
			} else {
				missing++
			}
		}
		if om, _ := p.Int("paths_omitted"); missing != om {
			t.Errorf("%s: %d files neither listed, paths_omitted %d", name, missing, om)
		}
	case p.Lists["counts"] != nil || p.Scalars["counts_omitted"] != "":
		if got, _ := p.Int("files_with_matches"); got != withMatches {
			t.Errorf("%s: files_with_matches %d, truth %d", name, got, withMatches)
		}
		key := "match_lines"
		if strings.Contains(command, "--count-matches") {
			key = "matches"
		}
		if got, _ := p.Int(key); got != want+binaryLines(tr) {
			t.Errorf("%s: %s %d, truth %d", name, key, got, want)
		}
		counts := map[string]int{}
		for _, it := range p.Lists["counts"] {
			i := strings.LastIndexByte(it, ':')
			counts[it[:i]], _ = strconv.Atoi(it[i+1:])
		}
		missing := 0
		for _, path := range tr.ordered {
			f := tr.files[path]
			if f.lines == 0 || tr.binary[path] {
				continue
			}
			rc.files++
			n, ok := counts[path]
			if !ok {
				missing++
				continue
			}
			rc.filesNamed++
			if exp := f.lines; only {
				exp = f.matches
				if n != exp {
					t.Errorf("%s: %s counted %d, truth %d", name, path, n, exp)
				}
			} else if n != exp {
				t.Errorf("%s: %s counted %d, truth %d", name, path, n, exp)
			}
		}
		if om, _ := p.Int("counts_omitted"); missing != om {
			t.Errorf("%s: %d files neither listed, counts_omitted %d", name, missing, om)
		}
	case p.Scalars["file"] != "":
		key := "match_lines"
		if only {
			key = "matches"
		}
		if got, _ := p.Int(key); got != want {
			t.Errorf("%s: %s %d, truth %d", name, key, got, want)
		}
		for _, f := range tr.files {
			rc.files++
			rc.filesNamed++
			for _, at := range f.at {
				rc.locations++
				for _, l := range p.Lists["lines"] {
					if strings.HasPrefix(l, strconv.Itoa(at)+":") {
						rc.locationsShown++
						break
					}
				}
			}
		}
	default:
		key := "match_lines"
		if only {
			key = "matches"
		}
		if got, _ := p.Int(key); got != want {
			t.Errorf("%s: %s %d, truth %d", name, key, got, want)
		}
		if got, _ := p.Int("files"); got != withMatches {
			t.Errorf("%s: files %d, truth %d", name, got, withMatches)
		}
		items := map[string][]string{}
		counts := map[string]int{}
		for _, it := range p.Lists["by_file"] {
			path, n, lines := itemHead(it)
			items[path], counts[path] = lines, n
		}
		missing := 0
		for _, path := range tr.ordered {
			f := tr.files[path]
			if f.lines == 0 || tr.binary[path] {
				continue
			}
			rc.files++
			lines, ok := items[path]
			if !ok {
				missing++
				rc.locations += f.lines
				continue
			}
			rc.filesNamed++
			exp := f.lines
			if only {
				exp = f.matches
			}
			if counts[path] != exp {
				t.Errorf("%s: %s: %d, truth %d", name, path, counts[path], exp)
			}
			if f.at == nil {
				// A count without line numbers (grep -c): the lines shown
				// are of the file's matches, as many as its count allows.
				rc.locations += exp
				for _, l := range lines {
					if strings.HasPrefix(l, path+":") {
						rc.locationsShown++
					}
				}
			}
			for _, at := range f.at {
				rc.locations++
				for _, l := range lines {
					if strings.HasPrefix(l, path+":"+strconv.Itoa(at)+":") {
						rc.locationsShown++
						break
					}
				}
			}
		}
		if om, _ := p.Int("by_file_omitted"); missing != om {
			t.Errorf("%s: %d files neither listed, by_file_omitted %d", name, missing, om)
		}
	}
}

// noticePath is the file a binary notice names: rg's "FILE: binary file
// matches (found ...)", grep's "grep: FILE: binary file matches", git
// grep's "Binary file FILE matches".
func noticePath(n string) string {
	if rest, ok := strings.CutPrefix(n, "Binary file "); ok {
		return strings.TrimSuffix(rest, " matches")
	}
	n = strings.TrimPrefix(n, "grep: ")
	path, _, _ := strings.Cut(n, ": binary file matches")
	return path
}

// binaryLines is what grep -c and git grep -c count for the binary files
// that the lines' layout only notices: -c counts their matching lines.
func binaryLines(tr *truth) int {
	n := 0
	for path := range tr.binary {
		if f := tr.files[path]; f != nil {
			n += f.lines
		}
	}
	return n
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
