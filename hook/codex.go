package hook

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
	"github.com/shrinkrun/shrinkrun/deny"
)

// codexPolicy guards Codex's command rules. Codex applies a rewrite only
// next to permissionDecision "allow", and it matches its prefix_rule
// entries against the rewritten command, which starts with shrinkrun: a
// rule about git or cargo (allow, prompt or forbidden) would stop applying,
// and a rule about shrinkrun would start to. So the hook answers only when
// it has read every rules file Codex could load and none of their rules
// can concern the command's programs or shrinkrun; then no rule applied to
// the original, none applies to the rewrite, and the outcome is Codex's
// sandbox and approval policy either way.
//
// The files read are a superset of Codex's: /etc/codex/rules, the user's
// rules ($CODEX_HOME, else ~/.codex), and .codex/rules in the working
// directory and every directory above it (Codex loads the project layers
// from the project root down to the working directory, when the project is
// trusted). Of a rules directory only the regular files count, as Codex
// loads them (a link or a FIFO is skipped), and each is read with the
// bounds of deny.ReadFile, since a cloned repository supplies them. A file
// outside the literal subset deny.ParseCodexRules reads, or one that cannot be
// read, leaves the command alone; so does a requirements.toml that sets
// prefix rules (managed policy).
func codexPolicy(env Env, req *request, c classify.Result) policy {
	if env.CodexSystem != "" {
		data, err := deny.ReadFile(filepath.Join(env.CodexSystem, "requirements.toml"))
		switch {
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return policy{leave: "cannot read Codex requirements: " + err.Error()}
		case strings.Contains(string(data), "prefix_rules"):
			return policy{leave: "Codex's requirements.toml sets prefix rules"}
		}
	}
	for _, dir := range deny.CodexRulesDirs(env.CodexSystem, env.Home, env.Getenv("CODEX_HOME"), req.cwd) {
		files, err := deny.ListFiles(dir, ".rules")
		if err != nil {
			return policy{leave: "cannot list Codex rules: " + err.Error()}
		}
		for _, f := range files {
			data, err := deny.ReadFile(f)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return policy{leave: "cannot read Codex rules: " + err.Error()}
			}
			rules, err := deny.ParseCodexRules(string(data))
			if err != nil {
				return policy{leave: "Codex rules in " + f + " are not all literal prefix_rule calls (" + err.Error() + ")"}
			}
			if w := concerns(rules, c); w != "" {
				return policy{leave: "a Codex rule in " + f + " concerns " + w}
			}
		}
	}
	return policy{reason: "no Codex rule concerns it: Codex's sandbox and approval policy apply to the rewritten command"}
}

// concerns returns a program of the command, or shrinkrun, or a shell,
// that some rule's first word could match, or "". The shells count because
// Codex matches a script it cannot take apart into plain commands (one
// with 2>&1, say) as the whole `bash -lc SCRIPT`: a rule about bash could
// deny the original, and never the rewrite.
func concerns(rules []deny.CodexRule, c classify.Result) string {
	words := []string{"shrinkrun", "bash", "sh", "zsh"}
	for _, st := range c.Stages {
		words = append(words, st[0], filepath.Base(st[0]))
	}
	for _, r := range rules {
		for _, alt := range r.Pattern[0] {
			for _, w := range words {
				if alt == w || filepath.Base(alt) == w {
					return w
				}
			}
		}
	}
	return ""
}
