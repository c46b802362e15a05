package classify

import "testing"

// goCases are the go family's commands in string mode: want is the rule,
// or "" for a pass-through, and explain the exact --explain text.
var goCases = []struct{ in, want, explain string }{
	{"go test", GoTest, ""},
	{"go test ./...", GoTest, ""},
	{"go test -v ./...", GoTest, ""},
	{"go test -run TestX -count=1 ./calc", GoTest, ""},
	{"go test -run='^TestX$' -count 1 .", GoTest, ""},
	{"go test -json ./...", GoTest, ""},
	{"go test --json ./...", GoTest, ""},
	{"go test -race -cover -coverprofile=c.out ./...", GoTest, ""},
	{"go test -timeout 30s -failfast -short -shuffle=on ./...", GoTest, ""},
	{"go test ./... -args -update", GoTest, ""},
	{"go test -benchmem ./...", GoTest, ""},
	{"go test -c -o x.test", GoTest, ""},
	{"GOFLAGS=-count=1 go test ./... 2>&1 | tail -30", GoTest, ""},
	{"go build", GoBuild, ""},
	{"go build ./...", GoBuild, ""},
	{"go build -o bin/demo -ldflags=-s ./cmd/demo", GoBuild, ""},
	{"go build -race -tags integration ./...", GoBuild, ""},
	{"go vet", GoVet, ""},
	{"go vet ./...", GoVet, ""},
	{"go vet -c=1 ./...", GoVet, ""},
	{"go vet -printf=false ./...", GoVet, ""},
	{"go get golang.org/x/text@v0.20.0", GoMod, ""},
	{"go get -u ./...", GoMod, ""},
	{"go get -x golang.org/x/mod", GoMod, ""},
	{"go mod download", GoMod, ""},
	{"go mod download -x golang.org/x/text", GoMod, ""},

	{"go", "", "1:1: not a recognized command; passing through"},
	{"go run .", "", "1:4: not a recognized command; passing through"},
	{"go install ./cmd/demo", "", "1:4: not a recognized command; passing through"},
	{"go mod tidy", "", "1:8: not a recognized command; passing through"},
	{"go mod", "", "1:4: not a recognized command; passing through"},
	{"go -C sub test", "", `1:4: go option "-C" before the subcommand; passing through`},
	{"go test -bench . ./...", "", `1:9: option "-bench" changes the output format; passing through`},
	{"go test -bench=. ./...", "", `1:9: option "-bench=." changes the output format; passing through`},
	{"go test -fuzz FuzzX", "", `1:9: option "-fuzz" changes the output format; passing through`},
	{"go test -list .", "", `1:9: option "-list" changes the output format; passing through`},
	{"go test -x ./...", "", `1:9: option "-x" changes the output format; passing through`},
	{"go test -gcflags=-m ./...", "", `1:9: option "-gcflags=-m" changes the output format; passing through`},
	{"go test -test.v=test2json", "", `1:9: test binary flag "-test.v=test2json"; passing through`},
	{"go test ./... -args -test.run X", "", `1:21: test binary flag "-test.run"; passing through`},
	{"go test -h", "", "1:9: help or version requested (-h); passing through"},
	{"go test --help", "", "1:9: help or version requested (--help); passing through"},
	{"go build -v ./...", "", `1:10: option "-v" changes the output format; passing through`},
	{"go build -json ./...", "", `1:10: option "-json" changes the output format; passing through`},
	{"go build -n", "", `1:10: option "-n" changes the output format; passing through`},
	{"go vet -json ./...", "", `1:8: option "-json" changes the output format; passing through`},
	{"go vet -fix ./...", "", `1:8: option "-fix" changes the output format; passing through`},
	{"go vet -diff ./...", "", `1:8: option "-diff" changes the output format; passing through`},
	{"go vet -V=full", "", "1:8: help or version requested (-V=full); passing through"},
	{"go mod download -json", "", `1:17: option "-json" changes the output format; passing through`},
	{"/usr/local/go/bin/go test", "", "1:1: not a recognized command; passing through"},
}

func TestGoString(t *testing.T) {
	for _, c := range goCases {
		r := String(c.in)
		if r.Rule != c.want {
			t.Errorf("String(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
			continue
		}
		if c.want == "" && r.Explain() != c.explain {
			t.Errorf("String(%q).Explain() = %q, want %q", c.in, r.Explain(), c.explain)
		}
	}
}

func TestGoArgv(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"go", "test", "-run", "TestA|TestB", "./..."}, GoTest},
		{[]string{"go", "test", "-run", "-json"}, GoTest},
		{[]string{"GOFLAGS=-mod=mod", "go", "build", "./..."}, GoBuild},
		{[]string{"go", "vet", "-c", "2"}, GoVet},
		{[]string{"go", "get", "example.com/m@v1.2.3"}, GoMod},
		{[]string{"go", "test", "-run", "-bench"}, ""},
		{[]string{"go", "mod", "download", "--json"}, ""},
		{[]string{"go", "mod", "graph"}, ""},
	} {
		if r := Argv(c.in); r.Rule != c.want {
			t.Errorf("Argv(%q).Rule = %q (%s), want %q", c.in, r.Rule, r.Explain(), c.want)
		}
	}
}
