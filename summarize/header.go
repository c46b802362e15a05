package summarize

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Marker is the block's first line.
const Marker = "[tool_output_compression]"

// HasMarker reports whether b has a line that is exactly Marker (a \r
// before its newline aside): text that a reader could take for the start
// of a block.
func HasMarker(b []byte) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(Marker))
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(Marker)
		rest := b[end:]
		if (at == 0 || b[at-1] == '\n') && (len(rest) == 0 || rest[0] == '\n' || bytes.HasPrefix(rest, []byte("\r\n"))) {
			return true
		}
		i = end
	}
}

// header renders the fixed [tool_output_compression] header (docs/format.md).
func header(r *Run) []byte {
	b := make([]byte, 0, 320)
	line := func(k, v string) {
		b = append(b, k...)
		b = append(b, ": "...)
		b = append(b, v...)
		b = append(b, '\n')
	}
	b = append(b, Marker+"\n"...)
	line("tool", "bash")
	line("rule", r.Rule)
	line("command", shortCommand(oneLine(r.Command), r.BlockBudget()/8))
	line("success", strconv.FormatBool(r.Exited && r.ExitCode == 0))
	if r.Exited {
		line("exit_code", strconv.Itoa(r.ExitCode))
	} else {
		line("exit_code", "null")
	}
	line("raw_stdout_bytes", strconv.FormatInt(r.StdoutBytes, 10))
	line("raw_stderr_bytes", strconv.FormatInt(r.StderrBytes, 10))
	line("stdout_truncated", strconv.FormatBool(r.StdoutTruncated))
	line("stderr_truncated", strconv.FormatBool(r.StderrTruncated))
	line("compression", "curated")
	return b
}

// shortCommand keeps a very long command from taking the block's budget:
// past max bytes it is cut at a character boundary and the number of bytes
// left out is said. The caller wrote the command, so nothing is lost to it.
func shortCommand(c string, max int) string {
	if len(c) <= max {
		return c
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(c[cut]) {
		cut--
	}
	return c[:cut] + " [... " + strconv.Itoa(len(c)-cut) + " more bytes]"
}
