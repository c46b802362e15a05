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
