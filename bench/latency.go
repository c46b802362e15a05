//go:build unix

package main

import (
	"fmt"
	"time"
)

// latency prints when the first byte of a pass-through command's output
// reaches the caller, and when its second line does: the child prints a
// line, sleeps, and prints another. Pass-through hands the child
// shrinkrun's own stdout, so the gap between the lines must be the sleep
// itself, and the first byte must not wait for the command to end.
func (e *env) latency() error {
	const sleep = 300 * time.Millisecond
	script := fmt.Sprintf("echo first; sleep %.1f; echo second", sleep.Seconds())
	variants := []struct {
		name, base string
		argv       []string
	}{
		{"`sh -c SCRIPT`", "", []string{"sh", "-c", script}},
		{"`shrinkrun -- sh -c SCRIPT`", "`sh -c SCRIPT`", []string{e.shrinkrun, "--", "sh", "-c", script}},
		{"`bash -c SCRIPT`", "", []string{"bash", "-c", script}},
		{"`shrinkrun -c SCRIPT`", "`bash -c SCRIPT`", []string{e.shrinkrun, "-c", script}},
	}
	rounds := max(5, *flagRuns/3)
	progress("measuring first-byte latency (%d rounds)", rounds)
	first := map[string][]time.Duration{}
	gap := map[string][]time.Duration{}
	for r := -1; r < rounds; r++ {
		for _, v := range variants {
			f, s, err := firstBytes(e.tmp, e.base, v.argv)
			if err != nil {
				return fmt.Errorf("%s: %w", v.name, err)
			}
			if r >= 0 {
				first[v.name] = append(first[v.name], f)
				gap[v.name] = append(gap[v.name], s-f)
			}
		}
	}
	id := func(d time.Duration) time.Duration { return d }
	printf("## Live output in pass-through\n\n")
	printf("SCRIPT is `%s`. Median of %d rounds: time from start to the first byte on the caller's pipe, the extra time against the same command without shrinkrun, and the time from the first line to the second (the sleep is %s; output held back until exit would show here as 0).\n\n", script, rounds, sleep)
	printf("| command | first byte ms | added ms | first to second line ms |\n| --- | ---: | ---: | ---: |\n")
	for _, v := range variants {
		f := median(first[v.name], id)
		added := "-"
		if v.base != "" {
			added = ms(f - median(first[v.base], id))
		}
		g := median(gap[v.name], id)
		printf("| %s | %s | %s | %s |\n", v.name, ms(f), added, ms(g))
		if v.base != "" {
			check(g > sleep*8/10 && f < sleep/2,
				"%s: first byte after %s ms, second line %s ms later (live: the first line arrives before the sleep ends)", v.name, ms(f), ms(g))
		}
	}
	printf("\n")
	return nil
}
