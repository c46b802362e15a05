package golang

import "strings"

// This file reads the runtime's panic and race traces, which go test
// prints for a test that crashed, raced or timed out.

// Caps of the go traces.
const (
	// maxGoTraceMessage bounds a panic's message lines (the panic value,
	// "[signal ...]", the tests a timeout found running).
	maxGoTraceMessage = 12
	// maxGoUserFrames is how many frames of the user's code a trace keeps:
	// where the panic happened and the test that got there.
	maxGoUserFrames = 4
	// maxGoTraceScan bounds the frames read from one trace to find the
	// user's; a stack overflow prints thousands of the same frame.
	maxGoTraceScan = 200
)

// goTrace is a panic ("panic: ...", "fatal error: ...") or a data race
// report ("WARNING: DATA RACE") with what an agent needs of its goroutine
// dump: the message and the first frames in the user's code, each under
// the header of its goroutine. The other dump lines are only counted.
type goTrace struct {
	head    string
	message []string
	race    bool // a race report, which ends at its closing "=====" line
	inMsg   bool // before the blank line that ends a panic's message
	done    bool // a race report's closing line was read

	frames    []goFrame // frames read, at most maxGoTraceScan
	fn        string    // a function line waiting for its file line
	header    string    // the current goroutine header
	dumpLines int       // non-blank lines after the message
	lost      int       // message lines past the cap
}

type goFrame struct {
	header   string // goroutine header the frame is under
	fn, file string // the function line and its file:line line
}

const goRaceHead = "WARNING: DATA RACE"

func newGoTrace(head string) *goTrace {
	race := head == goRaceHead
	return &goTrace{head: head, race: race, inMsg: !race}
}

// feed reads the next line of the trace and reports false, without
// taking it, when the line belongs to what follows the trace.
func (t *goTrace) feed(l string) bool {
	switch {
	case t.done || !t.race && endsGoTrace(l):
		return false
	case t.race && l == "==================":
		t.done = true
	case t.inMsg && l == "":
		t.inMsg = false
	case t.inMsg:
		if len(t.message) < maxGoTraceMessage {
			t.message = append(t.message, l)
		} else {
			t.lost++
		}
	case strings.TrimSpace(l) == "":
	case t.fn != "" && (l[0] == '\t' || strings.HasPrefix(l, "      ")):
		// The file:line under a function: tab-indented in a panic,
		// six spaces in a race report.
		t.dumpLines++
		if len(t.frames) < maxGoTraceScan {
			t.frames = append(t.frames, goFrame{t.header, t.fn, l})
		}
		t.fn = ""
	case l[0] != ' ' && l[0] != '\t' && strings.HasSuffix(l, ":"):
		// "goroutine 7 [running]:", "runtime stack:", "Read at 0x... by
		// goroutine 9:", "Goroutine 9 (running) created at:".
		t.dumpLines++
		t.header, t.fn = l, ""
	default:
		// A function line, "created by ...", "...additional frames
		// elided...".
		t.dumpLines++
		t.fn = l
	}
	return true
}

// endsGoTrace reports whether l ends a panic's dump: the test binary's exit
// and the lines go test prints after it.
func endsGoTrace(l string) bool {
	if _, _, ok := goPackageResult(l); ok {
		return true
	}
	return strings.HasPrefix(l, "exit status ") || l == "FAIL" || l == "PASS" ||
		strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "# ")
}

// item renders the trace as a list item, and returns how many of its
// non-blank lines it leaves out.
func (t *goTrace) item() (string, int) {
	lines := append([]string{t.head}, t.message...)
	root := goRoot(t.frames)
	header, frames, dump := "", 0, 0
	for _, f := range t.frames {
		if frames == maxGoUserFrames {
			break
		}
		if !isUserFrame(f, root) {
			continue
		}
		if f.header != header && f.header != "" {
			lines = append(lines, f.header)
			header = f.header
			dump++
		}
		lines = append(lines, f.fn, f.file)
		frames++
		dump += 2
	}
	return strings.Join(lines, "\n"), t.lost + t.dumpLines - dump
}

// goRoot finds GOROOT's source directory ("/usr/local/go/src/") in the file
// of a frame of package runtime or testing, which every test binary's
// trace has; "" when none was read.
func goRoot(frames []goFrame) string {
	for _, f := range frames {
		file := strings.TrimSpace(f.file)
		pkg := goFramePackage(f.fn)
		for _, std := range []string{"runtime", "testing"} {
			if i := strings.LastIndex(file, "/src/"+std+"/"); i >= 0 && pkg == std {
				return file[:i+len("/src/")]
			}
		}
	}
	return ""
}

// isUserFrame tells a frame of the code under test from one of the
// runtime, the testing package or the generated test main. A frame is the
// standard library's when its file is under GOROOT; without a GOROOT in
// the trace, when its package path has no dot in its first element and
// its file sits under a ".../src/" directory.
func isUserFrame(f goFrame, root string) bool {
	file := strings.TrimSpace(f.file)
	pkg := goFramePackage(f.fn)
	switch {
	case pkg == "" || strings.HasPrefix(file, "_testmain.go:"):
		return false
	case root != "":
		return !strings.HasPrefix(file, root)
	}
	first, _, _ := strings.Cut(pkg, "/")
	return strings.Contains(first, ".") || !strings.Contains(file, "/src/")
}

// goFramePackage returns the package path of a frame's function line
// ("example.com/demo/store.(*Store).Inc(...)", "created by
// testing.(*T).Run in goroutine 1"), or "" for one without a package
// ("panic(...)").
func goFramePackage(fn string) string {
	fn = strings.TrimPrefix(strings.TrimSpace(fn), "created by ")
	if i := strings.Index(fn, " in goroutine "); i >= 0 {
		fn = fn[:i]
	}
	if i := strings.LastIndex(fn, "("); i >= 0 && strings.HasSuffix(fn, ")") {
		fn = fn[:i] // the arguments
	}
	if i := strings.Index(fn, "["); i >= 0 {
		fn = fn[:i] // type arguments, which may hold import paths
	}
	slash := strings.LastIndex(fn, "/")
	dot := strings.Index(fn[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}
