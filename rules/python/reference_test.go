package python_test

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The reference reader: what the text of a python tool's output, cut or
// whole, shows an agent reading it, written apart from the rules (it calls
// no code of package python) with regular expressions where the rules parse
// by hand. TestReferenceJunit holds it to the tools' machine-readable
// account of the uncut runs (pytest's and mypy's JUnit XML);
// TestReferenceOracle and FuzzCut hold every block to it.

// pytestFacts is what a pytest text shows.
type pytestFacts struct {
	// final is the text of pytest's final line ("12 failed, 6 passed in
	// 0.09s"), "" when none is visible as this run's.
	final string
	// counts are the categories final names; run tells that final reports
	// a run (a category it does not name is then 0, as pytest prints
	// only those that are not).
	counts map[string]int
	run    bool
	// failed and errored are the node ids of FAILED and ERROR lines (the
	// short summary's entries and -v result lines).
	failed, errored []string
	// sections are the failures the text shows outside a test's captured
	// output, each as the strings that name it: a failure or error
	// section's title, the first line of each run of its E lines and the
	// location its traceback ends on ("tests/x.py:9: AssertionError").
	// Where a cut left no title, the E lines up to the next such location
	// and that location are a failure of their own.
	sections [][]string
	// listed tells that the output lists the run's failures by id: its
	// short test summary is visible, or -v result lines are.
	listed bool
}

var (
	refBanner    = regexp.MustCompile(`^=+ (.*\S) =+$`)
	refFinal     = regexp.MustCompile(`^(?:no tests ran|\d+ [a-z]+(?: [a-z]+)*(?:, \d+ [a-z]+(?: [a-z]+)*)*) in \d+(?:\.\d+)?s(?: \([\d:]+\))?$`)
	refHead      = regexp.MustCompile(`^_+ (.*[^_ ].*) _+$`)
	refCaptured  = regexp.MustCompile(`^-+ Captured .* -+$`)
	refEntry     = regexp.MustCompile(`^(FAILED|ERROR) (\S.*)$`)
	refVerbose   = regexp.MustCompile(`^(\S+\.\w+::\S.*?) (FAILED|ERROR)(?: +\[[\d /%]+\])?$`)
	refTerminal  = regexp.MustCompile(`^\S+\.py:\d+: (\S.*)$`)
	refCategory  = regexp.MustCompile(`^(\d+) ([a-z]+(?: [a-z]+)*)$`)
	refTestID    = regexp.MustCompile(`^\S+\.\w+::\S`)
	refModuleID  = regexp.MustCompile(`^\S+\.py$`)
	refKnownKind = map[string]string{
		"passed": "passed", "failed": "failed", "error": "errors", "errors": "errors",
		"skipped": "skipped", "xfailed": "xfailed", "xpassed": "xpassed",
		"deselected": "deselected", "warning": "warnings", "warnings": "warnings",
	}
)

// refPhase orders pytest's sections as it prints them, each once. A
// banner that does not come later than the section it appears in is a
// test's output (a test that runs pytest and prints what it printed).
func refPhase(title string) int {
	switch title {
	case "test session starts":
		return 0
	case "ERRORS":
		return 2
	case "FAILURES":
		return 3
	case "warnings summary":
		return 4
	case "PASSES":
		return 5
	case "short test summary info":
		return 7
	}
	return 6
}

// readPytest reads stdout then stderr. lacksEnd tells that the end of
// stdout may be cut off (a head, a grep): its last final line is then
// pytest's only when it is not inside a test's captured output, which a
// whole output's last final line always is.
func readPytest(stdout, stderr []byte, lacksEnd bool) pytestFacts {
	var f pytestFacts
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		if !seen[s] {
			seen[s] = true
			*list = append(*list, s)
		}
	}
	for i, stream := range [][]byte{stdout, stderr} {
		phase, captured, inE := 1, false, false
		var section []string // the section being read; nil before its title
		end := func() {
			if section != nil {
				f.sections = append(f.sections, section)
			}
			section = nil
		}
		// headless tells that section is what a cut left of a failure
		// without its title: its E lines up to its terminal location.
		headless := false
		part := func(s string) {
			if section == nil {
				section, headless = []string{}, true
			}
			section = append(section, s)
		}
		lastAny, lastOutside := "", ""
		for _, l := range summarize.Lines(summarize.Readable(stream)) {
			isE := l == "E" || strings.HasPrefix(l, "E ")
			wasE := inE
			inE = false
			text := l
			if m := refBanner.FindStringSubmatch(l); m != nil {
				text = m[1]
			}
			if refFinal.MatchString(text) {
				if !captured {
					end()
				}
				lastAny = text
				if !captured {
					lastOutside = text
				}
				continue
			}
			if text != l {
				if p := refPhase(text); !captured || p > phase {
					end()
					phase, captured = p, false
					f.listed = f.listed || p == 7
				}
				continue
			}
			if captured {
				if refHead.MatchString(l) && !strings.HasPrefix(l, "_ _") {
					captured = false
				} else {
					continue
				}
			}
			if refCaptured.MatchString(l) {
				captured = true
				continue
			}
			if m := refEntry.FindStringSubmatch(l); m != nil {
				id := refCutID(m[2])
				if m[1] == "FAILED" && refTestID.MatchString(id) {
					add(&f.failed, id)
				} else if m[1] == "ERROR" && (refTestID.MatchString(id) || refModuleID.MatchString(id)) {
					add(&f.errored, id)
				}
				continue
			}
			if m := refVerbose.FindStringSubmatch(l); m != nil {
				f.listed = true
				if m[2] == "FAILED" {
					add(&f.failed, m[1])
				} else {
					add(&f.errored, m[1])
				}
				continue
			}
			if phase != 1 && phase != 2 && phase != 3 {
				continue
			}
			if m := refHead.FindStringSubmatch(l); m != nil && !strings.HasPrefix(l, "_ _") {
				end()
				section, headless = []string{m[1]}, false
				continue
			}
			if isE {
				inE = true
				if !wasE {
					part(strings.TrimSpace(l))
				}
				continue
			}
			if m := refTerminal.FindStringSubmatch(l); m != nil && !strings.HasPrefix(m[1], "in ") {
				part(strings.TrimRight(l, " "))
				if headless {
					end()
				}
			}
		}
		end()
		final := lastAny
		if lacksEnd && i == 0 {
			final = lastOutside
		}
		if f.final == "" {
			f.final = final
		}
	}
	if f.final != "" {
		f.counts, f.run = refCounts(f.final)
	}
	return f
}

// refCutID cuts a short-summary entry at the " - " that starts its
// message, outside the brackets of a parametrized id.
func refCutID(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ' ':
			if depth <= 0 && strings.HasPrefix(s[i:], " - ") {
				return s[:i]
			}
		}
	}
	return s
}

// refCounts reads the counts of a final line. It reports a run when it
// names one of pytest's categories or says that no tests ran.
func refCounts(final string) (map[string]int, bool) {
	counts := map[string]int{}
	text := final[:strings.LastIndex(final, " in ")]
	if text == "no tests ran" {
		return counts, true
	}
	run := false
	for _, part := range strings.Split(text, ", ") {
		m := refCategory.FindStringSubmatch(part)
		if m == nil {
			continue
		}
		if key, ok := refKnownKind[m[2]]; ok {
			n, _ := strconv.Atoi(m[1])
			counts[key] += n
			run = true
		}
	}
	return counts, run
}

// mypyFacts is what a mypy text shows.
type mypyFacts struct {
	final        string   // the closing line, "" when not visible
	finalErrors  int      // the N of "Found N errors", when final has it
	finalFiles   int      // the M of "in M files"
	errors       []string // every error line, in order
	notes        int
	files        map[string]bool
	codes        map[string]int
	fatal        []string // "mypy: ..." lines
	hasFinalErrs bool
}

var (
	refMypyFound   = regexp.MustCompile(`^Found (\d+) errors? in (\d+) files? \(.*\)$`)
	refMypySuccess = regexp.MustCompile(`^Success: no issues found in \d+ source files?$`)
	refMypyDiag    = regexp.MustCompile(`^(\S+?\.pyi?):\d+(?::\d+)*: (error|note): `)
	refMypyCode    = regexp.MustCompile(`  \[([a-z][a-z0-9-]*)\]$`)
)

func readMypy(stdout, stderr []byte) mypyFacts {
	f := mypyFacts{files: map[string]bool{}, codes: map[string]int{}}
	for _, stream := range [][]byte{stdout, stderr} {
		for _, l := range summarize.Lines(summarize.Readable(stream)) {
			if m := refMypyFound.FindStringSubmatch(l); m != nil {
				f.final = l
				f.finalErrors, _ = strconv.Atoi(m[1])
				f.finalFiles, _ = strconv.Atoi(m[2])
				f.hasFinalErrs = true
				continue
			}
			if refMypySuccess.MatchString(l) {
				f.final, f.finalErrors, f.finalFiles, f.hasFinalErrs = l, 0, 0, true
				continue
			}
			if strings.HasPrefix(l, "mypy: ") {
				f.fatal = append(f.fatal, l)
				continue
			}
			m := refMypyDiag.FindStringSubmatch(l)
			switch {
			case m == nil:
			case m[2] == "error":
				f.errors = append(f.errors, l)
				f.files[m[1]] = true
				if c := refMypyCode.FindStringSubmatch(l); c != nil {
					f.codes[c[1]]++
				}
			default:
				f.notes++
			}
		}
	}
	return f
}

// pipFacts is what a pip install text shows.
type pipFacts struct {
	installed        int  // the packages of the Successfully installed line
	installedVisible bool // that line is visible
	satisfied        int  // Requirement already satisfied lines
	uninstalled      int  // Successfully uninstalled lines
	errorLines       []string
}

func readPip(stdout, stderr []byte) pipFacts {
	var f pipFacts
	for _, stream := range [][]byte{stdout, stderr} {
		for _, l := range summarize.Lines(summarize.Readable(stream)) {
			t := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(t, "Successfully installed "):
				f.installed += len(strings.Fields(strings.TrimPrefix(t, "Successfully installed ")))
				f.installedVisible = true
			case strings.HasPrefix(t, "Requirement already satisfied: "):
				f.satisfied++
			case strings.HasPrefix(t, "Successfully uninstalled "):
				f.uninstalled++
			case strings.HasPrefix(l, "ERROR: "):
				f.errorLines = append(f.errorLines, l)
			}
		}
	}
	return f
}
