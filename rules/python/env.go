package python

import (
	"strconv"
	"strings"
)

// The python tools take options from the environment too (docs/classify.md,
// python rules). These are the rules' Env checks: each says why the
// environment the command runs in changes the output its rule reads, or "".

// PytestEnv is bash.pytest's environment check: PYTEST_ADDOPTS holds
// options pytest reads before the command line's (read with them, so that
// PYTEST_ADDOPTS=-q and pytest -q make -qq), and PY_COLORS=1 or
// FORCE_COLOR colors the report as --color=yes does, unless PY_COLORS=0
// or NO_COLOR turns it off.
func PytestEnv(argv []string, getenv func(string) string) string {
	if pytestColors(getenv) {
		return "pytest colors its output with PY_COLORS=1 or FORCE_COLOR"
	}
	addopts := getenv("PYTEST_ADDOPTS")
	if strings.TrimSpace(addopts) == "" {
		return ""
	}
	words, ok := shlexSplit(addopts)
	if !ok {
		return "pytest cannot read PYTEST_ADDOPTS=" + strconv.Quote(addopts)
	}
	_, from, _, _ := tool(argv)
	env := append([]string{"pytest"}, words...)
	if a := matchPytest(append(env, argv[from:]...), 1); !a.Accepted {
		return "with PYTEST_ADDOPTS=" + strconv.Quote(addopts) + ": " + a.Reason
	}
	return ""
}

// pytestColors follows pytest's own order (should_do_markup, pytest 7).
// An empty FORCE_COLOR, which pytest counts as set, is not told from an
// unset one.
func pytestColors(getenv func(string) string) bool {
	switch getenv("PY_COLORS") {
	case "1":
		return true
	case "0":
		return false
	}
	return getenv("NO_COLOR") == "" && getenv("FORCE_COLOR") != ""
}

// MypyEnv is bash.mypy's environment check: MYPY_FORCE_COLOR, or else
// FORCE_COLOR, colors mypy's output when it reads as a non-zero number
// or a word (should_force_color, mypy 1.0).
func MypyEnv(argv []string, getenv func(string) string) string {
	v := getenv("MYPY_FORCE_COLOR")
	if v == "" {
		v = getenv("FORCE_COLOR")
	}
	if n, err := strconv.Atoi(v); v != "" && (err != nil || n != 0) {
		return "mypy colors its output with MYPY_FORCE_COLOR or FORCE_COLOR=" + strconv.Quote(v)
	}
	return ""
}

// PipEnv is bash.pip_install's environment check: pip takes every long
// option from a PIP_ variable, and PIP_REPORT=- writes the JSON report
// to stdout as --report - does; FORCE_COLOR colors its error lines (rich)
// unless NO_COLOR is set.
func PipEnv(argv []string, getenv func(string) string) string {
	if getenv("PIP_REPORT") == "-" {
		return "pip writes a JSON report to stdout with PIP_REPORT=-"
	}
	if getenv("FORCE_COLOR") != "" && getenv("NO_COLOR") == "" {
		return "pip colors its error lines with FORCE_COLOR"
	}
	return ""
}

// shlexSplit splits s into words as Python's shlex.split does, which is
// how pytest reads PYTEST_ADDOPTS and an addopts value: blanks separate
// words, single quotes keep everything, double quotes keep everything but
// a backslash before '"' or '\', and a backslash outside quotes keeps the
// next character. It reports false for an unclosed quote or a trailing
// backslash, which pytest refuses.
func shlexSplit(s string) ([]string, bool) {
	var (
		words []string
		word  strings.Builder
		in    bool // a word is being read (it may be "")
		quote byte
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				word.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
				i++
				word.WriteByte(s[i])
			default:
				word.WriteByte(c)
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if in {
				words = append(words, word.String())
				word.Reset()
				in = false
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\':
			if i+1 == len(s) {
				return nil, false
			}
			i++
			word.WriteByte(s[i])
			in = true
		default:
			word.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if in {
		words = append(words, word.String())
	}
	return words, true
}
