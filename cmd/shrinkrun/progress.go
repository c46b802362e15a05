package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// meter counts what a captured command has written so far. It is a tee of
// both streams, written by the capture goroutines and read by the progress
// line, hence the atomics.
type meter struct {
	bytes, lines atomic.Int64
}

func (m *meter) Write(p []byte) (int, error) {
	m.bytes.Add(int64(len(p)))
	m.lines.Add(int64(bytes.Count(p, []byte{'\n'})))
	return len(p), nil
}

const (
	progressDelay = time.Second            // quick commands never show it
	progressTick  = 200 * time.Millisecond // redraw rate
	eraseLine     = "\r\x1b[K"
)

// progressWanted reports whether a person is watching stderr: a terminal,
// colors and cursor control not refused by NO_COLOR or TERM=dumb.
func progressWanted(stderr io.Writer) bool {
	f, ok := stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return false
	}
	_, noColor := os.LookupEnv("NO_COLOR")
	return !noColor && os.Getenv("TERM") != "dumb"
}

// startProgress shows, once a captured command has run for progressDelay,
// one line on stderr with the elapsed time and what was captured, redrawn in
// place. stop erases it, so the block that follows starts on a clean line.
func startProgress(stderr io.Writer, m *meter) (stop func()) {
	start := time.Now()
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		shown := false
		t := time.NewTimer(progressDelay)
		defer t.Stop()
		for {
			select {
			case <-quit:
				if shown {
					io.WriteString(stderr, eraseLine)
				}
				return
			case <-t.C:
				fmt.Fprintf(stderr, "%sshrinkrun: running %s, %d lines, %s captured",
					eraseLine, time.Since(start).Round(time.Second), m.lines.Load(), size(m.bytes.Load()))
				shown = true
				t.Reset(progressTick)
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
	}
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
