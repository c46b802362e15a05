package deny

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Gemini CLI's deny policies, as 0.61.0 matches them (its policy engine
// in the bundle, and measured: testdata/decisions/gemini.txtar). A rule
// for run_shell_command (or every tool, toolName "*") matches a regular
// expression against the tool's arguments as JSON, {\0"command":"..."\0}:
// commandPrefix p is `"command":"p` followed by a space, a quote or an
// escaped quote, so it matches the command's text as written (git push
// denies git push origin, not git pushx, git  push or git "push");
// commandRegex r is `"command":"r`; argsPattern is the expression itself.
// The whole command is checked, then each simple command's text, wherever
// it is, and the string inside a bash/sh/zsh -c wrapper, as a command of
// its own. The highest-priority rule that matches decides, so an allow
// rule above a deny rule lets a command through: allow rules are not read
// here, and any deny rule that matches denies.

// geminiRule is one deny rule for the shell tool.
type geminiRule struct {
	text    string // the rule, for messages
	all     bool   // no argument constraint: every shell command
	re      *regexp.Regexp
	message string // denyMessage
}

// geminiShellTools are the shell tool's names, legacy alias included.
var geminiShellTools = []string{"run_shell_command", "ShellTool"}

// jsSpace is what JavaScript's \s matches beyond RE2's.
const jsSpace = `\s\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// geminiPrefix is the expression Gemini CLI builds for commandPrefix.
func geminiPrefix(prefix string) string {
	open := strings.TrimSuffix(jsString(prefix), `"`)
	return regexp.QuoteMeta(`"command":`+open) + `(?:[` + jsSpace + `"]|\\")`
}

// newGeminiRule compiles one rule of a policy file or of the settings.
// A regular expression RE2 cannot compile is an error: the caller then
// denies every command.
func newGeminiRule(text string, prefixes []string, commandRegex, argsPattern, message string) (geminiRule, error) {
	r := geminiRule{text: text, message: message}
	var expr string
	switch {
	case len(prefixes) > 0:
		alts := make([]string, len(prefixes))
		for i, p := range prefixes {
			alts[i] = geminiPrefix(p)
		}
		expr = strings.Join(alts, "|")
	case commandRegex != "":
		expr = regexp.QuoteMeta(`"command":"`) + "(?:" + commandRegex + ")"
	case argsPattern != "":
		expr = argsPattern
	default:
		r.all = true
		return r, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return r, fmt.Errorf("%s: a regular expression shrinkrun cannot read (%v)", text, err)
	}
	r.re = re
	return r, nil
}

// geminiArgs is the text Gemini CLI matches a rule's expression against.
func geminiArgs(command string) string {
	return "{\x00\"command\":" + jsString(command) + "\x00}"
}

// jsString is JSON.stringify of a string: only ", \ and control
// characters escaped, the rest as it is.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, string(utf8.RuneError)) {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// shellWrapper is Gemini CLI's stripShellWrapper: a command that starts
// with sh, bash or zsh -c is checked as the string it runs.
var shellWrapper = regexp.MustCompile(`(?i)^\s*(?:(?:\S+/)?(?:sh|bash|zsh))\s+-c\s+`)

func stripShellWrapper(cmd string) string {
	m := shellWrapper.FindStringIndex(cmd)
	if m == nil {
		return strings.TrimSpace(cmd)
	}
	inner := strings.TrimSpace(cmd[m[1]:])
	if len(inner) >= 2 && (inner[0] == '"' && inner[len(inner)-1] == '"' || inner[0] == '\'' && inner[len(inner)-1] == '\'') {
		if s := parse(inner); inner[0] == '"' && s.file != nil && len(s.cmds) == 1 && len(s.cmds[0].words) == 1 {
			if v, ok := s.cmds[0].words[0].static(); ok {
				return v
			}
		}
		inner = inner[1 : len(inner)-1]
	}
	return inner
}

// geminiDenies returns the rule that denies the command and the part of
// it that matched.
func geminiDenies(rules []geminiRule, command string) (geminiRule, string, bool) {
	return geminiCheck(rules, command, 0)
}

func geminiCheck(rules []geminiRule, command string, depth int) (geminiRule, string, bool) {
	if len(rules) == 0 {
		return geminiRule{}, "", false
	}
	if r, ok := geminiMatch(rules, command); ok {
		return r, command, true
	}
	s := parse(command)
	if s.file == nil || depth > 8 {
		// Gemini CLI's parser may read it; what it holds is unknown here.
		return rules[0], command, true
	}
	for _, c := range s.cmds {
		if r, ok := geminiMatch(rules, c.text); ok {
			return r, c.text, true
		}
		if inner := stripShellWrapper(c.text); inner != strings.TrimSpace(c.text) {
			if r, part, ok := geminiCheck(rules, inner, depth+1); ok {
				return r, part, true
			}
		}
	}
	return geminiRule{}, "", false
}

func geminiMatch(rules []geminiRule, command string) (geminiRule, bool) {
	args := geminiArgs(strings.TrimSpace(command))
	for _, r := range rules {
		if r.all || r.re.MatchString(args) {
			return r, true
		}
	}
	return geminiRule{}, false
}

// geminiMessage is what Gemini CLI says when a policy denies a command.
func geminiMessage(r geminiRule) string {
	if r.message != "" {
		return "Tool execution denied by policy. " + r.message
	}
	return "Tool execution denied by policy."
}

// geminiPolicy is a policy file: its [[rule]] tables, read loosely
// (toolName and commandPrefix may be a string or a list).
type geminiPolicy struct {
	Rule []map[string]any `toml:"rule"`
}

// geminiPolicyRules returns the deny rules of a policy file that can
// apply to the shell tool.
func geminiPolicyRules(p geminiPolicy, source string) ([]geminiRule, error) {
	var rules []geminiRule
	for i, t := range p.Rule {
		if s, _ := t["decision"].(string); s != "deny" {
			continue
		}
		if _, mcp := t["mcpName"]; mcp {
			continue // MCP tools only
		}
		tools := stringsOf(t["toolName"])
		shell := false
		for _, n := range tools {
			if n == "*" || contains(geminiShellTools, n) {
				shell = true
			}
		}
		if !shell {
			continue
		}
		regex, _ := t["commandRegex"].(string)
		args, _ := t["argsPattern"].(string)
		msg, _ := t["denyMessage"].(string)
		text := fmt.Sprintf("rule %d of %s", i+1, source)
		r, err := newGeminiRule(text, stringsOf(t["commandPrefix"]), regex, args, msg)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// stringsOf reads a TOML value that is a string or a list of strings.
func stringsOf(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// geminiExcluded returns the rules a settings file's excluded tools make:
// the shell tool excluded denies every command; run_shell_command(PREFIX)
// denies the commands starting with PREFIX, as Gemini CLI documents it
// (0.61.0 itself lets them run: measured, testdata/decisions/gemini.txtar;
// shrinkrun keeps the user's intent, a deny).
func geminiExcluded(tools []string, source string) ([]geminiRule, error) {
	var rules []geminiRule
	for _, t := range tools {
		name, arg, narrowed := strings.Cut(strings.TrimSpace(t), "(")
		if !contains(geminiShellTools, name) {
			continue
		}
		text := fmt.Sprintf("%q excluded in %s", t, source)
		if !narrowed {
			rules = append(rules, geminiRule{text: text, all: true})
			continue
		}
		arg, ok := strings.CutSuffix(arg, ")")
		if !ok {
			continue
		}
		r, err := newGeminiRule(text, []string{arg}, "", "", "")
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// stripJSONComments blanks // and /* */ comments outside strings, as
// Gemini CLI does before it parses a settings file.
func stripJSONComments(data []byte) []byte {
	out := append([]byte(nil), data...)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}
