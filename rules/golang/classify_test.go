package golang_test

import (
	"testing"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/rules/ruletest"
)

// goCases are the go family's commands in string mode: Want is the rule,
// or "" for a pass-through, and Explain the exact --explain text.
var goCases = []ruletest.ExplainedCase{
	{In: "go test", Want: GoTest, Explain: ""},
	{In: "go test ./...", Want: GoTest, Explain: ""},
	{In: "go test -v ./...", Want: GoTest, Explain: ""},
	{In: "go test -run TestX -count=1 ./calc", Want: GoTest, Explain: ""},
	{In: "go test -run='^TestX$' -count 1 .", Want: GoTest, Explain: ""},
	{In: "go test -json ./...", Want: GoTest, Explain: ""},
	{In: "go test --json ./...", Want: GoTest, Explain: ""},
	{In: "go test -race -cover -coverprofile=c.out ./...", Want: GoTest, Explain: ""},
	{In: "go test -timeout 30s -failfast -short -shuffle=on ./...", Want: GoTest, Explain: ""},
	{In: "go test ./... -args -update", Want: GoTest, Explain: ""},
	{In: "go test -benchmem ./...", Want: GoTest, Explain: ""},
	{In: "go test -c -o x.test", Want: GoTest, Explain: ""},
	{In: "GOFLAGS=-count=1 go test ./... 2>&1 | tail -30", Want: GoTest, Explain: ""},
	{In: "go build", Want: GoBuild, Explain: ""},
	{In: "go build ./...", Want: GoBuild, Explain: ""},
	{In: "go build -o bin/demo -ldflags=-s ./cmd/demo", Want: GoBuild, Explain: ""},
	{In: "go build -race -tags integration ./...", Want: GoBuild, Explain: ""},
	{In: "go vet", Want: GoVet, Explain: ""},
	{In: "go vet ./...", Want: GoVet, Explain: ""},
	{In: "go vet -c=1 ./...", Want: GoVet, Explain: ""},
	{In: "go vet -printf=false ./...", Want: GoVet, Explain: ""},
	{In: "go get golang.org/x/text@v0.20.0", Want: GoMod, Explain: ""},
	{In: "go get -u ./...", Want: GoMod, Explain: ""},
	{In: "go get -x golang.org/x/mod", Want: GoMod, Explain: ""},
	{In: "go mod download", Want: GoMod, Explain: ""},
	{In: "go mod download -x golang.org/x/text", Want: GoMod, Explain: ""},

	{In: "go", Want: "", Explain: "1:1: not a recognized command; passing through"},
	{In: "go run .", Want: "", Explain: "1:4: not a recognized command; passing through"},
	{In: "go install ./cmd/demo", Want: "", Explain: "1:4: not a recognized command; passing through"},
	{In: "go mod tidy", Want: "", Explain: "1:8: not a recognized command; passing through"},
	{In: "go mod", Want: "", Explain: "1:4: not a recognized command; passing through"},
	{In: "go -C sub test", Want: "", Explain: `1:4: go option "-C" before the subcommand; passing through`},
	{In: "go test -bench . ./...", Want: "", Explain: `1:9: option "-bench" changes the output format; passing through`},
	{In: "go test -bench=. ./...", Want: "", Explain: `1:9: option "-bench=." changes the output format; passing through`},
	{In: "go test -fuzz FuzzX", Want: "", Explain: `1:9: option "-fuzz" changes the output format; passing through`},
	{In: "go test -list .", Want: "", Explain: `1:9: option "-list" changes the output format; passing through`},
	{In: "go test -x ./...", Want: "", Explain: `1:9: option "-x" changes the output format; passing through`},
	{In: "go test -gcflags=-m ./...", Want: "", Explain: `1:9: option "-gcflags=-m" changes the output format; passing through`},
	{In: "go test -test.v=test2json", Want: "", Explain: `1:9: test binary flag "-test.v=test2json"; passing through`},
	{In: "go test ./... -args -test.run X", Want: "", Explain: `1:21: test binary flag "-test.run"; passing through`},
	{In: "go test -h", Want: "", Explain: "1:9: help or version requested (-h); passing through"},
	{In: "go test --help", Want: "", Explain: "1:9: help or version requested (--help); passing through"},
	{In: "go build -v ./...", Want: "", Explain: `1:10: option "-v" changes the output format; passing through`},
	{In: "go build -json ./...", Want: "", Explain: `1:10: option "-json" changes the output format; passing through`},
	{In: "go build -n", Want: "", Explain: `1:10: option "-n" changes the output format; passing through`},
	{In: "go vet -json ./...", Want: "", Explain: `1:8: option "-json" changes the output format; passing through`},
	{In: "go vet -fix ./...", Want: "", Explain: `1:8: option "-fix" changes the output format; passing through`},
	{In: "go vet -diff ./...", Want: "", Explain: `1:8: option "-diff" changes the output format; passing through`},
	{In: "go vet -V=full", Want: "", Explain: "1:8: help or version requested (-V=full); passing through"},
	{In: "go mod download -json", Want: "", Explain: `1:17: option "-json" changes the output format; passing through`},
	{In: "/usr/local/go/bin/go test", Want: GoTest},
	{In: "/opt/go/bin/go test", Want: "", Explain: "1:1: not a recognized command; passing through"},
}

func TestGoRules(t *testing.T) {
	table.CheckExplained(t, goCases, []ruletest.ArgvCase{
		{In: []string{"go", "test", "-run", "TestA|TestB", "./..."}, Want: GoTest},
		{In: []string{"go", "test", "-run", "-json"}, Want: GoTest},
		{In: []string{"GOFLAGS=-mod=mod", "go", "build", "./..."}, Want: GoBuild},
		{In: []string{"go", "vet", "-c", "2"}, Want: GoVet},
		{In: []string{"go", "get", "example.com/m@v1.2.3"}, Want: GoMod},
		{In: []string{"go", "test", "-run", "-bench"}, Want: ""},
		{In: []string{"go", "mod", "download", "--json"}, Want: ""},
		{In: []string{"go", "mod", "graph"}, Want: ""},
	})
}

// table classifies commands as shrinkrun does.
var table = ruletest.Classifier{String: rules.String, Argv: rules.Argv, Has: rules.Has}

// Rule ids, as the block's rule: line shows them.
const (
	GoTest  = "bash.go_test"
	GoBuild = "bash.go_build"
	GoVet   = "bash.go_vet"
	GoMod   = "bash.go_mod"
)
