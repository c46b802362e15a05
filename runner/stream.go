package runner

import (
	"io"
	"os"
	"sync"
	"time"
)

// readSize is the buffer each captured stream is read into at most: as
// large as the pipe, so that a read can take all the child has written
// since the last one, and the fewer the reads, the fewer the wake-ups. It
// starts at firstReadSize and doubles each time a read fills it: a command
// that prints little never pays for zeroing (and faulting in) 1 MiB per
// stream, which cost a run of /bin/true a millisecond.
const (
	readSize      = 1 << 20
	firstReadSize = 64 << 10
)

// Pauses between reads, so that what a stream costs follows its bytes and
// not how the child cuts them into writes. A reader that is always waiting
// is woken by every write: a child that prints one line per write() (git
// log, a test runner) then costs a read, a wake-up and a return to the
// scheduler per line, tens of microseconds each on a busy machine: 2 s of
// CPU for 50 MB of `git log --oneline`, against a tenth of that for the
// same bytes in large chunks. So while the child runs, a read that finds
// less than half of what one read can take (the buffer, or the pipe when
// it is smaller) is followed by a pause before the next one; the pause
// doubles, from minPause to maxPause, while reads find so little, and a
// read that fills what one read can take ends the pauses. A child that
// writes steadily then costs a read per pause, and never waits for the
// reader: each read finds less than one read can take, so the pipe never
// filled. Nothing waits for the output meanwhile: the summary is made after
// the child's exit, and a pause ends at the exit.
const (
	minPause = time.Millisecond
	maxPause = 16 * time.Millisecond
)

// nextPause is the pause before the next read, after a read of n bytes
// from a pipe that holds capacity bytes, which followed a pause of last.
func nextPause(last time.Duration, n, capacity int) time.Duration {
	room := min(capacity, readSize)
	switch {
	case n >= room:
		return 0
	case n < room/2:
		return min(max(2*last, minPause), maxPause)
	}
	return last
}

// stream copies one of the child's output streams into w, in one goroutine
// doing blocking reads. There is no poller in between: a read waits in the
// kernel for the child's next write and wakes only this goroutine's thread.
type stream struct {
	f        *os.File
	capacity int // of the pipe f reads; 0 for no pauses
	w        io.Writer
	exited   <-chan struct{} // closed once the child has exited: no more pauses
	mu       sync.Mutex      // held while w is written
	cut      bool            // set by stop: w receives nothing more
	done     chan struct{}
}

// readStream starts copying f to w, with pauses between reads while exited
// is open when f reads a pipe that holds capacity bytes. The caller closes f
// once the copy is done or stopped: a read under way keeps the descriptor
// until it returns.
func readStream(f *os.File, capacity int, w io.Writer, exited <-chan struct{}) *stream {
	s := &stream{f: f, capacity: capacity, w: w, exited: exited, done: make(chan struct{})}
	go s.copy()
	return s
}

func (s *stream) copy() {
	defer close(s.done)
	buf := make([]byte, firstReadSize)
	var timer *time.Timer
	var wait time.Duration
	for {
		n, err := s.f.Read(buf)
		if n > 0 && !s.write(buf[:n]) {
			// The destination failed (the relay's reader went away):
			// closing the pipe now gives the child the broken pipe it
			// would have had without shrinkrun.
			s.f.Close()
			return
		}
		if err != nil {
			return
		}
		if n == len(buf) && n < readSize {
			buf = make([]byte, min(2*n, readSize))
		}
		if s.capacity == 0 || s.exited == nil {
			continue
		}
		if wait = nextPause(wait, n, min(s.capacity, len(buf))); wait < minPause {
			continue
		}
		if timer == nil {
			timer = time.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		select {
		case <-timer.C:
		case <-s.exited:
			s.exited = nil
		}
	}
}

func (s *stream) write(p []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cut {
		return false
	}
	_, err := s.w.Write(p)
	return err == nil
}

// stop ends the copy: once it returns, w receives nothing more. A read that
// is waiting goes on waiting in the kernel, since closing a blocking
// descriptor does not wake it, until the process holding the other end
// writes or exits; what it then reads is dropped.
func (s *stream) stop() {
	s.mu.Lock()
	s.cut = true
	s.mu.Unlock()
}

// drain waits for every stream to reach its end, at most DrainTimeout:
// after the child's exit, a background descendant may hold a stream open
// forever. It reports whether it stopped the streams instead.
func drain(streams ...*stream) (held bool) {
	timeout := time.NewTimer(DrainTimeout)
	defer timeout.Stop()
	for _, s := range streams {
		select {
		case <-s.done:
		case <-timeout.C:
			for _, s := range streams {
				s.stop()
			}
			return true
		}
	}
	return false
}
