//go:build unix

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/shrinkrun/shrinkrun/bench/input"
	"github.com/shrinkrun/shrinkrun/rules"
)

// summarizeTimeout bounds one input's measurement. At 100 MB/s the largest
// input takes a second a run; a rule that is quadratic takes hours, and is
// reported as timed out instead.
const summarizeTimeout = 3 * time.Minute

// summarizers prints the throughput of rules.Block alone on each rule's
// corpus repeated to each size. Every input is measured in a child process
// (this program, run with -summarize-one) so that one slow rule is stopped
// at summarizeTimeout without stopping the benchmark.
func (e *env) summarizers() error {
	var sizes []int
	for s := range strings.SplitSeq(*flagSumMB, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("-sum-mb: bad size %q", s)
		}
		sizes = append(sizes, n)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	printf("## Summarizers alone\n\n")
	printf("`rules.Block` (rule, budget and boundary check) on each rule's corpus cases (`rules/FAMILY/testdata/RULE`) repeated to the size, in MB/s (10^6 bytes) by wall time / by CPU time (all threads, the garbage collector's included); median of 15, 5 and 3 runs for 1, 10 and 100 MB, in a fresh process per input. ")
	printf("*alloc* is the bytes allocated per run over the input size. From the command line a summarizer only ever sees the bounded capture (at most 4 MiB and 262144 lines per stream); the larger inputs show that its cost is linear.\n\n")
	printf("| rule |")
	for _, mb := range sizes {
		printf(" %d MB |", mb)
	}
	printf(" alloc |\n| --- |%s ---: |\n", strings.Repeat(" ---: |", len(sizes)))
	for _, rule := range input.Rules {
		row := "| " + rule.Name + " |"
		var alloc string
		for _, mb := range sizes {
			reps := 15
			switch {
			case mb >= 100:
				reps = 3
			case mb >= 10:
				reps = 5
			}
			progress("summarizing %s at %d MB (%d runs)", rule.Name, mb, reps)
			res, err := summarizeInChild(self, rule.Name, mb*1e6, reps)
			if err != nil {
				row += fmt.Sprintf(" %s |", err)
				check(false, "%s at %d MB: %v", rule.Name, mb, err)
				continue
			}
			row += fmt.Sprintf(" %.0f / %.0f |", res.mbps, res.cpuMBps)
			alloc = fmt.Sprintf("%.1fx", res.allocRatio)
			// The target is checked on CPU time: on an idle machine it is
			// the lower figure (the collector runs on another core), and
			// unlike wall time it does not drop when the machine is busy.
			check(res.cpuMBps >= 100, "%s summarizes %d MB at %.0f MB/s of CPU time, %.0f MB/s wall (target >= 100 MB/s)", rule.Name, mb, res.cpuMBps, res.mbps)
		}
		printf("%s %s |\n", row, alloc)
	}
	printf("\n")
	return nil
}

type throughput struct {
	mbps, cpuMBps float64
	allocRatio    float64
}

// cpuTime is the user plus system time of this process so far, all
// threads (the garbage collector's included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func summarizeInChild(self, rule string, size, reps int) (throughput, error) {
	ctx, cancel := context.WithTimeout(context.Background(), summarizeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, "-summarize-one", fmt.Sprintf("%s:%d:%d", rule, size, reps))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return throughput{}, fmt.Errorf("timed out after %v", summarizeTimeout)
	}
	if err != nil {
		return throughput{}, fmt.Errorf("failed: %v", err)
	}
	var t throughput
	if _, err := fmt.Sscan(string(out), &t.mbps, &t.cpuMBps, &t.allocRatio); err != nil {
		return throughput{}, fmt.Errorf("bad child output %q", out)
	}
	return t, nil
}

// summarizeChild is the child side: RULE:BYTES:REPS. It prints the median
// throughput in MB/s and the allocation ratio.
func summarizeChild(arg string) int {
	parts := strings.Split(arg, ":")
	if len(parts) != 3 {
		fmt.Fprintln(os.Stderr, "bench: -summarize-one RULE:BYTES:REPS")
		return 2
	}
	size, _ := strconv.Atoi(parts[1])
	reps, _ := strconv.Atoi(parts[2])
	corpus, err := input.Root()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 2
	}
	for _, rule := range input.Rules {
		if rule.Name != parts[0] {
			continue
		}
		u, err := input.LoadUnit(corpus, rule)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			return 2
		}
		r := u.Sized(size)
		n := input.Size(r)
		if size < 100e6 {
			rules.Block(r) // warm up
		}
		var times, cpus []time.Duration
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range reps {
			start, cpu0 := time.Now(), cpuTime()
			rules.Block(r)
			times = append(times, time.Since(start))
			cpus = append(cpus, cpuTime()-cpu0)
		}
		runtime.ReadMemStats(&after)
		id := func(d time.Duration) time.Duration { return d }
		d, c := median(times, id), median(cpus, id)
		fmt.Printf("%f %f %f\n", float64(n)/1e6/d.Seconds(), float64(n)/1e6/c.Seconds(), float64(after.TotalAlloc-before.TotalAlloc)/float64(reps)/float64(n))
		return 0
	}
	fmt.Fprintln(os.Stderr, "bench: no rule", parts[0])
	return 2
}
