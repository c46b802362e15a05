package deny

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Codex's rules files are Starlark. The ones Codex writes when the user
// answers "don't ask again" (and the ones its documentation shows) are
// only calls like
//
//	prefix_rule(pattern = ["git", "push"], decision = "forbidden")
//
// with literal arguments. ParseCodexRules reads exactly that subset: calls
// of prefix_rule with keyword arguments whose values are strings or
// (nested) lists of strings, comments and blank lines. Anything else (a
// variable, a concatenation, another function) is an error: what such a
// file matches cannot be known without running it.

// CodexRule is one prefix_rule.
type CodexRule struct {
	// Pattern holds, for each token of the prefix, its alternatives.
	Pattern [][]string
	// Decision is allow, prompt or forbidden; allow when not given.
	Decision string
	// Justification is the rule's own explanation, if any.
	Justification string
}

// ParseCodexRules reads a rules file of the literal subset.
func ParseCodexRules(src string) ([]CodexRule, error) {
	p := &starlark{src: src}
	var rules []CodexRule
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		switch {
		case tok.kind == 0:
			return rules, nil
		case tok.kind != 'i' || tok.text != "prefix_rule":
			return nil, p.errorf(tok, "only prefix_rule(...) calls with literal arguments are read")
		}
		if err := p.expect('('); err != nil {
			return nil, err
		}
		r := CodexRule{Decision: "allow"}
		havePattern := false
		for {
			tok, err := p.next()
			if err != nil {
				return nil, err
			}
			if tok.kind == ')' {
				break
			}
			if tok.kind != 'i' {
				return nil, p.errorf(tok, "want a keyword argument")
			}
			if err := p.expect('='); err != nil {
				return nil, err
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			switch tok.text {
			case "pattern":
				pat, err := patternOf(v)
				if err != nil {
					return nil, p.errorf(tok, "%v", err)
				}
				r.Pattern, havePattern = pat, true
			case "decision", "justification":
				s, ok := v.(string)
				if !ok {
					return nil, p.errorf(tok, "%s is not a string", tok.text)
				}
				if tok.text == "decision" {
					if s != "allow" && s != "prompt" && s != "forbidden" {
						return nil, p.errorf(tok, "decision %q is not allow, prompt or forbidden", s)
					}
					r.Decision = s
				} else {
					r.Justification = s
				}
			}
			tok, err = p.next()
			if err != nil {
				return nil, err
			}
			if tok.kind == ')' {
				break
			}
			if tok.kind != ',' {
				return nil, p.errorf(tok, "want , or )")
			}
		}
		if !havePattern {
			return nil, errors.New("a prefix_rule without a pattern")
		}
		rules = append(rules, r)
	}
}

// patternOf reads a pattern: a non-empty list whose elements are strings
// or non-empty lists of strings.
func patternOf(v any) ([][]string, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, errors.New("pattern is not a non-empty list")
	}
	pat := make([][]string, len(list))
	for i, el := range list {
		switch x := el.(type) {
		case string:
			pat[i] = []string{x}
		case []any:
			for _, a := range x {
				s, ok := a.(string)
				if !ok {
					return nil, errors.New("a pattern alternative is not a string")
				}
				pat[i] = append(pat[i], s)
			}
			if len(pat[i]) == 0 {
				return nil, errors.New("a pattern element is an empty list")
			}
		default:
			return nil, errors.New("a pattern element is not a string or a list of strings")
		}
	}
	return pat, nil
}

// starlark is a tokenizer for the literal subset.
type starlark struct {
	src  string
	pos  int
	line int
}

type token struct {
	kind byte // 'i' identifier, 's' string, 0 end, or the punctuation itself
	text string
	line int
}

func (p *starlark) errorf(t token, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", t.line+1, fmt.Sprintf(format, args...))
}

func (p *starlark) next() (token, error) {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '\n':
			p.line++
			p.pos++
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case strings.IndexByte("()[],=", c) >= 0:
			p.pos++
			return token{kind: c, line: p.line}, nil
		case c == '"' || c == '\'':
			return p.str(c)
		case c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z':
			start := p.pos
			for p.pos < len(p.src) && (p.src[p.pos] == '_' || p.src[p.pos]|0x20 >= 'a' && p.src[p.pos]|0x20 <= 'z' || p.src[p.pos] >= '0' && p.src[p.pos] <= '9') {
				p.pos++
			}
			return token{kind: 'i', text: p.src[start:p.pos], line: p.line}, nil
		default:
			return token{}, fmt.Errorf("line %d: %q is outside the literal subset", p.line+1, c)
		}
	}
	return token{line: p.line}, nil
}

// str reads a one-line string literal with simple escapes; triple quotes,
// raw and byte strings are outside the subset.
func (p *starlark) str(q byte) (token, error) {
	start := p.pos
	if strings.HasPrefix(p.src[p.pos:], strings.Repeat(string(q), 3)) {
		return token{}, fmt.Errorf("line %d: a triple-quoted string is outside the literal subset", p.line+1)
	}
	for i := p.pos + 1; i < len(p.src); i++ {
		switch p.src[i] {
		case '\\':
			i++
		case '\n':
			return token{}, fmt.Errorf("line %d: unterminated string", p.line+1)
		case q:
			lit := p.src[start : i+1]
			if q == '\'' {
				lit = `"` + strings.ReplaceAll(strings.ReplaceAll(lit[1:len(lit)-1], `\'`, `'`), `"`, `\"`) + `"`
			}
			v, err := strconv.Unquote(lit)
			if err != nil {
				return token{}, fmt.Errorf("line %d: a string escape outside the literal subset", p.line+1)
			}
			p.pos = i + 1
			return token{kind: 's', text: v, line: p.line}, nil
		}
	}
	return token{}, fmt.Errorf("line %d: unterminated string", p.line+1)
}

func (p *starlark) expect(kind byte) error {
	t, err := p.next()
	if err != nil {
		return err
	}
	if t.kind != kind {
		return p.errorf(t, "want %c", kind)
	}
	return nil
}

// value reads a string or a list of values.
func (p *starlark) value() (any, error) {
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	switch t.kind {
	case 's':
		return t.text, nil
	case '[':
		var list []any
		for {
			t, err := p.peek()
			if err != nil {
				return nil, err
			}
			if t.kind == ']' {
				p.next()
				return list, nil
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			list = append(list, v)
			t, err = p.next()
			if err != nil {
				return nil, err
			}
			if t.kind == ']' {
				return list, nil
			}
			if t.kind != ',' {
				return nil, p.errorf(t, "want , or ]")
			}
		}
	}
	return nil, p.errorf(t, "want a string or a list")
}

func (p *starlark) peek() (token, error) {
	pos, line := p.pos, p.line
	t, err := p.next()
	p.pos, p.line = pos, line
	return t, err
}

// CodexRulesDirs are the rules/ directories Codex could load: the system
// layer's (/etc/codex), the user layer's ($CODEX_HOME, else ~/.codex) and
// the .codex of the working directory and of each directory above it
// (Codex loads the project layers from the project root down to the
// working directory, when the project is trusted: reading them all is a
// superset).
func CodexRulesDirs(system, home, codexHome, cwd string) []string {
	var dirs []string
	if system != "" {
		dirs = append(dirs, filepath.Join(system, "rules"))
	}
	if codexHome == "" && home != "" {
		codexHome = filepath.Join(home, ".codex")
	}
	if codexHome != "" {
		dirs = append(dirs, filepath.Join(codexHome, "rules"))
	}
	return append(dirs, upward(cwd, ".codex", "rules")...)
}

// upward joins elem to cwd and to every directory above it, nearest
// first; nothing when cwd is not absolute.
func upward(cwd string, elem ...string) []string {
	if !filepath.IsAbs(cwd) {
		return nil
	}
	var dirs []string
	for d := filepath.Clean(cwd); ; d = filepath.Dir(d) {
		dirs = append(dirs, filepath.Join(append([]string{d}, elem...)...))
		if d == filepath.Dir(d) {
			return dirs
		}
	}
}
