// Package deny reads the deny rules of the agent clients shrinkrun runs
// under and tells whether a client would deny a command typed without
// shrinkrun.
//
// On the prompt route the model itself types `shrinkrun -- git push`; the
// client decides on that text, which starts with shrinkrun, so a rule the
// user wrote about `git push` does not apply to it. shrinkrun then asks
// this package, before it runs anything, whether the client would have
// denied `git push`, and refuses it if so. Deny rules only ever remove, so
// reading them from a project's own files is safe; allow rules are never
// used.
//
// Each client matches differently; the matchers follow the installed
// versions (Claude Code 2.1.332, Codex CLI 0.171.0, Gemini CLI 0.61.0) and
// are held to the decisions those clients made on the same rules
// (testdata/decisions, recorded by agents/e2e). Where shrinkrun cannot
// compute what a client computes (an expansion it does not evaluate, a
// file it cannot read, a regular expression it cannot compile), it denies:
// a refusal costs the model a retry without shrinkrun, where the client
// decides; a wrong pass would run what the user forbade. docs/agents.md
// describes each client's rules and the known differences.
package deny
