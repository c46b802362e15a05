package cargo

import "strings"

// Env is the cargo rules' environment check (rules.Rule.Env): getenv looks
// a variable up as the child will see it. It says why cargo would print
// what the rules cannot read, or "".
//
// Of cargo's CARGO_TERM_ settings only a progress bar forced onto a pipe
// (CARGO_TERM_PROGRESS_WHEN=always) does: cargo then redraws its progress
// line with a carriage return but never erases it, so every message that
// follows is printed over the bar's remains and its line ends with them
// ("error[E0308]: mismatched types    ] 0/1: demo(bin)"). The others keep
// the lines the rules read: COLOR and HYPERLINKS add escapes that are
// removed before a rule reads a line (summarize.Readable), VERBOSE and
// QUIET are -v and -q, which the rules read, and UNICODE and the other
// PROGRESS settings change nothing on a pipe. RUSTFLAGS cannot change
// rustc's message format: cargo passes --error-format=json itself, and a
// second one is an error that cargo prints as any other. The doc-tests'
// runner, though, takes libtest's options from RUSTDOCFLAGS' --test-args
// (docFormat).
func Env(argv []string, getenv func(string) string) string {
	if v := getenv("CARGO_TERM_PROGRESS_WHEN"); strings.EqualFold(v, "always") {
		return "CARGO_TERM_PROGRESS_WHEN=" + v + " draws cargo's progress bar over its messages"
	}
	if subcommand(argv) != "test" {
		return ""
	}
	// cargo reads the first of these that is set.
	for _, name := range []string{"CARGO_ENCODED_RUSTDOCFLAGS", "RUSTDOCFLAGS", "CARGO_BUILD_RUSTDOCFLAGS"} {
		v := getenv(name)
		if v == "" {
			continue
		}
		if opt := docFormat(v); opt != "" {
			return name + " passes " + opt + " to the doc-tests' runner, which changes their output format"
		}
		break
	}
	return ""
}

// docFormat returns the first of libtest's format options (formats, but
// --format only for a format the rules do not read) among rustdoc flags,
// or "". Words are split as cargo splits RUSTDOCFLAGS (on spaces) and
// CARGO_ENCODED_RUSTDOCFLAGS (on 0x1f); --test-args=VALUE is read as VALUE.
func docFormat(flags string) string {
	words := strings.FieldsFunc(flags, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == 0x1f })
	for i := 0; i < len(words); i++ {
		w := strings.TrimPrefix(words[i], "--test-args=")
		name, value, hasValue := strings.Cut(w, "=")
		if name == "--format" && !hasValue {
			// --test-args --format --test-args json
			j := i + 1
			if j < len(words) && words[j] == "--test-args" {
				j++
			}
			if j < len(words) {
				value = strings.TrimPrefix(words[j], "--test-args=")
			}
		}
		switch name {
		case "--format":
			if value != "pretty" && value != "terse" {
				return w
			}
		case "--list", "--logfile", "--report-time", "--ensure-time":
			return w
		}
	}
	return ""
}

// subcommand is the word after cargo and its +toolchain, or "".
func subcommand(argv []string) string {
	i := 1
	if i < len(argv) && strings.HasPrefix(argv[i], "+") {
		i++
	}
	if i < len(argv) {
		return argv[i]
	}
	return ""
}
