package deny

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Codex's forbidden rules, as 0.171.0 matches them (its execpolicy and
// bash.rs, and measured: testdata/decisions/codex.txtar). Codex runs the
// model's command as `bash -lc SCRIPT`. When SCRIPT is plain commands
// joined by &&, ||, ; and | (words, quoted strings without expansions; no
// assignment, redirection, subshell, substitution or comment), each
// command's words are matched; otherwise the whole argv bash -lc SCRIPT is.
// A rule matches an argv whose first words are its pattern's, token by
// token (a list holding alternatives), a program named by an absolute
// path matching by its name.

// codexPlain returns the commands of a plain script, with their words as
// Codex reads them (quoted text between its quotes, escapes kept).
func codexPlain(s *script) ([][]string, bool) {
	if s.file == nil || len(s.file.Stmts) == 0 || len(s.file.Last) > 0 {
		return nil, false
	}
	var cmds [][]string
	var stmt func(*syntax.Stmt) bool
	stmt = func(st *syntax.Stmt) bool {
		if st.Negated || st.Background || st.Coprocess || st.Disown || len(st.Redirs) > 0 || len(st.Comments) > 0 {
			return false
		}
		switch x := st.Cmd.(type) {
		case *syntax.BinaryCmd:
			if x.Op != syntax.AndStmt && x.Op != syntax.OrStmt && x.Op != syntax.Pipe {
				return false
			}
			return stmt(x.X) && stmt(x.Y)
		case *syntax.CallExpr:
			if len(x.Assigns) > 0 || len(x.Args) == 0 {
				return false
			}
			if _, ok := x.Args[0].Parts[0].(*syntax.Lit); !ok || len(x.Args[0].Parts) != 1 {
				return false // the program is a plain word
			}
			words := make([]string, len(x.Args))
			for i, w := range x.Args {
				v, ok := codexWord(w)
				if !ok {
					return false
				}
				words[i] = v
			}
			cmds = append(cmds, words)
			return true
		}
		return false
	}
	for _, st := range s.file.Stmts {
		if !stmt(st) {
			return nil, false
		}
	}
	return cmds, true
}

// codexWord is a word as Codex reads it, or false when it holds anything
// but literal text.
func codexWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, dp := range x.Parts {
				l, ok := dp.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// codexMatches reports whether a rule's pattern is a prefix of argv.
func codexMatches(r CodexRule, argv []string) bool {
	if len(argv) < len(r.Pattern) {
		return false
	}
	for i, alts := range r.Pattern {
		w := argv[i]
		ok := false
		for _, a := range alts {
			if a == w || i == 0 && strings.HasPrefix(w, "/") && a == base(w) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// codexDenies returns the index of the forbidden rule that denies the
// command and the argv it matched.
func codexDenies(rules []CodexRule, s *script) (int, []string, bool) {
	cmds, plain := codexPlain(s)
	if !plain {
		// Codex matches the whole bash -lc SCRIPT, with the user's shell.
		for _, sh := range []string{"bash", "zsh", "sh"} {
			cmds = append(cmds, []string{sh, "-lc", s.src})
		}
	}
	for _, argv := range cmds {
		for i, r := range rules {
			if codexMatches(r, argv) {
				return i, argv, true
			}
		}
	}
	return -1, nil, false
}

// codexMessage is what Codex says when a forbidden rule rejects a command.
func codexMessage(command string, r CodexRule) string {
	if r.Justification != "" {
		return "`" + command + "` rejected: " + r.Justification
	}
	prefix := make([]string, len(r.Pattern))
	for i, alts := range r.Pattern {
		prefix[i] = alts[0]
	}
	return "`" + command + "` rejected: policy forbids commands starting with `" + strings.Join(prefix, " ") + "`"
}

// codexRequirements reads the prefix rules of a requirements.toml:
//
//	[rules]
//	prefix_rules = [
//	  { pattern = [{ token = "git" }, { any_of = ["push", "fetch"] }], decision = "forbidden" },
//	]
type codexRequirements struct {
	Rules struct {
		PrefixRules []struct {
			Pattern []struct {
				Token string   `toml:"token"`
				AnyOf []string `toml:"any_of"`
			} `toml:"pattern"`
			Decision      string `toml:"decision"`
			Justification string `toml:"justification"`
		} `toml:"prefix_rules"`
	} `toml:"rules"`
}
