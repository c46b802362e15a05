package node_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// nodeCases walks docs/classify.md (Node rules): what each node rule recognizes and
// what passes through, with the word the reason must point at (-1: none
// checked).
var nodeCases = []ruletest.FamilyCase{
	{In: "vitest run", Want: Vitest, At: 0},
	{In: "npx vitest run", Want: Vitest, At: 0},
	{In: "vitest run src/math.test.ts -t adds", Want: Vitest, At: 0},
	{In: "vitest --run", Want: Vitest, At: 0},
	{In: "vitest src --run --bail 1", Want: Vitest, At: 0},
	{In: "vitest related src/a.ts --run", Want: Vitest, At: 0},
	{In: "vitest run --reporter=verbose", Want: Vitest, At: 0},
	{In: "vitest run --reporter verbose", Want: Vitest, At: 0},
	{In: "vitest run --reporter=default --silent", Want: Vitest, At: 0},
	{In: "NO_COLOR=1 npx vitest run 2>&1", Want: Vitest, At: 0},
	{In: "npx vitest run 2>&1 | tail -40", Want: Vitest, At: 0},
	{In: "vitest", Want: "", At: 0},
	{In: "npx vitest", Want: "", At: 1},
	{In: "vitest src/a.test.ts", Want: "", At: 0},
	{In: "vitest watch", Want: "", At: 1},
	{In: "vitest bench --run", Want: "", At: 1},
	{In: "vitest list --run", Want: "", At: 1},
	{In: "vitest run --reporter=json", Want: "", At: 2},
	{In: "vitest run --reporter json", Want: "", At: 2},
	{In: "vitest run --reporter=dot", Want: "", At: 2},
	{In: "vitest run --reporters=verbose", Want: "", At: 2},
	{In: "vitest run --coverage", Want: "", At: 2},
	{In: "vitest run --coverage.enabled", Want: "", At: 2},
	{In: "vitest run --outputFile=r.xml", Want: "", At: 2},
	{In: "vitest run --watch", Want: "", At: 2},
	{In: "vitest --run -w", Want: "", At: 2},
	{In: "vitest run --ui", Want: "", At: 2},
	{In: "npx vitest run --help", Want: "", At: 3},
	{In: "vitest run -v", Want: "", At: 2},
	{In: "npx -y vitest run", Want: "", At: 1},
	{In: "npx vitest@3 run", Want: "", At: 1},

	{In: "jest", Want: Jest, At: 0},
	{In: "npx jest", Want: Jest, At: 0},
	{In: "jest --verbose", Want: Jest, At: 0},
	{In: "jest src/math.test.js -t adds --ci", Want: Jest, At: 0},
	{In: "jest --silent --runInBand --bail", Want: Jest, At: 0},
	{In: "jest --logHeapUsage", Want: Jest, At: 0},
	{In: "jest --json", Want: "", At: 1},
	{In: "jest --json --outputFile=r.json", Want: "", At: 1},
	{In: "jest --watch", Want: "", At: 1},
	{In: "jest --watchAll", Want: "", At: 1},
	{In: "jest --coverage", Want: "", At: 1},
	{In: "jest --listTests", Want: "", At: 1},
	{In: "jest --showConfig", Want: "", At: 1},
	{In: "jest --reporters=jest-junit", Want: "", At: 1},
	{In: "npx jest --version", Want: "", At: 2},

	{In: "npm test", Want: NpmTest, At: 0},
	{In: "npm t", Want: NpmTest, At: 0},
	{In: "npm run test", Want: NpmTest, At: 0},
	{In: "npm run-script test", Want: NpmTest, At: 0},
	{In: "npm test -- src/math.test.js", Want: NpmTest, At: 0},
	{In: "npm test -- --verbose", Want: NpmTest, At: 0},
	{In: "npm test --silent", Want: NpmTest, At: 0},
	{In: "npm test src/math", Want: NpmTest, At: 0},
	{In: "pnpm test", Want: NpmTest, At: 0},
	{In: "pnpm run test", Want: NpmTest, At: 0},
	{In: "yarn test", Want: NpmTest, At: 0},
	{In: "yarn run test", Want: NpmTest, At: 0},
	{In: "npm test 2>&1 | tail -50", Want: NpmTest, At: 0},
	{In: "npm run test:unit", Want: "", At: 1},
	{In: "npm run build", Want: "", At: 1},
	{In: "npm run", Want: "", At: 1},
	{In: "npm test --workspaces", Want: "", At: 2},
	{In: "npm test -ws", Want: "", At: 2},
	{In: "npm test --json", Want: "", At: 2},
	{In: "npm --silent test", Want: "", At: 1},
	{In: "npm test -- --watch", Want: "", At: 3},
	{In: "npm test -- -w", Want: "", At: 3},
	{In: "npm test -- --coverage", Want: "", At: 3},
	{In: "npm test -- --reporter=dot", Want: "", At: 3},
	{In: "npm test -- --json", Want: "", At: 3},
	{In: "npm test -- --reporters=default", Want: "", At: 3},
	{In: "pnpm test --filter web", Want: "", At: 2},
	{In: "pnpm -r test", Want: "", At: 1},
	{In: "pnpm t", Want: "", At: 1},
	{In: "yarn t", Want: "", At: 1},
	{In: "pnpm run-script test", Want: "", At: 1},
	{In: "npm test --help", Want: "", At: 2},
	{In: "yarn", Want: "", At: 0},
	{In: "npm", Want: "", At: 0},

	{In: "tsc", Want: Tsc, At: 0},
	{In: "npx tsc", Want: Tsc, At: 0},
	{In: "tsc --noEmit", Want: Tsc, At: 0},
	{In: "tsc -p tsconfig.build.json", Want: Tsc, At: 0},
	{In: "tsc --noEmit --pretty", Want: Tsc, At: 0},
	{In: "tsc --pretty false", Want: Tsc, At: 0},
	{In: "tsc -b", Want: Tsc, At: 0},
	{In: "tsc --allowJs --checkJs src/a.js", Want: Tsc, At: 0},
	{In: "tsc --watch", Want: "", At: 1},
	{In: "tsc -w", Want: "", At: 1},
	{In: "tsc --listFiles", Want: "", At: 1},
	{In: "tsc --listFilesOnly", Want: "", At: 1},
	{In: "tsc --showConfig", Want: "", At: 1},
	{In: "tsc --extendedDiagnostics", Want: "", At: 1},
	{In: "tsc --init", Want: "", At: 1},
	{In: "npx tsc --version", Want: "", At: 2},
	{In: "tsc -v", Want: "", At: 1},

	{In: "eslint .", Want: ESLint, At: 0},
	{In: "npx eslint src", Want: ESLint, At: 0},
	{In: "eslint --quiet .", Want: ESLint, At: 0},
	{In: "eslint --max-warnings 0 src", Want: ESLint, At: 0},
	{In: "eslint -f stylish .", Want: ESLint, At: 0},
	{In: "eslint --format stylish .", Want: ESLint, At: 0},
	{In: "eslint --format=stylish .", Want: ESLint, At: 0},
	{In: "eslint --fix .", Want: ESLint, At: 0},
	{In: "eslint -c eslint.config.js --cache .", Want: ESLint, At: 0},
	{In: "eslint -f json .", Want: "", At: 1},
	{In: "eslint --format json .", Want: "", At: 1},
	{In: "eslint --format=compact .", Want: "", At: 1},
	{In: "eslint -f", Want: "", At: 1},
	{In: "eslint -o report.txt .", Want: "", At: 1},
	{In: "eslint --output-file=r.txt .", Want: "", At: 1},
	{In: "eslint --print-config a.js", Want: "", At: 1},
	{In: "eslint --debug .", Want: "", At: 1},
	{In: "eslint --env-info", Want: "", At: 1},

	{In: "npm install", Want: NpmInstall, At: 0},
	{In: "npm i", Want: NpmInstall, At: 0},
	{In: "npm ci", Want: NpmInstall, At: 0},
	{In: "npm install express@5", Want: NpmInstall, At: 0},
	{In: "npm install -D vitest", Want: NpmInstall, At: 0},
	{In: "npm add lodash", Want: NpmInstall, At: 0},
	{In: "npm install --no-audit --legacy-peer-deps", Want: NpmInstall, At: 0},
	{In: "pnpm install", Want: NpmInstall, At: 0},
	{In: "pnpm i --frozen-lockfile", Want: NpmInstall, At: 0},
	{In: "pnpm add -D vitest", Want: NpmInstall, At: 0},
	{In: "npm install --json", Want: "", At: 2},
	{In: "npm ci --loglevel=silly", Want: "", At: 2},
	{In: "npm install --verbose", Want: "", At: 2},
	{In: "npm install -dd", Want: "", At: 2},
	{In: "npm install --dry-run", Want: "", At: 2},
	{In: "pnpm install --reporter=ndjson", Want: "", At: 2},
	{In: "jest --list-tests", Want: "", At: 1},
	{In: "npx jest --output-file=r.json --json", Want: "", At: 2},
	{In: "jest --show-config", Want: "", At: 1},
	{In: "jest --collect-coverage", Want: "", At: 1},
	{In: "vitest run --output-file r.json", Want: "", At: 2},
	{In: "vitest run --merge-reports", Want: "", At: 2},
	{In: "tsc --showconfig", Want: "", At: 1},
	{In: "tsc --LISTFILES", Want: "", At: 1},
	{In: "npx tsc --extendeddiagnostics", Want: "", At: 2},
	{In: "npm test -- --list-tests", Want: "", At: 3},
	{In: "tsc --noemit", Want: Tsc, At: 0},
	{In: "jest --run-in-band --ci", Want: Jest, At: 0},
	{In: "npm install --jso", Want: "", At: 2},
	{In: "npm install --pars", Want: "", At: 2},
	{In: "npm i -p lodash", Want: "", At: 2},
	{In: "npm i -Dp lodash", Want: "", At: 2},
	{In: "npm ci --porc", Want: "", At: 2},
	{In: "npm install --log=verbose", Want: "", At: 2},
	{In: "npm install --dry", Want: "", At: 2},
	{In: "npm install --no-json=false", Want: "", At: 2},
	{In: "npm install --json=false", Want: "", At: 2},
	{In: "npm ci --heading=x", Want: "", At: 2},
	{In: "npm install -ddd", Want: "", At: 2},
	{In: "pnpm add --rep=ndjson x", Want: "", At: 2},
	{In: "npm install --silent", Want: NpmInstall, At: 0},
	{In: "npm install -s -q", Want: NpmInstall, At: 0},
	{In: "npm install -DE vitest", Want: NpmInstall, At: 0},
	{In: "npm install --save-dev --omit=dev --prefer-offline", Want: NpmInstall, At: 0},
	{In: "pnpm ci", Want: "", At: 1},
	{In: "yarn install", Want: "", At: 1},
	{In: "yarn add lodash", Want: "", At: 1},
	{In: "npm --prefix x install", Want: "", At: 1},
	{In: "npm uninstall lodash", Want: "", At: 1},
	{In: "npx", Want: "", At: 0},
	{In: "npx cowsay hi", Want: "", At: 1},
	{In: "npx --yes eslint .", Want: "", At: 1},
}

// TestNodeRules checks the table in both modes, with the position of each
// pass-through reason.
func TestNodeRules(t *testing.T) {
	table.CheckFamily(t, nodeCases, []string{Vitest, Jest, NpmTest, Tsc, ESLint, NpmInstall})
}

// TestNodeEnviron: an option npm, ESLint or npx would take from the
// environment passes through as the option itself would, whether the
// command assigns it or inherits it; one that only hides lines, or a
// boolean set to false, does not.
func TestNodeEnviron(t *testing.T) {
	for _, c := range []struct {
		src  string
		env  map[string]string
		want string
	}{
		{"npm install", map[string]string{"npm_config_json": "true"}, ""},
		{"npm_config_json=true npm ci", nil, ""},
		{"NPM_CONFIG_PARSEABLE=1 npm i", nil, ""},
		{"npm_config_dry_run=true npm install", nil, ""},
		{"npm_config_loglevel=silly pnpm install", nil, ""},
		{"npm_config_json=false npm install", nil, NpmInstall},
		{"npm_config_loglevel=warn npm install", nil, NpmInstall},
		{"npm_config_json= npm install", map[string]string{"npm_config_json": "true"}, NpmInstall},
		{"npm_config_workspaces=true npm test", nil, ""},
		{"npm test", map[string]string{"npm_config_workspace": "web"}, ""},
		{"npm test", map[string]string{"npm_config_audit": "false"}, NpmTest},
		{"npx vitest run", map[string]string{"npm_config_loglevel": "verbose"}, ""},
		{"vitest run", map[string]string{"npm_config_loglevel": "verbose"}, Vitest},
		{"npx jest", map[string]string{"npm_config_loglevel": "http"}, ""},
		{"npx tsc", map[string]string{"npm_config_loglevel": "error"}, Tsc},
		{"DEBUG='eslint:*' eslint .", nil, ""},
		{"eslint .", map[string]string{"DEBUG": "*"}, ""},
		{"DEBUG='express:*' eslint .", nil, ESLint},
	} {
		getenv := func(n string) string { return c.env[n] }
		r := rules.String(c.src).InEnviron(getenv)
		if r.Rule != c.want || c.want == "" && r.Reason == "" {
			t.Errorf("%q with %v: rule %q (%s), want %q", c.src, c.env, r.Rule, r.Reason, c.want)
		}
	}
}

// table classifies commands as shrinkrun does.
var table = ruletest.Classifier{String: rules.String, Argv: rules.Argv, Has: rules.Has}

// Rule ids, as the block's rule: line shows them.
const (
	Vitest     = "bash.vitest"
	Jest       = "bash.jest"
	NpmTest    = "bash.npm_test"
	Tsc        = "bash.tsc"
	ESLint     = "bash.eslint"
	NpmInstall = "bash.npm_install"
)
