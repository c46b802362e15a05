package git

import (
	"strconv"
	"strings"
)

// The git rules' environment checks (rules.Rule.Env): settings git takes
// from the environment that act as an option the rule's matcher refuses.
// git reads configuration from the environment as well as from files:
// GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, then
// GIT_CONFIG_PARAMETERS (what git -c passes to its children), the later
// value winning. Configuration files are not read: docs/classify.md ("git
// and its environment") says why and lists every setting checked.
//
// A pager does not matter: on the pipe shrinkrun captures, git starts none,
// whatever GIT_PAGER, core.pager or PAGER say. Nor do colors (color.ui=always):
// the rules read the output as a terminal shows it (summarize.Readable).
// GIT_DIFF_OPTS only sets the number of context lines, which the rules count
// as they come.

// DiffEnv is bash.git_diff's check: an external diff program (--ext-diff),
// or other file name prefixes (--no-prefix, --src-prefix).
func DiffEnv(argv []string, getenv func(string) string) string {
	s := readConfig(getenv)
	switch {
	case s.unreadable != "":
		return s.unreadable
	case hasOption(argv, "--no-ext-diff"):
	case getenv("GIT_EXTERNAL_DIFF") != "":
		return "GIT_EXTERNAL_DIFF=" + getenv("GIT_EXTERNAL_DIFF") + " runs an external diff program, whose output the rule cannot read"
	case s.values["diff.external"] != "":
		return s.reason("diff.external", "an external diff program prints the diff, which the rule cannot read")
	}
	return patchEnv(s)
}

// ShowEnv is bash.git_show's check: the patch's settings, as for git diff
// (git show runs no external diff program without --ext-diff), and the
// commit header's (--pretty, --show-signature).
func ShowEnv(_ []string, getenv func(string) string) string {
	s := readConfig(getenv)
	switch {
	case s.unreadable != "":
		return s.unreadable
	case s.set("format.pretty"):
		return s.reason("format.pretty", "it replaces the commit header the rule reads, as --pretty does")
	case s.isTrue("log.showsignature"):
		return s.reason("log.showsignature", "signature lines in the header, as --show-signature prints")
	}
	return patchEnv(s)
}

// LogEnv is bash.git_log's check: signature lines between the commits
// (--show-signature). format.pretty does not matter: --oneline replaces it.
func LogEnv(_ []string, getenv func(string) string) string {
	s := readConfig(getenv)
	switch {
	case s.unreadable != "":
		return s.unreadable
	case s.isTrue("log.showsignature"):
		return s.reason("log.showsignature", "signature lines between the commits, as --show-signature prints")
	}
	return ""
}

// StatusEnv is bash.git_status's check: untracked files left out (-uno)
// and a "# " before every line. status.short and status.branch
// do not matter: the rule reads the short and the long layout.
func StatusEnv(_ []string, getenv func(string) string) string {
	s := readConfig(getenv)
	switch {
	case s.unreadable != "":
		return s.unreadable
	case s.set("status.showuntrackedfiles") && isNo(s.values["status.showuntrackedfiles"]):
		return s.reason("status.showuntrackedfiles", "untracked files are not listed, as with -uno, so a count of them would be a guess")
	case s.isTrue("status.displaycommentprefix"):
		return s.reason("status.displaycommentprefix", `"# " before every line the rule reads`)
	}
	return ""
}

// patchEnv is the check shared by the rules that read a patch.
func patchEnv(s settings) string {
	switch {
	case s.isTrue("diff.noprefix"):
		return s.reason("diff.noprefix", "it changes the diff --git a/... b/... lines files are read from, as --no-prefix does")
	case s.isTrue("diff.mnemonicprefix"):
		return s.reason("diff.mnemonicprefix", "it changes the diff --git a/... b/... lines files are read from")
	case s.set("diff.srcprefix"):
		return s.reason("diff.srcprefix", "it changes the diff --git a/... b/... lines files are read from, as --src-prefix does")
	case s.set("diff.dstprefix"):
		return s.reason("diff.dstprefix", "it changes the diff --git a/... b/... lines files are read from, as --dst-prefix does")
	}
	return ""
}

// settings are the configuration values the environment sets, by key in
// lower case (none of the keys checked has a subsection, the part whose
// case matters), with the variable that set each.
type settings struct {
	values map[string]string
	by     map[string]string
	// unreadable is the reason to pass through when the variables are not
	// in a form read here (git itself would stop with an error).
	unreadable string
}

// maxConfigCount bounds the GIT_CONFIG_KEY_n read; a larger
// GIT_CONFIG_COUNT is taken as unreadable.
const maxConfigCount = 1000

// readConfig reads GIT_CONFIG_COUNT's pairs, then GIT_CONFIG_PARAMETERS,
// as git does (config.c, git_config_from_parameters).
func readConfig(getenv func(string) string) settings {
	s := settings{values: map[string]string{}, by: map[string]string{}}
	if count := getenv("GIT_CONFIG_COUNT"); count != "" {
		n, err := strconv.Atoi(count)
		if err != nil || n < 0 || n > maxConfigCount {
			s.unreadable = "GIT_CONFIG_COUNT=" + count + " is not a count shrinkrun reads"
			return s
		}
		for i := range n {
			key := "GIT_CONFIG_KEY_" + strconv.Itoa(i)
			s.put(getenv(key), getenv("GIT_CONFIG_VALUE_"+strconv.Itoa(i)), key)
		}
	}
	if p := getenv("GIT_CONFIG_PARAMETERS"); p != "" {
		words, ok := splitQuoted(p)
		if !ok {
			s.unreadable = "GIT_CONFIG_PARAMETERS is not in the quoted form shrinkrun reads"
			return s
		}
		for _, w := range words {
			key, value, ok := strings.Cut(w.text, "=")
			if !ok {
				value = "true" // 'key' alone is a boolean set
			}
			if w.valued {
				key, value = w.text, w.value
			}
			s.put(key, value, "GIT_CONFIG_PARAMETERS")
		}
	}
	return s
}

func (s settings) put(key, value, by string) {
	key = strings.ToLower(key)
	s.values[key], s.by[key] = value, by
}

func (s settings) set(key string) bool { _, ok := s.values[key]; return ok }

// isTrue reads a boolean as git does, a key without a value being true.
func (s settings) isTrue(key string) bool {
	v, ok := s.values[key]
	return ok && !isNo(v) && v != ""
}

func (s settings) reason(key, why string) string {
	return s.by[key] + " sets " + key + "=" + s.values[key] + ": " + why
}

// isNo reports whether v is one of git's spellings of false (or, for
// status.showUntrackedFiles, of "no").
func isNo(v string) bool {
	switch strings.ToLower(v) {
	case "no", "false", "off", "0":
		return true
	}
	return false
}

// quoted is one word of GIT_CONFIG_PARAMETERS: 'key=value' (git before
// 2.31), or 'key'='value' with valued set.
type quoted struct {
	text, value string
	valued      bool
}

// splitQuoted splits GIT_CONFIG_PARAMETERS: words in single quotes
// (sq_quote, a quote written '\”), separated by spaces, each optionally
// followed by ='value'.
func splitQuoted(p string) ([]quoted, bool) {
	var out []quoted
	for p = strings.TrimLeft(p, " "); p != ""; p = strings.TrimLeft(p, " ") {
		text, rest, ok := unquote(p)
		if !ok {
			return nil, false
		}
		w := quoted{text: text}
		if strings.HasPrefix(rest, "=") {
			if w.value, rest, ok = unquote(rest[1:]); !ok {
				return nil, false
			}
			w.valued = true
		}
		out = append(out, w)
		p = rest
	}
	return out, true
}

// unquote reads one single-quoted word at the start of p, with its '\”
// and \! escapes, and returns it with the rest of p.
func unquote(p string) (string, string, bool) {
	var b strings.Builder
	for {
		if !strings.HasPrefix(p, "'") {
			return "", "", false
		}
		end := strings.IndexByte(p[1:], '\'')
		if end < 0 {
			return "", "", false
		}
		b.WriteString(p[1 : 1+end])
		p = p[2+end:]
		if len(p) >= 2 && p[0] == '\\' && (p[1] == '\'' || p[1] == '!') {
			b.WriteByte(p[1])
			p = p[2:]
			continue
		}
		return b.String(), p, true
	}
}

// hasOption reports whether argv holds w before a "--" that ends the
// options.
func hasOption(argv []string, w string) bool {
	for _, a := range argv {
		if a == "--" {
			return false
		}
		if a == w {
			return true
		}
	}
	return false
}
