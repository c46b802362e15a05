//go:build unix

package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// sample is one run of a command.
type sample struct {
	wall  time.Duration
	cpu   time.Duration // user+system time of the process and its waited-for descendants
	rssKB int64         // ru_maxrss under the RSS wrapper: the largest of the process and its waited-for descendants
	exit  int
	head  []byte // the first bytes of stdout, for the mode column
}

// limitedBuffer keeps the first n bytes written and discards the rest.
type limitedBuffer struct {
	b bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// runOnce runs argv in dir with env, stdout and stderr on pipes that are
// read and discarded as an agent's tool would read them, and measures the
// time from start to the end of Wait (output read to the end). With rss
// set, the command runs under the RSS wrapper and the sample holds its
// peak RSS instead (its wall time then includes the wrapper).
func runOnce(dir string, env, argv []string, rss bool) (sample, error) {
	var rssFile string
	if rss {
		f, err := os.CreateTemp("", "shrinkrun-bench-rss-")
		if err != nil {
			return sample{}, err
		}
		f.Close()
		rssFile = f.Name()
		defer os.Remove(rssFile)
		argv = rssWrap(argv, rssFile)
	}
	cmd := command(dir, env, argv)
	out := &limitedBuffer{n: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, io.Discard
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return sample{}, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	s := sample{wall: wall, exit: cmd.ProcessState.ExitCode(), head: out.b.Bytes(),
		cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if rss {
		s.rssKB, err = readRSS(rssFile)
		if err != nil {
			return sample{}, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
		}
	}
	return s, nil
}

// The peak RSS of a command is ru_maxrss from wait4 in a small parent: GNU
// time (`/usr/bin/time -f %M`) when it is installed, else this program run
// with -rss-exec. It cannot be taken from the benchmark process itself: a
// child's ru_maxrss starts from the RSS of the process that forked it, and
// this one holds the corpus and the big-output chunks.
var timeBin = findTime()

func findTime() string {
	for _, p := range []string{"/usr/bin/time", "/bin/time"} {
		f, err := os.CreateTemp("", "shrinkrun-bench-time-")
		if err != nil {
			return ""
		}
		f.Close()
		err = exec.Command(p, "-f", "%M", "-o", f.Name(), "true").Run()
		data, _ := os.ReadFile(f.Name())
		os.Remove(f.Name())
		if _, perr := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && perr == nil {
			return p
		}
	}
	return ""
}

func rssMethod() string {
	if timeBin != "" {
		return "`" + timeBin + " -f %M`"
	}
	return "this program's `-rss-exec` (a small Go parent: its own few MiB are the floor; install GNU time for a lower one)"
}

func rssWrap(argv []string, file string) []string {
	if timeBin != "" {
		return append([]string{timeBin, "-f", "%M", "-o", file, "--"}, argv...)
	}
	self, _ := os.Executable()
	return append([]string{self, "-rss-exec", file, "--"}, argv...)
}

func readRSS(file string) (int64, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	// GNU time prefixes "Command exited with non-zero status N" when the
	// command fails; the figure is the last line.
	ls := strings.Fields(string(data))
	if len(ls) == 0 {
		return 0, fmt.Errorf("no RSS figure")
	}
	return strconv.ParseInt(ls[len(ls)-1], 10, 64)
}

// rssExec is the -rss-exec side: run the command on this process's own
// streams, write its ru_maxrss in KiB to file, exit with its status.
func rssExec(file string, argv []string) int {
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "bench: -rss-exec FILE -- CMD ARGS")
		return 2
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Run()
	if cmd.ProcessState == nil {
		return 127
	}
	var kb int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		kb = ru.Maxrss
	}
	os.WriteFile(file, []byte(fmt.Sprintln(kb)), 0o644)
	return cmd.ProcessState.ExitCode()
}

// variant is one way of running a table row's command.
type variant struct {
	name string
	argv []string
	env  []string // nil: the row's
}

// rowResult holds every variant's samples.
type rowResult struct {
	samples map[string][]sample // wall-time pass
	rssRuns map[string][]sample // RSS pass
}

// measureRow runs every variant rounds times, interleaved (one of each per
// round, the order rotating), so that load that comes and goes hits every
// variant alike; warm runs come first and are not counted. A second,
// shorter pass under the RSS wrapper measures peak RSS.
func measureRow(dir string, env []string, vs []variant, rounds, warm int) (*rowResult, error) {
	res := &rowResult{samples: map[string][]sample{}, rssRuns: map[string][]sample{}}
	pass := func(n int, rss bool, into map[string][]sample) error {
		for r := -warm; r < n; r++ {
			for k := range vs {
				v := vs[(k+max(r, 0))%len(vs)]
				e := env
				if v.env != nil {
					e = v.env
				}
				s, err := runOnce(dir, e, v.argv, rss)
				if err != nil {
					return err
				}
				if r >= 0 {
					into[v.name] = append(into[v.name], s)
				}
			}
		}
		return nil
	}
	if err := pass(rounds, false, res.samples); err != nil {
		return nil, err
	}
	if err := pass(max(5, rounds/3), true, res.rssRuns); err != nil {
		return nil, err
	}
	return res, nil
}

func (r *rowResult) wall(name string) time.Duration {
	return median(r.samples[name], func(s sample) time.Duration { return s.wall })
}

func (r *rowResult) cpu(name string) time.Duration {
	return median(r.samples[name], func(s sample) time.Duration { return s.cpu })
}

// fastest is the shortest wall time of a variant's samples.
func (r *rowResult) fastest(name string) time.Duration {
	return slices.MinFunc(r.samples[name], func(a, b sample) int { return cmp.Compare(a.wall, b.wall) }).wall
}

func (r *rowResult) rss(name string) int64 {
	return median(r.rssRuns[name], func(s sample) int64 { return s.rssKB })
}

func (r *rowResult) last(name string) sample {
	s := r.samples[name]
	return s[len(s)-1]
}

func median[T any, V int64 | time.Duration | float64](xs []T, f func(T) V) V {
	if len(xs) == 0 {
		return 0
	}
	vs := make([]V, len(xs))
	for i, x := range xs {
		vs[i] = f(x)
	}
	slices.Sort(vs)
	if n := len(vs); n%2 == 0 {
		return (vs[n/2-1] + vs[n/2]) / 2
	}
	return vs[len(vs)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/1e6) }

func mib(kb int64) string { return fmt.Sprintf("%.1f", float64(kb)/1024) }

func ratio[V int64 | time.Duration](a, b V) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", float64(a)/float64(b))
}

// mode says what shrinkrun printed: a block, or the raw output.
func mode(s sample) string {
	if bytes.HasPrefix(s.head, []byte("[tool_output_compression]")) {
		return "block"
	}
	return "raw"
}

// headerValue returns the value of a "key: value" line of a block.
func headerValue(block []byte, key string) (int64, bool) {
	for l := range strings.Lines(string(block)) {
		if v, ok := strings.CutPrefix(l, key+": "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// firstBytes runs argv and reports when the first byte of stdout and the
// first byte of its second line arrived, measured from the start.
func firstBytes(dir string, env, argv []string) (first, second time.Duration, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return 0, 0, err
	}
	defer r.Close()
	cmd := command(dir, env, argv)
	cmd.Stdout, cmd.Stderr = w, io.Discard
	start := time.Now()
	if err := cmd.Start(); err != nil {
		w.Close()
		return 0, 0, err
	}
	w.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf := make([]byte, 4096)
		seenNewline := false
		for {
			n, rerr := r.Read(buf)
			if n > 0 {
				now := time.Since(start)
				if first == 0 {
					first = now
				}
				for _, c := range buf[:n] {
					if seenNewline && second == 0 {
						second = now
					}
					if c == '\n' {
						seenNewline = true
					}
				}
			}
			if rerr != nil {
				return
			}
		}
	}()
	err = cmd.Wait()
	wg.Wait()
	return first, second, err
}

// pollHWM samples the VmHWM of pid until done is closed and returns the
// largest value seen, in KiB: shrinkrun's own peak, without its child.
func pollHWM(pid int, done <-chan struct{}) int64 {
	var peak int64
	if pid == 0 {
		return 0
	}
	path := fmt.Sprintf("/proc/%d/status", pid)
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		if data, err := os.ReadFile(path); err == nil {
			for l := range strings.Lines(string(data)) {
				if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
					n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
					peak = max(peak, n)
				}
			}
		}
		select {
		case <-done:
			return peak
		case <-t.C:
		}
	}
}

// command returns argv as an *exec.Cmd in dir with env. A bare command
// name is looked up in env's PATH (exec.Command would use this process's),
// so that the fake git and cargo scripts are found as shrinkrun finds them.
func command(dir string, env, argv []string) *exec.Cmd {
	name := argv[0]
	if !strings.Contains(name, "/") {
		for d := range strings.SplitSeq(getenv(env, "PATH"), string(os.PathListSeparator)) {
			p := filepath.Join(d, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				name = p
				break
			}
		}
	}
	cmd := exec.Command(name, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir, cmd.Env = dir, env
	return cmd
}
