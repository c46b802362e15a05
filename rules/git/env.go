package git

import (
	"strconv"
	"strings"
)

// Env is the git family's check of the environment a command runs in
// (rules.Family.Env): the reason a git command passes through although its
// argv is recognized, or "". getenv looks a variable up as git will see it,
// the command's own NAME=value words first; terminal tells that it runs on
// shrinkrun's terminal (--pty). docs/classify.md ("git and its
// environment") gives the reasons.
//
// A pager matters only on a terminal: on the pipe shrinkrun captures, git
// starts none, whatever GIT_PAGER, core.pager or PAGER say. Settings in the
// environment (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT and its
// GIT_CONFIG_KEY_n) are read as a config file is, which the rules read
// through (colors are stripped, other layouts are reported as lines they
// do not know): of those, only diff.external replaces the output, as
// GIT_EXTERNAL_DIFF does.
func Env(rule string, argv []string, getenv func(string) string, terminal bool) string {
	if terminal {
		return "on a terminal (--pty) git starts its pager (GIT_PAGER, core.pager, PAGER or less) and a merge its editor, whose screens the capture would hold"
	}
	if rule != "bash.git_diff" || hasWord(argv, "--no-ext-diff") {
		return ""
	}
	if v := getenv("GIT_EXTERNAL_DIFF"); v != "" {
		return "GIT_EXTERNAL_DIFF=" + v + " runs an external diff program, whose output the rule cannot read"
	}
	if name := externalDiffSetting(getenv); name != "" {
		return name + " sets diff.external: an external diff program prints the diff, which the rule cannot read"
	}
	return ""
}

// maxConfigCount bounds the GIT_CONFIG_KEY_n read; a larger
// GIT_CONFIG_COUNT is taken as setting diff.external.
const maxConfigCount = 1000

// externalDiffSetting names the variable that sets diff.external, or "".
// Section and key names are not case-sensitive in git; a mention of the
// name anywhere in GIT_CONFIG_PARAMETERS (its values are quoted) counts, a
// false match only passing the command through.
func externalDiffSetting(getenv func(string) string) string {
	if strings.Contains(strings.ToLower(getenv("GIT_CONFIG_PARAMETERS")), "diff.external") {
		return "GIT_CONFIG_PARAMETERS"
	}
	count := getenv("GIT_CONFIG_COUNT")
	if count == "" {
		return ""
	}
	n, err := strconv.Atoi(count)
	if err != nil || n > maxConfigCount {
		return "GIT_CONFIG_COUNT=" + count
	}
	for i := range n {
		key := "GIT_CONFIG_KEY_" + strconv.Itoa(i)
		if strings.EqualFold(getenv(key), "diff.external") {
			return key
		}
	}
	return ""
}

// hasWord reports whether argv holds w before a "--" that ends the options.
func hasWord(argv []string, w string) bool {
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
