package hook

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/shrinkrun/shrinkrun/classify"
)

// codexPolicy guards Codex's command rules. Codex's "allow" next to a
// rewrite grants nothing (the rewritten command still meets the sandbox and
// the approval policy), but Codex matches its prefix_rule entries against
// the rewritten command, which starts with shrinkrun: a rule about git or
// cargo (allow, prompt or forbidden) would stop applying. The rules files
// are Starlark, and reading them fully is not worth the risk of reading
// them wrong, so any rules file that mentions a stage's program as a quoted
// word, such as "git", leaves the command alone.
func codexPolicy(env Env, req *request, c classify.Result) policy {
	for _, dir := range codexRulesDirs(env, req.cwd) {
		files, err := filepath.Glob(filepath.Join(dir, "*.rules"))
		if err != nil {
			return policy{leave: "cannot list Codex rules: " + err.Error()}
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return policy{leave: "cannot read Codex rules: " + err.Error()}
			}
			for _, st := range c.Stages {
				w := st[0]
				if strings.Contains(string(data), `"`+w+`"`) || strings.Contains(string(data), `'`+w+`'`) {
					return policy{leave: "Codex rules in " + f + " mention " + w}
				}
			}
		}
	}
	return policy{reason: "Codex applies its sandbox and approval policy to the rewritten command"}
}

// codexRulesDirs are the rules/ directories of Codex's config layers: the
// system layer, the user layer ($CODEX_HOME, else ~/.codex) and the
// project's .codex.
func codexRulesDirs(env Env, cwd string) []string {
	var dirs []string
	if env.CodexSystem != "" {
		dirs = append(dirs, filepath.Join(env.CodexSystem, "rules"))
	}
	home := env.Getenv("CODEX_HOME")
	if home == "" && env.Home != "" {
		home = filepath.Join(env.Home, ".codex")
	}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, "rules"))
	}
	if filepath.IsAbs(cwd) {
		dirs = append(dirs, filepath.Join(cwd, ".codex", "rules"))
	}
	return dirs
}
