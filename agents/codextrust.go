package agents

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Codex runs a hook from hooks.json only once the user has trusted it (the
// /hooks review in Codex), and skips an untrusted one without a word. The
// trust is kept in the user's config.toml as
//
//	[hooks.state."/path/to/hooks.json:pre_tool_use:0:0"]
//	trusted_hash = "sha256:..."
//
// keyed by the file, the event and the entry's place in it, with a hash of
// the entry: when the entry changes, the hash no longer matches and Codex
// skips the hook again. shrinkrun never writes this itself: trusting a hook
// is the user's decision in Codex. It reads it to say plainly whether Codex
// runs the hook. The hash is Codex 0.171's (codex-rs/hooks discovery.rs
// command_hook_hash and codex-rs/config fingerprint.rs version_for_toml);
// the end-to-end test checks it against what Codex itself reports.

// Trust is what Codex makes of one installed hook.
type Trust string

// The states, as Codex's hooks/list names them.
const (
	Trusted   Trust = "trusted"
	Untrusted Trust = "untrusted" // no trust recorded: Codex skips it
	Modified  Trust = "modified"  // trusted once, changed since: Codex skips it
	Disabled  Trust = "disabled"  // turned off in /hooks
)

// codexHookKey is the key Codex files an entry's state under.
func codexHookKey(path, event string, group, hook int) string {
	return fmt.Sprintf("%s:%s:%d:%d", path, event, group, hook)
}

// codexHookHash is Codex's hash of a command hook: SHA-256 of the compact
// JSON, keys sorted, of the event's snake_case name with the matcher group
// reduced to this one handler, normalized as Codex normalizes it.
func codexHookHash(event, matcher, command string, timeout int) (string, error) {
	type handler struct {
		Async   bool   `json:"async"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
		Type    string `json:"type"`
	}
	id := struct {
		Event   string    `json:"event_name"`
		Hooks   []handler `json:"hooks"`
		Matcher string    `json:"matcher"`
	}{event, []handler{{Command: command, Timeout: max(timeout, 1), Type: "command"}}, matcher}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(id); err != nil {
		return "", err
	}
	text := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	// Go escapes U+2028 and U+2029 where serde_json does not: such a
	// command would hash differently, so its trust cannot be told.
	if bytes.Contains(text, []byte(`\u2028`)) || bytes.Contains(text, []byte(`\u2029`)) {
		return "", errors.New("the hook command holds U+2028 or U+2029")
	}
	sum := sha256.Sum256(text)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// CodexTrust says whether Codex runs the shrinkrun hook f found in the
// hooks file at path, from the trust recorded in Codex's config.toml.
func (a *Agent) CodexTrust(f Installed, path, configTOML string) (Trust, error) {
	key := codexHookKey(path, "pre_tool_use", f.group, f.hook)
	want, err := codexHookHash("pre_tool_use", a.Matcher, f.Command, a.Timeout)
	if err != nil {
		return "", err
	}
	state, err := readHookState(configTOML, key)
	if err != nil {
		return "", err
	}
	switch {
	case state["enabled"] == "false":
		return Disabled, nil
	case state["trusted_hash"] == "":
		return Untrusted, nil
	case state["trusted_hash"] != want:
		return Modified, nil
	}
	return Trusted, nil
}

// readHookState finds the values under hooks.state."KEY" in a config.toml,
// written as a [hooks.state."KEY"] table or as dotted keys under [hooks]
// or [hooks.state]. It is a line reader for that one corner of TOML, not
// a TOML parser: a state written some other way (an inline table) is not
// found, and the hook reads as untrusted, which is what doctor then
// reports. A missing file has no state.
func readHookState(path, key string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	state := map[string]string{}
	var table []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "", strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "[["):
			table = nil // an array of tables: never the state
			continue
		case strings.HasPrefix(line, "["):
			k, rest, ok := tomlKey(line[1:])
			if rest = strings.TrimSpace(rest); !ok || !strings.HasPrefix(rest, "]") {
				table = nil
				continue
			}
			table = k
			continue
		}
		k, rest, ok := tomlKey(line)
		rest = strings.TrimSpace(rest)
		if !ok || !strings.HasPrefix(rest, "=") {
			continue
		}
		full := append(append([]string{}, table...), k...)
		if len(full) != 4 || full[0] != "hooks" || full[1] != "state" || full[2] != key {
			continue
		}
		if v, ok := tomlValue(strings.TrimSpace(rest[1:])); ok {
			state[full[3]] = v
		}
	}
	return state, sc.Err()
}

// tomlKey reads a dotted key (bare, "basic" or 'literal' parts) from the
// start of s and returns its parts and what follows it.
func tomlKey(s string) ([]string, string, bool) {
	var parts []string
	for {
		s = strings.TrimLeft(s, " \t")
		var part string
		switch {
		case strings.HasPrefix(s, `"`):
			v, n, ok := basicString(s)
			if !ok {
				return nil, "", false
			}
			part, s = v, s[n:]
		case strings.HasPrefix(s, "'"):
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, "", false
			}
			part, s = s[1:1+end], s[2+end:]
		default:
			n := 0
			for n < len(s) && (s[n] == '_' || s[n] == '-' || s[n] >= '0' && s[n] <= '9' || s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z') {
				n++
			}
			if n == 0 {
				return nil, "", false
			}
			part, s = s[:n], s[n:]
		}
		parts = append(parts, part)
		t := strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(t, ".") {
			return parts, s, true
		}
		s = t[1:]
	}
}

// basicString reads a TOML "basic string" at the start of s: its value and
// how many bytes it took.
func basicString(s string) (string, int, bool) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			v, err := strconv.Unquote(s[:i+1])
			return v, i + 1, err == nil
		}
	}
	return "", 0, false
}

// tomlValue reads a string or boolean value.
func tomlValue(s string) (string, bool) {
	switch {
	case strings.HasPrefix(s, `"`):
		v, _, ok := basicString(s)
		return v, ok
	case strings.HasPrefix(s, "'"):
		end := strings.IndexByte(s[1:], '\'')
		return s[1 : 1+max(end, 0)], end >= 0
	case strings.HasPrefix(s, "true"), strings.HasPrefix(s, "false"):
		return strings.Fields(s)[0], true
	}
	return "", false
}
