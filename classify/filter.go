package classify

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A filter stage is accepted only when its arguments make it read the
// pipe, write the pipe, and keep the lines it passes exactly as the
// command printed them: then the summary of what comes out is still a
// summary of that command's output, cut. Each filter has an allowlist of
// options; a file operand (the filter would read something else), an
// option that writes a file, runs a program or rewrites lines (grep -n,
// sed s///, cat -A) and every filter that rebuilds the lines (sort, uniq,
// wc, cut, tr) pass through. docs/classify.md has the table.

// Cut says which lines of its input a filter may leave out.
type Cut int

const (
	// KeepsAll passes every line (cat).
	KeepsAll Cut = iota
	// DropsEnd keeps a first part and may drop the rest (head, sed Nq).
	DropsEnd
	// DropsStart keeps a last part and may drop what came before (tail).
	DropsStart
	// DropsAny keeps some lines from anywhere (grep, sed ranges).
	DropsAny
)

func (c Cut) String() string {
	return [...]string{"keeps all", "drops the end", "drops the start", "drops any"}[c]
}

// Filter is one accepted filter stage.
type Filter struct {
	// Text is the stage as the command string spells it.
	Text string
	// Cut is what the filter may leave out of its input.
	Cut Cut
	// Lines is the count of lines head or tail keep (-n N), or 0.
	Lines int
}

// reshaping are the filters of contract's list whose output is not the
// command's lines: the summary would be of something else.
var reshaping = map[string]string{
	"sort": "reorders lines", "uniq": "merges lines", "wc": "prints counts",
	"cut": "cuts fields out of lines", "tr": "rewrites characters",
}

// filter checks a filter stage's argv. The error is the reason the command
// passes through, and the index of the word at fault.
func filter(argv []string) (Filter, int, error) {
	var f Filter
	if why, ok := reshaping[argv[0]]; ok {
		return f, 0, fmt.Errorf("%s %s: its output is not the command's lines", argv[0], why)
	}
	var at int
	var err error
	switch argv[0] {
	case "cat":
		f.Cut = KeepsAll
		for i, a := range argv[1:] {
			if a != "-" {
				return f, i + 1, fmt.Errorf("cat with %q reads or rewrites more than the pipe", a)
			}
		}
	case "head", "tail":
		f.Lines, f.Cut, at, err = headTail(argv)
	case "grep":
		f.Cut = DropsAny
		at, err = grepArgs(argv)
	case "rg":
		f.Cut = DropsAny
		at, err = rgArgs(argv)
	case "sed":
		if !GNUTools {
			return f, 0, errors.New("sed here is not GNU sed, whose scripts the filter reads")
		}
		f.Lines, f.Cut, at, err = sedArgs(argv)
	default:
		return f, 0, fmt.Errorf("pipe into a non-filter command %q", argv[0])
	}
	return f, at, err
}

// headTail accepts head and tail with only a line count: -N, -n N, -nN,
// --lines=N, --lines N, and tail's -n +N (from line N on) or head's -n -N
// (all but the last N). Byte counts (-c) would cut a line in two, tail -f
// waits for more and -q/-v print file names.
func headTail(argv []string) (n int, cut Cut, at int, err error) {
	name := argv[0]
	cut = DropsEnd
	if name == "tail" {
		cut = DropsStart
	}
	n = 10
	seen := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		var count string
		switch {
		case a == "-n" || a == "--lines":
			if i+1 == len(argv) {
				return 0, cut, i, fmt.Errorf("%s %s without a count", name, a)
			}
			i++
			count = argv[i]
		case strings.HasPrefix(a, "--lines="):
			count = a[len("--lines="):]
		case strings.HasPrefix(a, "-n"):
			count = a[2:]
		case len(a) > 1 && a[0] == '-' && isDigits(a[1:]):
			count = a[1:]
		default:
			return 0, cut, i, fmt.Errorf("%s argument %q is not a line count", name, a)
		}
		if seen {
			return 0, cut, i, fmt.Errorf("%s with a second count %q", name, a)
		}
		seen = true
		sign := ""
		if count != "" && (count[0] == '+' || count[0] == '-') {
			sign, count = count[:1], count[1:]
		}
		v, convErr := strconv.Atoi(count)
		if !isDigits(count) || convErr != nil {
			return 0, cut, i, fmt.Errorf("%s argument %q is not a line count", name, a)
		}
		switch {
		case sign == "+" && name == "tail":
			// From line v on: a part that ends where the input ends.
			n = 0
		case sign == "-" && name == "head":
			// All but the last v: a part that starts where the input starts.
			n = 0
		case sign != "":
			return 0, cut, i, fmt.Errorf("%s argument %q is not a line count", name, a)
		default:
			n = v
		}
	}
	return n, cut, 0, nil
}

// grepFlags are grep's options that only choose which lines match or how
// matches are colored, by their short and long spellings. grepValued take
// a value: a pattern, a match limit or a context size (context keeps the
// lines as they are and adds "--" between groups).
var (
	grepFlags = map[string]bool{
		"-E": true, "-F": true, "-G": true, "-P": true, "-i": true, "-y": true,
		"-v": true, "-w": true, "-x": true, "-a": true, "-s": true, "-h": true,
		"--extended-regexp": true, "--fixed-strings": true, "--basic-regexp": true,
		"--perl-regexp": true, "--ignore-case": true, "--no-ignore-case": true,
		"--invert-match": true, "--word-regexp": true, "--line-regexp": true,
		"--text": true, "--no-messages": true, "--no-filename": true,
		"--line-buffered": true, "--color": true, "--colour": true,
	}
	grepValued = map[string]bool{
		"-e": true, "-m": true, "-A": true, "-B": true, "-C": true,
		"--regexp": true, "--max-count": true, "--after-context": true,
		"--before-context": true, "--context": true,
	}
	grepColors = map[string]bool{"never": true, "auto": true, "always": true}
)

func grepArgs(argv []string) (int, error) {
	return matcherArgs(argv, grepFlags, grepValued, nil)
}

// rgFlags are rg's options of the same kind. rg numbers the lines it prints
// to a terminal (--pty), so -N (--no-line-number) is required.
var (
	rgFlags = map[string]bool{
		"-i": true, "-S": true, "-s": true, "-v": true, "-F": true, "-w": true,
		"-x": true, "-a": true, "-P": true, "-N": true,
		"--ignore-case": true, "--smart-case": true, "--case-sensitive": true,
		"--invert-match": true, "--fixed-strings": true, "--word-regexp": true,
		"--line-regexp": true, "--text": true, "--pcre2": true,
		"--no-line-number": true, "--line-buffered": true, "--color": true,
		"--colour": true,
	}
	rgValued = map[string]bool{
		"-e": true, "-m": true, "-A": true, "-B": true, "-C": true,
		"--regexp": true, "--max-count": true, "--after-context": true,
		"--before-context": true, "--context": true,
	}
)

func rgArgs(argv []string) (int, error) {
	numbered := true
	at, err := matcherArgs(argv, rgFlags, rgValued, func(flag string) {
		if flag == "-N" || flag == "--no-line-number" {
			numbered = false
		}
	})
	if err == nil && numbered {
		return 0, fmt.Errorf("rg without -N numbers its lines on a terminal")
	}
	return at, err
}

// matcherArgs walks a grep-like argv: short options clustered (-iv, -A3,
// -ie PAT), long options with = or a separate value, one pattern operand
// unless -e gave one, and no file operand. seen is told every flag.
func matcherArgs(argv []string, flags, valued map[string]bool, seen func(string)) (int, error) {
	name := argv[0]
	pattern := false
	operands := 0
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			operands += len(argv) - i - 1
			i = len(argv)
		case strings.HasPrefix(a, "--"):
			opt, value, hasValue := strings.Cut(a, "=")
			switch {
			case (opt == "--color" || opt == "--colour") && (!hasValue || grepColors[value]):
			case flags[opt] && !hasValue:
			case valued[opt]:
				if !hasValue {
					if i+1 == len(argv) {
						return i, fmt.Errorf("%s option %q without a value", name, a)
					}
					i++
				}
				pattern = pattern || opt == "--regexp"
			default:
				return i, fmt.Errorf("%s option %q does more than choose lines", name, opt)
			}
			if seen != nil {
				seen(opt)
			}
		case len(a) > 1 && a[0] == '-':
			if name == "grep" && isDigits(a[1:]) {
				continue // -NUM: context of NUM lines
			}
			for j := 1; j < len(a); j++ {
				opt := "-" + a[j:j+1]
				if seen != nil {
					seen(opt)
				}
				if flags[opt] {
					continue
				}
				if !valued[opt] {
					return i, fmt.Errorf("%s option %q does more than choose lines", name, opt)
				}
				if j+1 == len(a) {
					if i+1 == len(argv) {
						return i, fmt.Errorf("%s option %q without a value", name, opt)
					}
					i++
				}
				pattern = pattern || opt == "-e"
				break
			}
		default:
			operands++
		}
	}
	if !pattern {
		if operands == 0 {
			return 0, fmt.Errorf("%s without a pattern", name)
		}
		operands-- // the first operand is the pattern
	}
	if operands > 0 {
		return 0, fmt.Errorf("%s with a file operand reads more than the pipe", name)
	}
	return 0, nil
}

// sedArgs accepts sed printing one range of line numbers: -n 'A,Bp' (B may
// be $), 'Nq' (the first N lines) and 'A,Bd' (all but a range), the script
// given once, as an operand or with -e. Any other script can rewrite lines,
// and a file operand or -i reads or writes files.
func sedArgs(argv []string) (n int, cut Cut, at int, err error) {
	quiet := false
	script, scriptAt := "", 0
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-n" || a == "--quiet" || a == "--silent":
			quiet = true
		case a == "-e" || a == "--expression":
			if script != "" || i+1 == len(argv) {
				return 0, 0, i, fmt.Errorf("sed takes one line-range script here")
			}
			i++
			script, scriptAt = argv[i], i
		case strings.HasPrefix(a, "-"):
			return 0, 0, i, fmt.Errorf("sed option %q", a)
		case script == "":
			script, scriptAt = a, i
		default:
			return 0, 0, i, fmt.Errorf("sed with a file operand reads more than the pipe")
		}
	}
	bad := func() (int, Cut, int, error) {
		return 0, 0, scriptAt, fmt.Errorf("sed script %q is not a range of line numbers", script)
	}
	if script == "" {
		return bad()
	}
	cmd := script[len(script)-1]
	from, to, ok := lineRange(script[:len(script)-1])
	switch {
	case !ok:
		return bad()
	case quiet && cmd == 'p':
		if from == 1 && to == 0 {
			return 0, KeepsAll, 0, nil
		}
		if from == 1 {
			return to, DropsEnd, 0, nil
		}
		if to == 0 {
			return 0, DropsStart, 0, nil
		}
		return 0, DropsAny, 0, nil
	case !quiet && cmd == 'q' && from == to && to > 0:
		return to, DropsEnd, 0, nil
	case !quiet && cmd == 'd':
		if to == 0 {
			return from - 1, DropsEnd, 0, nil
		}
		if from == 1 {
			return 0, DropsStart, 0, nil
		}
		return 0, DropsAny, 0, nil
	}
	return bad()
}

// lineRange parses "A", "A,B", "A,$" or "$" into 1-based bounds; to is 0
// for the last line.
func lineRange(s string) (from, to int, ok bool) {
	a, b, comma := strings.Cut(s, ",")
	num := func(s string) (int, bool) {
		if s == "$" {
			return 0, true
		}
		v, err := strconv.Atoi(s)
		return v, err == nil && isDigits(s) && v > 0
	}
	if from, ok = num(a); !ok {
		return 0, 0, false
	}
	if from == 0 { // "$" alone, or "$,B"
		return 0, 0, false
	}
	if !comma {
		return from, from, true
	}
	if to, ok = num(b); !ok || to != 0 && to < from {
		return 0, 0, false
	}
	return from, to, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Cuts sums up what a command's filter stages may leave out of its output,
// for the summary to say (summarize.Cut has the same fields).
type Cuts struct {
	By              []string // the stages that may leave lines out, as written
	Start, End, Any bool     // where lines may be missing
	// Discarded is the redirect that discarded the command's stderr, as
	// written (2>/dev/null, 2>&-), or "".
	Discarded string
}

// Cuts returns what r's filters may leave out; cat leaves out nothing.
func (r Result) Cuts() Cuts {
	c := Cuts{Discarded: r.discarded}
	for _, f := range r.Filters {
		switch f.Cut {
		case KeepsAll:
			continue
		case DropsStart:
			c.Start = true
		case DropsEnd:
			c.End = true
		default:
			c.Any = true
		}
		c.By = append(c.By, f.Text)
	}
	return c
}
