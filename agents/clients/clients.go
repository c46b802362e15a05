// Package clients holds what each agent client does with a command's
// output before its model reads it: how much it shows, and so how large a
// block may be without the client cutting it, and what the model would
// have read of the raw output.
//
// The figures were measured in the installed versions docs/agents.md names,
// with the end-to-end tests in agents/e2e, which fail when a client's cut
// moves. They are facts about other programs, so they live in one place.
package clients

// Name is a client as shrinkrun knows it: the value of --agent and of
// SHRINKRUN_AGENT.
type Name string

// The clients with a route that runs commands under shrinkrun.
const (
	Claude   Name = "claude"
	Codex    Name = "codex"
	Gemini   Name = "gemini"
	Opencode Name = "opencode"
	Copilot  Name = "copilot"
	Qwen     Name = "qwen"
)

// All lists the clients this package describes, in the order docs and
// messages use.
var All = []Name{Claude, Codex, Gemini, Opencode, Copilot, Qwen}

// Known reports whether n names a client this package describes.
func Known(n Name) bool {
	_, ok := limits[n]
	return ok
}

// limit is one client's treatment of a command's output.
type limit struct {
	// budget is the largest block shrinkrun prints for this client: under
	// the client's own cut with room for what the client adds around it.
	budget int
	// keep is how much of a larger output the client shows its model, in
	// bytes; 0 when it shows everything.
	keep int64
	// over is the size past which the client cuts.
	over int64
	// how says in words what the client does past over, for gain.
	how string
	// preview is set for a client that replaces output past over by a
	// preview of about this many bytes and the path of a file holding the
	// whole output: a block for such an output is sized to the preview
	// (BlockBudget), not to the cut.
	preview int
}

// The figures, from Claude Code 2.1.332, Codex CLI 0.171.0, Gemini CLI
// 0.61.0, opencode 1.18.33, Copilot CLI 1.0.102 and Qwen Code 0.24.4
// (docs/agents.md, "What each client shows"; agents/e2e TestClientLimits
// checks each cut, TestClientSizes measures outputs of 1 KB to 10 MB).
var limits = map[Name]limit{
	// Claude Code keeps up to 30,000 characters of a Bash result inline;
	// past that it saves the output to a file and shows a preview of about
	// 2,000 bytes with the file's path.
	Claude: {budget: 16 << 10, over: 30000, keep: 2048, preview: 2048, how: "Claude Code shows a 2 KB preview of output over 30,000 characters"},
	// Codex cuts the middle out of output over about 10,000 bytes for a
	// model it has no metadata for (a custom provider), and over 10,000
	// tokens, which it counts as 40,000 bytes, for the models it knows.
	// The block fits the smaller cut.
	Codex: {budget: 8 << 10, over: 10000, keep: 10000, how: "Codex shows about 10,000 bytes of larger output"},
	// Gemini CLI keeps the first 8,000 and the last 32,000 characters.
	Gemini: {budget: 16 << 10, over: 40000, keep: 40000, how: "Gemini CLI shows the first 8,000 and last 32,000 characters"},
	// opencode keeps the last 2,000 lines or 51,200 bytes of a command's
	// output, whichever is less, saves the whole to a file and names it
	// first.
	Opencode: {budget: 16 << 10, over: 51200, keep: 51200, how: "opencode shows the last 50 KB (or 2,000 lines) of larger output"},
	// Copilot CLI passes output under 20 KiB whole (its own "<shellId: N
	// completed with exit code N>" line after it); larger output goes to a
	// file, and the model gets its path and the first 500 characters.
	Copilot: {budget: 16 << 10, over: 20400, keep: 900, preview: 500, how: "Copilot CLI shows a 500-character preview of output over 20 KiB"},
	// Qwen Code passes a result of up to 30,000 characters whole, the
	// command's output with its "Command:", "Output:" and "Exit Code:"
	// lines; a larger one goes to a file, and the model gets its path and a
	// 4,000-character preview, a fifth from the head and the rest from the
	// tail.
	Qwen: {budget: 16 << 10, over: 29800, keep: 4500, preview: 4000, how: "Qwen Code shows a 4,000-character preview of output over 30,000 characters"},
}

// Budget is the block size that fits what the client shows, or 0 for an
// unknown client (the default budget then applies).
func Budget(n Name) int {
	return limits[n].budget
}

// previewTimes is how many times a client's preview a block for an output
// the client would replace by that preview may be, and minPreviewBudget
// the least such a block gets: enough for the header and every failure of
// a typical run, when the preview is very small (Copilot CLI's 500
// characters).
const (
	previewTimes     = 4
	minPreviewBudget = 4 << 10
)

// BlockBudget is the budget for a block that summarizes raw bytes of output
// in client n: Budget(n), or, for an output the client would itself replace
// by a preview and a file, a few times that preview (previewTimes, at
// least minPreviewBudget, never more than Budget), so that the agent pays
// about what the client's own preview costs while every failure and count
// still reaches it. 0 for an unknown client.
func BlockBudget(n Name, raw int64) int {
	l, ok := limits[n]
	if !ok || l.preview == 0 || raw <= l.over {
		return l.budget
	}
	return min(l.budget, max(previewTimes*l.preview, minPreviewBudget))
}

// Limit is the size in bytes past which the client cuts a command's output
// itself, and so where shrinkrun cuts an output no rule recognizes by its
// shape instead; 0 for an unknown client (shape.DefaultLimit then applies,
// docs/agents.md "Where output is cut"). The clients count characters,
// never more than bytes, so the byte figure cuts no later than the client
// would.
func Limit(n Name) int {
	return int(limits[n].over)
}

// Shown is how many of an output's bytes the client's model would have
// read had shrinkrun printed it raw, and, when that is less than all of
// them, what the client does instead. For an unknown client it is all of
// them.
func Shown(n Name, raw int64) (shown int64, how string) {
	l, ok := limits[n]
	if !ok || l.over == 0 || raw <= l.over {
		return raw, ""
	}
	return min(raw, l.keep), l.how
}
