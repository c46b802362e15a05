package shape

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// Liveness past the cut: what Ticks release while the command runs, as the
// relay calls them, and what a cut after them keeps.

// ticked is a feed as the relay makes it: each step's Writes, then a Tick.
type ticked struct {
	c   *Cutter
	out []Chunk
}

func (f *ticked) write(s Stream, p []byte) { f.out = append(f.out, f.c.Write(s, p)...) }
func (f *ticked) tick()                    { f.out = append(f.out, f.c.Tick()...) }
func (f *ticked) text() string             { _, all := joined(f.out); return string(all) }
func (f *ticked) close(raw string) string {
	f.out = append(f.out, f.c.Close(raw, nil)...)
	return f.text()
}

// reviewProducer is the hostile review's producer (item 1): a start-up log
// that a Tick releases, then 6,000 lines of which every 37th fails, written
// in bursts each followed by a Tick, as the relay gives them. It returns
// the output and the cut.
func reviewProducer(o Options) (raw []byte, cut string) {
	f := &ticked{c: New(o)}
	var all, b bytes.Buffer
	burst := func() {
		all.Write(b.Bytes())
		f.write(Stdout, b.Bytes())
		f.tick()
		b.Reset()
	}
	for i := range 600 {
		fmt.Fprintf(&b, "startup line %d with some words in it\n", i)
	}
	burst()
	for i := range 6000 {
		if i%37 == 0 {
			fmt.Fprintf(&b, "ERROR: failure number %d occurred\n", i)
		} else {
			fmt.Fprintf(&b, "working on item %d now\n", i)
		}
		if i%500 == 0 {
			burst()
		}
	}
	all.Write(b.Bytes())
	f.write(Stdout, b.Bytes())
	return all.Bytes(), f.close("shrinkrun show 1")
}

// TestTicksKeepFailures: after Ticks released a start-up log, the failure
// lines that follow are read, where the cut kept 1 of 163 at the default
// limit (it replaced each by a marker longer than the line, keeping the
// plain line beside it) while a blind tail kept 16: all 163 where they and
// a marker for each Tick fit what the Ticks left under the limit, as many
// as fill it where they do not (Gemini CLI's: its Ticks released 37 KB
// before the cut), never fewer than a client's own cut, every count exact,
// no marker longer than what it stands for.
func TestTicksKeepFailures(t *testing.T) {
	for _, cl := range agentClients {
		o := Options{Limit: cl.limit, Budget: cl.budget, Argv: []string{"python3", "prod.py"}}
		raw, cut := reviewProducer(o)
		var failures []string
		for _, l := range splitKeep(raw) {
			if failLine(l) {
				failures = append(failures, l)
			}
		}
		read, all := failuresRead(failures, cut)
		blind := 0
		for _, l := range cl.read(string(raw)) {
			if failLine(l) {
				blind++
			}
		}
		t.Logf("%s: %d of %d failure lines read through the cut (%d bytes), %d through the client's own cut", cl.name, read, all, len(cut), blind)
		full := len(cut) > cl.limit-len("ERROR: failure number 5994 occurred\n")-2*maxMarker-trailerRoom()
		if all != 163 || read != all && !full || read < blind {
			t.Errorf("%s: %d of %d failure lines read:\n%s", cl.name, read, all, cut)
		}
		if len(cut) > cl.limit {
			t.Errorf("%s: %d bytes, over the limit", cl.name, len(cut))
		}
		checkCounts(t, cl.name, inputLines(raw, nil, true), []byte(cut))
		checkClients(t, cl.name, o.normalized(), raw, nil, true, [2][]byte{[]byte(cut)}, agentClients)
	}
}

// TestLongLineTick: a line longer than the cut keeps of a line, without
// its newline yet, has its start released at a Tick, as the output's head
// is, instead of waiting for the command's end; the rest is counted where
// the line ends.
func TestLongLineTick(t *testing.T) {
	f := &ticked{c: New(Options{Limit: 30000, Budget: 16384})}
	f.write(Stdout, bytes.Repeat([]byte("x"), 100000))
	f.tick()
	head := f.text()
	if len(head) < 1000 || strings.Trim(head, "x") != "" {
		t.Fatalf("after a Tick %d bytes are out: %.80q", len(head), head)
	}
	f.write(Stdout, []byte("tail\n"))
	cut := f.close("shrinkrun show 1")
	want := fmt.Sprintf("%s [shrinkrun: %d more bytes of this line omitted]\n", head, 100004-len(head))
	if !strings.HasPrefix(cut, want) || !strings.HasSuffix(cut, "from 1 line, 100005 bytes; full output: shrinkrun show 1]\n") {
		t.Errorf("the cut:\n%.300s", cut)
	}
	checkCounts(t, "long line", inputLines([]byte(strings.Repeat("x", 100000)+"tail\n"), nil, true), []byte(cut))
}

// TestQuietTail: a server that prints more than the limit at start-up and
// then waits shows its newest line within a Tick of going quiet (a Tick
// with no Write since the one before), counted exactly; what it prints
// later still ends the cut, within the limit.
func TestQuietTail(t *testing.T) {
	f := &ticked{c: New(Options{Limit: 30000, Budget: 16384, Argv: []string{"npm", "run", "dev"}})}
	var raw bytes.Buffer
	w := func(s string) {
		raw.WriteString(s)
		f.write(Stdout, []byte(s))
	}
	for i := range 3000 {
		w(fmt.Sprintf("compiled module %d of the app\n", i))
	}
	w("listening on :8080\n")
	f.tick()
	if strings.Contains(f.text(), "listening on") {
		t.Fatal("the newest line came out while the command was still writing")
	}
	f.tick()
	if !strings.HasSuffix(f.text(), "\nlistening on :8080\n") {
		t.Fatalf("after a quiet Tick the newest line is not out:\n%s", f.text()[max(0, len(f.text())-300):])
	}
	w("GET / 200\n")
	w("Password: ")
	f.tick()
	f.tick()
	if !strings.HasSuffix(f.text(), "GET / 200\nPassword: ") {
		t.Fatalf("a prompt is not out after a quiet Tick:\n%s", f.text()[max(0, len(f.text())-300):])
	}
	w("secret\nbye\n")
	cut := f.close("shrinkrun show 1")
	if len(cut) > 30000 || !strings.Contains(cut, "Password: secret\nbye\n[shrinkrun: output cut by shape") {
		t.Errorf("%d bytes:\n%s", len(cut), cut[max(0, len(cut)-400):])
	}
	checkCounts(t, "server", inputLines(raw.Bytes(), nil, true), []byte(cut))
}
