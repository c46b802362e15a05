package classify

import "strings"

// Translated reports whether a program that translates its messages with
// gettext (git does; cargo, rustc, go, pytest and the node runners always
// print English) would print them in another language than English, given
// the child's environment: getenv looks a variable up the way the child will
// see it (the command's own NAME=value words over the inherited
// environment). It names the variable that decided and its value.
//
// gettext takes the messages locale from LC_ALL, else LC_MESSAGES, else
// LANG. In the C or POSIX locale messages stay untranslated whatever else is
// set; otherwise LANGUAGE, a colon-separated list, takes precedence when it
// is set. A locale that is not installed also leaves messages in English,
// but that cannot be told without running the program: a rule that reads
// translated messages passes through rather than guess.
func Translated(getenv func(string) string) (name, value string, translated bool) {
	for _, name = range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if value = getenv(name); value != "" {
			break
		}
	}
	if value == "" || value == "C" || value == "POSIX" {
		return name, value, false
	}
	if list := getenv("LANGUAGE"); list != "" {
		first, _, _ := strings.Cut(list, ":")
		if first != "" {
			return "LANGUAGE", list, !english(first)
		}
	}
	return name, value, !english(value)
}

// english reports whether a locale or language name (en, en_GB.UTF-8,
// C.UTF-8, en@quot) names English or the untranslated C locale.
func english(locale string) bool {
	lang := locale
	if i := strings.IndexAny(lang, "_.@"); i >= 0 {
		lang = lang[:i]
	}
	return lang == "en" || lang == "C" || lang == "POSIX"
}

// Getenv returns a lookup that sees assigns (NAME=value words, later ones
// winning, as the shell applies them) before falling back to environ.
func Getenv(assigns []string, environ func(string) string) func(string) string {
	return func(name string) string {
		for i := len(assigns) - 1; i >= 0; i-- {
			if n, v, _ := strings.Cut(assigns[i], "="); n == name {
				return v
			}
		}
		return environ(name)
	}
}

// InLocale turns r into a pass-through when its rule reads messages that the
// child's locale, seen through getenv, would translate (the matcher's
// Verdict.Translated: the git rules, whose summaries read git's messages:
// the long status, --stat's summary line, the remote verbs' progress and
// hints).
func (r Result) InLocale(getenv func(string) string) Result {
	if r.Rule == "" || !r.translated {
		return r
	}
	name, value, translated := Translated(Getenv(r.Assigns, getenv))
	if !translated {
		return r
	}
	r.Rule, r.Pos = "", ""
	r.Reason = "git prints translated messages with " + name + "=" + value + ", which the rule cannot read"
	return r
}

// InEnviron turns r into a pass-through when the child's environment, seen
// through getenv with the command's own assignments first, changes the
// output its rule reads, as the matcher's Verdict.Environ tells: an
// environment variable that sets an option the matcher would refuse
// (npm_config_json=true for npm install). The matcher sees the argv only.
func (r Result) InEnviron(getenv func(string) string) Result {
	if r.Rule == "" || r.environ == nil {
		return r
	}
	reason := r.environ(Getenv(r.Assigns, getenv))
	if reason == "" {
		return r
	}
	r.Rule, r.Pos, r.Reason = "", "", reason
	return r
}
