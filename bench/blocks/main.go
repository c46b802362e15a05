// Command blocks prints the block of every corpus case, at the default
// budget and at tight ones, with and without a raw_output line: a change
// that must not change any block (a move, a refactoring, a speed-up) is
// checked by diffing its output before and after.
//
//	go run ./bench/blocks >/tmp/before
//	(change the code)
//	go run ./bench/blocks | diff /tmp/before -
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/shrinkrun/shrinkrun/rules"
	"github.com/shrinkrun/shrinkrun/summarize"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "blocks:", err)
		os.Exit(1)
	}
}

func run() error {
	metas, err := filepath.Glob(filepath.Join("rules", "*", "testdata", "*", "*.meta"))
	if err != nil {
		return err
	}
	if len(metas) == 0 {
		return fmt.Errorf("no corpus cases under rules/*/testdata (run from the module root)")
	}
	type kase struct{ name, meta string }
	var cases []kase
	for _, m := range metas {
		cases = append(cases, kase{filepath.Base(filepath.Dir(m)) + "/" + strings.TrimSuffix(filepath.Base(m), ".meta"), m})
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].name < cases[j].name })
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, c := range cases {
		base, err := load(c.meta)
		if err != nil {
			return err
		}
		for _, v := range []struct {
			budget int
			raw    string
		}{{0, ""}, {0, "shrinkrun show 0123456789abcdef"}, {4096, "shrinkrun show 0123456789abcdef"}, {1024, "shrinkrun show 0123456789abcdef"}} {
			r := *base
			r.Budget, r.RawOutput = v.budget, v.raw
			block, ok := rules.Block(&r)
			fmt.Fprintf(w, "=== %s budget=%d raw_output=%v ok=%v\n", c.name, v.budget, v.raw != "", ok)
			w.Write(block)
		}
	}
	return nil
}

// load reads a case as the golden test does: CASE.meta's command and exit
// code, and the streams beside it.
func load(meta string) (*summarize.Run, error) {
	data, err := os.ReadFile(meta)
	if err != nil {
		return nil, err
	}
	r := &summarize.Run{Rule: "bash." + filepath.Base(filepath.Dir(meta))}
	for l := range strings.Lines(string(data)) {
		k, v, _ := strings.Cut(strings.TrimSuffix(l, "\n"), ": ")
		switch k {
		case "command":
			r.Command, r.Argv = v, strings.Fields(v)
		case "exit_code":
			if v != "null" {
				n, err := strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", meta, err)
				}
				r.ExitCode, r.Exited = n, true
			}
		}
	}
	base := strings.TrimSuffix(meta, ".meta")
	r.Stdout, _ = os.ReadFile(base + ".stdout")
	r.Stderr, _ = os.ReadFile(base + ".stderr")
	r.StdoutBytes, r.StderrBytes = int64(len(r.Stdout)), int64(len(r.Stderr))
	return r, nil
}
