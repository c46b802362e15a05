//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// captureCost measures what shrinkrun's capture costs per MB of output
// depending on how the child cuts it into writes: a fake `git log
// --oneline` (this program, run with -emit) prints the same lines either
// one write() per line, as git does, or in large chunks. The figure is
// shrinkrun's own CPU time: the user and system time of the tree, from
// wait4, less what the child reports for itself.
func (e *env) captureCost() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	lines := *flagCaptureLines
	var size int64
	var line []byte
	for i := range lines {
		line = emitLine(line[:0], i)
		size += int64(len(line))
	}
	type writer struct {
		name  string
		chunk int // bytes per write; 0: one write per line
		bin   string
	}
	writers := []*writer{{name: "one line per write()"}, {name: "128 KiB per write()", chunk: 128 << 10}}
	for i, w := range writers {
		w.bin = filepath.Join(e.tmp, "capture", fmt.Sprint("bin-", i))
		if err := os.MkdirAll(w.bin, 0o755); err != nil {
			return err
		}
		script := fmt.Sprintf("#!/bin/sh\nexec '%s' -emit %d:%d\n", self, lines, w.chunk)
		if err := os.WriteFile(filepath.Join(w.bin, "git"), []byte(script), 0o755); err != nil {
			return err
		}
	}
	rusage := filepath.Join(e.tmp, "capture", "rusage")
	state := filepath.Join(e.tmp, "capture", "state")
	type binary struct{ name, path string }
	bins := []binary{{"under test", e.shrinkrun}}
	if e.baseline != "" {
		bins = []binary{{"before", e.baseline}, {"after", e.shrinkrun}}
	}
	type run struct {
		binary
		*writer
	}
	var runs []run
	for _, b := range bins {
		for _, w := range writers {
			runs = append(runs, run{b, w})
		}
	}
	rounds := max(3, *flagRuns/4)
	progress("measuring the capture of %s written two ways (%d rounds)", humanBytes(size), rounds)
	type result struct{ own, child, wall []time.Duration }
	res := map[run]*result{}
	for r := -1; r < rounds; r++ {
		for k := range runs {
			v := runs[(k+max(r, 0))%len(runs)]
			env := withEnv(e.base, "PATH="+v.bin+string(os.PathListSeparator)+getenv(e.base, "PATH"),
				"BENCH_RUSAGE="+rusage, "SHRINKRUN_STATE_DIR="+state)
			s, err := runOnce(e.tmp, env, []string{v.path, "--", "git", "log", "--oneline"}, false)
			if err != nil {
				return err
			}
			if n, ok := headerValue(s.head, "raw_stdout_bytes"); !ok || n != size {
				return fmt.Errorf("capture, %s: the block counts %d bytes of %d", v.writer.name, n, size)
			}
			child, err := readNanos(rusage)
			if err != nil {
				return fmt.Errorf("capture, %s: %w", v.writer.name, err)
			}
			if err := os.RemoveAll(state); err != nil {
				return err
			}
			if r < 0 {
				continue
			}
			if res[v] == nil {
				res[v] = &result{}
			}
			res[v].own = append(res[v].own, s.cpu-child)
			res[v].child = append(res[v].child, child)
			res[v].wall = append(res[v].wall, s.wall)
		}
	}
	id := func(d time.Duration) time.Duration { return d }
	mb := float64(size) / 1e6
	printf("## Capture: cost per write\n\n")
	printf("`shrinkrun -- git log --oneline`, where `git` is a fake that prints %d lines of a `git log --oneline` (%s) either with one write() per line, as git does, or in chunks of 128 KiB. ", lines, humanBytes(size))
	printf("*shrinkrun CPU* is shrinkrun's own user plus system time: that of the tree (from `wait4`) less what the fake reports for itself; it covers the capture, the on-disk copy of all %s and the summary. Median of %d interleaved rounds after one warm-up round", humanBytes(size), rounds)
	if e.baseline != "" {
		printf("; *before* is `%s`, *after* the binary under test", e.baseline)
	}
	printf(".\n\n")
	printf("| shrinkrun | child writes | writes | child CPU ms | shrinkrun CPU ms | shrinkrun CPU ms/MB | wall ms |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, b := range bins {
		var perMB []float64
		for _, w := range writers {
			v := run{b, w}
			writes := int64(lines)
			if w.chunk > 0 {
				writes = (size + int64(w.chunk) - 1) / int64(w.chunk)
			}
			own := median(res[v].own, id)
			perMB = append(perMB, float64(own)/1e6/mb)
			printf("| %s | %s | %d | %s | %s | %.2f | %s |\n", b.name, w.name, writes, ms(median(res[v].child, id)), ms(own), perMB[len(perMB)-1], ms(median(res[v].wall, id)))
		}
		ratio := perMB[0] / perMB[1]
		printf("| %s | ratio | | | | %.2fx | |\n", b.name, ratio)
		if b.path == e.shrinkrun {
			check(ratio <= 1.5, "capture: %.2f ms/MB of shrinkrun CPU with one line per write(), %.2f ms/MB with 128 KiB writes (%.2fx; target <= 1.5x)", perMB[0], perMB[1], ratio)
		}
	}
	printf("\n")
	return nil
}

// emitLine appends line i of a fake `git log --oneline` to b: an
// abbreviated hash and a subject, about 60 bytes.
func emitLine(b []byte, i int) []byte {
	return fmt.Appendf(b, "%07x Capture benchmark: change number %d of the history\n", uint32(i)*2654435761>>4, i)
}

// emit is the -emit side: LINES:CHUNK. It prints the lines with one write
// per line (CHUNK 0) or CHUNK bytes per write, then writes its own CPU
// time in nanoseconds to $BENCH_RUSAGE.
func emit(arg string) int {
	n, chunk, ok := strings.Cut(arg, ":")
	lines, err1 := strconv.Atoi(n)
	size, err2 := strconv.Atoi(chunk)
	if !ok || err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "bench: -emit LINES:CHUNK")
		return 2
	}
	out := os.Stdout
	var buf []byte
	for i := range lines {
		if size == 0 {
			buf = emitLine(buf[:0], i)
			out.Write(buf)
			continue
		}
		if len(buf) >= size {
			out.Write(buf[:size])
			buf = append(buf[:0], buf[size:]...)
		}
		buf = emitLine(buf, i)
	}
	for len(buf) > 0 && size > 0 {
		k := min(size, len(buf))
		out.Write(buf[:k])
		buf = buf[k:]
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	if f := os.Getenv("BENCH_RUSAGE"); f != "" {
		os.WriteFile(f, fmt.Appendln(nil, ru.Utime.Nano()+ru.Stime.Nano()), 0o644)
	}
	return 0
}

func readNanos(file string) (time.Duration, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return time.Duration(n), err
}
