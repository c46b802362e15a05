package runner

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shrinkrun/shrinkrun/shape"
)

// lockedBuffer is a caller's stream that tests read while the relay writes.
type lockedBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	times []time.Time // when each write came
	err   error       // returned by every write once set
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return 0, l.err
	}
	l.times = append(l.times, time.Now())
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// holder is a Cutter that holds every byte until Tick or Close, and
// counts its calls.
type holder struct {
	held  []shape.Chunk
	ticks int
}

func (h *holder) Write(s shape.Stream, p []byte) []shape.Chunk {
	h.held = append(h.held, shape.Chunk{Stream: s, Data: bytes.Clone(p)})
	return nil
}

func (h *holder) Tick() []shape.Chunk {
	h.ticks++
	c := h.held
	h.held = nil
	return c
}

func (h *holder) Cutting() bool { return false }

func (h *holder) Close(string, []byte) []shape.Chunk { return h.Tick() }

func relayRun(t *testing.T, c Command, o RelayOptions) (Status, *lockedBuffer, *lockedBuffer) {
	t.Helper()
	out, errb := &lockedBuffer{}, &lockedBuffer{}
	o.Stdout, o.Stderr = out, errb
	r := NewRelay(o)
	st := r.Run(c)
	r.Close("", nil)
	return st, out, errb
}

// TestRelayBelowLimit: below the limit both streams arrive byte for byte,
// nothing is captured and no raw copy is opened.
func TestRelayBelowLimit(t *testing.T) {
	kept := false
	o := RelayOptions{
		Cutter: shape.New(shape.Options{Limit: 30000, Budget: 16384}),
		Limit:  30000,
		Keep:   func() (a, b io.Writer) { kept = true; return nil, nil },
	}
	out, errb := &lockedBuffer{}, &lockedBuffer{}
	o.Stdout, o.Stderr = out, errb
	r := NewRelay(o)
	st := r.Run(sh(`i=0; while [ $i -lt 200 ]; do echo "out $i"; echo "err $i" >&2; i=$((i+1)); done; printf 'no newline\x00\xff'; exit 3`))
	in, shown, err := r.Close("", nil)
	if st.ExitCode() != 3 {
		t.Errorf("exit %d", st.ExitCode())
	}
	var wantOut, wantErr strings.Builder
	for i := range 200 {
		fmt.Fprintf(&wantOut, "out %d\n", i)
		fmt.Fprintf(&wantErr, "err %d\n", i)
	}
	wantOut.WriteString("no newline\x00\xff")
	if out.String() != wantOut.String() || errb.String() != wantErr.String() {
		t.Errorf("streams differ:\nstdout %q\nstderr %q", out.String(), errb.String())
	}
	if in != shown || in != int64(wantOut.Len()+wantErr.Len()) || err != nil {
		t.Errorf("in %d, shown %d, err %v", in, shown, err)
	}
	if kept || r.Capture() != nil || r.Cutting() {
		t.Errorf("below the limit: kept %v, capture %v", kept, r.Capture())
	}
}

// TestRelayMerged: when the caller's two streams are one, the command gets
// one pipe for both, and their order is kept exactly.
func TestRelayMerged(t *testing.T) {
	buf := &lockedBuffer{}
	r := NewRelay(RelayOptions{Cutter: shape.New(shape.Options{}), Limit: 30000, Stdout: buf, Stderr: buf})
	r.Run(sh(`for i in 1 2 3 4 5 6 7 8 9; do echo "out $i"; echo "err $i" >&2; done`))
	r.Close("", nil)
	var want strings.Builder
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&want, "out %d\nerr %d\n", i, i)
	}
	if buf.String() != want.String() {
		t.Errorf("merged %q, want %q", buf.String(), want.String())
	}
}

// TestRelayCut: past the limit the output is cut within the limit, and
// the raw copy gets every byte from the first, in order per stream.
func TestRelayCut(t *testing.T) {
	var rawOut, rawErr lockedBuffer
	o := RelayOptions{
		Cutter: shape.New(shape.Options{Limit: 4000, Budget: 2000}),
		Limit:  4000,
		Keep:   func() (a, b io.Writer) { return &rawOut, &rawErr },
	}
	out, errb := &lockedBuffer{}, &lockedBuffer{}
	o.Stdout, o.Stderr = out, errb
	r := NewRelay(o)
	script := `i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done; echo "error: it broke" >&2; echo done`
	st := r.Run(sh(script))
	in, shown, _ := r.Close("shrinkrun show 0123456789abcdef", nil)
	if st.ExitCode() != 0 {
		t.Fatal(st)
	}
	var want strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&want, "line %d\n", i)
	}
	want.WriteString("done\n")
	if rawOut.String() != want.String() || rawErr.String() != "error: it broke\n" {
		t.Errorf("raw copy: stdout %d bytes (want %d), stderr %q", rawOut.b.Len(), want.Len(), rawErr.String())
	}
	// Within the budget when no Tick came, within the limit when the
	// clock released held bytes while the shell loop ran.
	if got := len(out.String()) + len(errb.String()); got > 4000 || int64(got) != shown {
		t.Errorf("shown %d bytes (counted %d), limit 4000", got, shown)
	}
	if in != int64(want.Len())+16 {
		t.Errorf("in %d", in)
	}
	if !strings.Contains(out.String()+errb.String(), "error: it broke") {
		t.Errorf("the failure line is gone:\n%s\n%s", out, errb)
	}
	if !strings.Contains(out.String()+errb.String(), "shrinkrun show 0123456789abcdef") {
		t.Errorf("the raw copy is not named:\n%s\n%s", out, errb)
	}
	if c := r.Capture(); c == nil || c.Stdout.Total() != int64(want.Len()) {
		t.Errorf("capture %+v", c)
	}
}

// TestRelayTick: bytes the cutter holds reach the caller one TickWait after
// they were written, while the command still runs.
func TestRelayTick(t *testing.T) {
	h := &holder{}
	out, errb := &lockedBuffer{}, &lockedBuffer{}
	r := NewRelay(RelayOptions{Cutter: h, Limit: 1000, Stdout: out, Stderr: errb, Wait: 50 * time.Millisecond})
	start := time.Now()
	done := make(chan struct{})
	go func() {
		r.Run(sh(`printf 'prompt: '; sleep 1; echo end`))
		close(done)
	}()
	for out.String() == "" && time.Since(start) < 900*time.Millisecond {
		time.Sleep(5 * time.Millisecond)
	}
	if got, took := out.String(), time.Since(start); got != "prompt: " || took > 800*time.Millisecond {
		t.Errorf("after %v: %q", took, got)
	}
	<-done
	r.Close("", nil)
	if out.String() != "prompt: end\n" {
		t.Errorf("stdout %q", out.String())
	}
}

// TestRelayStatus: exit statuses, signals and start errors, as Capture
// reports them.
func TestRelayStatus(t *testing.T) {
	for _, tt := range []struct {
		cmd  Command
		exit int
	}{
		{sh("exit 7"), 7},
		{sh("kill -TERM $$"), 143},
		{Command{Argv: []string{"no-such-command-xyz"}}, 127},
		{sh("no-such-command-xyz"), 127},
	} {
		st, _, _ := relayRun(t, tt.cmd, RelayOptions{Cutter: shape.New(shape.Options{}), Limit: 30000})
		if st.ExitCode() != tt.exit {
			t.Errorf("%+v: exit %d, want %d", tt.cmd, st.ExitCode(), tt.exit)
		}
	}
}

// TestRelayStdin: stdin reaches the command.
func TestRelayStdin(t *testing.T) {
	st, out, _ := relayRun(t, sh("cat"), RelayOptions{Cutter: shape.New(shape.Options{}), Limit: 30000, Stdin: strings.NewReader("typed\n")})
	if st.ExitCode() != 0 || out.String() != "typed\n" {
		t.Errorf("exit %d, stdout %q", st.ExitCode(), out.String())
	}
}

// TestRelayBrokenPipe: when the caller stops reading, the command meets a
// broken pipe at its next write, as it would without shrinkrun, instead of
// writing into the relay for ever.
func TestRelayBrokenPipe(t *testing.T) {
	out := &lockedBuffer{err: syscall.EPIPE}
	r := NewRelay(RelayOptions{Cutter: shape.New(shape.Options{}), Limit: 30000, Stdout: out, Stderr: &lockedBuffer{}})
	done := make(chan Status, 1)
	go func() { done <- r.Run(Command{Argv: []string{"yes"}}) }()
	select {
	case st := <-done:
		if st.Signal != syscall.SIGPIPE {
			t.Errorf("yes ended with %+v, want SIGPIPE", st)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("yes still runs 10s after its reader went away")
	}
	if _, _, err := r.Close("", nil); err != nil {
		t.Errorf("EPIPE reported as %v", err)
	}
}

// TestRelayQuietTail: a dev server that prints more than the limit at
// start-up and then waits shows its "listening on" line while it runs,
// within a few waits of printing it: past the cut, a Tick that followed
// output is followed by one more, which finds the command quiet.
func TestRelayQuietTail(t *testing.T) {
	out, errb := &lockedBuffer{}, &lockedBuffer{}
	r := NewRelay(RelayOptions{
		Cutter: shape.New(shape.Options{Limit: 30000, Budget: 16384, Argv: []string{"npm", "run", "dev"}}),
		Limit:  30000, Stdout: out, Stderr: errb, Wait: 50 * time.Millisecond,
	})
	done := make(chan struct{})
	go func() {
		r.Run(sh(`i=0; while [ $i -lt 3000 ]; do echo "compiled module $i of the app"; i=$((i+1)); done; echo "listening on :8080"; sleep 3`))
		close(done)
	}()
	start := time.Now()
	for !strings.Contains(out.String(), "listening on :8080") && time.Since(start) < 2500*time.Millisecond {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.HasSuffix(out.String(), "\nlistening on :8080\n") {
		t.Errorf("after %v, while the server runs, the output ends:\n%s", time.Since(start), out.String()[max(0, len(out.String())-300):])
	}
	<-done
	r.Close("shrinkrun show 1", nil)
	if got := out.String(); len(got) > 30000 || !strings.HasSuffix(got, "full output: shrinkrun show 1]\n") {
		t.Errorf("%d bytes:\n%s", len(got), got[max(0, len(got)-300):])
	}
}
