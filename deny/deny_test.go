package deny

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/agents/clients"
)

// starPattern reads a test pattern: * is a star, anything else a byte.
func starPattern(s string) pattern {
	var p pattern
	for i := 0; i < len(s); i++ {
		if s[i] == '*' {
			p = append(p, star)
		} else {
			p = append(p, elem{b: s[i]})
		}
	}
	return p
}

// patternRegexp is the oracle for one string: the pattern as a regular
// expression.
func patternRegexp(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for _, part := range strings.Split(p, "*") {
		b.WriteString(regexp.QuoteMeta(part))
		b.WriteString(".*")
	}
	return regexp.MustCompile(strings.TrimSuffix(b.String(), ".*") + "$")
}

// FuzzIntersects holds intersects to a search of every string over the
// patterns' bytes up to the length a witness needs: when some string
// matches both, one no longer than all their literal bytes together does.
func FuzzIntersects(f *testing.F) {
	for _, s := range [][2]string{{"git push", "git push"}, {"git push* ", "git *"}, {"a*b", "*c*"}, {"**", ""}, {"ab*", "*ba"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		clean := func(s string) string {
			s = strings.Map(func(r rune) rune {
				if r == '*' || r == 'a' || r == 'b' {
					return r
				}
				return 'a'
			}, s)
			return s[:min(len(s), 7)]
		}
		a, b = clean(a), clean(b)
		limit := len(strings.ReplaceAll(a+b, "*", ""))
		ra, rb := patternRegexp(a), patternRegexp(b)
		want := false
		var search func(s string)
		search = func(s string) {
			if want {
				return
			}
			if ra.MatchString(s) && rb.MatchString(s) {
				want = true
				return
			}
			if len(s) < limit {
				search(s + "a")
				search(s + "b")
			}
		}
		search("")
		if got := intersects(starPattern(a), starPattern(b)); got != want {
			t.Fatalf("intersects(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}

func TestWordPattern(t *testing.T) {
	for _, tc := range []struct{ word, want string }{
		{`push`, "push"},
		{`"push"`, "push"},
		{`'pu'sh`, "push"},
		{`pu\sh`, "push"},
		{`"a\"b\$c"`, `a"b$c`},
		{`$X`, "*"},
		{`--x=$Y`, "--x=*"},
		{`"$X"y`, "*y"},
		{`pu*`, "pu*"},
		{`a?b`, "a*b"},
		{`[`, "["},
		{`x[ab]y`, "x*y"},
		{`{a,b}c`, "*c"},
		{`{x}`, "{x}"},
		{`~/x`, "*/x"},
		{`a~b`, "a~b"},
		{`$'a\tb'`, "*"},
		{`$(echo x)`, "*"},
	} {
		s := parse("cmd " + tc.word)
		if s.file == nil || len(s.cmds) == 0 {
			t.Fatalf("%q does not parse", tc.word)
		}
		got := s.cmds[0].words[1]
		if got.key() != starPattern(tc.want).key() {
			t.Errorf("%s: %v, want %q", tc.word, got, tc.want)
		}
	}
}

func TestUnwrap(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"timeout 5 git push", "git push"},
		{"timeout -k 3 --signal=KILL 5s git push", "git push"},
		{"timeout --foreground 1.5m -- git push", "-- git push"},
		{"timeout git push", ""},
		{"nohup -- git push", "git push"},
		{"nice -n 10 git push", "git push"},
		{"nice -5 git push", "git push"},
		{"nohup git push", "git push"},
		{"stdbuf -oL -e 0 git push", "git push"},
		{"env -i -u HOME A=1 B=2 git push", "git push"},
		{"env -- git push", "git push"},
		{"command -p git push", "git push"},
		{"command -v git", ""},
		{"sudo -u root -E A=1 git push", "git push"},
		{"xargs -n 1 -I{} git push", "git push"},
		{"xargs -0 git push", "git push"},
		{"git push", ""},
		{"env", ""},
	} {
		s := parse(tc.in)
		got := unwrap(s.cmds[0].words)
		var text string
		if got != nil {
			text, _ = join(got, " ").static()
		}
		if text != tc.want {
			t.Errorf("unwrap(%q) = %q, want %q", tc.in, text, tc.want)
		}
	}
}

func TestStripShellWrapper(t *testing.T) {
	for in, want := range map[string]string{
		`bash -c 'git push'`:           "git push",
		`/bin/sh -c "git push origin"`: "git push origin",
		`zsh  -c  git push`:            "git push",
		`BASH -c 'x'`:                  "x",
		`sh -c "a \"b\""`:              `a "b"`,
		`bash -lc 'git push'`:          `bash -lc 'git push'`,
		`git push`:                     "git push",
	} {
		if got := stripShellWrapper(in); got != want {
			t.Errorf("stripShellWrapper(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJSString(t *testing.T) {
	for in, want := range map[string]string{
		`git "push"`:    `"git \"push\""`,
		"a\tb\n\x01<&>": `"a\tb\n\u0001<&>"`,
		"é\u2028":       "\"é\u2028\"",
		"\xff":          "\"\uFFFD\"",
		`back\slash`:    `"back\\slash"`,
		"":              `""`,
	} {
		if got := jsString(in); got != want {
			t.Errorf("jsString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestParseClaudeSettings(t *testing.T) {
	for _, tc := range []struct {
		json string
		want []string
		err  bool
	}{
		{`{"permissions": {"deny": ["Bash(git push:*)", "Read(x)"], "allow": ["Bash"]}}`, []string{"Bash(git push:*)", "Read(x)"}, false},
		// Keys are exact, as JSON.parse reads them: "PERMISSIONS" is not
		// permissions, and an empty one after does not hide the first.
		{`{"permissions": {"deny": ["Bash(a:*)"]}, "PERMISSIONS": {"deny": []}, "Permissions": {"Deny": ["Bash(b:*)"]}}`, []string{"Bash(a:*)"}, false},
		// A repeated key: both count, deny rules only remove.
		{`{"permissions": {"deny": ["Bash(a:*)"]}, "permissions": {"deny": ["Bash(b:*)"]}}`, []string{"Bash(a:*)", "Bash(b:*)"}, false},
		{`{"permissions": null}`, nil, false},
		{`{"permissions": {"deny": ["Bash(a:*)", 3, null]}}`, []string{"Bash(a:*)"}, false},
		{`{"permissions": {"deny": "Bash"}}`, nil, true},
		{`{"permissions": 3}`, nil, true},
		{`[]`, nil, true},
		{`{} {}`, nil, true},
		{`{"a": 1,}`, nil, true},
	} {
		got, err := parseClaudeSettings([]byte(tc.json))
		if (err != nil) != tc.err || !tc.err && !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q (error %v)", tc.json, got, err, tc.want, tc.err)
		}
	}
}

func TestClaudeRules(t *testing.T) {
	rules := func(lines ...string) []claudeRule {
		var out []claudeRule
		for _, l := range lines {
			if r, ok := parseClaudeRule(l); ok {
				out = append(out, r)
			}
		}
		return out
	}
	for _, tc := range []struct {
		rules []string
		cmd   string
		deny  bool
	}{
		{[]string{"Bash"}, "anything", true},
		{[]string{"Bash()"}, "anything", true},
		{[]string{"Bash(*)"}, "anything", true},
		{[]string{"Read(x)", "WebFetch"}, "git push", false},
		{[]string{"Bash(git push:*)"}, "git push --force", true},
		{[]string{"Bash(git push:*)"}, "cd sub && git push", true},
		{[]string{"Bash(git push:*)"}, "git log --grep push", false},
		{[]string{"Bash(git   push:*)"}, "git push", true},
		{[]string{"Bash(rm -rf *)"}, "rm -rf build", true},
		{[]string{"Bash(rm -rf *)"}, "rm -rf", true},
		{[]string{"Bash(rm -rf *)"}, "rm -r build", false},
		{[]string{`Bash(echo \*)`}, "echo *", true},
		{[]string{`Bash(echo \*)`}, "echo x", false},
		{[]string{"Bash(git * main)"}, "git push origin main", true},
		{[]string{"Bash(git * main)"}, "git push origin dev", false},
		{[]string{"Bash(deploy)"}, "deploy", true},
		{[]string{"Bash(deploy)"}, "deploy x", false},
		// A program shrinkrun cannot name may be any.
		{[]string{"Bash(git push:*)"}, "$GIT push", true},
		{[]string{"Bash(git push:*)"}, "git status", false},
		{[]string{"Bash(git push:*)"}, "git 'push", true}, // does not parse: what runs is unknown
	} {
		_, _, got := claudeDenies(rules(tc.rules...), parse(tc.cmd))
		if got != tc.deny {
			t.Errorf("%q with %q: denied=%v, want %v", tc.cmd, tc.rules, got, tc.deny)
		}
	}
}

// tree writes files (path: content) under root.
func tree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLoad checks where each client's rules are read from, and that a
// file that exists but cannot be read denies every command.
func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name   string
		client clients.Name
		files  map[string]string
		env    map[string]string
		deny   []string
		run    []string
		broken string
	}{
		{name: "claude: managed, drop-in, user, project and local in the directories above", client: clients.Claude, files: map[string]string{
			"system/etc/claude-code/managed-settings.json":     `{"permissions": {"deny": ["Bash(m1:*)"]}}`,
			"system/etc/claude-code/managed-settings.d/a.json": `{"permissions": {"deny": ["Bash(m2:*)"]}}`,
			"home/.claude/settings.json":                       `{"permissions": {"deny": ["Bash(u:*)"]}}`,
			"home/repo/.claude/settings.json":                  `{"permissions": {"deny": ["Bash(p:*)"]}}`,
			"home/repo/.claude/settings.local.json":            `{"permissions": {"deny": ["Bash(l:*)"]}}`,
			"home/repo/sub/.claude/settings.json":              `{"permissions": {"allow": ["Bash(x:*)"]}}`,
			"session/.claude/settings.json":                    `{"permissions": {"deny": ["Bash(s:*)"]}}`,
		}, deny: []string{"m1", "m2", "u", "p", "l", "s"}, run: []string{"x", "other"}},
		{name: "claude: CLAUDE_CONFIG_DIR", client: clients.Claude, files: map[string]string{
			"config/settings.json": `{"permissions": {"deny": ["Bash(c:*)"]}}`,
		}, env: map[string]string{"CLAUDE_CONFIG_DIR": "config"}, deny: []string{"c"}},
		{name: "claude: a settings file that is not JSON", client: clients.Claude, files: map[string]string{
			"home/repo/.claude/settings.json": `{"permissions": `,
		}, deny: []string{"anything"}, broken: "settings.json could not be read"},
		{name: "codex: system, user and project layers, requirements", client: clients.Codex, files: map[string]string{
			"system/etc/codex/rules/a.rules":     `prefix_rule(pattern = ["sys"], decision = "forbidden")`,
			"home/.codex/rules/default.rules":    `prefix_rule(pattern = ["usr"], decision = "forbidden")` + "\n" + `prefix_rule(pattern = ["ok"])`,
			"home/repo/.codex/rules/x.rules":     `prefix_rule(pattern = ["proj", ["a", "b"]], decision = "forbidden")`,
			"system/etc/codex/requirements.toml": "[rules]\nprefix_rules = [{ pattern = [{ token = \"req\" }, { any_of = [\"x\", \"y\"] }], decision = \"forbidden\" }]\n",
		}, deny: []string{"sys", "usr", "proj a", "proj b", "req y"}, run: []string{"ok", "proj c", "req z"}},
		{name: "codex: CODEX_HOME", client: clients.Codex, files: map[string]string{
			"ch/rules/default.rules": `prefix_rule(pattern = ["ch"], decision = "forbidden")`,
		}, env: map[string]string{"CODEX_HOME": "ch"}, deny: []string{"ch"}},
		{name: "codex: a rules file outside the literal subset", client: clients.Codex, files: map[string]string{
			"home/.codex/rules/default.rules": `prefix_rule(pattern = ["gi" + "t"], decision = "forbidden")`,
		}, deny: []string{"ls"}, broken: "default.rules could not be read"},
		{name: "gemini: policies of every tier, settings excludes with comments", client: clients.Gemini, files: map[string]string{
			"system/etc/gemini-cli/policies/a.toml":     "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"adm\"\ndecision = \"deny\"\n",
			"home/.gemini/policies/u.toml":              "[[rule]]\ntoolName = \"ShellTool\"\ncommandPrefix = [\"usr\", \"usr2\"]\ndecision = \"deny\"\n[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"ok\"\ndecision = \"allow\"\n",
			"home/.gemini/extensions/e/policies/e.toml": "[[rule]]\ntoolName = \"*\"\ncommandRegex = \"ext.*\"\ndecision = \"deny\"\n",
			"home/repo/.gemini/policies/w.toml":         "[[rule]]\ntoolName = \"run_shell_command\"\nargsPattern = \"wsp\"\ndecision = \"deny\"\n[[rule]]\ntoolName = \"read_file\"\ndecision = \"deny\"\n[[rule]]\nmcpName = \"srv\"\ntoolName = \"run_shell_command\"\ndecision = \"deny\"\n",
			"home/.gemini/settings.json":                "{\n // a comment\n \"tools\": {\"exclude\": [\"run_shell_command(exc)\", \"read_file\"]}, /* more */ \"policyPaths\": [\"POLICY\"]\n}",
			"pp/p.toml":                                 "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"pp\"\ndecision = \"deny\"\n",
			"home/repo/.gemini/settings.json":           `{"excludeTools": ["run_shell_command(old)"]}`,
		}, deny: []string{"adm", "usr2 x", "ext x", "wsp", "exc", "pp", "old"}, run: []string{"ok", "usrx", "readme"}},
		{name: "gemini: the shell tool excluded", client: clients.Gemini, files: map[string]string{
			"home/.gemini/settings.json": `{"tools": {"exclude": ["run_shell_command"]}}`,
		}, deny: []string{"anything"}},
		{name: "gemini: an expression RE2 cannot compile", client: clients.Gemini, files: map[string]string{
			"home/.gemini/policies/u.toml": "[[rule]]\ntoolName = \"run_shell_command\"\ncommandRegex = \"(?<=x)y\"\ndecision = \"deny\"\n",
		}, deny: []string{"ls"}, broken: "cannot read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{}
			for p, d := range tc.files {
				files[p] = strings.ReplaceAll(d, "POLICY", filepath.Join(root, "pp"))
			}
			tree(t, root, files)
			os.MkdirAll(filepath.Join(root, "home", "repo", "sub"), 0o755)
			env := Env{Home: filepath.Join(root, "home"), Cwd: filepath.Join(root, "home", "repo", "sub"), System: filepath.Join(root, "system"),
				Session: filepath.Join(root, "session"),
				Getenv: func(k string) string {
					if v, ok := tc.env[k]; ok {
						return filepath.Join(root, v)
					}
					return ""
				}}
			r := Load(tc.client, env)
			for _, c := range tc.deny {
				if v := r.Check(c); !v.Denied {
					t.Errorf("%q runs; want it denied", c)
				} else if tc.broken != "" && !strings.Contains(v.Why, tc.broken) {
					t.Errorf("%q: %q, want it to say %q", c, v.Why, tc.broken)
				}
			}
			for _, c := range tc.run {
				if v := r.Check(c); v.Denied {
					t.Errorf("%q is denied (%s); want it to run", c, v.Why)
				}
			}
		})
	}
}

func TestMessages(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{
		"home/.claude/settings.json":      `{"permissions": {"deny": ["Bash(git push:*)"]}}`,
		"home/.codex/rules/default.rules": `prefix_rule(pattern = ["git", "push"], decision = "forbidden")` + "\n" + `prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "Use trash instead.")`,
		"home/.gemini/policies/p.toml":    "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\ndecision = \"deny\"\ndenyMessage = \"Ask first.\"\n",
	})
	env := Env{Home: filepath.Join(root, "home"), Cwd: root, System: filepath.Join(root, "system")}
	for _, tc := range []struct {
		client       clients.Name
		cmd          string
		message, why string
	}{
		{clients.Claude, "git push origin", "Permission to use Bash with command git push origin has been denied.", "Bash(git push:*) in " + filepath.Join(root, "home/.claude/settings.json")},
		{clients.Codex, "git push origin", "`git push origin` rejected: policy forbids commands starting with `git push`", "a forbidden prefix_rule in " + filepath.Join(root, "home/.codex/rules/default.rules")},
		{clients.Codex, "rm -rf x", "`rm -rf x` rejected: Use trash instead.", "a forbidden prefix_rule in " + filepath.Join(root, "home/.codex/rules/default.rules")},
		{clients.Gemini, "git push origin", "Tool execution denied by policy. Ask first.", "rule 1 of " + filepath.Join(root, "home/.gemini/policies/p.toml")},
	} {
		v := Load(tc.client, env).Check(tc.cmd)
		if !v.Denied || v.Message != tc.message || v.Why != tc.why {
			t.Errorf("%s %q: %+v; want message %q, why %q", tc.client, tc.cmd, v, tc.message, tc.why)
		}
	}
}
