// Package classify decides, without running anything, whether a command is
// one that shrinkrun summarizes and which rule applies. It is pure: it runs
// nothing, and reads of the world only what an Env gives it (what a glob
// lists, what ~ and $(nproc) stand for).
//
// String mode parses the command with a real shell parser and accepts only
// the AST node types docs/classify.md allows (the shape of a recognized
// command), its words expanded as bash would; anything else passes
// through. Split takes a list of such commands apart, for the -c form to
// run part by part. Argv mode classifies words that the caller's shell
// already split.
package classify

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Result is the classification of one command.
type Result struct {
	// Rule is the matched rule id, or "" when the command passes through.
	Rule string
	// Stages holds the argv of each pipeline stage, assignments and the
	// allowed fd redirects removed. Empty when the command could not be
	// taken apart (parse error, unsupported construct); set, with Rule
	// empty, when it could but no rule matches its first stage.
	Stages [][]string
	// Assigns holds the leading NAME=value words of the first stage.
	Assigns []string
	// Reason says why the command passes through; empty when Rule is set.
	Reason string
	// ToStderr is true when a 1>&2 sends the command's output and errors
	// to stderr: what the caller sees of it arrives there, and the summary
	// must read it from there.
	ToStderr bool
	// Filters describes the pipeline stages after the first, in order:
	// what reaches the caller's stdout is the command's output (its stdout,
	// or both streams after a 2>&1) cut by each of them.
	Filters []Filter
	// Pos is the 1-based "line:col" of the token that caused the
	// pass-through in string mode, or "" when there is none.
	Pos string
	// Plain tells that bash would run exactly Stages[0] with Assigns: one
	// command, no pipe, no redirect, and no word whose value came from the
	// world (a glob, `~`, `$(nproc)`), only quotes, escapes and braces
	// taken off. The command may then be run without bash, where nothing
	// else bash does would show (docs/classify.md, "Without bash").
	Plain bool

	// discarded is the redirect that discarded the first stage's stderr,
	// for Cuts.
	discarded string

	// translated is the matcher's Verdict.Translated, for InLocale.
	translated bool
	// launcher is the matcher's Verdict.Launcher, for Tool.
	launcher int
	// environ is the matcher's Verdict.Environ, for InEnviron.
	environ func(getenv func(string) string) string
}

// Tool is the first stage as its rule reads it: without the words that
// only launch the tool (pnpm exec, uv run), and the tool's name without the
// directory it was named in (./node_modules/.bin/vitest is vitest). The
// header's command stays what was written.
func (r Result) Tool() []string {
	if len(r.Stages) == 0 {
		return nil
	}
	argv := r.Stages[0][r.launcher:]
	if i := strings.LastIndexByte(argv[0], '/'); i >= 0 {
		argv = append([]string{argv[0][i+1:]}, argv[1:]...)
	}
	return argv
}

// String classifies a command string (the -c form) as one command; m
// picks the rule. Words are expanded as bash would where that needs
// nothing of the world (quotes, escapes, braces); a glob, `~` or
// `$(nproc)` passes through, since nothing says where the command runs:
// Split and Part.Classify take an Env for that.
func String(src string, m Matcher) Result {
	// bash keeps a carriage return inside the word it ends up in, while
	// editors and agents read it as a line break: refuse either reading.
	// A NUL byte cannot reach bash -c at all.
	if i := strings.IndexAny(src, "\r\x00"); i >= 0 {
		reason := "carriage return"
		if src[i] == 0 {
			reason = "NUL byte"
		}
		return Result{Reason: reason, Pos: offsetPos(src, i)}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return parseFailure(err)
	}
	c, r := takeApart(src, f, Env{})
	if r != nil {
		return Result{Reason: r.reason, Pos: posString(r.pos)}
	}
	return match(c, m)
}

// match asks m for the rule of a command taken apart.
func match(c *command, m Matcher) Result {
	res := Result{Stages: c.stages, Assigns: c.assigns, ToStderr: c.toStderr, Filters: c.filters,
		Plain: c.plain, discarded: c.discarded}
	v := m(c.stages[0])
	if v.Rule == "" {
		res.Reason, res.Pos = v.Reason, posString(c.at[min(v.At, len(c.at)-1)])
	}
	res.Rule, res.translated, res.launcher, res.environ = v.Rule, v.Translated, v.Launcher, v.Environ
	return res
}

// Argv classifies words already split by the caller's shell. Every word is
// taken literally: "|" or "2>&1" is an argument, not an operator. Leading
// NAME=value words are assignments, as the shell would read them. m picks
// the rule.
func Argv(argv []string, m Matcher) Result {
	assigns, _ := SplitAssigns(argv)
	n := len(assigns)
	var res Result
	if n > 0 {
		res.Assigns = slices.Clone(assigns)
	}
	switch {
	case len(argv) == 0:
		res.Reason = "empty command"
		return res
	case n == len(argv):
		res.Reason = "assignment without a command"
		return res
	}
	res.Stages = [][]string{slices.Clone(argv[n:])}
	v := m(res.Stages[0])
	res.Rule, res.Reason, res.translated, res.launcher, res.environ = v.Rule, v.Reason, v.Translated, v.Launcher, v.Environ
	return res
}

// Explain renders r for --explain: the rule that matched, or the reason the
// command passes through, prefixed by the position when there is one.
func (r Result) Explain() string {
	if r.Rule != "" {
		return "rule " + r.Rule
	}
	if r.Pos != "" {
		return r.Pos + ": " + r.Reason + "; passing through"
	}
	return r.Reason + "; passing through"
}

// SplitAssigns separates the leading NAME=value words of argv, which a
// shell would take as assignments for the command, from the command.
func SplitAssigns(argv []string) (assigns, command []string) {
	n := 0
	for n < len(argv) && isAssignment(argv[n]) {
		n++
	}
	return argv[:n], argv[n:]
}

// isAssignment reports whether an argv word would be a NAME=value assignment
// if it led a shell command.
func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	return ok && syntax.ValidName(name)
}

// posString renders a parser position as "line:col", or "" when the parser
// gave none.
func posString(p syntax.Pos) string {
	if !p.IsValid() {
		return ""
	}
	return p.String()
}

// offsetPos renders a byte offset of src as the parser's 1-based "line:col".
func offsetPos(src string, offset int) string {
	line := 1 + strings.Count(src[:offset], "\n")
	col := offset - strings.LastIndexByte(src[:offset], '\n')
	return fmt.Sprintf("%d:%d", line, col)
}
