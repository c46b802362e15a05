//go:build unix

package shape

// The cut's cost, for the relay, which runs every byte of an output past
// the limit through a Cutter: throughput on each corpus case repeated to 1
// and 10 MB (100 MB without -short), in a pipe's 64 KiB reads; against
// the rules' summarizers on the same bytes, in the same run; and memory on
// 1 GB. docs/shape.md records the figures. Besides MB/s (wall time, which
// moves with the machine's load), each benchmark reports cpu-MB/s: the
// bytes over the process's CPU time (all threads, the collector's
// included), which moves much less.
//
//	go test ./shape -run '^$' -bench Cut -benchtime 5x
//	go test ./shape -run '^$' -bench VsRules -benchtime 10x
//	SHRINKRUN_SLOW_TESTS=1 go test ./shape -run Memory -v

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/shrinkrun/shrinkrun/bench/input"
	"github.com/shrinkrun/shrinkrun/rules"
)

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopCPU runs f in b.Loop and reports MB over CPU seconds as cpu-MB/s.
func loopCPU(b *testing.B, bytes int, f func()) {
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	start, n := cpuTime(), 0
	for b.Loop() {
		f()
		n++
	}
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(n)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

// repeated is b repeated to at least n bytes, cut at a line's end.
func repeated(b []byte, n int) []byte {
	out := make([]byte, 0, n+len(b))
	for len(out) < n {
		out = append(out, b...)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			out = append(out, '\n')
		}
	}
	return out
}

// feedAll cuts stdout and stderr in 64 KiB Writes, as the relay reads a
// pipe, and returns how many bytes came out.
func feedAll(o Options, stdout, stderr []byte) int {
	c := New(o)
	n := 0
	for s, b := range [][]byte{stdout, stderr} {
		for len(b) > 0 {
			k := min(len(b), 64<<10)
			for _, ch := range c.Write(Stream(s), b[:k]) {
				n += len(ch.Data)
			}
			b = b[k:]
		}
	}
	for _, ch := range c.Close("shrinkrun show 0123456789abcdef", nil) {
		n += len(ch.Data)
	}
	return n
}

// BenchmarkCut measures a Cutter on each corpus case repeated to 1, 10 and
// 100 MB (10^6 bytes) at Claude Code's limit. The MB/s column is the
// throughput the relay gets past the limit.
func BenchmarkCut(b *testing.B) {
	for _, c := range loadCorpus(b) {
		for _, mb := range []int{1, 10, 100} {
			b.Run(fmt.Sprintf("%s/%dMB", c.name, mb), func(b *testing.B) {
				if testing.Short() && mb > 10 {
					b.Skip("100 MB skipped under -short")
				}
				out, errs := repeated(c.stdout, mb*1e6*len(c.stdout)/(len(c.stdout)+len(c.stderr))), []byte(nil)
				if len(c.stderr) > 0 {
					errs = repeated(c.stderr, mb*1e6*len(c.stderr)/(len(c.stdout)+len(c.stderr)))
				}
				o := Options{Limit: 30000, Budget: 16 << 10, Argv: c.argv}
				loopCPU(b, len(out)+len(errs), func() { feedAll(o, out, errs) })
			})
		}
	}
}

// BenchmarkVsRules runs, on each rule's benchmark input of 1 MB
// (bench/input, as BenchmarkBlock in package rules), the rule's summarizer
// (rules.Block) and the cut by shape the same bytes would get from a
// command no rule recognizes, one after the other in the same run: the cut
// must cost about what a rule does.
func BenchmarkVsRules(b *testing.B) {
	units, err := input.Units()
	if err != nil {
		b.Fatal(err)
	}
	for _, u := range units {
		rule := u.Rule
		r := u.Sized(1e6)
		b.Run(rule.Name+"/rule", func(b *testing.B) {
			loopCPU(b, input.Size(r), func() { rules.Block(r) })
		})
		b.Run(rule.Name+"/cut", func(b *testing.B) {
			o := Options{Limit: 30000, Budget: 16 << 10, Argv: []string{"./ci.sh"}}
			loopCPU(b, input.Size(r), func() { feedAll(o, r.Stdout, r.Stderr) })
		})
	}
}

// TestMemory feeds 1 GB of output (the corpus's cases in turn, each
// repeated) through one Cutter and checks that the heap stays bounded: the
// cut keeps a few budgets whatever the size. A scaling test: it runs only
// with SHRINKRUN_SLOW_TESTS=1, as .ci/run's slow step does.
func TestMemory(t *testing.T) {
	if os.Getenv("SHRINKRUN_SLOW_TESTS") != "1" {
		// ruletest.Slow's switch; ruletest itself would bring its own
		// -update flag into this test binary.
		t.Skip("a scaling test: set SHRINKRUN_SLOW_TESTS=1 to run it")
	}
	cases := loadCorpus(t)
	var chunks [][]byte
	for _, c := range cases {
		chunks = append(chunks, repeated(append(append([]byte(nil), c.stdout...), c.stderr...), 8<<20))
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	for _, o := range []Options{{Limit: 30000, Budget: 16 << 10, Argv: []string{"python3", "app.py"}}, {Limit: 30000, Budget: 16 << 10, Argv: []string{"cat", "big.py"}}} {
		c := New(o)
		fed, peak := 0, uint64(0)
		for i := 0; fed < 1<<30; i++ {
			b := chunks[i%len(chunks)]
			for p := b; len(p) > 0; p = p[min(len(p), 64<<10):] {
				c.Write(Stream(i%2), p[:min(len(p), 64<<10)])
			}
			fed += len(b)
			if i%8 == 0 {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse-min(ms.HeapInuse, base))
			}
		}
		n := 0
		for _, ch := range c.Close("shrinkrun show 1", nil) {
			n += len(ch.Data)
		}
		t.Logf("%v: %d MB fed, %d bytes out, heap above the inputs' at most %.1f MB", o.Argv, fed>>20, n, float64(peak)/(1<<20))
		if peak > 8<<20 {
			t.Errorf("the cutter's heap grew to %.1f MB", float64(peak)/(1<<20))
		}
		if n > o.Budget {
			t.Errorf("%d bytes out", n)
		}
	}
}
