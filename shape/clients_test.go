package shape

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/agents/clients"
)

// The comparison of docs/shape.md: for each agent client, what its model
// reads of each corpus output when the client cuts it itself, against
// what it reads through shrinkrun's cut at that client's limit (which the
// client then shows whole): bytes, o200k tokens, and the failure lines
// (by the oracle, fail_test.go) it can read.
//
//	go test ./shape -run TestClients -v

// clientCut is one client's treatment of a long output: past limit
// characters it shows the first head and the last tail of them.
type clientCut struct {
	name               string
	limit, budget      int // shrinkrun's cut for it
	limitC, head, tail int // the client's own cut, in characters
}

// show is what the model reads of out: the client's own cut, with a note
// between head and tail.
func (cl clientCut) show(out string) string {
	if utf8.RuneCountInString(out) <= cl.limitC {
		return out
	}
	r := []rune(out)
	return string(r[:cl.head]) + "\n[… output truncated …]\n" + string(r[len(r)-cl.tail:])
}

// read is the lines of out the model reads whole through the client's own
// cut: those that lie entirely within its head or its tail.
func (cl clientCut) read(out string) []string {
	lines := splitKeep([]byte(out))
	r := utf8.RuneCountInString(out)
	if r <= cl.limitC {
		return lines
	}
	var read []string
	at := 0 // characters before the line
	for _, l := range lines {
		n := utf8.RuneCountInString(l)
		if at+n <= cl.head || at >= r-cl.tail {
			read = append(read, l)
		}
		at += n
	}
	return read
}

// agentClients are the clients shrinkrun has routes for: the limit and
// budget of shrinkrun's cut for each as the relay takes them from
// agents/clients (relayed), and each client's own cut of a larger output
// as agents/clients describes it. A cut must never keep fewer failure
// lines than their own cut would.
var agentClients = []clientCut{
	// Claude Code 2.1.332: past 30,000 characters, a preview of the first
	// 2 KB and the path of a file the model may read.
	relayed(clients.Claude, 30000, 2000, 0),
	// Codex 0.171.0: about 10,000 bytes, the middle cut out.
	relayed(clients.Codex, 10000, 5000, 5000),
	// Gemini CLI 0.61.0: the first 8,000 and the last 32,000 characters.
	relayed(clients.Gemini, 40000, 8000, 32000),
	// opencode 1.18.33: the last 51,200 bytes (or 2,000 lines, which this
	// leaves out: it would only show less).
	relayed(clients.Opencode, 51200, 0, 51200),
	// Copilot CLI 1.0.102: past 20 KiB, a preview of the first 500
	// characters and the path of a file.
	relayed(clients.Copilot, 20400, 500, 0),
	// Qwen Code 0.24.4: past 30,000 characters, a 4,000-character
	// preview, a fifth from the head and the rest from the tail.
	relayed(clients.Qwen, 30000, 800, 3200),
}

// relayed is client n's cut (past limit characters, the first head and
// the last tail of them) with the limit and budget the relay gives
// shrinkrun's cut for it (cmd/shrinkrun's startPass).
func relayed(n clients.Name, limit, head, tail int) clientCut {
	l := clients.Limit(n)
	names := map[clients.Name]string{clients.Claude: "Claude Code", clients.Codex: "Codex", clients.Gemini: "Gemini CLI",
		clients.Opencode: "opencode", clients.Copilot: "Copilot CLI", clients.Qwen: "Qwen Code"}
	return clientCut{names[n], l, min(clients.BlockBudget(n, int64(l)+1), l), limit, head, tail}
}

// clientCuts are the agent clients and two documented baselines, for the
// comparison of docs/shape.md.
var clientCuts = append(agentClients[:len(agentClients):len(agentClients)],
	// OpenHands: 30,000 characters, half from each end (issue 22).
	clientCut{"OpenHands", 30000, 16 << 10, 30000, 15000, 15000},
	// SWE-agent: the first 100,000 characters (max_observation_length).
	clientCut{"SWE-agent", 100000, 16 << 10, 100000, 100000, 0},
)

// scaled is the client's cut scaled to another limit, for outputs of any
// size (the fuzzer's): the same shares of it at the head and the tail.
func (cl clientCut) scaled(limit int) clientCut {
	f := func(n int) int { return int(int64(n) * int64(limit) / int64(cl.limitC)) }
	return clientCut{cl.name, limit, 0, limit, f(cl.head), f(cl.tail)}
}

// failuresRead is how many of the failure lines the model reads whole in
// what it is shown (a run "line (×N)" reads as N of them).
func failuresRead(failures []string, text string) (read, all int) {
	have := map[string]int{}
	for _, l := range splitKeep([]byte(text)) {
		k := parseKept(strings.TrimSuffix(l, "\n"))
		have[k.text] += int(k.run)
	}
	for _, l := range failures {
		all++
		// The client shows the line as written, shrinkrun as a terminal
		// shows it (escapes removed).
		for _, k := range []string{strings.TrimSuffix(l, "\n"), shown(l)} {
			if have[k] > 0 {
				have[k]--
				read++
				break
			}
		}
	}
	return read, all
}

func TestClients(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("a report: run with -v")
	}
	cases := loadCorpus(t)
	var b strings.Builder
	b.WriteString("\n| client (its limit) | cases it cuts | bytes read: client / shrinkrun | o200k tokens: client / shrinkrun | failure lines read: client / shrinkrun / in all |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: |\n")
	var detail strings.Builder
	detail.WriteString("\n| case | raw bytes | raw tokens | failure lines |")
	for _, cl := range clientCuts {
		fmt.Fprintf(&detail, " %s: client / shrinkrun |", cl.name)
	}
	detail.WriteString("\n| --- | ---: | ---: | ---: |" + strings.Repeat(" ---: |", len(clientCuts)) + "\n")
	type total struct{ cut, cb, sb, ct, st, cf, sf, all int }
	totals := make([]total, len(clientCuts))
	for _, c := range cases {
		raw := string(c.stdout) + string(c.stderr)
		var failures []string
		for _, l := range append(splitKeep(c.stdout), splitKeep(c.stderr)...) {
			if failLine(l) {
				failures = append(failures, l)
			}
		}
		fmt.Fprintf(&detail, "| %s | %d | %d | %d |", c.name, len(raw), tokenCount([]byte(raw)), len(failures))
		for i, cl := range clientCuts {
			client := cl.show(raw)
			_, ours := joined(cutCase(c, cl.limit, cl.budget))
			cr, all := failuresRead(failures, client)
			sr, _ := failuresRead(failures, string(ours))
			tt := &totals[i]
			if len(raw) > cl.limit {
				tt.cut++
				tt.cb += len(client)
				tt.sb += len(ours)
				tt.ct += tokenCount([]byte(client))
				tt.st += tokenCount(ours)
				tt.cf += cr
				tt.sf += sr
				tt.all += all
				fmt.Fprintf(&detail, " %d / %d |", cr, sr)
			} else {
				detail.WriteString(" whole |")
			}
		}
		detail.WriteString("\n")
	}
	for i, cl := range clientCuts {
		tt := totals[i]
		fmt.Fprintf(&b, "| %s (%d) | %d of %d | %d / %d | %d / %d | %d / %d / %d |\n", cl.name, cl.limit, tt.cut, len(cases), tt.cb, tt.sb, tt.ct, tt.st, tt.cf, tt.sf, tt.all)
	}
	t.Log(b.String() + "\nFailure lines read, per case (\"whole\": the output is within the client's limit, both read all of it):\n" + detail.String())
}
