//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// relayBench measures the pass-through paths (docs/performance.md, "Pass-
// through"): what exec and the relay cost against the plain command, how
// live the output stays through each (time to the first byte, lateness of
// a slow producer's lines, below and past the cut limit), what a server
// that never exits has shown its caller by the time it is stopped, and the
// relay's memory on 1 GiB of output no rule recognizes.
//
// The exec path is `shrinkrun --raw`: with stdout a pipe, --raw is what
// makes shrinkrun exec (in a terminal it execs by itself, the same path).
// The relay path is shrinkrun with nothing turned off, stdout and stderr
// pipes, as an agent's tool gives them.
func (e *env) relayBench() error {
	dir := filepath.Join(e.tmp, "relay")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The cut needs the store: a private one, emptied between sections.
	state := filepath.Join(dir, "state")
	env := withEnv(e.base, "SHRINKRUN_STATE_DIR="+state)
	if err := e.relayCost(dir, env); err != nil {
		return err
	}
	if err := e.relayLive(dir, env); err != nil {
		return err
	}
	if err := e.relayServer(dir, env); err != nil {
		return err
	}
	if *flagBigMiB > 0 {
		if err := e.relayMemory(dir, env); err != nil {
			return err
		}
	}
	return os.RemoveAll(state)
}

// relayCost prints the wall time of each pass-through path against the
// plain command, in one interleaved run.
func (e *env) relayCost(dir string, env []string) error {
	files := map[string]int64{"20k": 20_000, "1m": 1_000_000, "100m": 100_000_000}
	for name, size := range files {
		if *flagQuick && size > 10_000_000 {
			continue
		}
		if err := writeLines(filepath.Join(dir, name+".txt"), size); err != nil {
			return err
		}
	}
	floor, err := buildFloor(dir)
	if err != nil {
		return err
	}
	type costRow struct {
		name   string
		plain  []string
		sr     []string // shrinkrun's arguments after its flags
		rounds int
	}
	rows := []costRow{
		{"`true`", []string{"true"}, []string{"--", "true"}, *flagRuns},
		{"`echo hi`, string form", []string{"bash", "-c", "echo hi"}, []string{"-c", "echo hi"}, *flagRuns},
		{"`cat` 20 KB (below the limit)", []string{"cat", "20k.txt"}, []string{"--", "cat", "20k.txt"}, *flagRuns},
		{"`cat` 1 MB (cut)", []string{"cat", "1m.txt"}, []string{"--", "cat", "1m.txt"}, *flagRuns},
		{"`cat` 100 MB (cut)", []string{"cat", "100m.txt"}, []string{"--", "cat", "100m.txt"}, max(5, *flagRuns/3)},
	}
	printf("## Pass-through: exec and relay against the plain command\n\n")
	printf("Wall time from start to the end of the output (stdout and stderr are pipes, read and discarded), median of interleaved rounds after a warm-up; *added* is the median's excess over the plain command's, the ratio is of the medians. *exec* is `shrinkrun --raw`, which replaces itself with the command (in a terminal it does so by itself); *relay* is plain `shrinkrun`, which relays the output through the cut (past the %d-byte default limit, the output is cut and its raw copy written to the store). Peak RSS is the largest of the process tree's.\n\n", 30000)
	printf("*floor* is the least any Go program that execs the command can add: one that does nothing else (`syscall.Exec` in `main`), built here; what exec adds above it is shrinkrun's own start-up (package initialization, flags, classification, the history record).\n\n")
	printf("| command | rounds | plain ms | floor added ms | exec ms | exec added ms | exec ratio | relay ms | relay added ms | relay ratio | RSS plain / exec / relay MiB |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, r := range rows {
		if *flagQuick && strings.Contains(r.name, "100 MB") {
			continue
		}
		progress("measuring pass-through cost: %s (%d rounds)", r.name, r.rounds)
		vs := []variant{
			{name: "plain", argv: r.plain},
			{name: "floor", argv: append([]string{floor}, r.plain...)},
			{name: "exec", argv: append([]string{e.shrinkrun, "--raw"}, r.sr...)},
			{name: "relay", argv: append([]string{e.shrinkrun}, r.sr...)},
		}
		res, err := measureRow(dir, env, vs, r.rounds, 2)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		plain := res.wall("plain")
		printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s |\n", r.name, r.rounds, ms(plain), ms(res.wall("floor")-plain),
			ms(res.wall("exec")), ms(res.wall("exec")-plain), ratio(res.wall("exec"), plain),
			ms(res.wall("relay")), ms(res.wall("relay")-plain), ratio(res.wall("relay"), plain),
			mib(res.rss("plain")), mib(res.rss("exec")), mib(res.rss("relay")))
	}
	printf("\n")
	return nil
}

// buildFloor builds a Go program that only execs its arguments (found on
// PATH), statically as shrinkrun is: the start-up floor of the exec path.
func buildFloor(dir string) (string, error) {
	src := filepath.Join(dir, "floor")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	const prog = "package main\n\nimport (\n\t\"os\"\n\t\"os/exec\"\n\t\"syscall\"\n)\n\n" +
		"func main() {\n\tp, err := exec.LookPath(os.Args[1])\n\tif err == nil {\n\t\terr = syscall.Exec(p, os.Args[1:], os.Environ())\n\t}\n\tos.Exit(127)\n}\n"
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(prog), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module floor\n\ngo 1.26\n"), 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "floor-bin")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir, cmd.Stdout, cmd.Stderr = src, os.Stderr, os.Stderr
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the exec floor: %w", err)
	}
	return bin, nil
}

// writeLines writes size bytes of log-like lines to path.
func writeLines(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var b []byte
	for i := 0; int64(len(b)) < min(size, 1<<20); i++ {
		b = fmt.Appendf(b, "2026-01-02T03:04:05.%06dZ INFO worker=%d handled request id=%08x in %dms\n", i%1000000, i%8, i*2654435761, i%97)
	}
	for left := size; left > 0; left -= int64(len(b)) {
		if _, err := f.Write(b[:min(int64(len(b)), left)]); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// arrival is when a read of the caller's pipe returned (wall clock, which
// the producers' own time stamps are read against), and what it held.
type arrival struct {
	at   time.Time
	data []byte
}

// watch runs argv with stdout on a pipe and records every read of it. With
// stop > 0 it sends the process SIGTERM that long after the start. It
// returns the start, the arrivals, the exit status (-1: a signal) and when
// SIGTERM was sent.
func watch(dir string, env, argv []string, stop time.Duration) (start time.Time, arr []arrival, status int, sent time.Time, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return start, nil, 0, sent, err
	}
	defer r.Close()
	cmd := command(dir, env, argv)
	cmd.Stdout, cmd.Stderr = w, io.Discard
	start = time.Now()
	if err := cmd.Start(); err != nil {
		w.Close()
		return start, nil, 0, sent, err
	}
	w.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1<<20)
		for {
			n, rerr := r.Read(buf)
			if n > 0 {
				arr = append(arr, arrival{time.Now(), bytes.Clone(buf[:n])})
			}
			if rerr != nil {
				return
			}
		}
	}()
	if stop > 0 {
		time.Sleep(time.Until(start.Add(stop)))
		sent = time.Now()
		cmd.Process.Signal(syscall.SIGTERM)
	}
	werr := cmd.Wait()
	<-done
	if cmd.ProcessState == nil {
		return start, nil, 0, sent, werr
	}
	return start, arr, cmd.ProcessState.ExitCode(), sent, nil
}

// line is a whole line the caller received, and when its last byte came.
type line struct {
	at   time.Time
	text string
}

// lines splits the arrivals into lines, each with the time of the read
// that completed it.
func lines(arr []arrival) []line {
	var out []line
	var cur []byte
	for _, a := range arr {
		for _, c := range a.data {
			cur = append(cur, c)
			if c == '\n' {
				out = append(out, line{a.at, string(cur)})
				cur = cur[:0]
			}
		}
	}
	return out
}

// stamped returns, for every line of the form "MARKER NANOS ...", how long
// after NANOS (the producer's wall clock when it printed the line) the
// caller had it.
func stamped(ls []line, marker string) []time.Duration {
	var late []time.Duration
	for _, l := range ls {
		rest, ok := strings.CutPrefix(l.text, marker)
		if !ok {
			continue
		}
		var ns int64
		if _, err := fmt.Sscan(rest, &ns); err == nil {
			late = append(late, l.at.Sub(time.Unix(0, ns)))
		}
	}
	return late
}

// relayLive prints, for a producer that writes a line every 100 ms, when
// the first byte reached the caller and how late its lines were, each way.
func (e *env) relayLive(dir string, env []string) error {
	const count, every = 10, 100 * time.Millisecond
	producer := func(preamble int) string {
		pre := ""
		if preamble > 0 {
			pre = fmt.Sprintf("head -c %d %s; echo; ", preamble, filepath.Join(dir, "1m.txt"))
		}
		return fmt.Sprintf("%sfor i in 1 2 3 4 5 6 7 8 9 10; do echo \"tick $(date +%%s%%N) $i: error: step $i failed\"; sleep %.1f; done", pre, every.Seconds())
	}
	type liveCase struct {
		name     string
		preamble int
	}
	cases := []liveCase{
		{"a line every 100 ms", 0},
		{"12 KB first (past the head's share of the budget), then a line every 100 ms", 12_000},
		{"40 KB first (past the 30,000-byte limit), then a line every 100 ms", 40_000},
	}
	rounds := max(3, *flagRuns/6)
	printf("## Live output: a slow producer, each way\n\n")
	printf("The producer is `bash -c SCRIPT`, SCRIPT printing %d lines `tick NANOS N: error: step N failed`, one every %v (after a preamble of log lines, in the later cases), NANOS being its own clock (`date +%%s%%N`) when it printed the line; *exec* runs it as `shrinkrun --raw -c SCRIPT`, *relay* as `shrinkrun -c SCRIPT`. Over %d rounds: the median time from the start to the first byte on the caller's pipe, and each tick line's delay (the caller's clock when the line was whole on its pipe, less NANOS), median and largest over every line of every round. The ticks are failure lines (`error:`), which the cut passes on past the limit too. A line held until the command's exit would be up to %v late.\n\n", count, every, rounds, time.Duration(count)*every)
	printf("| producer | way | first byte ms | line delay median ms | largest ms | lines seen |\n| --- | --- | ---: | ---: | ---: | ---: |\n")
	id := func(d time.Duration) time.Duration { return d }
	for _, c := range cases {
		script := producer(c.preamble)
		ways := []struct {
			name string
			argv []string
		}{
			{"plain", []string{"bash", "-c", script}},
			{"exec", []string{e.shrinkrun, "--raw", "-c", script}},
			{"relay", []string{e.shrinkrun, "-c", script}},
		}
		progress("measuring live output: %s (%d rounds)", c.name, rounds)
		first := map[string][]time.Duration{}
		late := map[string][]time.Duration{}
		seen := map[string]int{}
		for r := -1; r < rounds; r++ {
			for _, w := range ways {
				start, arr, _, _, err := watch(dir, env, w.argv, 0)
				if err != nil {
					return fmt.Errorf("%s %s: %w", c.name, w.name, err)
				}
				if r < 0 || len(arr) == 0 {
					continue
				}
				first[w.name] = append(first[w.name], arr[0].at.Sub(start))
				l := stamped(lines(arr), "tick ")
				seen[w.name] = len(l)
				late[w.name] = append(late[w.name], l...)
			}
		}
		for _, w := range ways {
			printf("| %s | %s | %s | %s | %s | %d |\n", c.name, w.name, ms(median(first[w.name], id)),
				ms(median(late[w.name], id)), ms(slicesMax(late[w.name])), seen[w.name])
		}
	}
	printf("\n")
	return nil
}

func slicesMax(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// relayServer runs a server-like producer that never exits (a start-up
// log, a ready line, then a request line every 100 ms), stops it with
// SIGTERM after 2 s, and says what had reached the caller by then and in
// all.
func (e *env) relayServer(dir string, env []string) error {
	const stopAfter = 2 * time.Second
	script := func(startup int) string {
		return fmt.Sprintf("head -c %d %s; echo; echo 'ready: listening on http://127.0.0.1:3000'; "+
			"i=0; while :; do i=$((i+1)); echo \"GET /page/$i 200\"; sleep 0.1; done", startup, filepath.Join(dir, "1m.txt"))
	}
	printf("## A server that never exits, stopped by SIGTERM\n\n")
	printf("`bash -c SCRIPT`: a start-up log of the size below, `ready: listening on http://127.0.0.1:3000`, then `GET /page/N 200` every 100 ms, for ever; SIGTERM is sent to the process the caller started %v after the start (plain: bash; exec: the command shrinkrun became; relay: shrinkrun, which relays it). *before SIGTERM* is what had reached the caller's pipe by then; *in all* what reached it by the end. One run each.\n\n", stopAfter)
	printf("| start-up log | way | ready line at ms | bytes before SIGTERM | request lines before | bytes in all | request lines in all | exit status |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, startup := range []int{2_000, 12_000, 40_000} {
		s := script(startup)
		for _, w := range []struct {
			name string
			argv []string
		}{
			{"plain", []string{"bash", "-c", s}},
			{"exec", []string{e.shrinkrun, "--raw", "-c", s}},
			{"relay", []string{e.shrinkrun, "-c", s}},
		} {
			progress("measuring a stopped server: %d bytes of start-up log, %s", startup, w.name)
			start, arr, status, sent, err := watch(dir, env, w.argv, stopAfter)
			if err != nil {
				return err
			}
			var before, all int64
			for _, a := range arr {
				all += int64(len(a.data))
				if !a.at.After(sent) {
					before += int64(len(a.data))
				}
			}
			ready := "never"
			requests, requestsBefore := 0, 0
			for _, l := range lines(arr) {
				switch {
				case strings.HasPrefix(l.text, "ready: listening") && ready == "never":
					ready = ms(l.at.Sub(start))
					if l.at.After(sent) {
						ready += " (after SIGTERM)"
					}
				case strings.HasPrefix(l.text, "GET /page/"):
					requests++
					if !l.at.After(sent) {
						requestsBefore++
					}
				}
			}
			printf("| %d | %s | %s | %d | %d | %d | %d | %d |\n", startup, w.name, ready, before, requestsBefore, all, requests, status)
		}
	}
	printf("\n")
	return nil
}

// relayMemory runs a command no rule recognizes that prints -big-mib MiB of
// log lines through the relay, and measures the peak RSS.
func (e *env) relayMemory(dir string, env []string) error {
	total := int64(*flagBigMiB) << 20
	script := fmt.Sprintf("yes '2026-01-02T03:04:05Z INFO worker=3 handled request id=00c0ffee in 12ms' | head -c %d", total)
	printf("## Memory: %s of output no rule recognizes, through the relay\n\n", humanBytes(total))
	printf("`bash -c SCRIPT` prints %s of log lines; through `shrinkrun -c SCRIPT` it is relayed, cut past the limit, and its raw copy written to the store (up to its %d MiB limit, `SHRINKRUN_KEEP_MB`). *peak RSS* is `ru_maxrss` of the tree (the largest process), *VmHWM* shrinkrun's own high-water mark sampled every 5 ms. The ceiling is %d MiB.\n\n", humanBytes(total), 256, *flagCeiling)
	printf("| run | wall s | peak RSS MiB | shrinkrun VmHWM MiB | bytes printed |\n| --- | ---: | ---: | ---: | ---: |\n")
	for _, w := range []struct {
		name string
		argv []string
	}{
		{"plain", []string{"bash", "-c", script}},
		{"relay", []string{e.shrinkrun, "-c", script}},
	} {
		progress("measuring relay memory: %s", w.name)
		var out, errb counter
		s, hwm, err := runBigTo(dir, env, w.argv, &out, &errb)
		if err != nil {
			return err
		}
		hwmCol := "-"
		if w.name != "plain" {
			hwmCol = mib(hwm)
			check(s.rssKB <= int64(*flagCeiling)<<10, "relay of %s: peak RSS %s MiB (ceiling %d MiB)", humanBytes(total), mib(s.rssKB), *flagCeiling)
		}
		printf("| %s | %.1f | %s | %s | %d |\n", w.name, s.wall.Seconds(), mib(s.rssKB), hwmCol, out+errb)
	}
	printf("\n")
	return nil
}
