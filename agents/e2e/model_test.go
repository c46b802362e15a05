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
//   - Anthropic Messages (/v1/messages, SSE when asked), tool Bash;
//   - OpenAI Responses (/v1/responses, SSE), tool exec_command (or the
//     older shell and shell_command);
//   - Gemini generateContent and streamGenerateContent, tool
//     run_shell_command.
type fakeModel struct {
	command string
	srv     *httptest.Server

	mu      sync.Mutex
	calls   int
	results []string
	paths   []string
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

func (m *fakeModel) record(result string) {
	m.mu.Lock()
	m.results = append(m.results, result)
	m.mu.Unlock()
}

// callOnce reports whether this request gets the tool call: only the
// first that offers the tool.
func (m *fakeModel) callOnce() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	return m.calls == 1
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
	if n := len(req.Messages); n > 0 {
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(req.Messages[n-1].Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_result" {
				m.record(textOf(b.Content))
				m.anthropicAnswer(w, req.Stream, nil)
				return
			}
		}
	}
	for _, t := range req.Tools {
		if t.Name == "Bash" && m.callOnce() {
			m.anthropicAnswer(w, req.Stream, map[string]any{"command": m.command, "description": "Run the command"})
			return
		}
	}
	m.anthropicAnswer(w, req.Stream, nil)
}

func (m *fakeModel) anthropicAnswer(w http.ResponseWriter, stream bool, toolInput map[string]any) {
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
	block := map[string]any{"type": "text", "text": "done"}
	start := map[string]any{"type": "text", "text": ""}
	delta := map[string]any{"type": "text_delta", "text": "done"}
	stop := "end_turn"
	if toolInput != nil {
		block = map[string]any{"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": toolInput}
		start = map[string]any{"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": map[string]any{}}
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

// openai answers a Responses request.
func (m *fakeModel) openai(w http.ResponseWriter, body []byte) {
	var req struct {
		Input []map[string]json.RawMessage `json:"input"`
		Tools []struct{ Name string }      `json:"tools"`
	}
	json.Unmarshal(body, &req)
	for _, it := range req.Input {
		var typ string
		json.Unmarshal(it["type"], &typ)
		if typ == "function_call_output" || typ == "custom_tool_call_output" {
			m.record(textOf(it["output"]))
			m.openaiAnswer(w, nil)
			return
		}
	}
	args := map[string]map[string]any{
		"exec_command":  {"cmd": m.command},
		"shell_command": {"command": m.command},
		"shell":         {"command": []string{"bash", "-lc", m.command}},
	}
	for _, t := range req.Tools {
		if a, ok := args[t.Name]; ok && m.callOnce() {
			m.openaiAnswer(w, map[string]any{"type": "function_call", "id": "fc_01", "call_id": "call_01", "name": t.Name, "arguments": js(a), "status": "completed"})
			return
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
	}
	json.Unmarshal(body, &req)
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
				m.geminiAnswer(w, stream, nil)
				return
			}
		}
	}
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			if f.Name == "run_shell_command" && m.callOnce() {
				m.geminiAnswer(w, stream, map[string]any{"functionCall": map[string]any{"name": "run_shell_command",
					"args": map[string]any{"command": m.command, "description": "Run the command"}}})
				return
			}
		}
	}
	m.geminiAnswer(w, stream, nil)
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
