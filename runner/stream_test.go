package runner

import (
	"fmt"
	"testing"
	"time"
)

func TestNextPause(t *testing.T) {
	const big, small = 1 << 20, 64 << 10 // pipe capacities
	ms := time.Millisecond
	tests := []struct {
		last     time.Duration
		n        int
		capacity int
		want     time.Duration
	}{
		{0, 60, big, ms},                     // caught up: start pausing
		{ms, 60, big, 2 * ms},                // still short: double
		{8 * ms, 60, big, maxPause},          // up to the most
		{maxPause, 60, big, maxPause},        //
		{4 * ms, readSize / 2, big, 4 * ms},  // half a buffer: keep
		{0, readSize / 2, big, 0},            //
		{4 * ms, readSize, big, 0},           // the buffer is full: more may be waiting
		{4 * ms, small / 2, small, 4 * ms},   // a small pipe bounds a read
		{4 * ms, small/2 - 1, small, 8 * ms}, //
		{4 * ms, small, small, 0},            // the pipe was full: the child waited
	}
	for _, tt := range tests {
		if got := nextPause(tt.last, tt.n, tt.capacity); got != tt.want {
			t.Errorf("nextPause(%v, %d, %d) = %v, want %v", tt.last, tt.n, tt.capacity, got, tt.want)
		}
	}
}

// TestPausesNeverFillThePipe simulates children that write at a steady
// rate, from a line now and then to faster than a reader can copy. Once the
// pauses have followed the rate, the pipe never fills when a pause is
// shorter than what fills it, so the pauses never make a child wait; slow
// writers cost at most one read per pause.
func TestPausesNeverFillThePipe(t *testing.T) {
	const readCost = 20 * time.Microsecond // a read's own time, when there is no pause
	for _, capacity := range []int{64 << 10, 1 << 20} {
		for _, rate := range []float64{1e3, 1e5, 1e6, 1e7, 3e7, 1e8, 3e8, 1e9, 3e9} { // bytes per second
			t.Run(fmt.Sprintf("pipe=%d/rate=%g", capacity, rate), func(t *testing.T) {
				var pipe float64
				var last, elapsed time.Duration
				full, reads := 0, 0
				for step := range 20000 {
					n := int(min(pipe, readSize))
					pipe -= float64(n)
					reads++
					last = nextPause(last, n, capacity)
					wait := readCost
					if last >= minPause {
						wait = last
					}
					elapsed += wait
					if pipe += rate * wait.Seconds(); pipe > float64(capacity) {
						pipe = float64(capacity)
						if step > 10 {
							full++
						}
					}
				}
				if full > 0 && rate*minPause.Seconds() < float64(min(capacity, readSize)) {
					t.Errorf("the pipe filled %d times", full)
				}
				if perSecond := float64(reads) / elapsed.Seconds(); perSecond > float64(time.Second/minPause) && rate*minPause.Seconds() < float64(min(capacity, readSize))/2 {
					t.Errorf("%.0f reads per second", perSecond)
				}
			})
		}
	}
}
