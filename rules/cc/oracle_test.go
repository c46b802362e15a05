package cc_test

import (
	"encoding/json"
	"encoding/xml"
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

// The reference reader: what a build's (possibly cut) text shows, read
// with regexps and apart from the rules' code. It is held to gcc's
// -fdiagnostics-format=json and clang's serialized diagnostics on the
// uncut cases (TestReferenceAgainstCompilers), and the blocks are held to
// it on every case (TestBlocksAgainstReference) and on random cuts of
// them (FuzzCut).

var (
	// A compiler's diagnostic at a location: gcc and clang print
	// FILE:LINE:COL (or FILE:LINE) before the severity.
	locatedRE = regexp.MustCompile(`^(\S+?:\d+(?::\d+)?): (error|fatal error|warning): (.*)$`)
	// A compiler driver's or pass's own error, no location.
	programRE = regexp.MustCompile(`^(?:\S*/)?(?:[\w.]+-)*(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|cc1|cc1plus)(?:-[\d.]+)?: (?:fatal )?error: (.*)$`)
	flagRE    = regexp.MustCompile(` \[(-[Wf][^\s\[\]]*)\]$`)
	// A checker's finding (clang-tidy, cppcheck): the check in brackets at
	// the end, and cppcheck's severities beside the compilers'.
	checkerRE = regexp.MustCompile(`^(\S+?:\d+(?::\d+)?): (error|fatal error|warning|style|performance|portability|information): (.*)$`)
	checkRE   = regexp.MustCompile(` \[([^\s\[\]]+)\]$`)
	linkerRE  = regexp.MustCompile(`: undefined reference to ` + "`" + `|: multiple definition of ` + "`" + `|^collect2: error: |^(?:\S*/)?ld: cannot find |: error: linker command failed`)
	makeRE    = regexp.MustCompile(`^g?make(?:\[\d+\])?: \*\*\* `)
	ninjaRE   = regexp.MustCompile(`^FAILED: |^ninja: error: `)
)

// reference is what a text shows.
type reference struct {
	errors      []string // every error line, located or a driver's
	located     []string // the located errors' locations
	warnings    int
	flags       map[string]int // warnings by flag; "(no flag)" for none
	linker      []string
	buildErrors []string
}

// checker reports whether a rule reads a static checker's findings, whose
// warnings are grouped by check (warnings_by_check).
func checker(rule string) bool { return rule == "bash.clang_tidy" || rule == "bash.cppcheck" }

// readAs reads a reference from text, for a checker's output when checker
// is set.
func readAs(text string, checker bool) reference {
	ref := reference{flags: map[string]int{}}
	for _, l := range strings.Split(text, "\n") {
		if checker {
			if m := checkerRE.FindStringSubmatch(l); m != nil {
				if strings.HasSuffix(m[2], "error") {
					ref.errors = append(ref.errors, l)
					ref.located = append(ref.located, m[1])
					continue
				}
				ref.warnings++
				check := "(no check)"
				if c := checkRE.FindStringSubmatch(m[3]); c != nil {
					check = c[1]
				}
				ref.flags[check]++
			}
			continue
		}
		if m := locatedRE.FindStringSubmatch(l); m != nil && !isMakefilePath(m[1]) {
			if m[2] == "warning" {
				ref.warnings++
				flag := "(no flag)"
				if f := flagRE.FindStringSubmatch(m[3]); f != nil {
					flag = f[1]
				}
				ref.flags[flag]++
			} else {
				ref.errors = append(ref.errors, l)
				ref.located = append(ref.located, m[1])
			}
			continue
		}
		switch {
		case linkerRE.MatchString(l):
			ref.linker = append(ref.linker, l)
		case programRE.MatchString(l):
			ref.errors = append(ref.errors, l)
		case makeRE.MatchString(l) && !strings.HasSuffix(l, "Waiting for unfinished jobs...."):
			ref.buildErrors = append(ref.buildErrors, l)
		case ninjaRE.MatchString(l):
			ref.buildErrors = append(ref.buildErrors, l)
		}
	}
	return ref
}

func isMakefilePath(loc string) bool {
	base := filepath.Base(strings.Split(loc, ":")[0])
	return base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk")
}

// jsonDiag is what gcc's JSON says of a diagnostic.
type jsonDiag struct {
	Kind      string     `json:"kind"`
	Message   string     `json:"message"`
	Option    string     `json:"option"`
	Children  []jsonDiag `json:"children"`
	Locations []struct {
		Caret struct {
			File   string `json:"file"`
			Line   int    `json:"line"`
			Column int    `json:"display-column"`
		} `json:"caret"`
	} `json:"locations"`
}

// truth is what a compiler's machine-readable output names: the located
// errors' locations and the warnings by flag.
type truth struct {
	located  []string // nil when the format gives no lines: errors counts them
	errors   int
	flags    map[string]int // nil when the format names no flags
	warnings int
}

func gccTruth(t *testing.T, path string) truth {
	tr := truth{flags: map[string]int{}}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var ds []jsonDiag
		if err := json.Unmarshal([]byte(line), &ds); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for len(ds) > 0 {
			d := ds[0]
			ds = append(ds[1:], d.Children...)
			switch {
			case d.Kind == "warning":
				flag := d.Option
				if flag == "" {
					flag = "(no flag)"
				}
				tr.flags[flag]++
			case strings.HasSuffix(d.Kind, "error") && len(d.Locations) > 0:
				c := d.Locations[0].Caret
				tr.located = append(tr.located, fmt.Sprintf("%s:%d:%d", c.File, c.Line, c.Column))
			}
		}
	}
	return tr
}

var (
	diaFileRE = regexp.MustCompile(`<FileName abbrevid=\d+ op0=(\d+) .*blob data = '(.*)'$`)
	diaInfoRE = regexp.MustCompile(`^(\s*)<DiagInfo abbrevid=\d+ op0=(\d+) op1=(\d+) op2=(\d+) op3=(\d+) `)
)

// clangTruth reads llvm-bcanalyzer's dump of clang's serialized
// diagnostics: DiagInfo's op0 is the level (2 warning, 3 error, 4 fatal),
// op1 the file's id, op2 and op3 the line and column; notes are nested,
// and the dump indents them. The flags' names are not in the dump.
func clangTruth(t *testing.T, path string) truth {
	tr := truth{}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "<File ") {
			files = map[string]string{}
			continue
		}
		if m := diaFileRE.FindStringSubmatch(l); m != nil {
			files[m[1]] = m[2]
		}
		m := diaInfoRE.FindStringSubmatch(l)
		if m == nil || len(m[1]) > 2 {
			continue
		}
		switch m[2] {
		case "2":
			tr.warnings++
		case "3", "4":
			if m[3] != "0" {
				tr.located = append(tr.located, files[m[3]]+":"+m[4]+":"+m[5])
			}
		}
	}
	return tr
}

var (
	tidyNameRE  = regexp.MustCompile(`^  - DiagnosticName:\s+(\S+)$`)
	tidyLevelRE = regexp.MustCompile(`^    Level:\s+(\S+)$`)
)

// tidyTruth reads clang-tidy's --export-fixes YAML: each diagnostic's
// check (DiagnosticName) and level. It gives file offsets, not lines: the
// errors are counted, not located.
func tidyTruth(t *testing.T, path string) truth {
	tr := truth{flags: map[string]int{}}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := ""
	for _, l := range strings.Split(string(data), "\n") {
		if m := tidyNameRE.FindStringSubmatch(l); m != nil {
			name = m[1]
		}
		if m := tidyLevelRE.FindStringSubmatch(l); m != nil {
			if m[1] == "Error" {
				tr.errors++
			} else {
				tr.flags[name]++
				tr.warnings++
			}
		}
	}
	tr.located = nil
	return tr
}

// cppcheckXML is what cppcheck's --xml says of a finding.
type cppcheckXML struct {
	Errors []struct {
		ID        string `xml:"id,attr"`
		Severity  string `xml:"severity,attr"`
		Locations []struct {
			File   string `xml:"file,attr"`
			Line   string `xml:"line,attr"`
			Column string `xml:"column,attr"`
		} `xml:"location"`
	} `xml:"errors>error"`
}

// cppcheckTruth reads cppcheck's --xml: the errors at their first
// location, the other severities as warnings by id.
func cppcheckTruth(t *testing.T, path string) truth {
	tr := truth{flags: map[string]int{}}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var x cppcheckXML
	if err := xml.Unmarshal(data, &x); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, e := range x.Errors {
		switch {
		case e.Severity == "error" && len(e.Locations) > 0:
			l := e.Locations[0]
			tr.located = append(tr.located, l.File+":"+l.Line+":"+l.Column)
			tr.errors++
		case e.Severity != "error":
			tr.flags[e.ID]++
			tr.warnings++
		}
	}
	return tr
}

// TestReferenceAgainstCompilers: on every uncut case that has one, the
// reference reader finds exactly the located errors and the warnings by
// flag that the compiler's machine-readable twin run reports (for the
// checkers, by check, and clang-tidy's errors only counted).
func TestReferenceAgainstCompilers(t *testing.T) {
	n := 0
	for _, c := range ruletest.Corpus(t, "testdata") {
		var tr truth
		base := filepath.Join(c.Dir, c.Base)
		switch {
		case exists(base + ".json"):
			tr = gccTruth(t, base+".json")
		case exists(base + ".dia"):
			tr = clangTruth(t, base+".dia")
		case exists(base + ".yaml"):
			tr = tidyTruth(t, base+".yaml")
		case exists(base + ".xml"):
			tr = cppcheckTruth(t, base+".xml")
		default:
			continue
		}
		n++
		ref := readAs(string(c.Run.Stdout)+string(c.Run.Stderr), checker(c.Run.Rule))
		got, want := slices.Sorted(slices.Values(ref.located)), slices.Sorted(slices.Values(tr.located))
		switch {
		case tr.located == nil && tr.errors != len(ref.errors):
			t.Errorf("%s: %d errors, the checker reports %d", c.Name, len(ref.errors), tr.errors)
		case tr.located != nil && !slices.Equal(got, want):
			t.Errorf("%s: located errors\n got %q\nwant %q", c.Name, got, want)
		}
		if tr.flags == nil {
			// The dump keeps no flag names: the warnings' total only.
			if tr.warnings != ref.warnings {
				t.Errorf("%s: %d warnings, clang reports %d", c.Name, ref.warnings, tr.warnings)
			}
		} else if fmt.Sprint(ref.flags) != fmt.Sprint(tr.flags) {
			t.Errorf("%s: warnings by flag\n got %v\nwant %v", c.Name, ref.flags, tr.flags)
		}
	}
	if n < 20 {
		t.Errorf("only %d cases have a machine-readable twin", n)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// fallbackCases are the cases whose block is the boundary check's
// fallback: make running go vet, whose failures the go finder requires and
// this family's rules do not read. (make running cargo gets cargo's block:
// rustc's signature claims it, rules.Block.)
var fallbackCases = []string{"make/go_vet"}

// TestBlocksAgainstReference: no block of the corpus states a count that
// the reference contradicts or leaves out an error, a linker error or a
// build tool's failure line that the text shows.
func TestBlocksAgainstReference(t *testing.T) {
	for _, c := range ruletest.Corpus(t, "testdata") {
		if filepath.Base(c.Dir) == "ctest" {
			continue // TestCTestBlocks
		}
		block := ruletest.MustBlock(t, rules.Block, c.Run)
		if c.Name == "make/cargo" {
			if !strings.Contains(string(block), "\nrule: bash.cargo_build\n") || !strings.Contains(string(block), "\nrecognized_by: output\n") {
				t.Errorf("%s: expected cargo_build's block, recognized by output:\n%s", c.Name, block)
			}
			continue
		}
		if slices.Contains(fallbackCases, c.Name) {
			if !strings.Contains(string(block), "\nfallback: true\n") {
				t.Errorf("%s: expected the fallback", c.Name)
			}
			continue
		}
		if err := checkBlock(c.Run, block); err != nil {
			t.Errorf("%s: %v\n%s", c.Name, err, block)
		}
	}
}

// checkBlock holds a block to what the reference reads in its run's text.
func checkBlock(r *summarize.Run, block []byte) error {
	p, err := ruletest.Parse(block)
	if err != nil {
		return err
	}
	if _, ok := p.Scalars["fallback"]; ok {
		return nil
	}
	ref := readAs(string(r.Stdout)+"\n"+string(r.Stderr), checker(r.Rule))
	flagsKey := "warning_flags"
	if checker(r.Rule) {
		flagsKey = "warnings_by_check"
	}
	seen := ""
	if r.Partial() {
		seen = "_seen"
	}
	for key, want := range map[string]int{"errors": len(ref.errors), "warnings": ref.warnings, "linker_errors": len(ref.linker)} {
		got, ok := p.Int(key + seen)
		if !ok && (want == 0 && (seen != "" || key == "linker_errors")) {
			continue
		}
		if got != want {
			return fmt.Errorf("%s%s: %d (stated %v), the text shows %d", key, seen, got, ok, want)
		}
	}
	omitted, _ := p.Int("error_diagnostics_omitted")
	missing := 0
	for _, e := range ref.errors {
		if !p.Mentions(e) {
			missing++
		}
	}
	if missing > omitted {
		return fmt.Errorf("%d error lines neither shown nor counted (%d omitted)", missing, omitted)
	}
	flagsOmitted, _ := p.Int(flagsKey + "_omitted")
	shown := 0
	for _, it := range p.Lists[flagsKey] {
		flag, rest, _ := strings.Cut(it, " ×")
		n, _ := strconv.Atoi(strings.SplitN(rest, ":", 2)[0])
		if ref.flags[flag] != n {
			return fmt.Errorf("warning flag %s ×%d, the text shows %d", flag, n, ref.flags[flag])
		}
		shown++
	}
	if shown+flagsOmitted != len(ref.flags) {
		return fmt.Errorf("%d warning flags shown, %d omitted, the text shows %d", shown, flagsOmitted, len(ref.flags))
	}
	for key, lines := range map[string][]string{"linker_error_lines": ref.linker, "build_errors": ref.buildErrors} {
		omitted, _ := p.Int(key + "_omitted")
		missing := 0
		for _, l := range lines {
			if !p.Mentions(strings.TrimSpace(l)) {
				missing++
			}
		}
		if missing > omitted {
			return fmt.Errorf("%s: %d lines neither shown nor counted", key, missing)
		}
	}
	return nil
}

// FuzzCut cuts the corpus outputs at random, as head, tail and grep would
// (with Run.Cut as classify sets it for that filter), and holds each block
// to the reference: no false count, no error left out, a valid header,
// and never a block bigger than the cut output unless the output is too
// small to be worth a block at all.
func FuzzCut(f *testing.F) {
	cases := ruletest.Corpus(f, "testdata")
	for i := range cases {
		f.Add(uint16(i), uint8(0), uint16(10))
		f.Add(uint16(i), uint8(1), uint16(25))
		f.Add(uint16(i), uint8(2), uint16(3))
	}
	f.Fuzz(func(t *testing.T, which uint16, how uint8, n uint16) {
		c := cases[int(which)%len(cases)]
		if c.Name == "make/cargo" || slices.Contains(fallbackCases, c.Name) {
			return // another family's output
		}
		merged := append(append([]byte{}, c.Run.Stdout...), c.Run.Stderr...)
		r := *c.Run
		r.Stderr = nil
		switch how % 3 {
		case 0:
			r.Stdout = ruletest.Head(merged, int(n))
			r.Cut = summarize.Cut{By: []string{fmt.Sprintf("head -%d", n)}, End: true}
		case 1:
			r.Stdout = ruletest.Tail(merged, int(n))
			r.Cut = summarize.Cut{By: []string{fmt.Sprintf("tail -%d", n)}, Start: true}
		case 2:
			words := []string{"error", "warning", "Error", "undefined", "|", "note", "FAILED", "In function"}
			w := words[int(n)%len(words)]
			r.Stdout = ruletest.Grep(merged, func(l string) bool { return strings.Contains(l, w) })
			r.Cut = summarize.Cut{By: []string{"grep " + w}, Any: true}
		}
		r.StdoutBytes, r.StderrBytes = int64(len(r.Stdout)), 0
		block, ok := rules.Block(&r)
		if !ok {
			t.Fatal("no block")
		}
		check := checkBlock
		if filepath.Base(c.Dir) == "ctest" {
			check = checkCTest
		}
		if err := check(&r, block); err != nil {
			t.Fatalf("%s cut %d/%d: %v\n%s", c.Name, how%3, n, err, block)
		}
	})
}
