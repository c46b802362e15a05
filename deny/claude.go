package deny

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// Claude Code's Bash rules, as 2.1.332 matches them (read in its bundled
// JavaScript, and measured: testdata/decisions/claude.txtar):
//
//   - Bash, Bash() and Bash(*) deny every command;
//   - Bash(PREFIX:*) denies a command that is PREFIX or starts with
//     PREFIX and a space (git push:* denies git push origin, not git
//     pushx);
//   - a rule with an unescaped * is a wildcard over the whole command, a
//     * matching any text and a final " *" also matching nothing
//     (tool run * denies tool run, not tool runx);
//   - anything else is the exact command.
//
// They apply to each simple command of a compound one, wherever it is (a
// list, a pipeline, a subshell, $( ), a loop or function body), compared
// as written and with its words joined by one space after quotes are
// removed (a rule's own quotes are not: Bash(git commit -m "wip":*) denies
// git commit -m "wip", not git commit -m wip), also after
// leading assignments and the wrappers Claude Code looks through (timeout,
// time, nice, nohup, stdbuf, env, command, builtin, noglob, sudo, xargs),
// and with a program named by its path as by its name (/usr/bin/git is
// git). Claude Code does not look inside bash -c or eval strings.

// claudeRule is one deny rule, as patterns any of which denies.
type claudeRule struct {
	text string // as written
	all  bool   // Bash alone: every command
	pats []pattern
}

// parseClaudeRule reads one permissions.deny entry; ok is false for a rule
// about another tool.
func parseClaudeRule(rule string) (claudeRule, bool) {
	r := claudeRule{text: rule}
	rule = strings.TrimSpace(rule)
	tool, content, hasContent := strings.Cut(rule, "(")
	if strings.TrimSpace(tool) != "Bash" {
		return r, false
	}
	if !hasContent {
		r.all = true
		return r, true
	}
	content, ok := strings.CutSuffix(strings.TrimSpace(content), ")")
	if !ok {
		return r, false
	}
	content = normalizeSpace(content)
	if content == "" || content == "*" {
		r.all = true
		return r, true
	}
	r.pats = claudePatterns(content)
	return r, true
}

// claudePatterns are the patterns of a rule's content.
func claudePatterns(c string) []pattern {
	if prefix, ok := strings.CutSuffix(c, ":*"); ok {
		p := literal(strings.TrimSpace(prefix))
		return []pattern{p, append(append(pattern{}, p...), append(literal(" "), star)...)}
	}
	var p pattern
	wild := false
	for i := 0; i < len(c); i++ {
		switch {
		case c[i] == '\\' && i+1 < len(c) && (c[i+1] == '*' || c[i+1] == '\\'):
			i++
			p = append(p, elem{b: c[i]})
		case c[i] == '*':
			p = append(p, star)
			wild = true
		default:
			p = append(p, elem{b: c[i]})
		}
	}
	pats := []pattern{p}
	if n := len(p); wild && n >= 2 && p[n-1].star && !p[n-2].star && p[n-2].b == ' ' {
		// A final " *" also matches the command without arguments.
		pats = append(pats, p[:n-2])
	}
	return pats
}

func normalizeSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// claudeCandidates are the forms of one simple command Claude Code
// compares its rules with.
func claudeCandidates(c simple) []pattern {
	var out []pattern
	seen := map[string]bool{}
	add := func(words []pattern) {
		if len(words) == 0 {
			return
		}
		forms := [][]pattern{words}
		if prog, ok := words[0].static(); ok && strings.Contains(prog, "/") {
			forms = append(forms, append([]pattern{literal(path.Base(prog))}, words[1:]...))
		}
		for _, f := range forms {
			p := join(f, " ")
			if k := p.key(); !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
		}
	}
	words := c.words
	for range 16 {
		add(words)
		next := unwrap(words)
		if next == nil {
			break
		}
		words = next
	}
	// As written, quotes and all, for a rule that keeps its quotes.
	return append(out, literal(normalizeSpace(strings.Join(c.raw, " "))))
}

// claudeDenies returns the rule that denies the command, if any.
func claudeDenies(rules []claudeRule, s *script) (rule claudeRule, part string, ok bool) {
	if len(rules) == 0 {
		return rule, "", false
	}
	for _, r := range rules {
		if r.all {
			return r, s.src, true
		}
	}
	if s.file == nil {
		// Bash could not run it either; what it would run is unknown.
		return claudeRule{text: rules[0].text}, s.src, true
	}
	whole := literal(normalizeSpace(s.src))
	for _, r := range rules {
		for _, p := range r.pats {
			if intersects(p, whole) {
				return r, s.src, true
			}
		}
	}
	for _, c := range s.cmds {
		for _, cand := range claudeCandidates(c) {
			for _, r := range rules {
				for _, p := range r.pats {
					if intersects(p, cand) {
						return r, c.text, true
					}
				}
			}
		}
	}
	return rule, "", false
}

// claudeMessage is what Claude Code says when a rule denies a command.
func claudeMessage(command string) string {
	return "Permission to use Bash with command " + command + " has been denied."
}

// parseClaudeSettings reads permissions.deny from a settings file. Keys
// are matched exactly, as JSON.parse does (encoding/json would also take
// "PERMISSIONS"), and every occurrence counts: deny rules only remove.
func parseClaudeSettings(data []byte) ([]string, error) {
	var rules []string
	err := eachMember(data, func(key string, dec *json.Decoder) error {
		if key != "permissions" {
			return skipValue(dec)
		}
		return eachMemberOf(dec, func(key string, dec *json.Decoder) error {
			if key != "deny" {
				return skipValue(dec)
			}
			deny, err := decodeStrings(dec)
			if err != nil {
				return fmt.Errorf("permissions.deny: %v", err)
			}
			rules = append(rules, deny...)
			return nil
		})
	})
	return rules, err
}

// eachMember calls f with each member of the JSON object data, leaving
// the decoder at the member's value.
func eachMember(data []byte, f func(string, *json.Decoder) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := eachMemberOf(dec, f); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

func eachMemberOf(dec *json.Decoder, f func(string, *json.Decoder) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		if tok == nil {
			return nil // null: nothing set
		}
		return errors.New("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if err := f(tok.(string), dec); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	return err
}

// decodeStrings reads an array and keeps its strings.
func decodeStrings(dec *json.Decoder) ([]string, error) {
	var raw []json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	var out []string
	for _, r := range raw {
		var s string
		if len(r) > 0 && r[0] == '"' && json.Unmarshal(r, &s) == nil {
			out = append(out, s)
		}
	}
	return out, nil
}

func skipValue(dec *json.Decoder) error {
	var v json.RawMessage
	return dec.Decode(&v)
}
