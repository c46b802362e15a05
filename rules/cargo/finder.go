package cargo

import (
	"bytes"
	"strings"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// Finder is the cargo family's Finder: rustc's and cargo's error
// lines (IsErrorLine) with their primary location, libtest failures and
// panics; and in a run that failed, the tests a test binary died running:
// the name of a "test NAME ... " start line (one test thread) that no
// result followed before the binary's output ended, and the thread named
// in the runtime's "thread 'NAME' has overflowed its stack" (libtest names
// each test's thread after it; "main" and "<unnamed>" name no test).
//
// Behind a filter (| tail -40) the exit status is the filter's, 0: a run
// also failed when its output says so (failedByOutput). In a stdout a
// filter cut, a start line is required only when the output shows the
// binary's end: a head may have cut off its result, a grep the lines
// between.
var Finder = summarize.StreamFinder(func(r *summarize.Run, s summarize.Stream) {
	ls := s.Lines
	failedRun := 0 // 1 failed, -1 passed, 0 not decided yet
	failed := func() bool {
		if failedRun == 0 {
			failedRun = -1
			if r.Failed() || failedByOutput(r) {
				failedRun = 1
			}
		}
		return failedRun > 0
	}
	cutStdout := s.Index == 0
	framingCut := cutStdout && (r.Cut.Any || r.StdoutTruncated)
	inError := false
	running, runningAt := "", -1 // a test started and not finished yet
	died := func(endSeen bool) {
		if running != "" && endSeen && !framingCut && failed() {
			s.Require(running, ls[runningAt], runningAt)
		}
		running = ""
	}
	for i, l := range ls {
		// Each pattern starts with a known letter or with spaces, so the
		// first byte picks the one or two patterns worth running.
		if l == "" {
			continue
		}
		switch l[0] {
		case 'e', 'f':
			// Hex hashes start with e and f too: only "error" and "fatal"
			// are worth a regexp.
			if !strings.HasPrefix(l, "error") && !strings.HasPrefix(l, "fatal") {
				continue
			}
			switch level, _, _, ok := diagnostic(l); {
			case summarize.IsErrorLine(l):
				s.Require(strings.TrimSpace(l), l, i)
				inError = true
			case ok && level == "error":
				inError = false
			}
		case 'w', 'n', 'h':
			// A new diagnostic ends the previous error's location search.
			if level, _, _, ok := diagnostic(l); ok && level != "fatal" {
				inError = false
			}
		case ' ':
			if inError {
				if loc, ok := arrowLocation(l); ok {
					s.Require(loc, l, i)
					inError = false
				}
			}
		case 'r':
			if running != "" && isRunningTests(l) {
				// The next binary: the last one died in that test.
				died(true)
			}
		case 't':
			if strings.HasPrefix(l, "test ") {
				running, runningAt = "", i
				if name, ok := libtestStart(l); ok {
					running = name
				}
			}
			switch {
			case strings.HasSuffix(l, " FAILED") && strings.HasPrefix(l, "test "):
				if name, ok := libtestFailed(l); ok {
					s.Require(name, l, i)
				}
			case strings.HasPrefix(l, "thread '") && strings.HasSuffix(l, " has overflowed its stack"):
				if name, _, _ := strings.Cut(l[len("thread '"):], "' "); name != "main" && name != "<unnamed>" && failed() {
					s.Require(name, l, i)
				}
			case strings.HasPrefix(l, "thread '") && strings.Contains(l, " panicked at ") && failed():
				// A panic is a failure only in a run that failed: a passing
				// should_panic test under --nocapture prints one too.
				if loc, ok := panicLocation(l); ok {
					s.Require(loc, l, i)
					if i+1 < len(ls) && ls[i+1] != "" {
						// The panic message: the assertion or the reason.
						s.Take(ls[i+1], i+1)
					}
				}
			}
		}
	}
	died(!cutStdout || !r.MayLackEnd())
})

// failedByOutput reports whether the output says the run failed, as
// libtest and cargo print it: what a run behind a filter, whose exit
// status is the filter's, shows of its failure.
func failedByOutput(r *summarize.Run) bool {
	for _, b := range [][]byte{r.Stdout, r.Stderr} {
		for _, mark := range [...]string{"test result: FAILED.", "error: test failed, to rerun pass ", "error: doctest failed, to rerun pass ", "\nfailures:\n"} {
			if bytes.Contains(b, []byte(mark)) {
				return true
			}
		}
	}
	return false
}

// diagnostic reads the head of a rustc or cargo message line,
// "LEVEL: text" or "LEVEL[CODE]: text" for the levels error, warning, note,
// help and fatal. text is empty when what follows ": " starts with a space
// or is missing. Parsed by hand: the check meets these prefixes on every
// line of a build log.
func diagnostic(l string) (level, code, text string, ok bool) {
	for _, lv := range [...]string{"error", "warning", "note", "help", "fatal"} {
		rest, found := strings.CutPrefix(l, lv)
		if !found {
			continue
		}
		if inner, ok := strings.CutPrefix(rest, "["); ok {
			j := strings.IndexByte(inner, ']')
			if j <= 0 || strings.IndexFunc(inner[:j], func(r rune) bool { return !isWordRune(r) }) >= 0 {
				return "", "", "", false
			}
			code, rest = inner[:j], inner[j+1:]
		}
		rest, found = strings.CutPrefix(rest, ": ")
		if !found {
			return "", "", "", false
		}
		if rest != "" && !strings.ContainsRune("\t\n\f\r ", rune(rest[0])) {
			text = rest
		}
		return lv, code, text, true
	}
	return "", "", "", false
}

// arrowLocation returns the location of an error's primary location line,
// "  --> src/main.rs:12:30", as the regexp ^\s*--> (\S+:\d+:\d+) would
// (FuzzHandParsers holds it to it).
func arrowLocation(l string) (string, bool) {
	w, ok := strings.CutPrefix(strings.TrimLeft(l, summarize.RESpace), "--> ")
	if !ok {
		return "", false
	}
	if i := strings.IndexAny(w, summarize.RESpace); i >= 0 {
		w = w[:i]
	}
	n := summarize.LocationPrefix(w)
	return w[:n], n > 0
}

func isWordRune(r rune) bool {
	return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}

// libtestFailed reads "test NAME ... FAILED" (never "0 failed"). A
// should_panic test is listed as "NAME - should panic" but named without
// the suffix in the failures list.
func libtestFailed(l string) (string, bool) {
	name, ok := strings.CutSuffix(strings.TrimPrefix(l, "test "), " ... FAILED")
	if name = strings.TrimSuffix(name, " - should panic"); !ok || name == "" {
		return "", false
	}
	return name, true
}

// panicLocation reads libtest's "thread 'x' (123) panicked at
// src/lib.rs:37:9:" (the thread id is newer rustc) and returns the location.
// It is parsed by hand: a regexp with the thread name's .* backtracked on
// every such line of a big test log.
func panicLocation(l string) (string, bool) {
	_, loc, ok := strings.Cut(l, "' ")
	if !ok {
		return "", false
	}
	if rest, ok := strings.CutPrefix(loc, "("); ok {
		_, loc, ok = strings.Cut(rest, ") ")
		if !ok {
			return "", false
		}
	}
	loc, ok = strings.CutPrefix(loc, "panicked at ")
	loc = strings.TrimSuffix(loc, ":")
	return loc, ok && summarize.IsLocation(loc)
}
