package shape

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shrinkrun/shrinkrun/summarize"
)

// The invariants of docs/shape.md, held on any input, any split of it into
// Writes and any placement of Ticks.

// plan is one way of feeding an output to a Cutter: where the Writes
// split it and where Ticks fall.
type plan struct {
	seed  uint64
	ticks bool
}

// write is one Write of the feed.
type write struct {
	s Stream
	p []byte
}

// writes splits the two streams into Writes, interleaved, by the plan.
func (pl plan) writes(stdout, stderr []byte) []write {
	r := rand.New(rand.NewPCG(pl.seed, 7))
	var ws []write
	streams := [2][]byte{stdout, stderr}
	for len(streams[0])+len(streams[1]) > 0 {
		s := Stream(r.IntN(2))
		if len(streams[s]) == 0 {
			s = 1 - s
		}
		n := min(len(streams[s]), 1+r.IntN(1+r.IntN(300)))
		if pl.seed%3 == 2 {
			n = min(len(streams[s]), 1+r.IntN(8192)) // a pipe's bursts
		}
		if pl.seed == 0 {
			n = len(streams[s]) // one Write per stream
		}
		ws = append(ws, write{s, streams[s][:n]})
		streams[s] = streams[s][n:]
	}
	return ws
}

// feed runs a Cutter over the plan and returns its chunks, every call's in
// order.
func feed(o Options, stdout, stderr []byte, pl plan, raw string, block []byte) []Chunk {
	out, _ := feedTicks(o, stdout, stderr, pl, raw, block)
	return out
}

// feedTicks is feed, and whether it called Tick. A Tick is sometimes
// followed by another, with no Write between: the command went quiet.
func feedTicks(o Options, stdout, stderr []byte, pl plan, raw string, block []byte) (out []Chunk, ticked bool) {
	c := New(o)
	r := rand.New(rand.NewPCG(pl.seed, 11))
	wasCutting := false
	for _, w := range pl.writes(stdout, stderr) {
		out = append(out, c.Write(w.s, w.p)...)
		if pl.ticks && r.IntN(3) == 0 {
			out = append(out, c.Tick()...)
			ticked = true
			if r.IntN(4) == 0 {
				out = append(out, c.Tick()...)
			}
		}
		if wasCutting && !c.Cutting() {
			panic("Cutting went back to false")
		}
		wasCutting = c.Cutting()
	}
	return append(out, c.Close(raw, block)...), ticked
}

// joined is the chunks' bytes per stream, and all of them in order.
func joined(chunks []Chunk) (streams [2][]byte, all []byte) {
	for _, ch := range chunks {
		streams[ch.Stream] = append(streams[ch.Stream], ch.Data...)
		all = append(all, ch.Data...)
	}
	return streams, all
}

func TestPassThrough(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 1))
		stdout, stderr := randomOutput(r, r.IntN(3000)), randomOutput(r, r.IntN(1000))
		total := len(stdout) + len(stderr)
		o := Options{Limit: total + r.IntN(100), Budget: 1 + r.IntN(total+1)}
		for _, ticks := range []bool{false, true} {
			got, _ := joined(feed(o, stdout, stderr, plan{seed, ticks}, "shrinkrun show x", nil))
			if !bytes.Equal(got[0], stdout) || !bytes.Equal(got[1], stderr) {
				t.Fatalf("seed %d ticks %v: at or below the limit the output changed", seed, ticks)
			}
		}
	}
}

// TestCutInvariants holds cut outputs to the budget, to exact counts and
// to every failure line, with and without Ticks.
func TestCutInvariants(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 2))
		stdout := randomOutput(r, 2000+r.IntN(30000))
		var stderr []byte
		if seed%3 == 0 {
			stderr = randomOutput(r, r.IntN(5000))
		}
		budget := []int{0, 40, 200, 600, 1500, 4000}[r.IntN(6)]
		o := Options{Limit: 1 + r.IntN(1500), Budget: budget, Argv: []string{[]string{"x", "make", "cat"}[r.IntN(3)]}}
		for _, ticks := range []bool{false, true} {
			checkCut(t, fmt.Sprintf("seed %d ticks %v", seed, ticks), o, stdout, stderr, plan{seed, ticks})
		}
	}
}

// TestAgainstClients holds cuts at each agent client's own limit and
// budget to the clients' blind cuts of the same output (checkClients), on
// outputs of every density of failure lines, with and without Ticks.
func TestAgainstClients(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 9))
		density := []int{1000, 100, 30, 5, 1}[seed%5]
		stdout := failureMix(r, 10000+r.IntN(120000), density)
		var stderr []byte
		if seed%4 == 0 {
			stderr = failureMix(r, r.IntN(8000), density)
		}
		for _, cl := range agentClients {
			o := Options{Limit: cl.limit, Budget: cl.budget, Argv: []string{[]string{"make", "x"}[seed%2]}}
			for _, ticks := range []bool{false, true} {
				checkCut(t, fmt.Sprintf("seed %d (1 in %d) at %s's limit, ticks %v", seed, density, cl.name, ticks), o, stdout, stderr, plan{seed, ticks})
			}
		}
	}
}

// failureMix makes n bytes of output in which about one line in every
// fails: a run's log lines, a test runner's, and random output.
func failureMix(r *rand.Rand, n, every int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		switch {
		case r.IntN(every) == 0:
			fmt.Fprintf(&b, []string{"ERROR: failure number %d occurred\n", "--- FAIL: TestCase%d (0.00s)\n", "FAILED tests/test_x.py::test_%d - assert 1 == 2\n",
				"    x_test.go:%d: want 1, got 2\n", "error[E0425]: cannot find value `x%d` in this scope\n"}[r.IntN(5)], i)
		case r.IntN(8) == 0:
			b.Write(randomOutput(r, 1+r.IntN(400)))
			b.WriteByte('\n')
		default:
			fmt.Fprintf(&b, []string{"working on item %d now\n", "=== RUN   TestCase%d\n", "test_%d PASSED\n", "GET /api/items/%d 200 3ms\n"}[r.IntN(4)], i)
		}
	}
	return b.Bytes()[:n]
}

// checkCut runs one feed and checks what any cut must be.
func checkCut(t *testing.T, name string, o Options, stdout, stderr []byte, pl plan) {
	t.Helper()
	raw := "shrinkrun show 0123abcd"
	chunks, ticked := feedTicks(o, stdout, stderr, pl, raw, nil)
	streams, all := joined(chunks)
	again, _ := joined(feed(o, stdout, stderr, pl, raw, nil))
	if !bytes.Equal(streams[0], again[0]) || !bytes.Equal(streams[1], again[1]) {
		t.Fatalf("%s: the same calls gave two outputs", name)
	}
	n := o.normalized()
	total := len(stdout) + len(stderr)
	if total <= n.Limit {
		return
	}
	// Without Ticks a cut stays within the budget; Ticks may release
	// more, for liveness, but never past the limit.
	if bound := n.Budget; len(all) > bound && (!pl.ticks || len(all) > n.Limit) {
		t.Fatalf("%s: %d bytes out, over the budget %d (limit %d, ticks %v)", name, len(all), bound, n.Limit, pl.ticks)
	}
	if len(all) >= total {
		t.Fatalf("%s: %d bytes out of %d in", name, len(all), total)
	}
	if n.Budget < minBudget() {
		return // room for nothing but the budget's own bound
	}
	ins := inputLines(stdout, stderr, true)
	if len(stderr) == 0 {
		checkCounts(t, name, ins, all)
	}
	checkFailures(t, name, wantFailures(ins, max(256, n.Budget/4)), streams)
	clients := make([]clientCut, len(agentClients))
	for i, cl := range agentClients {
		clients[i] = cl.scaled(n.Limit)
	}
	checkClients(t, name, n, stdout, stderr, ticked, streams, clients)
}

// checkClients holds a cut to what the agents' clients would have shown
// of the same output by their own blind cut (the clients given, at the
// cut's limit): the model never reads fewer failure lines through the cut
// than through a client's head and tail of the raw output, unless the
// failure lines filled what the cut could print (the budget, or with
// Ticks the limit) but for the room of one, the trailer's and two
// markers'. And without Ticks, when every failure line fits the budget
// with the head, two markers and the trailer, every one is read.
func checkClients(t *testing.T, name string, o Options, stdout, stderr []byte, ticked bool, out [2][]byte, clients []clientCut) {
	t.Helper()
	maxLine := max(256, o.Budget/4)
	raw := string(stdout) + string(stderr)
	isFail := func(l string) bool { return len(l) <= maxLine-lineCutRoom && failLine(l) }
	var failures []string
	need, longest, simple := 0, 0, true
	for _, l := range splitKeep([]byte(raw)) {
		if len(l) > maxLine-lineCutRoom {
			simple = simple && !failLine(l[:min(len(l), maxLine)])
			continue
		}
		if !failLine(l) {
			continue
		}
		failures = append(failures, l)
		r := len(shown(l)) + 1
		if strings.Contains(string(trimEnd([]byte(l))), "\r") {
			simple = false
			r += len(appendRedraws(nil, maxCount, maxCount))
		}
		need += r
		longest = max(longest, r)
	}
	all := len(out[0]) + len(out[1])
	read, _ := failuresRead(failures, string(out[0])+"\n"+string(out[1]))
	bound := o.Budget
	if ticked {
		bound = o.Limit
	}
	full := all > bound-longest-2*maxMarker-trailerRoom()-2
	for _, cl := range clients {
		blind := 0
		for _, l := range cl.read(raw) {
			if isFail(l) {
				blind++
			}
		}
		if read < blind && !full {
			t.Fatalf("%s: %d failure lines read through the cut (%d bytes of at most %d), %d through %s's own cut of the output:\n%s\n--- stderr:\n%s",
				name, read, all, bound, blind, cl.name, out[0], out[1])
		}
	}
	if !ticked && simple && New(o).headCap()+need+2*maxMarker+trailerRoom()+2 <= o.Budget && read < len(failures) {
		t.Fatalf("%s: %d of %d failure lines read, though they fit the budget:\n%s\n--- stderr:\n%s", name, read, len(failures), out[0], out[1])
	}
}

// randomOutput makes n bytes of lines like real output: ordinary lines,
// failures, repeats, long lines, lines without an end, control bytes.
func randomOutput(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	for b.Len() < n {
		switch r.IntN(20) {
		case 0:
			b.WriteString([]string{"FAIL\n", "--- FAIL: TestX (0.00s)\n", "E       assert 1 == 2\n",
				"AssertionError: 1 != 2\n", "thread 'main' panicked at src/main.rs:2:5:\n", "error[E0425]: x\n",
				"    x_test.go:12: want 1\n", "ValueError\n", "3 failed, 2 passed\n", "0 failed\n"}[r.IntN(10)])
		case 1:
			b.WriteString(strings.Repeat("same line\n", r.IntN(50)))
		case 2:
			b.WriteString(strings.Repeat("x", r.IntN(3000)) + "\n")
		case 3:
			b.WriteString("progress 10%\rprogress 50%\rprogress 100%\n")
		case 4:
			b.WriteString("\x1b[31mERROR\x1b[0m bad thing\n")
		case 5:
			b.WriteString("no newline at all")
		case 6:
			b.WriteString("héllo wörld ✗ ×\n")
		default:
			fmt.Fprintf(&b, "line %d of ordinary output\n", r.IntN(1000))
		}
	}
	return b.Bytes()[:n]
}

var (
	gapRE     = regexp.MustCompile(`^\[shrinkrun: (?:(\d+) blocks? of (\d+) similar lines|(\d+) (similar )?lines?), (\d+) bytes? omitted(?: before and between the next (\d+) lines)?(?: \((?:(\d+) failure lines?)?(?:, )?(?:(\d+) library frames?)?\))?\]$`)
	runRE     = regexp.MustCompile(` \(×(\d+)\)$`)
	redrawRE  = regexp.MustCompile(` \[shrinkrun: last state of a line redrawn (\d+) times?, (\d+) bytes?\]$`)
	lineCutRE = regexp.MustCompile(` \[shrinkrun: (\d+) more bytes? of this line omitted\]$`)
)

// gap is a parsed gap marker.
type gap struct {
	counts
	period int // similar lines (1) or blocks of period similar lines
	group  int // a group's: the lines it counts are before and between the next group lines
}

// gapCounts parses a gap marker.
func gapCounts(l string) (g gap, ok bool) {
	m := gapRE.FindStringSubmatch(l)
	if m == nil {
		return g, false
	}
	if m[1] != "" {
		blocks, _ := strconv.ParseInt(m[1], 10, 64)
		period, _ := strconv.Atoi(m[2])
		g.lines, g.period = blocks*int64(period), period
	} else {
		g.lines, _ = strconv.ParseInt(m[3], 10, 64)
		if m[4] != "" {
			g.period = 1
		}
	}
	g.bytes, _ = strconv.ParseInt(m[5], 10, 64)
	g.group, _ = strconv.Atoi(m[6])
	g.fails, _ = strconv.ParseInt(m[7], 10, 64)
	g.frames, _ = strconv.ParseInt(m[8], 10, 64)
	return g, true
}

// keptLine is an output line that stands for input lines: the text shown,
// how many identical lines (×N), and its notes.
type keptLine struct {
	text    string
	run     int64
	redrawn bool  // the last state of a redrawn line
	bytes   int64 // a redrawn line's bytes
	cut     int64 // -1, or the bytes a cut line omits
}

// parseKept reads an output line that is no marker of its own.
func parseKept(l string) keptLine {
	k := keptLine{text: l, run: 1, cut: -1}
	if m := runRE.FindStringSubmatchIndex(k.text); m != nil {
		k.run, _ = strconv.ParseInt(k.text[m[2]:m[3]], 10, 64)
		k.text = k.text[:m[0]]
	}
	if m := redrawRE.FindStringSubmatchIndex(k.text); m != nil {
		k.redrawn = true
		k.bytes, _ = strconv.ParseInt(k.text[m[4]:m[5]], 10, 64)
		k.text = k.text[:m[0]]
	} else if m := lineCutRE.FindStringSubmatchIndex(k.text); m != nil {
		k.cut, _ = strconv.ParseInt(k.text[m[2]:m[3]], 10, 64)
		k.text = k.text[:m[0]]
	}
	return k
}

// shown is an input line as the cut shows it whole: as a terminal would,
// or, for a failure a redraw hid, with only its escapes removed.
func shown(in string) string {
	l := trimEnd([]byte(in))
	r := string(readable(l))
	if strings.IndexByte(string(l), '\r') >= 0 && failLine(in) && !failLine(r) {
		return string(summarize.StripTerminal(l))
	}
	return r
}

// splitKeep splits b into lines, each with its newline.
func splitKeep(b []byte) []string {
	var ls []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			ls = append(ls, string(b))
			break
		}
		ls = append(ls, string(b[:i+1]))
		b = b[i+1:]
	}
	return ls
}

// isMarker reports whether an output line is one of the cut's markers.
func isMarker(l string) bool { return strings.HasPrefix(l, markerPrefix) }

// inputLine is a line of the input, and whether the cut reads it for
// failures (not a source file's text).
type inputLine struct {
	text  string
	fails bool
}

// inputLines is the input as the cut reads it when fed stdout, then
// stderr.
func inputLines(stdout, stderr []byte, stdoutFails bool) []inputLine {
	var ins []inputLine
	for _, l := range splitKeep(stdout) {
		ins = append(ins, inputLine{l, stdoutFails})
	}
	for _, l := range splitKeep(stderr) {
		ins = append(ins, inputLine{l, true})
	}
	return ins
}

// checkFailures: the want failure lines of the input are in the output
// or counted by a marker.
func checkFailures(t *testing.T, name string, want int, out [2][]byte) {
	t.Helper()
	got := 0
	for _, l := range append(splitKeep(out[0]), splitKeep(out[1])...) {
		l := strings.TrimSuffix(l, "\n")
		if g, ok := gapCounts(l); ok {
			got += int(g.fails)
			continue
		}
		if isMarker(l) {
			continue
		}
		if k := parseKept(l); failLine(k.text) {
			got += int(k.run)
		}
	}
	if got < want {
		t.Fatalf("%s: %d failure lines in the input, %d kept or counted:\n%s\n--- stderr:\n%s", name, want, got, out[0], out[1])
	}
}

// wantFailures counts the input's failure lines by the oracle. A line
// longer than the part of a line the cut reads (maxLine) is judged on that
// part.
func wantFailures(ins []inputLine, maxLine int) int {
	want := 0
	for _, l := range ins {
		if l.fails && failLine(l.text[:min(len(l.text), maxLine)]) {
			want++
		}
	}
	return want
}

// checkCounts walks a one-stream cut output against its input: the head,
// then each kept line or marker, must account for every input line and
// byte exactly once, in order.
func checkCounts(t *testing.T, name string, ins []inputLine, out []byte) {
	t.Helper()
	outs := splitKeep(out)
	total := 0
	for _, l := range ins {
		total += len(l.text)
	}
	i := 0
	block := "" // "outline" or "json" while reading one
	skip := 0   // output lines a group accounted for
	for k, o := range outs {
		if skip > 0 {
			skip--
			continue
		}
		line := strings.TrimSuffix(o, "\n")
		switch {
		case line == markerPrefix+"what the omitted lines define, by line number:]":
			block = "outline"
			continue
		case strings.HasPrefix(line, markerPrefix+"stdout is "):
			block = "json"
			continue
		case strings.HasSuffix(line, " more definitions not shown]") || strings.HasSuffix(line, " more definition not shown]"):
			block = ""
			continue
		case block == "json" && (strings.HasPrefix(line, "$") || strings.HasSuffix(line, " not shown]") || strings.HasSuffix(line, " not tracked]")):
			continue
		case block == "outline" && !isMarker(line) && (i >= len(ins) || line != shown(ins[i].text)):
			continue
		}
		block = ""
		if g, ok := gapCounts(line); ok && g.group > 0 {
			if k+g.group >= len(outs) {
				t.Fatalf("%s: group %.300q spans past the output's end", name, line)
			}
			i = checkGroup(t, name, ins, i, g, outs[k+1:k+1+g.group])
			skip = g.group
			continue
		}
		if g, ok := gapCounts(line); ok {
			if i+int(g.lines) > len(ins) {
				t.Fatalf("%s: marker %.300q counts past the input's end (%d of %d lines)", name, line, i, len(ins))
			}
			var b, f int64
			for j, in := range ins[i : i+int(g.lines)] {
				l := in.text
				b += int64(len(l))
				if in.fails && isFailure([]byte(l)) {
					f++
				}
				if g.period > 0 && (i+j < g.period || !similar([]byte(shown(ins[i+j-g.period].text)), []byte(shown(l)))) {
					t.Fatalf("%s: marker %.300q counts %.300q as similar to the line %d before", name, line, l, g.period)
				}
			}
			if b != g.bytes || f != g.fails {
				t.Fatalf("%s: marker %.300q at input line %d: %d bytes and %d failure lines there", name, line, i, b, f)
			}
			checkWorth(t, name, o, ins[i:i+int(g.lines)])
			i += int(g.lines)
			continue
		}
		if strings.HasPrefix(line, markerPrefix+"output cut by shape from ") {
			if k != len(outs)-1 {
				t.Fatalf("%s: the trailer is not last", name)
			}
			want := fmt.Sprintf("from %s, %s", plural(int64(len(ins)), "line"), plural(int64(total), "byte"))
			if !strings.Contains(line, want) {
				t.Fatalf("%s: trailer %.300q, want %s", name, line, want)
			}
			if i != len(ins) {
				t.Fatalf("%s: the output accounts for %d of %d input lines", name, i, len(ins))
			}
			return
		}
		if i >= len(ins) {
			t.Fatalf("%s: output line %.300q past the input's end", name, o)
		}
		if in := ins[i].text; o == in || o == in+"\n" {
			// The head, or a line shown as it is.
			i++
			continue
		}
		kl := parseKept(line)
		for range kl.run {
			if i >= len(ins) {
				t.Fatalf("%s: output line %.300q runs past the input's end", name, o)
			}
			in := ins[i].text
			switch {
			case kl.redrawn:
				if kl.bytes != int64(len(in)) || len(in) <= 300 && shown(in) != kl.text {
					t.Fatalf("%s: redrawn line %.300q does not stand for input line %d %.300q", name, o, i, in)
				}
			case kl.cut >= 0:
				nl := int64(0)
				if strings.HasSuffix(in, "\n") {
					nl = 1
				}
				if int64(len(in))-kl.cut-nl < 0 || !strings.HasPrefix(shown(in), "") {
					t.Fatalf("%s: cut line %.300q does not account for input line %d (%d bytes)", name, o, i, len(in))
				}
			default:
				if shown(in) != kl.text && shown(in) != line {
					t.Fatalf("%s: output line %d %.300q, input line %d %.300q", name, k, o, i, in)
				}
			}
			i++
		}
	}
	if i > len(ins) {
		t.Fatalf("%s: accounted for %d of %d lines", name, i, len(ins))
	}
}

// checkGroup checks a group marker g met at input line i against the kept
// lines that follow it: they must be input lines in their order, the last
// of them the group's last line, and the lines between them exactly what
// g counts. It returns the input line after the group.
func checkGroup(t *testing.T, name string, ins []inputLine, i int, g gap, kept []string) int {
	t.Helper()
	end := i + int(g.lines)
	for _, o := range kept {
		end += int(parseKept(strings.TrimSuffix(o, "\n")).run)
	}
	if end > len(ins) {
		t.Fatalf("%s: group %+v at input line %d counts past the input's end", name, g, i)
	}
	// Match from the group's end back: the last kept line ends it.
	matched := map[int]bool{}
	p := end
	for j := len(kept) - 1; j >= 0; j-- {
		o := kept[j]
		kl := parseKept(strings.TrimSuffix(o, "\n"))
		for ; p-int(kl.run) >= i; p-- {
			if j == len(kept)-1 && p != end {
				break
			}
			ok := true
			for q := p - int(kl.run); q < p; q++ {
				ok = ok && standsFor(kl, o, ins[q].text)
			}
			if ok {
				break
			}
		}
		if p-int(kl.run) < i || j == len(kept)-1 && p != end {
			t.Fatalf("%s: the group at input line %d: kept line %.300q is no input line in its place", name, i, o)
		}
		for q := p - int(kl.run); q < p; q++ {
			matched[q] = true
		}
		p -= int(kl.run)
	}
	var c counts
	for q := i; q < end; q++ {
		if matched[q] {
			continue
		}
		c.lines++
		c.bytes += int64(len(ins[q].text))
		if ins[q].fails && isFailure([]byte(ins[q].text)) {
			c.fails++
		}
	}
	if c.lines != g.lines || c.bytes != g.bytes || c.fails != g.fails {
		t.Fatalf("%s: the group at input line %d counts %+v, its lines hold %+v", name, i, g.counts, c)
	}
	var omitted []inputLine
	for q := i; q < end; q++ {
		if !matched[q] {
			omitted = append(omitted, ins[q])
		}
	}
	checkWorth(t, name, string(appendGroupMarker(nil, g.counts, len(kept))), omitted)
	return end
}

// checkWorth: a marker never costs more than the lines it stands for
// would, shown as the cut shows lines (a line drawn over with "\r" shows
// with a note of its own, so is not held to it).
func checkWorth(t *testing.T, name, marker string, lines []inputLine) {
	t.Helper()
	n := 0
	for _, l := range lines {
		if strings.Contains(string(trimEnd([]byte(l.text))), "\r") {
			return
		}
		n += len(l.text)
	}
	if n < len(strings.TrimSuffix(marker, "\n"))+1 {
		t.Fatalf("%s: marker %q stands for %d bytes of lines, shown for less: %v", name, marker, n, lines)
	}
}

// standsFor reports whether output line o, read as kl, shows input line in.
func standsFor(kl keptLine, o, in string) bool {
	switch {
	case o == in || o == in+"\n":
		return true
	case kl.redrawn:
		return kl.bytes == int64(len(in)) && (len(in) > 300 || shown(in) == kl.text)
	case kl.cut >= 0:
		return int64(len(in)) > kl.cut
	}
	return shown(in) == kl.text || shown(in) == strings.TrimSuffix(o, "\n")
}

func plural(n int64, unit string) string {
	return string(appendCount(nil, n, unit))
}

func TestSplitIndependent(t *testing.T) {
	for seed := range uint64(100) {
		r := rand.New(rand.NewPCG(seed, 3))
		in := randomOutput(r, 1000+r.IntN(20000))
		o := Options{Limit: 500 + r.IntN(2000), Budget: 300 + r.IntN(3000)}
		want, _ := joined(feed(o, in, nil, plan{0, false}, "raw", nil))
		got, _ := joined(feed(o, in, nil, plan{seed + 1, false}, "raw", nil))
		if !bytes.Equal(want[0], got[0]) || !bytes.Equal(want[1], got[1]) {
			t.Fatalf("seed %d: one Write and many gave different cuts:\n%s\n---\n%s", seed, want[0], got[0])
		}
	}
}

// TestBounded feeds 64 MB through a Cutter and checks that what it keeps
// stays within a few budgets.
func TestBounded(t *testing.T) {
	c := New(Options{Limit: 30000, Budget: 16384})
	r := rand.New(rand.NewPCG(1, 1))
	chunk := randomOutput(r, 1<<20)
	for range 64 {
		c.Write(Stdout, chunk)
		if kept := c.kept(); kept > 8*16384 {
			t.Fatalf("the cutter keeps %d bytes", kept)
		}
	}
	out, _ := joined(c.Close("", nil))
	if len(out[0])+len(out[1]) > 16384 {
		t.Fatalf("%d bytes out", len(out[0])+len(out[1]))
	}
}

func TestBlock(t *testing.T) {
	in := bytes.Repeat([]byte("ok line\n"), 10000)
	block := []byte("[tool_output_compression]\nrule: bash.x\n")
	_, all := joined(feed(Options{}, in, nil, plan{}, "shrinkrun show 1", block))
	if !bytes.Contains(all, block) {
		t.Fatalf("the block is not in the cut:\n%s", all)
	}
	_, all = joined(feed(Options{}, in[:100], nil, plan{}, "shrinkrun show 1", block))
	if !bytes.Equal(all, in[:100]) {
		t.Fatalf("below the limit the block replaced the output")
	}
}

// FuzzCut holds any output, split and ticked any way, to the invariants.
func FuzzCut(f *testing.F) {
	f.Add([]byte("ok\nFAIL\nok\n"), []byte("E   x\n"), uint16(5), uint16(600), uint64(1), true)
	f.Add(bytes.Repeat([]byte("line\n"), 500), []byte(nil), uint16(100), uint16(1000), uint64(0), false)
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, limit, budget uint16, seed uint64, ticks bool) {
		o := Options{Limit: int(limit) + 1, Budget: int(budget)}
		checkCut(t, "fuzz", o, stdout, stderr, plan{seed, ticks})
		if len(stdout)+len(stderr) <= o.Limit {
			got, _ := joined(feed(o, stdout, stderr, plan{seed, ticks}, "raw", nil))
			if !bytes.Equal(got[0], stdout) || !bytes.Equal(got[1], stderr) {
				t.Fatal("at or below the limit the output changed")
			}
		}
	})
}

// TestTickLive: a server that prints its start-up log, less than the
// limit but more than the budget, then waits, shows its last line within
// one Tick.
func TestTickLive(t *testing.T) {
	c := New(Options{Limit: 30000, Budget: 16384})
	log := bytes.Repeat([]byte("starting: loading a module of the server\n"), 370) // 15 KB
	var out []byte
	for _, ch := range append(c.Write(Stdout, log), c.Tick()...) {
		out = append(out, ch.Data...)
	}
	for _, ch := range append(c.Write(Stdout, []byte("listening on :8080\n")), c.Tick()...) {
		out = append(out, ch.Data...)
	}
	if !bytes.HasSuffix(out, []byte("listening on :8080\n")) || len(out) != len(log)+19 {
		t.Fatalf("after a Tick %d bytes of %d are out", len(out), len(log)+19)
	}
	// Past the limit the cut stays within it.
	more := bytes.Repeat([]byte("GET /health 200\n"), 3000)
	for _, ch := range append(append(c.Write(Stdout, more), c.Tick()...), c.Close("shrinkrun show 1", nil)...) {
		out = append(out, ch.Data...)
	}
	if len(out) > 30000 {
		t.Fatalf("%d bytes out, over the limit", len(out))
	}
}

// TestBlockAfterCommit: a claimed block is printed at Close even when
// Ticks have returned every line the cut had kept.
func TestBlockAfterCommit(t *testing.T) {
	block := []byte("[tool_output_compression]\nrule: bash.unittest\n")
	for _, tick := range []bool{false, true} {
		c := New(Options{Limit: 2000, Budget: 1500})
		var out []byte
		for i := range 200 {
			for _, ch := range c.Write(Stdout, fmt.Appendf(nil, "test_%d ... ok\n", i)) {
				out = append(out, ch.Data...)
			}
		}
		for _, ch := range c.Write(Stdout, []byte("FAILED (failures=1)\n")) {
			out = append(out, ch.Data...)
		}
		if tick {
			for _, ch := range c.Tick() {
				out = append(out, ch.Data...)
			}
		}
		for _, ch := range c.Close("shrinkrun show 1", block) {
			out = append(out, ch.Data...)
		}
		if !bytes.Contains(out, block) {
			t.Fatalf("ticks %v: no block in\n%s", tick, out)
		}
	}
}

func TestGapMarkerLen(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for range 10000 {
		n := func() int64 { return []int64{0, 1, 2, 9, 10, 99, 100, r.Int64N(1 << 40), maxCount}[r.IntN(9)] }
		c := counts{n(), n(), n(), n()}
		for _, p := range []int{0, 1, 2, 7} {
			if got, want := gapMarkerLen(c, p), len(gapMarker(c, p)); got != want {
				t.Fatalf("gapMarkerLen(%v, %d) = %d, the marker is %d bytes: %s", c, p, got, want, gapMarker(c, p))
			}
		}
	}
}
