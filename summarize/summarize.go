// Package summarize turns the captured output of a recognized command into the
// curated block: a fixed header followed by a rule-specific body.
//
// Every rule is a pure function from a Run to a Body. Rules only ever copy lines
// from the raw output or count things in it; the Body type is the only way to
// emit text, so caps and their "left out" counts are applied in one place.
package summarize

// Run is one captured execution of a recognized command, as a rule sees it.
type Run struct {
	Rule    string   // rule id, e.g. "bash.git_status"
	Command string   // the command text as the user wrote it, trimmed
	Argv    []string // words of the first pipeline stage, assignments removed

	// Stdout and Stderr are the captured bytes. They must not be modified
	// while a rule runs: rules read them as strings without copying. When a stream was larger than
	// the capture limit they hold its head and tail joined at line boundaries.
	Stdout, Stderr []byte
	// StdoutBytes and StderrBytes count every byte the child wrote.
	StdoutBytes, StderrBytes int64
	StdoutTruncated          bool
	StderrTruncated          bool

	// ExitCode is the child's exit code; Exited is false when there is none
	// (killed by a signal, never started), which the header prints as null.
	ExitCode int
	Exited   bool

	// Budget bounds the whole block in bytes; 0 means DefaultBudget. Rules
	// with an excerpt of variable size (git_diff) size it from what the
	// budget leaves.
	Budget int

	// RawOutput tells where the raw output is kept, for the block's last
	// line: "shrinkrun show ID", or why it was not kept. Empty omits it.
	RawOutput string

	split  [2]splitStream // Stdout's and Stderr's lines, for linesOf
	goText [2]splitStream // their text lines, for goTextOf
}

// DefaultBudget is the block size limit when none is given: about 4k tokens,
// large enough for a whole small diff, small against the outputs worth
// summarizing.
const DefaultBudget = 16 << 10

func (r *Run) budget() int {
	if r.Budget > 0 {
		return r.Budget
	}
	return DefaultBudget
}

// bodyRoom is how many bytes the budget leaves for the body: Block puts the
// header before it and the raw_output line after it. Rules with long lists
// size them from it so they choose what to leave out, before fit must.
func (r *Run) bodyRoom() int {
	room := r.budget() - len(header(r))
	if r.RawOutput != "" {
		room -= len(footer(r))
	}
	return room
}

func footer(r *Run) string {
	return "raw_output: " + oneLine(r.RawOutput) + "\n"
}

// Func is a rule: a pure function from captured output to a body.
type Func func(r *Run) *Body

// rules maps every rule id that classify can return to its summarizer.
// Each family of rules lists its own in its file.
var rules = merge(coreRules, goRules, pythonRules, nodeRules)

var coreRules = map[string]Func{
	"bash.git_status":  gitStatus,
	"bash.git_diff":    gitDiff,
	"bash.git_log":     gitLog,
	"bash.cargo_check": cargoCheck,
	"bash.cargo_test":  cargoTest,

	"bash.git_push":     gitPush,
	"bash.git_pull":     gitPull,
	"bash.git_fetch":    gitFetch,
	"bash.git_clone":    gitClone,
	"bash.git_show":     gitShow,
	"bash.cargo_build":  cargoBuild,
	"bash.cargo_clippy": cargoClippy,
}

func merge(families ...map[string]Func) map[string]Func {
	all := map[string]Func{}
	for _, f := range families {
		for id, fn := range f {
			all[id] = fn
		}
	}
	return all
}

// Has reports whether a summarizer exists for rule.
func Has(rule string) bool {
	_, ok := rules[rule]
	return ok
}

// readable returns r with its streams as Readable shows them, or r itself
// when they have nothing a terminal would hide.
func readable(r *Run) *Run {
	out, errs := Readable(r.Stdout), Readable(r.Stderr)
	if sameBytes(out, r.Stdout) && sameBytes(errs, r.Stderr) {
		return r
	}
	plain := *r
	plain.Stdout, plain.Stderr = out, errs
	return &plain
}

// Block renders the curated block for r: the header, then the rule's body.
// It reports false when no rule of that id exists, or when the rule failed
// on this output (a panic is recovered): the caller then prints the raw
// output, so a bug in a rule can never cost the user the output or the exit
// status. The fuzz tests treat false as a failure. Rules read the streams
// as a terminal would show them (Readable); the header counts the raw bytes.
func Block(r *Run) (block []byte, ok bool) {
	f, ok := rules[r.Rule]
	if !ok {
		return nil, false
	}
	defer func() {
		if recover() != nil {
			block, ok = nil, false
		}
	}()
	r = readable(r)
	body := f(r)
	out := header(r)
	var foot string
	if r.RawOutput != "" {
		foot = footer(r)
	}
	room := r.budget() - len(out) - len(foot)
	body.fit(room)
	rendered := body.render()
	if f := findFailures(r); len(f.required) > 0 {
		if _, ok := accounted(f, rendered); !ok {
			body = fallbackBody(r, f)
			body.fit(room)
			rendered = body.render()
		}
	}
	out = append(out, rendered...)
	return append(out, foot...), true
}
