package node

import (
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/summarize"
)

// MatchNpmInstall recognizes npm install (i, add), npm ci and pnpm install
// (i, add) with any arguments but help, version and the options that
// change what is printed, however npm spells them (npmFormatOption).
func MatchNpmInstall(argv []string) classify.Answer {
	return matchManager(argv, func(argv []string) (classify.Answer, bool) {
		pm, sub := argv[0], 1
		switch argv[sub] {
		case "install", "i", "add":
			if pm == "yarn" {
				return classify.Refuse(sub, "yarn install is not recognized"), true
			}
			return matchInstallArgs(argv), true
		case "ci":
			if pm != "npm" {
				return classify.Refuse(sub, "not a recognized command"), true
			}
			return matchInstallArgs(argv), true
		}
		return classify.Answer{}, false
	})
}

// matchInstallArgs accepts an install's words but help, version and an
// option that replaces the human-readable output (JSON, parseable lines,
// a reporter), raises the log level or installs nothing (--dry-run prints
// a plan), in any spelling npm reads: --jso is --json, -p is --parseable.
func matchInstallArgs(argv []string) classify.Answer {
	for j := 2; j < len(argv); j++ {
		if nodeHelp[argv[j]] {
			return classify.Refuse(j, "help or version requested (%s)", argv[j])
		}
		if npmFormatOption(argv[j]) {
			return classify.Refuse(j, "option %q changes the output format", argv[j])
		}
	}
	return classify.Accept()
}

// Caps of bash.npm_install. Errors are few and each line of one matters;
// warnings and deprecations can be many.
const (
	maxInstallErrors   = 40
	maxInstallWarnings = 30
	maxInstallDeps     = 30
)

// NpmInstall summarizes bash.npm_install (npm install, npm ci, pnpm
// install and add): the package manager's result lines ("added 72 packages
// in 15s", "up to date", "Packages: +70", "Done in 8.1s using pnpm
// v10.34.9", audit and funding lines), every warning (a multi-line warning
// is one item), every deprecation, every error line, pnpm's list of direct
// dependencies with their versions, and the lines of anything else (a
// lifecycle script's output). Progress lines and pnpm's "+++" bar are
// left out; blank "npm error" lines too.
func NpmInstall(r *summarize.Run) *summarize.Body {
	var n installLog
	summarize.ReadStreams(&n, r.Stdout, r.Stderr)
	b := &summarize.Body{}
	b.Field("exit_code", r.ExitCodeValue())
	if n.code != "" {
		b.Field("error_code", n.code)
	}
	b.List("summary", n.summary, 0)
	b.Tally("warnings", len(n.warnings))
	b.Tally("deprecations", len(n.deprecated))
	b.List("error_lines", n.errors, maxInstallErrors)
	b.List("warning_messages", n.warnings, maxInstallWarnings)
	b.List("deprecated", n.deprecated, maxInstallWarnings)
	b.List("dependencies", n.deps, maxInstallDeps)
	b.List("messages", n.messages, maxNodeMessages)
	return b
}

// installLog reads npm's and pnpm's install output one line at a time.
type installLog struct {
	code       string   // npm's "npm error code E404"
	summary    []string // result, audit and funding lines
	errors     []string
	warnings   []string
	deprecated []string
	deps       []string // pnpm's "dependencies:" headings, each with its "+ express 5.1.0" lines
	messages   []string

	warnCode string   // the code of the npm warning being read
	warnOpen bool     // its last line had no text: the next one goes on with it
	pnpmErr  bool     // the paragraphs after a pnpm ERR_PNPM_ line belong to it
	box      []string // a pnpm "╭ Warning ─╮" box being read
	section  string   // pnpm's "dependencies:" heading of the lines being read
}

func (n *installLog) Feed(l string) {
	t := strings.TrimSpace(l)
	if len(n.box) > 0 || strings.HasPrefix(t, "╭") {
		n.boxLine(t)
		return
	}
	if t == "" {
		n.section, n.warnCode = "", ""
		return
	}
	if rest, ok := strings.CutPrefix(l, "npm "); ok {
		n.npmLine(l, rest)
		return
	}
	n.warnCode = ""
	switch {
	case strings.HasPrefix(l, "Progress: ") || onlyOf(t, '+', '-'):
		// Progress, and pnpm's bar of one + per added package.
	case pnpmBadge(t, "WARN"):
		n.pnpmErr = false
		if msg := strings.TrimSpace(strings.TrimPrefix(t, "WARN")); strings.HasPrefix(msg, "deprecated ") || strings.Contains(msg, " deprecated subdependencies ") {
			n.deprecated = append(n.deprecated, t)
		} else {
			n.warnings = append(n.warnings, t)
		}
	case strings.HasPrefix(t, "ERR_PNPM_"):
		n.errors = append(n.errors, t)
		n.pnpmErr = true
	case strings.HasSuffix(t, "ependencies:") && !strings.Contains(t, " "):
		n.section, n.pnpmErr = t, false
		n.deps = append(n.deps, t)
	case n.section != "" && (strings.HasPrefix(t, "+ ") || strings.HasPrefix(t, "- ")):
		n.deps[len(n.deps)-1] += "\n" + t
	case isInstallResult(t):
		n.summary = append(n.summary, t)
		n.pnpmErr = false
	case n.pnpmErr:
		n.errors = append(n.errors, t)
	default:
		n.messages = append(n.messages, t)
	}
}

// npmLine reads a line of npm's own, "npm warn CODE ...", "npm error ...",
// "npm notice ...". A warning goes on over the lines of the same code whose
// text is empty, indented or a closing brace, and over the line after an
// empty one (EBADENGINE's object, install-scripts' package list and advice).
func (n *installLog) npmLine(l, rest string) {
	level, msg, _ := strings.Cut(rest, " ")
	switch level {
	case "error":
		if msg == "" {
			return
		}
		if code, ok := strings.CutPrefix(msg, "code "); ok && n.code == "" {
			n.code = code
		}
		n.errors = append(n.errors, l)
	case "warn":
		code, text, _ := strings.Cut(msg, " ")
		switch {
		case code == "deprecated":
			n.deprecated = append(n.deprecated, l)
			n.warnCode = ""
		case len(n.warnings) > 0 && code == n.warnCode && (n.warnOpen || text == "" || text[0] == ' ' || text[0] == '}'):
			n.warnings[len(n.warnings)-1] += "\n" + l
		default:
			n.warnings = append(n.warnings, l)
			n.warnCode = code
		}
		n.warnOpen = text == ""
	default:
		n.messages = append(n.messages, l)
	}
}

// boxLine reads a line of a pnpm box: "╭ Warning ───╮", "│ text │",
// "╰───╯". The box becomes one warning: its title, then its text.
func (n *installLog) boxLine(t string) {
	switch {
	case strings.HasPrefix(t, "╭"):
		n.box = []string{strings.Trim(t, "╭╮─ ")}
	case strings.HasPrefix(t, "╰"):
		n.warnings = append(n.warnings, strings.Join(n.box, "\n"))
		n.box = nil
	default:
		if inner := strings.Trim(t, "│ "); inner != "" {
			n.box = append(n.box, inner)
		}
	}
}

// EndStream closes a stream: a box cut off is kept as it is.
func (n *installLog) EndStream() {
	if len(n.box) > 0 {
		n.warnings = append(n.warnings, strings.Join(n.box, "\n"))
	}
	n.box, n.section, n.warnCode, n.pnpmErr = nil, "", "", false
}

// isInstallResult reports whether t is one of the result lines of npm or
// pnpm: what was added, removed or changed, audit and funding results, and
// pnpm's totals and status.
func isInstallResult(t string) bool {
	for _, p := range []string{
		"added ", "removed ", "changed ", "up to date", "audited ", "found ",
		"Packages: ", "Done in ", "Already up to date", "Lockfile is up to date", "Scope: ",
	} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return strings.Contains(t, " vulnerabilit") || strings.Contains(t, "looking for funding")
}
