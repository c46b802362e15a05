package classify

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// setupPart is what Claude Code 2.1.332 put before the eval on Linux with
// bash, CLAUDE_CODE_SHELL_PREFIX set and a shell snapshot (recorded with a
// prefix that logged its argument; docs/agents.md).
const setupPart = `source /home/u/.claude/shell-snapshots/snapshot-bash-1796169163554-ldoxy0.sh 2>/dev/null || true && ` +
	`{ \builtin shopt -u extglob || \builtin setopt NO_EXTENDED_GLOB NO_BARE_GLOB_QUAL NO_BRACE_CCL NO_MAGIC_EQUAL_SUBST NO_RC_QUOTES NO_EQUALS; } >/dev/null 2>&1 || true && ` +
	`{ \builtin unalias -- 'which'; \builtin unset -f -- 'which'; } >/dev/null 2>&1 || true && ` +
	`{ \builtin unalias -- 'unsetenv'; \builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true && `

const cwdPart = ` && pwd -P >| /tmp/claude-7905-cwd`

func TestEnvelope(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" means not an envelope
	}{
		{"git status", setupPart + `eval 'git status' < /dev/null` + cwdPart, "git status"},
		{"quotes", setupPart + `eval 'git log --oneline --author='"'"'J D'"'"'' < /dev/null` + cwdPart, "git log --oneline --author='J D'"},
		{"pipe", setupPart + `eval 'git diff 2>&1 | head -5' < /dev/null` + cwdPart, "git diff 2>&1 | head -5"},
		{"bare word", setupPart + `eval ls < /dev/null` + cwdPart, "ls"},
		{"reads a file: no /dev/null", setupPart + `eval 'wc -l < a'` + cwdPart, "wc -l < a"},
		{"compound inner", setupPart + `eval 'git status > /dev/null 2>&1 && echo "$HOME"' < /dev/null` + cwdPart, `git status > /dev/null 2>&1 && echo "$HOME"`},
		{"no snapshot", `{ \builtin shopt -u extglob || \builtin setopt NO_EQUALS; } >/dev/null 2>&1 || true && eval 'git status' < /dev/null` + cwdPart, "git status"},
		{"no setup at all", `eval 'git status' < /dev/null` + cwdPart, "git status"},
		{"plain shopt", `\builtin shopt -u extglob 2>/dev/null || true && eval 'git status' < /dev/null` + cwdPart, "git status"},

		{"here-document: a newline", setupPart + "eval 'cat <<EOF\nhi\nEOF'" + cwdPart, ""},
		{"a setup that prints", `echo hi && eval 'git status' < /dev/null` + cwdPart, ""},
		{"source with stdout kept and no 2>", `source /x.sh || true && eval 'git status' < /dev/null` + cwdPart, ""},
		{"group not silenced", `{ \builtin unalias -- 'which'; } 2>/dev/null || true && eval 'git status' < /dev/null` + cwdPart, ""},
		{"group running a program", `{ git status; } >/dev/null 2>&1 || true && eval 'git diff' < /dev/null` + cwdPart, ""},
		{"builtin that prints", `\builtin echo hi 2>/dev/null || true && eval 'git diff' < /dev/null` + cwdPart, ""},
		{"dynamic eval", setupPart + `eval "$CMD" < /dev/null` + cwdPart, ""},
		{"eval with two words", setupPart + `eval git status < /dev/null` + cwdPart, ""},
		{"eval of an empty string", setupPart + `eval '' < /dev/null` + cwdPart, ""},
		{"eval stdout redirected", setupPart + `eval 'git status' > /tmp/x` + cwdPart, ""},
		{"two evals", setupPart + `eval 'git status' < /dev/null && eval 'rm -rf x'` + cwdPart, ""},
		{"no cwd record", setupPart + `eval 'git status' < /dev/null`, ""},
		{"cwd record not last", setupPart + `eval 'git status' < /dev/null` + cwdPart + ` && echo done`, ""},
		{"cwd record joined by ||", setupPart + `eval 'git status' < /dev/null || pwd -P >| /tmp/x`, ""},
		{"joined by ;", `source /x.sh 2>/dev/null; eval 'git status' < /dev/null` + cwdPart, ""},
		{"|| true missing its &&", `source /x.sh 2>/dev/null || true || eval 'git status' < /dev/null` + cwdPart, ""},
		{"|| something else", `source /x.sh 2>/dev/null || echo oops && eval 'git status' < /dev/null` + cwdPart, ""},
		{"background", setupPart + `eval 'git status' < /dev/null` + cwdPart + ` &`, ""},
		{"dynamic snapshot path", `source "$S" 2>/dev/null || true && eval 'git status' < /dev/null` + cwdPart, ""},
		{"the plain command", `git status`, ""},
		{"shrinkrun's own rewrite", `/usr/bin/shrinkrun -c 'git status'`, ""},
		{"parse error", setupPart + `eval 'git status`, ""},
	}
	for _, tt := range tests {
		got, ok := Envelope(tt.in)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("%s: Envelope = %q, %v; want %q", tt.name, got, ok, tt.want)
		}
	}
}

func TestEnvelopeSources(t *testing.T) {
	got := EnvelopeSources(setupPart + `eval 'git status' < /dev/null` + cwdPart)
	if len(got) != 1 || got[0] != "/home/u/.claude/shell-snapshots/snapshot-bash-1796169163554-ldoxy0.sh" {
		t.Errorf("EnvelopeSources = %q", got)
	}
	if got := EnvelopeSources(`source /x.sh 2>/dev/null || true && git status`); got != nil {
		t.Errorf("not an envelope: %q", got)
	}
}

// FuzzEnvelope checks that whatever Envelope accepts is a string whose
// inner command, quoted back the way Claude Code quotes it, gives the same
// envelope: the inner command is exactly the eval's string.
func FuzzEnvelope(f *testing.F) {
	f.Add(setupPart+`eval 'git status' < /dev/null`+cwdPart, "git diff")
	f.Add(`eval ls < /dev/null`+cwdPart, "ls -la")
	f.Fuzz(func(t *testing.T, s, cmd string) {
		if inner, ok := Envelope(s); ok {
			if inner == "" || !strings.Contains(s, "eval ") {
				t.Fatalf("Envelope(%q) = %q", s, inner)
			}
		}
		// Claude Code's commands are JavaScript strings: valid UTF-8, and
		// one with a line break is quoted in a way Envelope refuses.
		if strings.ContainsAny(cmd, "\r\n\x00") || cmd == "" || !utf8.ValidString(cmd) {
			return
		}
		q := "'" + strings.ReplaceAll(cmd, "'", `'"'"'`) + "'"
		env := setupPart + "eval " + q + " < /dev/null" + cwdPart
		inner, ok := Envelope(env)
		if !ok || inner != cmd {
			t.Fatalf("Envelope of a built envelope for %q = %q, %v", cmd, inner, ok)
		}
	})
}
