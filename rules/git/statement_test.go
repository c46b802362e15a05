package git_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/rules/ruletest"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// TestReferenceMatchesGit holds the reference reader to git's own
// machine-readable account of the same state, which git.sh stores beside
// the uncut cases: git diff --numstat, git status --porcelain, git log
// --format=%H.
func TestReferenceMatchesGit(t *testing.T) {
	checked := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		base := filepath.Join(c.Dir, c.Base)
		text := string(summarize.Readable(c.Run.Stdout))
		if want, err := os.ReadFile(base + ".numstat"); err == nil {
			checked++
			checkNumstat(t, c.Name, readDiff(text), string(want))
		}
		if want, err := os.ReadFile(base + ".porcelain"); err == nil {
			checked++
			checkPorcelain(t, c.Name, readStatus(text), string(want))
		}
		if want, err := os.ReadFile(base + ".hashes"); err == nil {
			checked++
			checkHashes(t, c.Name, readLog(text), string(want))
		}
	}
	if checked < 30 {
		t.Errorf("only %d cases have git's machine-readable output beside them", checked)
	}
}

func checkNumstat(t *testing.T, name string, d refDiff, numstat string) {
	t.Helper()
	var ins, del int
	rows := lines(numstat)
	for _, row := range rows {
		f := strings.SplitN(row, "\t", 3)
		a, _ := strconv.Atoi(f[0])
		b, _ := strconv.Atoi(f[1])
		ins, del = ins+a, del+b
	}
	if len(d.files) == 0 {
		// --stat output: git's summary line must say the same.
		if len(rows) == 0 {
			return
		}
		if len(d.statSummary) != 1 {
			t.Errorf("%s: %d stat summary lines", name, len(d.statSummary))
			return
		}
		files, si, sd := statTotals(d.statSummary[0])
		if files != len(rows) || si != ins || sd != del {
			t.Errorf("%s: summary %d files +%d -%d, numstat %d files +%d -%d", name, files, si, sd, len(rows), ins, del)
		}
		return
	}
	if len(d.files) != len(rows) {
		t.Fatalf("%s: %d files read, numstat has %d", name, len(d.files), len(rows))
	}
	for i, row := range rows {
		f := strings.SplitN(row, "\t", 3)
		got := refFile{path: d.files[i].path, ins: d.files[i].ins, del: d.files[i].del}
		if d.files[i].binary {
			got.ins, got.del = -1, -1
		}
		want := refFile{path: f[2], ins: -1, del: -1}
		if f[0] != "-" {
			want.ins, _ = strconv.Atoi(f[0])
			want.del, _ = strconv.Atoi(f[1])
		}
		if strings.Contains(want.path, " => ") {
			want.path = got.path // numstat's "a/{x => y}" form of a rename
		}
		if got != want {
			t.Errorf("%s: file %d read as %+v, numstat %+v", name, i, got, want)
		}
	}
	if d.ins != (bound{ins, ins}) || d.del != (bound{del, del}) {
		t.Errorf("%s: read +%v -%v, numstat +%d -%d", name, d.ins, d.del, ins, del)
	}
}

func checkPorcelain(t *testing.T, name string, st refStatus, porcelain string) {
	t.Helper()
	want := map[string]string{}
	for _, row := range lines(porcelain) {
		if strings.HasPrefix(row, "## ") {
			continue
		}
		path := newPath(row[3:])
		if strings.HasPrefix(path, `"`) {
			path = strings.Trim(path, `"`)
		}
		want[path] = row[:2]
	}
	got := map[string]string{}
	for p, e := range st.entries {
		got[p] = string([]byte{e.x, e.y})
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: entries read\n%v\nporcelain\n%v", name, got, want)
	}
	if len(st.unplaced) > 0 {
		t.Errorf("%s: unplaced entries in a whole status: %q", name, st.unplaced)
	}
}

func checkHashes(t *testing.T, name string, lg refLog, hashes string) {
	t.Helper()
	full := lines(hashes)
	if len(lg.hashes) != len(full) {
		t.Fatalf("%s: %d commit lines read, git log --format=%%H has %d", name, len(lg.hashes), len(full))
	}
	for i, h := range lg.hashes {
		if !strings.HasPrefix(full[i], h) {
			t.Errorf("%s: commit %d read as %s, git says %s", name, i, h, full[i])
		}
	}
	if lg.unknown > 0 && !strings.Contains(name, "stat") {
		t.Errorf("%s: %d lines that are not commit lines", name, lg.unknown)
	}
}

// TestCountsAreStatements runs the reference reader over every case of
// the corpus, cut ones included, and fails when a block states a count
// the text contradicts or has no basis in, or leaves out a file, an entry
// or a commit the text shows (docs/format.md, "A count is a statement").
func TestCountsAreStatements(t *testing.T) {
	cases, wrong := 0, 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		cases++
		block := mustBlock(t, c.Run)
		if problems := statementProblems(c.Run, block); len(problems) > 0 {
			wrong++
			t.Errorf("%s (%s):\n  %s\n%s", c.Name, c.Run.Command, strings.Join(problems, "\n  "), block)
		}
	}
	t.Logf("%d cases, %d with a count the text does not back", cases, wrong)
}

// tallies are the counts each rule makes by counting lines: on a cut
// output they must read KEY_seen (and never be 0).
var tallies = map[string][]string{
	"bash.git_diff":   {"files_changed", "hunks", "insertions", "deletions"},
	"bash.git_show":   {"files_changed", "hunks", "insertions", "deletions"},
	"bash.git_status": {"changed_files", "untracked_files", "staged_files", "unstaged_files", "unmerged_files"},
	"bash.git_log":    {"commits", "merge_subjects"},
	"bash.git_push":   {"progress_lines", "up_to_date_refs", "auto_merging_lines"},
	"bash.git_pull":   {"progress_lines", "up_to_date_refs", "auto_merging_lines"},
	"bash.git_fetch":  {"progress_lines", "up_to_date_refs", "auto_merging_lines"},
	"bash.git_clone":  {"progress_lines", "up_to_date_refs", "auto_merging_lines"},
}

// statTotalKeys are the counts a --stat summary line states: printed
// under their own names, they must be that line's numbers.
var statTotalKeys = []string{"files_changed", "insertions", "deletions"}

// statementProblems checks block against what the reference reader sees
// in r's output, as the rule saw it (as a terminal shows it).
func statementProblems(r *summarize.Run, block []byte) []string {
	p, err := ruletest.Parse(block)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if p.Scalars["fallback"] == "true" {
		return nil // the boundary check's own body: raw lines and their count
	}
	stdout := string(summarize.Readable(r.Stdout))
	all := stdout + "\n" + string(summarize.Readable(r.Stderr))
	partial := r.Partial()
	if len(r.Cut.By) > 0 {
		if got, want := p.Scalars["cut_by"], strings.Join(r.Cut.By, " | "); got != want {
			bad("cut_by %q, want %q", got, want)
		}
		if n, ok := p.Int("lines_seen"); !ok || n != len(lines(stdout)) {
			bad("lines_seen %q, stdout has %d lines", p.Scalars["lines_seen"], len(lines(stdout)))
		}
	}
	summaries := readDiff(all).statSummary
	// value returns the count the block states for key, under its name or
	// its _seen name, and which.
	value := func(key string) (n int, seen, ok bool) {
		if n, ok := p.Int(key + "_seen"); ok {
			return n, true, true
		}
		n, ok = p.Int(key)
		return n, false, ok
	}
	for _, key := range tallies[r.Rule] {
		n, seen, ok := value(key)
		switch {
		case !ok:
		case seen && !partial:
			bad("%s_seen on a whole output", key)
		case seen && n == 0:
			bad("%s_seen: 0", key)
		case !seen && partial && !statTotal(key, n, summaries):
			bad("%s: %d on a cut output, not a total the output shows", key, n)
		}
	}
	switch r.Rule {
	case "bash.git_diff", "bash.git_show":
		problems = append(problems, diffProblems(r, p, readDiff(stdout), summaries, value)...)
	case "bash.git_status":
		problems = append(problems, statusProblems(r, p, readStatus(stdout), value)...)
	case "bash.git_log":
		problems = append(problems, logProblems(r, p, readLog(stdout), value)...)
	default:
		for _, key := range statTotalKeys {
			if n, ok := p.Int(key); ok && !statTotal(key, n, summaries) {
				bad("%s: %d, not a total the output shows", key, n)
			}
		}
	}
	return problems
}

// statTotal reports whether n is the number key names in one of the
// visible --stat summary lines.
func statTotal(key string, n int, summaries []string) bool {
	if !slices.Contains(statTotalKeys, key) {
		return false
	}
	for _, s := range summaries {
		files, ins, del := statTotals(s)
		if map[string]int{"files_changed": files, "insertions": ins, "deletions": del}[key] == n {
			return true
		}
	}
	return false
}

type valueFunc func(key string) (n int, seen, ok bool)

// emptySuccess reports whether a zero can be the answer: the whole output
// is empty and the command succeeded.
func emptySuccess(r *summarize.Run) bool {
	return !r.Partial() && strings.TrimSpace(string(r.Stdout)) == "" && !r.Failed()
}

func diffProblems(r *summarize.Run, p ruletest.Parsed, d refDiff, summaries []string, value valueFunc) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	headers := len(d.files) + len(d.unmerged)
	patch := headers > 0 || d.hunks > 0 || d.ins.max > 0 || d.del.max > 0
	check := func(key string, want bound) {
		n, seen, ok := value(key)
		switch {
		case !ok:
			if want.min > 0 {
				bad("no %s, the output shows at least %d", key, want.min)
			}
		case !seen && !patch && statTotal(key, n, summaries):
		case n == 0 && emptySuccess(r):
		case !want.holds(n):
			bad("%s: %d, the output shows %d to %d", key, n, want.min, want.max)
		}
	}
	check("files_changed", bound{headers, headers})
	check("hunks", bound{d.hunks, d.hunks})
	check("insertions", d.ins)
	check("deletions", d.del)
	missing := 0
	for _, f := range d.files {
		if !p.Mentions(f.path) {
			missing++
		}
	}
	if omitted, _ := p.Int("files_omitted"); missing > omitted {
		bad("%d files of the output neither listed nor counted as omitted", missing)
	}
	if r.Rule == "bash.git_show" {
		shown := len(p.Lists["commits"])
		omitted, _ := p.Int("commits_omitted")
		if shown+omitted != len(d.commits) {
			bad("%d commit headers listed or omitted, the output shows %d", shown+omitted, len(d.commits))
		}
	}
	return problems
}

func statusProblems(r *summarize.Run, p ruletest.Parsed, st refStatus, value valueFunc) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	changed, untracked, staged, unstaged, unmerged := st.counts()
	u := len(st.unplaced)
	for key, want := range map[string]bound{
		"changed_files":   {changed, changed + u},
		"untracked_files": {untracked, untracked + u},
		"staged_files":    {staged, staged + u},
		"unstaged_files":  {unstaged, unstaged + u},
		"unmerged_files":  {unmerged, unmerged + u},
	} {
		n, _, ok := value(key)
		switch {
		case !ok:
			if want.min > 0 {
				bad("no %s, the output shows at least %d", key, want.min)
			}
		case n == 0 && emptySuccess(r):
		case !want.holds(n):
			bad("%s: %d, the output shows %d to %d", key, n, want.min, want.max)
		}
	}
	missing := 0
	for _, path := range st.order {
		if !p.Mentions(path) {
			missing++
		}
	}
	for _, l := range st.unplaced {
		if !p.Mentions(l) {
			missing++
		}
	}
	omitted, _ := p.Int("status_lines_omitted")
	other, _ := p.Int("other_lines_omitted")
	if missing > omitted+other {
		bad("%d entries of the output neither listed nor counted as omitted", missing)
	}
	return problems
}

func logProblems(r *summarize.Run, p ruletest.Parsed, lg refLog, value valueFunc) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for key, want := range map[string]int{"commits": len(lg.hashes), "merge_subjects": lg.merges} {
		n, _, ok := value(key)
		switch {
		case !ok:
			if want > 0 {
				bad("no %s, the output shows %d", key, want)
			}
		case n == 0 && emptySuccess(r):
		case n != want:
			bad("%s: %d, the output shows %d", key, n, want)
		}
	}
	omitted, _ := p.Int("subjects_omitted")
	if shown := len(p.Lists["subjects"]); shown+omitted != len(lg.hashes) {
		bad("%d commit lines listed or omitted, the output shows %d", shown+omitted, len(lg.hashes))
	}
	return problems
}
