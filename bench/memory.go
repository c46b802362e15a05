//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/shrinkrun/shrinkrun/bench/input"
)

// memory runs recognized commands that print -big-mib MiB (1 GiB by
// default) through shrinkrun and checks that its peak RSS stays under the
// ceiling: the capture keeps a bounded head and tail, the rest goes to the
// on-disk copy. The commands are fake git and cargo scripts first on PATH.
func (e *env) memory() error {
	total := int64(*flagBigMiB) << 20
	dir := filepath.Join(e.tmp, "big")
	cases, err := e.bigCases(dir, total)
	if err != nil {
		return err
	}
	state := filepath.Join(e.tmp, "bigstate")
	printf("## Memory: commands that print %s\n\n", humanBytes(total))
	printf("Each command is a fake `git` or `cargo` first on PATH that prints the output below; it is run once plain and once each way through shrinkrun, with the raw copy going to a temporary store that is deleted after each run. ")
	printf("*peak RSS* is `ru_maxrss` of the whole tree (shrinkrun and the fake command, whichever is larger; the fake's own is in the plain column); *VmHWM* is shrinkrun's own high-water mark, sampled from /proc every 5 ms. The ceiling is %d MiB.\n\n", *flagCeiling)
	printf("| output | run | raw bytes seen | wall s | peak RSS MiB | shrinkrun VmHWM MiB | printed |\n| --- | --- | ---: | ---: | ---: | ---: | --- |\n")
	for _, c := range cases {
		env := withEnv(e.base, "PATH="+c.bin+string(os.PathListSeparator)+getenv(e.base, "PATH"), "SHRINKRUN_STATE_DIR="+state)
		runs := []struct {
			name string
			argv []string
		}{
			{"plain", c.argv},
			{"`shrinkrun --`", append([]string{e.shrinkrun, "--"}, c.argv...)},
			{"`shrinkrun -c`", []string{e.shrinkrun, "-c", joinArgs(c.argv)}},
			{"`shrinkrun --raw --` (pass-through)", append([]string{e.shrinkrun, "--raw", "--"}, c.argv...)},
		}
		for _, r := range runs {
			progress("%s: %s", c.name, r.name)
			s, hwm, err := runBig(e.tmp, env, r.argv)
			if err != nil {
				return fmt.Errorf("%s %s: %w", c.name, r.name, err)
			}
			seen, printed := "-", "-"
			hwmCol := "-"
			if r.name != "plain" {
				hwmCol = mib(hwm)
				printed = mode(s)
				if printed == "block" {
					o, _ := headerValue(s.head, "raw_stdout_bytes")
					er, _ := headerValue(s.head, "raw_stderr_bytes")
					seen = fmt.Sprint(o + er)
					check(o+er >= total, "%s %s: the block counts %d raw bytes of %d", c.name, r.name, o+er, total)
				} else if r.name != "`shrinkrun --raw --` (pass-through)" {
					printed = "raw (block not smaller)"
				} else {
					printed = "pass-through"
				}
				check(s.rssKB <= int64(*flagCeiling)<<10, "%s, %s: peak RSS %s MiB (ceiling %d MiB)", c.name, r.name, mib(s.rssKB), *flagCeiling)
			}
			printf("| %s | %s | %s | %.1f | %s | %s | %s |\n", c.name, r.name, seen, s.wall.Seconds(), mib(s.rssKB), hwmCol, printed)
			if err := os.RemoveAll(state); err != nil {
				return err
			}
		}
	}
	printf("\n")
	return nil
}

func joinArgs(argv []string) string {
	s := ""
	for i, a := range argv {
		if i > 0 {
			s += " "
		}
		s += a
	}
	return s
}

// bigCase is a fake command printing a big output.
type bigCase struct {
	name string
	bin  string // directory to put first on PATH
	argv []string
}

// bigCases writes the fake commands. Each prints total bytes: whole
// copies of a 64 MiB chunk, built from real corpus output where there is
// one, or a pathological stream.
func (e *env) bigCases(dir string, total int64) ([]bigCase, error) {
	const chunkSize = 64 << 20
	corpus, err := input.Root()
	if err != nil {
		return nil, err
	}
	chunk := func(name, rule string, stderr bool) (string, error) {
		var rl input.Rule
		for _, r := range input.Rules {
			if r.Name == rule {
				rl = r
			}
		}
		u, err := input.LoadUnit(corpus, rl)
		if err != nil {
			return "", err
		}
		unit := u.Stdout
		if stderr {
			unit = u.Stderr
		}
		if len(unit) == 0 {
			return "", fmt.Errorf("%s: empty unit", rule)
		}
		b := make([]byte, 0, chunkSize)
		for len(b) < chunkSize {
			b = append(b, unit[:min(len(unit), chunkSize-len(b))]...)
		}
		p := filepath.Join(dir, name)
		return p, os.WriteFile(p, b, 0o644)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	n := max(total/chunkSize, 1)
	var cases []bigCase
	add := func(name, cmd, script string, argv ...string) error {
		bin := filepath.Join(dir, "bin-"+fmt.Sprint(len(cases)))
		if err := os.MkdirAll(bin, 0o755); err != nil {
			return err
		}
		cases = append(cases, bigCase{name: name, bin: bin, argv: argv})
		return os.WriteFile(filepath.Join(bin, cmd), []byte("#!/bin/sh\n"+script), 0o755)
	}
	loop := func(count int64, file, redirect string) string {
		return fmt.Sprintf("i=0; while [ $i -lt %d ]; do cat '%s' %s; i=$((i+1)); done", count, file, redirect)
	}
	diff, err := chunk("diff.chunk", "git_diff", false)
	if err != nil {
		return nil, err
	}
	if err := add(fmt.Sprintf("`git diff`, %s of real diff text on stdout", humanBytes(n*chunkSize)), "git",
		loop(n, diff, "")+"\n", "git", "diff"); err != nil {
		return nil, err
	}
	out, err := chunk("test.out.chunk", "cargo_test", false)
	if err != nil {
		return nil, err
	}
	errc, err := chunk("test.err.chunk", "cargo_test", true)
	if err != nil {
		return nil, err
	}
	half := max(n/2, 1)
	if err := add(fmt.Sprintf("`cargo test`, %s of test log on each of stdout and stderr", humanBytes(half*chunkSize)), "cargo",
		"("+loop(half, out, "")+") &\n"+loop(half, errc, ">&2")+"\nwait\nexit 101\n", "cargo", "test"); err != nil {
		return nil, err
	}
	size := n * chunkSize
	if err := add(fmt.Sprintf("`git diff`, %s of empty lines", humanBytes(size)), "git",
		fmt.Sprintf("head -c %d /dev/zero | tr '\\0' '\\n'\n", size), "git", "diff"); err != nil {
		return nil, err
	}
	if err := add(fmt.Sprintf("`git diff`, one %s line", humanBytes(size)), "git",
		fmt.Sprintf("head -c %d /dev/zero | tr '\\0' 'a'\n", size), "git", "diff"); err != nil {
		return nil, err
	}
	return cases, nil
}

// runBig runs argv under the RSS wrapper with its output drained, and
// returns the sample and the largest VmHWM of argv's own process (the
// wrapper's child) seen while it ran.
func runBig(dir string, env, argv []string) (sample, int64, error) {
	out := &limitedBuffer{n: 64 << 10}
	s, peak, err := runBigTo(dir, env, argv, out, io.Discard)
	s.head = out.b.Bytes()
	return s, peak, err
}

// runBigTo is runBig with argv's stdout and stderr written to the writers
// given.
func runBigTo(dir string, env, argv []string, stdout, stderr io.Writer) (sample, int64, error) {
	f, err := os.CreateTemp("", "shrinkrun-bench-rss-")
	if err != nil {
		return sample{}, 0, err
	}
	f.Close()
	defer os.Remove(f.Name())
	wrapped := rssWrap(argv, f.Name())
	cmd := command(dir, env, wrapped)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, 0, err
	}
	done := make(chan struct{})
	hwm := make(chan int64, 1)
	go func() { hwm <- pollHWM(childOf(cmd.Process.Pid, done), done) }()
	err = cmd.Wait()
	close(done)
	peak := <-hwm
	if cmd.ProcessState == nil {
		return sample{}, 0, err
	}
	s := sample{wall: time.Since(start), exit: cmd.ProcessState.ExitCode()}
	if s.rssKB, err = readRSS(f.Name()); err != nil {
		return sample{}, 0, err
	}
	return s, peak, nil
}

// childOf waits for the first child of pid to appear and returns it, or 0
// when done is closed first.
func childOf(pid int, done <-chan struct{}) int {
	path := fmt.Sprintf("/proc/%d/task/%d/children", pid, pid)
	for {
		data, _ := os.ReadFile(path)
		if f := strings.Fields(string(data)); len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				return n
			}
		}
		select {
		case <-done:
			return 0
		case <-time.After(time.Millisecond):
		}
	}
}
