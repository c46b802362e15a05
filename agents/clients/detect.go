package clients

// markers are the variables each client sets in the environment of the
// shell its tool runs commands in, read in the installed versions
// (docs/agents.md, "Which client runs this shell") and checked by
// agents/e2e TestDetect, where each client runs env for the fake model.
// Each is one the client sets for its commands and nothing else sets:
//
//   - Claude Code sets CLAUDECODE=1 for its Bash tool, hooks and MCP
//     servers;
//   - Codex sets CODEX_THREAD_ID (with CODEX_SESSION_ID and
//     CODEX_TOOL_CALL_ID) for exec_command;
//   - Gemini CLI sets GEMINI_CLI=1 for run_shell_command;
//   - opencode sets OPENCODE=1 (with AGENT=1) in its own environment,
//     which its bash tool passes on;
//   - Copilot CLI sets COPILOT_CLI=1 for its shell tool;
//   - Qwen Code sets QWEN_CODE=1 for run_shell_command.
var markers = []struct {
	name Name
	env  string
}{
	{Claude, "CLAUDECODE"},
	{Codex, "CODEX_THREAD_ID"},
	{Gemini, "GEMINI_CLI"},
	{Opencode, "OPENCODE"},
	{Copilot, "COPILOT_CLI"},
	{Qwen, "QWEN_CODE"},
}

// Marked lists the clients whose marker is set in the environment, in a
// fixed order. More than one means clients were started inside each
// other's shells (a codex run from Claude Code's Bash tool), and the
// environment does not say which is innermost.
func Marked(getenv func(string) string) []Name {
	var names []Name
	for _, m := range markers {
		if getenv(m.env) != "" {
			names = append(names, m.name)
		}
	}
	return names
}

// Detect names the client whose shell this is, from the markers it sets in
// its commands' environment, or "" when none or more than one is set.
// --agent and SHRINKRUN_AGENT, when given, say it instead: Detect is what
// applies when neither does.
func Detect(getenv func(string) string) Name {
	if m := Marked(getenv); len(m) == 1 {
		return m[0]
	}
	return ""
}
