package classify

import (
	"strconv"
	"strings"
	"testing"
)

// nodeCases walks docs/classify.md (Node rules): what each node rule recognizes and
// what passes through, with the word the reason must point at (-1: none
// checked).
var nodeCases = []struct {
	in   string
	want string
	at   int
}{
	{"vitest run", Vitest, 0},
	{"npx vitest run", Vitest, 0},
	{"vitest run src/math.test.ts -t adds", Vitest, 0},
	{"vitest --run", Vitest, 0},
	{"vitest src --run --bail 1", Vitest, 0},
	{"vitest related src/a.ts --run", Vitest, 0},
	{"vitest run --reporter=verbose", Vitest, 0},
	{"vitest run --reporter verbose", Vitest, 0},
	{"vitest run --reporter=default --silent", Vitest, 0},
	{"NO_COLOR=1 npx vitest run 2>&1", Vitest, 0},
	{"npx vitest run 2>&1 | tail -40", Vitest, 0},
	{"vitest", "", 0},
	{"npx vitest", "", 1},
	{"vitest src/a.test.ts", "", 0},
	{"vitest watch", "", 1},
	{"vitest bench --run", "", 1},
	{"vitest list --run", "", 1},
	{"vitest run --reporter=json", "", 2},
	{"vitest run --reporter json", "", 2},
	{"vitest run --reporter=dot", "", 2},
	{"vitest run --reporters=verbose", "", 2},
	{"vitest run --coverage", "", 2},
	{"vitest run --coverage.enabled", "", 2},
	{"vitest run --outputFile=r.xml", "", 2},
	{"vitest run --watch", "", 2},
	{"vitest --run -w", "", 2},
	{"vitest run --ui", "", 2},
	{"npx vitest run --help", "", 3},
	{"vitest run -v", "", 2},
	{"npx -y vitest run", "", 1},
	{"npx vitest@3 run", "", 1},

	{"jest", Jest, 0},
	{"npx jest", Jest, 0},
	{"jest --verbose", Jest, 0},
	{"jest src/math.test.js -t adds --ci", Jest, 0},
	{"jest --silent --runInBand --bail", Jest, 0},
	{"jest --logHeapUsage", Jest, 0},
	{"jest --json", "", 1},
	{"jest --json --outputFile=r.json", "", 1},
	{"jest --watch", "", 1},
	{"jest --watchAll", "", 1},
	{"jest --coverage", "", 1},
	{"jest --listTests", "", 1},
	{"jest --showConfig", "", 1},
	{"jest --reporters=jest-junit", "", 1},
	{"npx jest --version", "", 2},

	{"npm test", NpmTest, 0},
	{"npm t", NpmTest, 0},
	{"npm run test", NpmTest, 0},
	{"npm run-script test", NpmTest, 0},
	{"npm test -- src/math.test.js", NpmTest, 0},
	{"npm test -- --verbose", NpmTest, 0},
	{"npm test --silent", NpmTest, 0},
	{"npm test src/math", NpmTest, 0},
	{"pnpm test", NpmTest, 0},
	{"pnpm run test", NpmTest, 0},
	{"yarn test", NpmTest, 0},
	{"yarn run test", NpmTest, 0},
	{"npm test 2>&1 | tail -50", NpmTest, 0},
	{"npm run test:unit", "", 1},
	{"npm run build", "", 1},
	{"npm run", "", 1},
	{"npm test --workspaces", "", 2},
	{"npm test -ws", "", 2},
	{"npm test --json", "", 2},
	{"npm --silent test", "", 1},
	{"npm test -- --watch", "", 3},
	{"npm test -- -w", "", 3},
	{"npm test -- --coverage", "", 3},
	{"npm test -- --reporter=dot", "", 3},
	{"npm test -- --json", "", 3},
	{"npm test -- --reporters=default", "", 3},
	{"pnpm test --filter web", "", 2},
	{"pnpm -r test", "", 1},
	{"pnpm t", "", 1},
	{"yarn t", "", 1},
	{"pnpm run-script test", "", 1},
	{"npm test --help", "", 2},
	{"yarn", "", 0},
	{"npm", "", 0},

	{"tsc", Tsc, 0},
	{"npx tsc", Tsc, 0},
	{"tsc --noEmit", Tsc, 0},
	{"tsc -p tsconfig.build.json", Tsc, 0},
	{"tsc --noEmit --pretty", Tsc, 0},
	{"tsc --pretty false", Tsc, 0},
	{"tsc -b", Tsc, 0},
	{"tsc --allowJs --checkJs src/a.js", Tsc, 0},
	{"tsc --watch", "", 1},
	{"tsc -w", "", 1},
	{"tsc --listFiles", "", 1},
	{"tsc --listFilesOnly", "", 1},
	{"tsc --showConfig", "", 1},
	{"tsc --extendedDiagnostics", "", 1},
	{"tsc --init", "", 1},
	{"npx tsc --version", "", 2},
	{"tsc -v", "", 1},

	{"eslint .", ESLint, 0},
	{"npx eslint src", ESLint, 0},
	{"eslint --quiet .", ESLint, 0},
	{"eslint --max-warnings 0 src", ESLint, 0},
	{"eslint -f stylish .", ESLint, 0},
	{"eslint --format stylish .", ESLint, 0},
	{"eslint --format=stylish .", ESLint, 0},
	{"eslint --fix .", ESLint, 0},
	{"eslint -c eslint.config.js --cache .", ESLint, 0},
	{"eslint -f json .", "", 1},
	{"eslint --format json .", "", 1},
	{"eslint --format=compact .", "", 1},
	{"eslint -f", "", 1},
	{"eslint -o report.txt .", "", 1},
	{"eslint --output-file=r.txt .", "", 1},
	{"eslint --print-config a.js", "", 1},
	{"eslint --debug .", "", 1},
	{"eslint --env-info", "", 1},

	{"npm install", NpmInstall, 0},
	{"npm i", NpmInstall, 0},
	{"npm ci", NpmInstall, 0},
	{"npm install express@5", NpmInstall, 0},
	{"npm install -D vitest", NpmInstall, 0},
	{"npm add lodash", NpmInstall, 0},
	{"npm install --no-audit --legacy-peer-deps", NpmInstall, 0},
	{"pnpm install", NpmInstall, 0},
	{"pnpm i --frozen-lockfile", NpmInstall, 0},
	{"pnpm add -D vitest", NpmInstall, 0},
	{"npm install --json", "", 2},
	{"npm ci --loglevel=silly", "", 2},
	{"npm install --verbose", "", 2},
	{"npm install -dd", "", 2},
	{"npm install --dry-run", "", 2},
	{"pnpm install --reporter=ndjson", "", 2},
	{"pnpm ci", "", 1},
	{"yarn install", "", 1},
	{"yarn add lodash", "", 1},
	{"npm --prefix x install", "", 1},
	{"npm uninstall lodash", "", 1},
	{"npx", "", 0},
	{"npx cowsay hi", "", 1},
	{"npx --yes eslint .", "", 1},
}

func TestNodeRules(t *testing.T) {
	for _, c := range nodeCases {
		r := String(c.in)
		if r.Rule != c.want {
			t.Errorf("String(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
			continue
		}
		if r.Rule != "" {
			continue
		}
		// The reason points at the word at fault (the cases are
		// written with single spaces and no assignments when they pass
		// through).
		words := strings.Fields(c.in)
		col := 1
		for _, w := range words[:c.at] {
			col += len(w) + 1
		}
		if want := "1:" + strconv.Itoa(col); r.Pos != want {
			t.Errorf("String(%q): position %s (%s), want %s (word %d)", c.in, r.Pos, r.Explain(), want, c.at)
		}
	}
}

// TestNodeArgv: argv mode matches the same words the same way.
func TestNodeArgv(t *testing.T) {
	for _, c := range nodeCases {
		if strings.ContainsAny(c.in, "|>") || strings.Contains(strings.Fields(c.in)[0], "=") {
			continue
		}
		if r := Argv(strings.Fields(c.in)); r.Rule != c.want {
			t.Errorf("Argv(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
		}
	}
}

func TestNodeRulesListed(t *testing.T) {
	for _, id := range nodeRules {
		found := false
		for _, r := range Rules {
			found = found || r == id
		}
		if !found {
			t.Errorf("%s is not in Rules", id)
		}
	}
}
