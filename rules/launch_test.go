package rules

import (
	"slices"
	"strings"
	"testing"
)

// TestLaunchers: a recognized tool stays recognized behind a launcher that
// only finds and starts it, its rule reads the tool's own argv, and any
// launcher option, or a path outside the tool directories, passes through
// (issue 17 item 5).
func TestLaunchers(t *testing.T) {
	for _, c := range []struct {
		in, rule, tool string
	}{
		{"./node_modules/.bin/vitest run", "bash.vitest", "vitest run"},
		{"node_modules/.bin/jest --ci", "bash.jest", "jest --ci"},
		{"web/node_modules/.bin/tsc --noEmit", "bash.tsc", "tsc --noEmit"},
		{".venv/bin/pytest -q", "bash.pytest", "pytest -q"},
		{"venv/bin/python -m pytest", "bash.pytest", "python -m pytest"},
		{"/usr/bin/pytest", "bash.pytest", "pytest"},
		{"/usr/local/go/bin/go test ./...", "bash.go_test", "go test ./..."},
		{"/usr/bin/git status", "bash.git_status", "git status"},
		{"pnpm exec jest", "bash.jest", "jest"},
		{"yarn vitest run", "bash.vitest", "vitest run"},
		{"yarn test", "bash.npm_test", "yarn test"},
		{"bunx vitest run", "bash.vitest", "vitest run"},
		{"uv run pytest -x", "bash.pytest", "pytest -x"},
		{"uv run python -m pytest", "bash.pytest", "python -m pytest"},
		{"poetry run pytest", "bash.pytest", "pytest"},
		{"pipx run mypy .", "bash.mypy", "mypy ."},
		{"npx vitest run", "bash.vitest", "npx vitest run"},
		{"RUST_BACKTRACE=1 /usr/bin/git diff 2>&1 | tail -5", "bash.git_diff", "git diff"},

		{"uv run --with x pytest", "", ""},
		{"pnpm exec --filter web jest", "", ""},
		{"poetry run -v pytest", "", ""},
		{"uv pytest", "", ""},
		{"uv run", "", ""},
		{"uv run ./pytest", "", ""},
		{"/opt/x/pytest", "", ""},
		{"./pytest", "", ""},
		{"bin/git status", "", ""},
		{"/usr/bin/ls -la", "bash.ls", "ls -la"},
		{".venv/bin/pytest --collect-only", "", ""},
		{"pnpm exec pytest --co", "", ""},
	} {
		r := String(c.in)
		if r.Rule != c.rule {
			t.Errorf("String(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.rule)
			continue
		}
		if c.rule == "" {
			if r.Reason == "" {
				t.Errorf("String(%q) passes through without a reason", c.in)
			}
			continue
		}
		if got := strings.Join(r.Tool(), " "); got != c.tool {
			t.Errorf("String(%q).Tool() = %q, want %q", c.in, got, c.tool)
		}
		if a := Argv(strings.Fields(c.in)); !strings.Contains(c.in, "|") && a.Rule != c.rule {
			t.Errorf("Argv(%q).Rule = %q, want %q", c.in, a.Rule, c.rule)
		}
	}
}

// TestLauncherReasonPosition: the word at fault is counted in the whole
// stage, launcher included.
func TestLauncherReasonPosition(t *testing.T) {
	r := String("uv run pytest --collect-only")
	if r.Rule != "" || r.Pos != "1:15" {
		t.Errorf("got %q at %q (%s), want a pass-through at 1:15", r.Rule, r.Pos, r.Reason)
	}
	if !slices.Equal(r.Stages[0], []string{"uv", "run", "pytest", "--collect-only"}) {
		t.Errorf("Stages[0] = %q: the stage runs as written", r.Stages[0])
	}
}
