package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeModel speaks just enough of three model APIs to drive a real agent
// client through one shell tool call: the first request that offers the
// client's shell tool gets one call running command; the request that
// carries the tool's result has it recorded (what the model would read)
// and gets a short final answer. Every other request gets that answer too.
//
//   - Anthropic Messages (/v1/messages, SSE when asked), tool Bash (Claude
//     Code), bash (opencode, Copilot CLI) or run_shell_command (Qwen Code);
//   - OpenAI Responses (/v1/responses, SSE), tool exec_command (or the
//     older shell and shell_command);
//   - Gemini generateContent and streamGenerateContent, tool
//     run_shell_command.
type fakeModel struct {
	command string
	// more are the commands called after the first one's result, one a
	// turn, for runs that record many decisions in one session.
	more []string
	srv  *httptest.Server

	mu      sync.Mutex
	calls   int // requests that offered the shell tool
	issued  int // tool calls made
	results []string
	paths   []string
	// keep, when set, keeps every request (the session benchmark counts
	// what the model received over a whole session).
	keep     bool
	requests []modelRequest
}

// modelRequest is one request a client sent, as it came.
type modelRequest struct {
	path string
	body []byte
}

// startModel serves the fake model on 127.0.0.1 until the test ends.
func startModel(t *testing.T, command string) *fakeModel {
	m := &fakeModel{command: command}
	m.srv = httptest.NewServer(m) // listens on 127.0.0.1 only
	t.Cleanup(m.srv.Close)
	return m
}

// URL is where the clients are pointed.
func (m *fakeModel) URL() string { return m.srv.URL }

// Results are the tool results the clients sent back, in order.
func (m *fakeModel) Results() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.results...)
}

// Calls is how many tool calls the model made.
func (m *fakeModel) Calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

func (m *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.paths = append(m.paths, r.URL.Path)
	if m.keep {
		m.requests = append(m.requests, modelRequest{r.URL.Path, body})
	}
	m.mu.Unlock()
	switch p := r.URL.Path; {
	case strings.HasPrefix(p, "/v1/messages/count_tokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":10}`)
	case strings.HasPrefix(p, "/v1/messages"):
		m.anthropic(w, body)
	case strings.HasSuffix(p, "/responses"):
		m.openai(w, body)
	case strings.Contains(p, ":streamGenerateContent"), strings.Contains(p, ":generateContent"):
		m.gemini(w, strings.Contains(p, ":streamGenerateContent"), body)
	case strings.Contains(p, ":countTokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"totalTokens":10}`)
	default:
		http.NotFound(w, r)
	}
}

// fresh returns the results of a conversation that were not recorded
// yet.
func (m *fakeModel) fresh(all []string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(all) <= len(m.results) {
		return nil
	}
	return all[len(m.results):]
}

func (m *fakeModel) record(result string) {
	m.mu.Lock()
	m.results = append(m.results, result)
	m.mu.Unlock()
}

// first returns the command the first request that offers the tool
// calls, and the call's number; later requests without a result get no
// call.
func (m *fakeModel) first() (string, int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if m.issued > 0 {
		return "", 0, false
	}
	m.issued++
	return m.command, m.issued, true
}

// nextMore returns the command a request carrying a result calls: the next
// of more, until none is left.
func (m *fakeModel) nextMore() (string, int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.issued == 0 || m.issued-1 >= len(m.more) {
		return "", 0, false
	}
	cmd := withRawOutput(m.more[m.issued-1], m.results)
	m.issued++
	return cmd, m.issued, true
}

func sse(w http.ResponseWriter, events ...[2]string) {
	w.Header().Set("Content-Type", "text/event-stream")
	bw := bufio.NewWriter(w)
	for _, e := range events {
		if e[0] != "" {
			fmt.Fprintf(bw, "event: %s\n", e[0])
		}
		fmt.Fprintf(bw, "data: %s\n\n", e[1])
	}
	bw.Flush()
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// textOf joins the text of a content that is a string or a list of text
// parts.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct{ Type, Text string }
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// anthropic answers a Messages request.
func (m *fakeModel) anthropic(w http.ResponseWriter, body []byte) {
	var req struct {
		Stream   bool `json:"stream"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct{ Name string } `json:"tools"`
	}
	json.Unmarshal(body, &req)
	tool := "Bash"
	for _, t := range req.Tools {
		if anthropicShellTools[t.Name] {
			tool = t.Name
			break
		}
	}
	answer := func(n int, input map[string]any) {
		m.anthropicAnswer(w, req.Stream, n, tool, input)
	}
	// Every result so far is in the conversation (Claude Code sends the
	// results of successive calls together, and may add text after them):
	// the ones not recorded yet are new.
	var results []string
	for _, msg := range req.Messages {
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(msg.Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results = append(results, textOf(b.Content))
			}
		}
	}
	if fresh := m.fresh(results); len(fresh) > 0 {
		for _, r := range fresh {
			m.record(r)
		}
		if cmd, n, ok := m.nextMore(); ok {
			answer(n, map[string]any{"command": cmd, "description": "Run the command"})
			return
		}
		answer(0, nil)
		return
	}
	for _, t := range req.Tools {
		if !anthropicShellTools[t.Name] {
			continue
		}
		if cmd, n, ok := m.first(); ok {
			answer(n, map[string]any{"command": cmd, "description": "Run the command"})
			return
		}
	}
	answer(0, nil)
}

// anthropicShellTools are the shell tools of the clients that speak the
// Messages API: Claude Code's Bash, opencode's and Copilot CLI's bash, Qwen
// Code's run_shell_command. A call is made to the one the request offers.
var anthropicShellTools = map[string]bool{"Bash": true, "bash": true, "run_shell_command": true}

func (m *fakeModel) anthropicAnswer(w http.ResponseWriter, stream bool, n int, tool string, toolInput map[string]any) {
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
	block := map[string]any{"type": "text", "text": "done"}
	start := map[string]any{"type": "text", "text": ""}
	delta := map[string]any{"type": "text_delta", "text": "done"}
	stop := "end_turn"
	if toolInput != nil {
		id := fmt.Sprintf("toolu_%02d", n)
		block = map[string]any{"type": "tool_use", "id": id, "name": tool, "input": toolInput}
		start = map[string]any{"type": "tool_use", "id": id, "name": tool, "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": js(toolInput)}
		stop = "tool_use"
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, js(map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-fake",
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage}))
		return
	}
	sse(w,
		[2]string{"message_start", js(map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-fake", "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})},
		[2]string{"content_block_start", js(map[string]any{"type": "content_block_start", "index": 0, "content_block": start})},
		[2]string{"content_block_delta", js(map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})},
		[2]string{"content_block_stop", js(map[string]any{"type": "content_block_stop", "index": 0})},
		[2]string{"message_delta", js(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})},
		[2]string{"message_stop", js(map[string]any{"type": "message_stop"})},
	)
}

// openai answers a Responses request. Its input holds the whole
// conversation: a result is the last item's.
func (m *fakeModel) openai(w http.ResponseWriter, body []byte) {
	var req struct {
		Input []map[string]json.RawMessage `json:"input"`
		Tools []struct{ Name string }      `json:"tools"`
	}
	json.Unmarshal(body, &req)
	call := func(cmd string, n int) bool {
		args := map[string]map[string]any{
			"exec_command":  {"cmd": cmd},
			"shell_command": {"command": cmd},
			"shell":         {"command": []string{"bash", "-lc", cmd}},
		}
		for _, t := range req.Tools {
			if a, ok := args[t.Name]; ok {
				m.openaiAnswer(w, map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%02d", n), "call_id": fmt.Sprintf("call_%02d", n),
					"name": t.Name, "arguments": js(a), "status": "completed"})
				return true
			}
		}
		return false
	}
	if n := len(req.Input); n > 0 {
		it := req.Input[n-1]
		var typ string
		json.Unmarshal(it["type"], &typ)
		if typ == "function_call_output" || typ == "custom_tool_call_output" {
			m.record(textOf(it["output"]))
			if cmd, n, ok := m.nextMore(); !ok || !call(cmd, n) {
				m.openaiAnswer(w, nil)
			}
			return
		}
	}
	for _, t := range req.Tools {
		if t.Name == "exec_command" || t.Name == "shell_command" || t.Name == "shell" {
			if cmd, n, ok := m.first(); ok && call(cmd, n) {
				return
			}
			break
		}
	}
	m.openaiAnswer(w, nil)
}

func (m *fakeModel) openaiAnswer(w http.ResponseWriter, item map[string]any) {
	if item == nil {
		item = map[string]any{"type": "message", "id": "msg_01", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "done", "annotations": []any{}}}}
	}
	resp := map[string]any{"id": "resp_01", "object": "response", "status": "completed", "model": "gpt-fake", "output": []any{item},
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}
	sse(w,
		[2]string{"response.created", js(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_01", "status": "in_progress"}})},
		[2]string{"response.output_item.added", js(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})},
		[2]string{"response.output_item.done", js(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})},
		[2]string{"response.completed", js(map[string]any{"type": "response.completed", "response": resp})},
	)
}

// gemini answers a generateContent request.
func (m *fakeModel) gemini(w http.ResponseWriter, stream bool, body []byte) {
	var req struct {
		Contents []struct {
			Parts []map[string]json.RawMessage `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct{ Name string } `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig struct {
			ResponseMimeType string `json:"responseMimeType"`
		} `json:"generationConfig"`
	}
	json.Unmarshal(body, &req)
	if req.GenerationConfig.ResponseMimeType == "application/json" {
		// Gemini CLI's own checks (the next speaker, and past 30 turns a
		// loop): an empty object is "nothing to report".
		m.geminiAnswer(w, stream, map[string]any{"text": "{}"})
		return
	}
	if n := len(req.Contents); n > 0 {
		for _, p := range req.Contents[n-1].Parts {
			if fr, ok := p["functionResponse"]; ok {
				var v struct {
					Response map[string]json.RawMessage `json:"response"`
				}
				json.Unmarshal(fr, &v)
				var out string
				if json.Unmarshal(v.Response["output"], &out) != nil {
					out = string(fr)
				}
				m.record(out)
				if cmd, _, ok := m.nextMore(); ok {
					m.geminiAnswer(w, stream, geminiCall(cmd))
					return
				}
				m.geminiAnswer(w, stream, nil)
				return
			}
		}
	}
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			if f.Name != "run_shell_command" {
				continue
			}
			if cmd, _, ok := m.first(); ok {
				m.geminiAnswer(w, stream, geminiCall(cmd))
				return
			}
		}
	}
	m.geminiAnswer(w, stream, nil)
}

func geminiCall(cmd string) map[string]any {
	return map[string]any{"functionCall": map[string]any{"name": "run_shell_command",
		"args": map[string]any{"command": cmd, "description": "Run the command"}}}
}

func (m *fakeModel) geminiAnswer(w http.ResponseWriter, stream bool, part map[string]any) {
	if part == nil {
		part = map[string]any{"text": "done"}
	}
	resp := map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}, "modelVersion": "gemini-fake"}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, js(resp))
		return
	}
	sse(w, [2]string{"", js(resp)})
}
