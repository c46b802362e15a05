//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// row is one command of the commands table, run four ways: plain, through
// bash -c, through `shrinkrun --` and through `shrinkrun -c`.
type row struct {
	name  string
	dir   string
	env   []string
	argv  []string // the plain command; the string forms join it with spaces
	flags []string // shrinkrun flags before the command, e.g. --raw
	// target marks the rows the 1.5x / 2 ms target applies to.
	target bool
}

func (e *env) rows() ([]row, error) {
	rows := []row{
		{name: "`true` (start-up floor, pass-through)", dir: e.repo, argv: []string{"true"}},
		{name: fmt.Sprintf("`git status`, %d changed files, pass-through (`--raw`)", e.changed), dir: e.repo, argv: []string{"git", "status"}, flags: []string{"--raw"}, target: true},
		{name: fmt.Sprintf("`git status`, %d changed files", e.changed), dir: e.repo, argv: []string{"git", "status"}, target: true},
		{name: fmt.Sprintf("`git log --oneline`, %d commits", historyCommits+1), dir: e.repo, argv: []string{"git", "log", "--oneline"}},
		{name: "`git diff`, large", dir: e.repo, argv: []string{"git", "diff"}},
	}
	big, err := e.biggestCase("cargo_test")
	if err != nil {
		return nil, err
	}
	fake := filepath.Join(e.tmp, "fakecargo")
	if err := e.fakeCargo(fake, big); err != nil {
		return nil, err
	}
	rows = append(rows, row{
		name: fmt.Sprintf("`cargo test`, recorded log (corpus `%s`)", big),
		dir:  e.tmp, argv: []string{"cargo", "test"},
		env: withEnv(e.base, "PATH="+fake+string(os.PathListSeparator)+getenv(e.base, "PATH")),
	})
	const realCargo = "`cargo test`, real, tiny crate (40 tests)"
	if !wanted(realCargo) {
		return rows, nil
	}
	progress("building a tiny crate with cargo (skipped when cargo is missing)")
	crate, crateEnv, err := e.tinyCrate()
	if err != nil {
		return nil, err
	}
	if crate != "" {
		rows = append(rows, row{name: realCargo, dir: crate, env: crateEnv, argv: []string{"cargo", "test"}})
	} else {
		printf("cargo is not installed: the real `cargo test` row is skipped.\n\n")
	}
	return rows, nil
}

// commands prints the wall time and peak RSS table.
func (e *env) commands() error {
	rows, err := e.rows()
	if err != nil {
		return err
	}
	type result struct {
		row
		*rowResult
		sizes string
	}
	var results []result
	for _, r := range rows {
		if !wanted(r.name) {
			continue
		}
		progress("measuring %s (%d rounds)", r.name, *flagRuns)
		env := r.env
		if env == nil {
			env = e.base
		}
		str := strings.Join(r.argv, " ")
		vs := []variant{
			{name: "plain", argv: r.argv},
			{name: "bash", argv: []string{"bash", "-c", str}},
			{name: "argv", argv: append(append(append([]string{e.shrinkrun}, r.flags...), "--"), r.argv...)},
			{name: "string", argv: append(append([]string{e.shrinkrun}, r.flags...), "-c", str)},
		}
		if e.baseline != "" {
			vs = append(vs,
				variant{name: "base-argv", argv: append(append(append([]string{e.baseline}, r.flags...), "--"), r.argv...)},
				variant{name: "base-string", argv: append(append([]string{e.baseline}, r.flags...), "-c", str)})
		}
		res, err := measureRow(r.dir, env, vs, *flagRuns, 3)
		if err != nil {
			return err
		}
		p, a := res.last("plain"), res.last("argv")
		if p.exit != a.exit {
			return fmt.Errorf("%s: exit %d plain, %d through shrinkrun", r.name, p.exit, a.exit)
		}
		results = append(results, result{r, res, outputSize(e, r, env)})
	}

	printf("## Commands: plain vs `shrinkrun --` and `shrinkrun -c`\n\n")
	printf("Median of %d interleaved rounds after 3 warm-up rounds; each command's stdout and stderr are pipes the harness reads to the end, as an agent's tool does. ", *flagRuns)
	printf("`-c` is the drop-in for `bash -c`, so its ratio is against `bash -c 'CMD'`; the last ratio is against the plain command. ")
	printf("*added* is the `--` median minus the plain median. *shrinkrun printed* is what the `--` form printed: a block, or the raw output (pass-through, or a block that would not have been clearly smaller).\n\n")
	printf("| command | raw output | plain ms | `--` ms | `--` / plain | added ms | `bash -c` ms | `-c` ms | `-c` / `bash -c` | `-c` / plain | shrinkrun printed |\n")
	printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, r := range results {
		plain, bash, argv, str := r.wall("plain"), r.wall("bash"), r.wall("argv"), r.wall("string")
		printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, r.sizes,
			ms(plain), ms(argv), ratio(argv, plain), ms(argv-plain),
			ms(bash), ms(str), ratio(str, bash), ratio(str, plain), printed(r.row, r.last("argv")))
		if r.target {
			check(float64(argv) <= 1.5*float64(plain) && argv-plain < 2*time.Millisecond,
				"%s: `shrinkrun --` %s ms vs plain %s ms (%s, %s ms added; target <= 1.5x and < 2 ms)", r.name, ms(argv), ms(plain), ratio(argv, plain), ms(argv-plain))
			check(float64(str) <= 1.5*float64(bash),
				"%s: `shrinkrun -c` %s ms vs `bash -c` %s ms (%s; target <= 1.5x)", r.name, ms(str), ms(bash), ratio(str, bash))
		}
	}
	printf("\n### CPU time (ms)\n\n")
	printf("User plus system time of the command and everything it waited for (from `wait4`), median of the same rounds. Unlike wall time it hardly moves with the machine's load, so *added* here is the steadiest measure of what shrinkrun itself costs per command.\n\n")
	printf("| command | plain | `--` | added | `bash -c` | `-c` | added |\n")
	printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range results {
		plain, bash, argv, str := r.cpu("plain"), r.cpu("bash"), r.cpu("argv"), r.cpu("string")
		printf("| %s | %s | %s | %s | %s | %s | %s |\n", r.name, ms(plain), ms(argv), ms(argv-plain), ms(bash), ms(str), ms(str-bash))
	}
	if e.baseline != "" {
		printf("\n### Against the baseline binary\n\n")
		printf("The same rounds, with `%s` (*before*) run interleaved with the binary under test (*after*): wall-time medians and their ratio to the plain command (`-c` to `bash -c`), and the CPU time each adds.\n\n", e.baseline)
		printf("| command | plain ms | before `--` | after `--` | before `--` / plain | after `--` / plain | before `-c` / `bash -c` | after `-c` / `bash -c` | before CPU added | after CPU added |\n")
		printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for _, r := range results {
			plain, bash := r.wall("plain"), r.wall("bash")
			before, after := r.wall("base-argv"), r.wall("argv")
			printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, ms(plain), ms(before), ms(after),
				ratio(before, plain), ratio(after, plain), ratio(r.wall("base-string"), bash), ratio(r.wall("string"), bash),
				ms(r.cpu("base-argv")-r.cpu("plain")), ms(r.cpu("argv")-r.cpu("plain")))
		}
	}
	printf("\n### Peak RSS (MiB)\n\n")
	printf("Median of a second pass of %d interleaved rounds under %s: `ru_maxrss`, the largest resident set of the process and of the children it waited for, so a shrinkrun row is max(shrinkrun, the command).\n\n", max(5, *flagRuns/3), rssMethod())
	printf("| command | plain | `--` | `--` / plain | `bash -c` | `-c` | `-c` / `bash -c` |\n")
	printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range results {
		plain, bash, argv, str := r.rss("plain"), r.rss("bash"), r.rss("argv"), r.rss("string")
		printf("| %s | %s | %s | %s | %s | %s | %s |\n", r.name, mib(plain), mib(argv), ratio(argv, plain), mib(bash), mib(str), ratio(str, bash))
	}
	printf("\n")
	return nil
}

// wanted reports whether -rows selects the row named name.
func wanted(name string) bool {
	if *flagRows == "" {
		return true
	}
	for w := range strings.SplitSeq(*flagRows, ",") {
		if w = strings.TrimSpace(w); w != "" && strings.Contains(name, w) {
			return true
		}
	}
	return false
}

func printed(r row, s sample) string {
	m := mode(s)
	if m == "raw" && len(r.flags) == 0 && r.argv[0] != "true" {
		return "raw (block not smaller)"
	}
	if m == "raw" {
		return "pass-through"
	}
	return m
}

// outputSize runs the plain command once more and reports the size of its
// stdout and stderr.
func outputSize(e *env, r row, env []string) string {
	var out, errb counter
	cmd := command(r.dir, env, r.argv)
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Run()
	return humanBytes(int64(out) + int64(errb))
}

type counter int64

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
