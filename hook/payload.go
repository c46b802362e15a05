package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxPayload is the largest payload read. A shell command worth
// summarizing is a line; anything larger is left alone unread.
const MaxPayload = 1 << 20

// format is one agent's hook protocol: which event and tool name its
// payload carries, and how it wants the rewrite back.
type format struct {
	event, tool string
	answer      func(r *request, rewrite string) ([]byte, error)
}

var formats = map[Agent]format{
	// Claude Code's and Gemini CLI's payloads are read, but their policies
	// always leave the command alone (claudePolicy, geminiPolicy): they
	// have no answer.
	Claude: {event: "PreToolUse", tool: "Bash"},
	Codex:  {event: "PreToolUse", tool: "Bash", answer: codexAnswer},
	Gemini: {event: "BeforeTool", tool: "run_shell_command"},
}

// request is the part of a payload the decision reads. input keeps every
// field of the tool input as it came, so the answer changes only command.
type request struct {
	mode       string // Claude Code's permission_mode
	cwd        string
	input      map[string]json.RawMessage
	command    string
	background bool
}

// payload is the envelope common to the three agents. Unknown fields are
// ignored; the tool input is kept raw.
type payload struct {
	Event     *string         `json:"hook_event_name"`
	Tool      *string         `json:"tool_name"`
	Input     json.RawMessage `json:"tool_input"`
	Mode      string          `json:"permission_mode"`
	CWD       string          `json:"cwd"`
	Cursor    json.RawMessage `json:"cursor_version"`
	CursorRun json.RawMessage `json:"conversation_id"`
}

// parse reads a payload strictly: one JSON object, UTF-8, no duplicate key
// anywhere (two readers could pick different ones), the agent's event and
// tool, and a string command.
func parse(f format, data []byte) (*request, error) {
	if len(data) > MaxPayload {
		return nil, errors.New("payload larger than 1 MiB")
	}
	if !utf8.Valid(data) {
		return nil, errors.New("payload is not UTF-8")
	}
	if err := checkJSON(data); err != nil {
		return nil, fmt.Errorf("payload: %v", err)
	}
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("payload: %v", err)
	}
	switch {
	case p.Event == nil || *p.Event != f.event:
		return nil, fmt.Errorf("not a %s payload", f.event)
	case p.Cursor != nil || p.CursorRun != nil:
		// Cursor runs Claude Code's hooks too, with its own answer format.
		return nil, errors.New("a Cursor payload")
	case p.Tool == nil || *p.Tool != f.tool:
		return nil, fmt.Errorf("not a %s call", f.tool)
	}
	r := &request{mode: p.Mode, cwd: p.CWD}
	if err := json.Unmarshal(p.Input, &r.input); err != nil || r.input == nil {
		return nil, errors.New("tool_input is not an object")
	}
	raw := r.input["command"]
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &r.command) != nil {
		return nil, errors.New("tool_input.command is not a string")
	}
	if strings.ContainsRune(r.command, utf8.RuneError) {
		// A lone surrogate escape decodes to U+FFFD: the command read here
		// would not be the one the agent runs.
		return nil, errors.New("tool_input.command holds an invalid character")
	}
	if bg, ok := r.input["run_in_background"]; ok {
		if err := json.Unmarshal(bg, &r.background); err != nil {
			return nil, errors.New("tool_input.run_in_background is not a boolean")
		}
	}
	return r, nil
}

// checkJSON accepts exactly one JSON object with no duplicate key in any
// object at any depth.
func checkJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return errors.New("not a JSON object")
	}
	if err := checkObject(dec); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

// checkObject reads an object's members after its '{', through its '}'.
// Keys that differ only in case count as duplicates: encoding/json fills a
// field from any of them, and the agent reads one exactly.
func checkObject(dec *json.Decoder) error {
	seen := map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string) // the decoder only returns a string in key position
		switch prev, ok := seen[strings.ToLower(key)]; {
		case ok && prev == key:
			return fmt.Errorf("duplicate key %q", key)
		case ok:
			return fmt.Errorf("duplicate key %q (differs from %q only in case)", key, prev)
		}
		seen[strings.ToLower(key)] = key
		if err := checkValue(dec); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

func checkValue(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		return checkObject(dec)
	case json.Delim('['):
		for dec.More() {
			if err := checkValue(dec); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return err
	}
	return nil
}

// updatedInput is the tool input with only command replaced.
func (r *request) updatedInput(rewrite string) (map[string]json.RawMessage, error) {
	cmd, err := marshal(rewrite)
	if err != nil {
		return nil, err
	}
	in := make(map[string]json.RawMessage, len(r.input))
	for k, v := range r.input {
		in[k] = v
	}
	in["command"] = cmd
	return in, nil
}

// marshal encodes v without HTML escaping, so `2>&1` stays readable.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// codexAnswer is Codex's PreToolUse output. Codex applies updatedInput only
// next to permissionDecision "allow", which in Codex grants nothing: the
// rewritten command still goes through its sandbox and approval policy.
// Codex rejects unknown fields, so there are no others.
func codexAnswer(r *request, rewrite string) ([]byte, error) {
	in, err := r.updatedInput(rewrite)
	if err != nil {
		return nil, err
	}
	type out struct {
		Event    string                     `json:"hookEventName"`
		Decision string                     `json:"permissionDecision"`
		Input    map[string]json.RawMessage `json:"updatedInput"`
	}
	b, err := marshal(struct {
		Out out `json:"hookSpecificOutput"`
	}{out{Event: "PreToolUse", Decision: "allow", Input: in}})
	return append(b, '\n'), err
}
