package runner_test

// Benchmarks of the runner's hot path: what pass-through and capture add to
// starting a child, and the cost per byte of the bounded capture. The
// figures are in docs/performance.md.
//
//	go test ./runner -run '^$' -bench . -benchtime 200x

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/shrinkrun/shrinkrun/runner"
	"github.com/shrinkrun/shrinkrun/shape"
)

func trueCmd(b *testing.B) string {
	p, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true on PATH")
	}
	return p
}

// BenchmarkExecBaseline is the floor the other start-up benchmarks are
// compared with: os/exec starting and waiting for /bin/true with its
// streams on /dev/null, as any Go program would.
func BenchmarkExecBaseline(b *testing.B) {
	path := trueCmd(b)
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	for b.Loop() {
		cmd := exec.Command(path)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPassthrough is runner.Passthrough of /bin/true on inherited
// files: the baseline plus signal set-up, the process group and the
// parent-death signal.
func BenchmarkPassthrough(b *testing.B) {
	path := trueCmd(b)
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	for b.Loop() {
		if st := runner.Passthrough(runner.Command{Argv: []string{path}}, null, null, null); st.ExitCode() != 0 {
			b.Fatal(st)
		}
	}
}

// BenchmarkPassthroughShell is string mode's pass-through: bash -c 'true'.
func BenchmarkPassthroughShell(b *testing.B) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	for b.Loop() {
		if st := runner.Passthrough(runner.Command{Shell: "true"}, null, null, null); st.ExitCode() != 0 {
			b.Fatal(st)
		}
	}
}

// BenchmarkCaptureEmpty is runner.Capture of /bin/true: pipes for both
// streams and the goroutines that read them, with nothing to read.
func BenchmarkCaptureEmpty(b *testing.B) {
	path := trueCmd(b)
	for b.Loop() {
		if _, st := runner.Capture(runner.Command{Argv: []string{path}}, runner.Options{}); st.ExitCode() != 0 {
			b.Fatal(st)
		}
	}
}

// BenchmarkCaptureStream captures a child that writes 64 MiB to stdout,
// with a tee as the store uses, through the default 4 MiB capture: the
// throughput of the capture path, pipe included.
func BenchmarkCaptureStream(b *testing.B) {
	if _, err := exec.LookPath("head"); err != nil {
		b.Skip("no head on PATH")
	}
	const n = 64 << 20
	b.SetBytes(n)
	for b.Loop() {
		out, st := runner.Capture(runner.Command{Argv: []string{"head", "-c", fmt.Sprint(n), "/dev/zero"}},
			runner.Options{StdoutTee: io.Discard})
		if st.ExitCode() != 0 || out.Stdout.Total() != n {
			b.Fatal(st, out.Stdout.Total())
		}
	}
}

// BenchmarkBufferWrite is the bounded capture alone, fed far past its
// limit in small writes and in chunks as large as the capture reads from a
// pipe: the per-byte cost of keeping the head and sliding the tail.
func BenchmarkBufferWrite(b *testing.B) {
	for _, chunk := range []int{512, 32 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("chunk=%d", chunk), func(b *testing.B) {
			p := make([]byte, chunk)
			for i := range p {
				p[i] = 'a' + byte(i%26)
				if i%80 == 79 {
					p[i] = '\n'
				}
			}
			buf := runner.NewBuffer(runner.DefaultLimit)
			b.SetBytes(int64(chunk))
			for b.Loop() {
				buf.Write(p)
			}
		})
	}
}

// BenchmarkBufferBytes is the copy a curated run takes of a full capture
// (head and tail joined at line boundaries) before summarizing it.
func BenchmarkBufferBytes(b *testing.B) {
	buf := runner.NewBuffer(runner.DefaultLimit)
	line := []byte("0123456789012345678901234567890123456789012345678901234567890123456789012345678\n")
	for range 3 * runner.DefaultLimit / len(line) {
		buf.Write(line)
	}
	b.SetBytes(runner.DefaultLimit)
	for b.Loop() {
		if len(buf.Bytes()) == 0 {
			b.Fatal("empty")
		}
	}
}

// BenchmarkRelayEmpty is a Relay of /bin/true through shape's cutter: what
// the relay adds to starting a child, against BenchmarkPassthrough.
func BenchmarkRelayEmpty(b *testing.B) {
	path := trueCmd(b)
	for b.Loop() {
		r := runner.NewRelay(runner.RelayOptions{Cutter: shape.New(shape.Options{}), Limit: shape.DefaultLimit, Stdout: io.Discard, Stderr: io.Discard})
		if st := r.Run(runner.Command{Argv: []string{path}}); st.ExitCode() != 0 {
			b.Fatal(st)
		}
		r.Close("", nil)
	}
}

// BenchmarkRelayCut relays a child that writes 64 MB of log lines, cut past
// the default limit, with the raw copy discarded: the throughput of the
// relay past the limit, pipe, cutter and capture included.
func BenchmarkRelayCut(b *testing.B) {
	if _, err := exec.LookPath("head"); err != nil {
		b.Skip("no head on PATH")
	}
	const n = 64 << 20
	b.SetBytes(n)
	line := "yes '2026-01-02T03:04:05Z INFO worker=3 handled request id=00c0ffee in 12ms' | head -c " + fmt.Sprint(n)
	for b.Loop() {
		r := runner.NewRelay(runner.RelayOptions{Cutter: shape.New(shape.Options{}), Limit: shape.DefaultLimit, Stdout: io.Discard, Stderr: io.Discard,
			Keep: func() (io.Writer, io.Writer) { return io.Discard, io.Discard }})
		if st := r.Run(runner.Command{Shell: line}); st.ExitCode() != 0 {
			b.Fatal(st)
		}
		if in, _, _ := r.Close("", nil); in != n {
			b.Fatal(in)
		}
	}
}
