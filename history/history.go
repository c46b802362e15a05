// Package history keeps one line per shrinkrun run, so that `shrinkrun gain`
// can say what summaries saved from what actually happened.
//
// Every run, summarized or passed through, appends one JSON record to
// DIR/history/runs.jsonl with a single write(2) on an O_APPEND descriptor:
// records from any number of concurrent processes never interleave. The file
// is rotated into numbered-by-time segments and old segments are deleted, so
// the history stays bounded. Blocks that were shown are kept next to it, by
// content, so gain can count their tokens exactly.
//
// This package is on every run's path and does nothing in its
// initialization; counting tokens and building the report live in
// subpackages that only `shrinkrun gain` uses. The format, limits and
// guarantees are described in docs/history.md.
package history

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/setting"
)

// Version is the record format; readers skip records of other versions.
const Version = 1

// Modes of a run.
const (
	Curated     = "curated"     // captured; a block or the raw output was printed
	Passthrough = "passthrough" // the child wrote to the caller's streams itself
)

// What a curated run printed.
const (
	ShownBlock = "block" // the [tool_output_compression] block
	ShownRaw   = "raw"   // the captured output, because the block was not clearly smaller
)

// MaxLine bounds an encoded record, newline included: below PIPE_BUF (4096
// on Linux), the size POSIX guarantees an O_APPEND write to be atomic for
// pipes; on a local file system the one write(2) of a record is atomic
// whatever its size, and the bound keeps it so on the strictest reading.
const MaxLine = 4095

// Record is one run.
type Record struct {
	V    int       `json:"v"`
	Time time.Time `json:"time"` // when shrinkrun started, UTC, millisecond precision
	Cwd  string    `json:"cwd"`  // the working directory
	Mode string    `json:"mode"` // Curated or Passthrough
	// Rule is the rule of a curated run; Reason why a run passed through.
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Command is the command as the block's header shows it, cut to keep
	// the record within MaxLine (Truncated is then true).
	Command   string `json:"command"`
	Truncated bool   `json:"truncated,omitempty"`
	// Exit is shrinkrun's exit status, which is the child's; nil for a
	// run that ended in an exec (shrinkrun became the command), whose
	// record is written before the command runs.
	Exit *int `json:"exit"`
	// RawBytes counts every byte the command wrote to stdout and stderr;
	// ShownBytes those shrinkrun printed in their place (a pass-through
	// run's through the relay: all of them, or its cut). Both are null for
	// a run that ended in an exec, whose output shrinkrun never sees.
	RawBytes   *int64 `json:"raw_bytes"`
	ShownBytes *int64 `json:"shown_bytes"`
	// Shown is ShownBlock or ShownRaw for a curated run.
	Shown string `json:"shown,omitempty"`
	// RawID names the raw output in the store (`shrinkrun show RAWID`);
	// empty when it was not kept. ShownID names the kept block
	// (DIR/history/shown/SHOWNID); empty when the raw output was shown or
	// the block was not kept.
	RawID   string `json:"raw_id,omitempty"`
	ShownID string `json:"shown_id,omitempty"`
	// DurationMS is the time from shrinkrun's start to the record, in
	// milliseconds.
	DurationMS float64 `json:"duration_ms"`
	// Agent is the client the run was for (--agent, SHRINKRUN_AGENT), when
	// known: gain counts the saving against what that client would have
	// shown of the raw output.
	Agent string `json:"agent,omitempty"`
}

// Int64 returns a pointer to n, for RawBytes and ShownBytes.
func Int64(n int64) *int64 { return &n }

// Int returns a pointer to n, for Exit.
func Int(n int) *int { return &n }

// Enabled reports whether history is kept: unless SHRINKRUN_HISTORY is
// false (0, false, off, no: setting.Bool).
func Enabled(getenv func(string) string) bool {
	on, ok := setting.Bool(getenv("SHRINKRUN_HISTORY"))
	return on || !ok
}

// dirName is the history directory in the state directory (store.Dir:
// $SHRINKRUN_STATE_DIR, $XDG_STATE_HOME/shrinkrun or
// ~/.local/state/shrinkrun).
const dirName = "history"

// Open opens the history directory in the checked state directory,
// creating it (0700) when create is true; it is checked as the state
// directory is (package privdir).
func Open(state *privdir.Dir, create bool) (*privdir.Dir, error) {
	return state.Sub(dirName, create)
}

// Files in the history directory.
const (
	currentName   = "runs.jsonl"
	segmentPrefix = "runs-"
	segmentSuffix = ".jsonl"
	shownDir      = "shown"
)

// Rotation: the current file becomes a segment once it reaches
// segmentBytes, and only the keepSegments newest segments are kept, so the
// history never takes more than about (keepSegments+1)*segmentBytes.
var (
	segmentBytes int64 = 4 << 20
	keepSegments       = 7
)

// Append adds rec to the history in dir as one line, with one write(2) on
// a file opened with O_APPEND. It creates the file (0600) as needed, and
// rotates it when it has grown past its limit. The file is refused, and
// nothing written, when it is a link, another user's, or writable by
// others. Errors are returned for the caller to ignore: a run never fails
// for its history.
func Append(dir *privdir.Dir, rec Record) error {
	line, err := Encode(rec)
	if err != nil {
		return err
	}
	f, err := dir.OpenFile(currentName, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(line); err != nil {
		return err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() >= segmentBytes {
		return rotate(dir, fi)
	}
	return nil
}

// CheckWritable reports why records cannot be appended to the history in
// dir, or nil: what Append would meet, without writing a record.
func CheckWritable(dir *privdir.Dir) error {
	f, err := dir.OpenFile(currentName, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// Encode renders rec as one JSON line of at most MaxLine bytes. When the
// command (or, failing that, the working directory, then the reason) makes
// it longer, the longest prefix that fits is kept, cut at a character
// boundary, and Truncated is set.
func Encode(rec Record) ([]byte, error) {
	rec.V = Version
	rec.Time = rec.Time.UTC().Truncate(time.Millisecond)
	rec.DurationMS = math.Round(rec.DurationMS*1000) / 1000 // microseconds
	line, err := marshal(rec)
	if err != nil || len(line) <= MaxLine {
		return line, err
	}
	rec.Truncated = true
	for _, field := range []*string{&rec.Command, &rec.Cwd, &rec.Reason} {
		full := *field
		// The longest prefix that fits, by bisection: the encoded length
		// grows with the prefix (escapes make it grow faster).
		lo, hi := 0, len(full)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			*field = cut(full, mid)
			if l, err := marshal(rec); err == nil && len(l) <= MaxLine {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		*field = cut(full, lo)
		if line, err = marshal(rec); err != nil || len(line) <= MaxLine {
			return line, err
		}
	}
	return nil, errors.New("history: record does not fit in a line")
}

// marshal encodes rec as encoding/json would (without HTML escaping),
// written out by hand: reflection-based encoding costs a fresh process
// about 0.1 ms the first time, more than the rest of the record together.
// TestMarshalMatchesJSON holds the two to the same bytes.
func marshal(rec Record) ([]byte, error) {
	b := make([]byte, 0, 256+len(rec.Command)+len(rec.Cwd))
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(rec.V), 10)
	b = append(b, `,"time":`...)
	tb, err := rec.Time.MarshalJSON()
	if err != nil {
		return nil, err
	}
	b = append(b, tb...)
	b = appendField(b, "cwd", rec.Cwd)
	b = appendField(b, "mode", rec.Mode)
	if rec.Rule != "" {
		b = appendField(b, "rule", rec.Rule)
	}
	if rec.Reason != "" {
		b = appendField(b, "reason", rec.Reason)
	}
	b = appendField(b, "command", rec.Command)
	if rec.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, `,"exit":`...)
	if rec.Exit == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*rec.Exit), 10)
	}
	for _, f := range []struct {
		name string
		n    *int64
	}{{"raw_bytes", rec.RawBytes}, {"shown_bytes", rec.ShownBytes}} {
		b = append(b, `,"`...)
		b = append(b, f.name...)
		b = append(b, `":`...)
		if f.n == nil {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, *f.n, 10)
		}
	}
	if rec.Shown != "" {
		b = appendField(b, "shown", rec.Shown)
	}
	if rec.RawID != "" {
		b = appendField(b, "raw_id", rec.RawID)
	}
	if rec.ShownID != "" {
		b = appendField(b, "shown_id", rec.ShownID)
	}
	b = append(b, `,"duration_ms":`...)
	if math.IsInf(rec.DurationMS, 0) || math.IsNaN(rec.DurationMS) {
		return nil, errors.New("history: duration is not a number")
	}
	b = appendFloat(b, rec.DurationMS)
	return append(b, "}\n"...), nil
}

func appendField(b []byte, name, value string) []byte {
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `":`...)
	return appendString(b, value)
}

// appendString quotes s as encoding/json does with HTML escaping off:
// quote, backslash and control characters escaped, invalid UTF-8 replaced
// by U+FFFD, and U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendFloat formats f as encoding/json does.
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// cut returns the longest prefix of s of at most n bytes that ends on a
// character boundary.
func cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// rotate turns the current file into a segment, if it is still the file
// this process wrote to (fi): when several processes see it full at once,
// the first renames it and the others find a different file or none.
func rotate(dir *privdir.Dir, fi os.FileInfo) error {
	if now, err := dir.Lstat(currentName); err != nil || !os.SameFile(now, fi) {
		return nil
	}
	// The name sorts by time; the pid keeps two rotations in the same
	// nanosecond from renaming onto each other.
	seg := fmt.Sprintf("%s%s-%d%s", segmentPrefix, time.Now().UTC().Format("20060102T150405.000000000Z"), os.Getpid(), segmentSuffix)
	if err := dir.Rename(currentName, seg); errors.Is(err, fs.ErrNotExist) {
		return nil // another process rotated it first
	} else if err != nil {
		return err
	}
	segs, err := segments(dir)
	if err != nil {
		return err
	}
	for len(segs) > keepSegments {
		if err := dir.Remove(segs[0]); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		segs = segs[1:]
	}
	return nil
}

// segments lists the names of the rotated segments of dir, oldest first:
// their names sort by the time they were rotated.
func segments(dir *privdir.Dir) ([]string, error) {
	des, err := dir.ReadDir()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range des {
		n := de.Name()
		if strings.HasPrefix(n, segmentPrefix) && strings.HasSuffix(n, segmentSuffix) && de.Type().IsRegular() {
			out = append(out, n)
		}
	}
	return out, nil // ReadDir sorts by name
}

// files returns the names of the history files of dir, oldest first: the
// segments, then the current file (which may not exist).
func files(dir *privdir.Dir) ([]string, error) {
	segs, err := segments(dir)
	return append(segs, currentName), err
}
