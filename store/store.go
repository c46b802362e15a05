// Package store keeps the raw output of curated runs on disk so a summary never
// makes output unreachable.
//
// A run streams its stdout and stderr into an [Entry] while the command runs,
// so memory stays bounded whatever the command prints. [Entry.Commit] then
// moves the files, with a small meta file, to DIR/ID in one rename. The ID is
// derived from the content, so the same output is kept once and different
// outputs never overwrite each other. [Open] and [Copy] read an entry back
// for `shrinkrun show ID`; [Prune] and [MaybePrune] bound the disk it uses.
//
// The layout, limits and guarantees are described in docs/store.md.
package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// File names inside the store directory and inside each entry.
const (
	tmpPrefix  = ".tmp-"   // directories being written, or being deleted
	stampName  = ".pruned" // its mtime is the last time MaybePrune pruned
	stdoutName = "stdout"
	stderrName = "stderr"
	metaName   = "meta"
)

// Dir returns the directory where raw output is kept:
// $SHRINKRUN_STATE_DIR when set (made absolute, so the path the block prints
// works from any directory), else $XDG_STATE_HOME/shrinkrun when
// XDG_STATE_HOME is absolute (the XDG spec says to ignore relative values),
// else $HOME/.local/state/shrinkrun.
func Dir() (string, error) {
	if d := os.Getenv("SHRINKRUN_STATE_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "shrinkrun"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return "", errors.New("no directory to keep raw output in: set HOME, XDG_STATE_HOME or SHRINKRUN_STATE_DIR")
	}
	return filepath.Join(home, ".local", "state", "shrinkrun"), nil
}

// Meta describes a run; it is stored next to the output and is part of the ID.
type Meta struct {
	Command  string // the command text as the block prints it
	ExitCode int    // meaningful only when Exited
	Exited   bool   // false when there is no exit code (signal, never started)
}

// Entry is one run's output being written. Use the writers while the command
// runs, then call Commit or Abort once; a deferred Abort after Commit does
// nothing, so `defer e.Abort()` is the usual pattern.
type Entry struct {
	dir, tmp       string // tmp is "" once committed or aborted
	stdout, stderr *sink
}

// Create makes dir if needed and starts a new entry in a private temporary
// directory inside it, so the final rename never crosses file systems.
func Create(dir string) (*Entry, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("raw output not kept: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, tmpPrefix+"*") // mode 0700
	if err != nil {
		return nil, fmt.Errorf("raw output not kept: %w", err)
	}
	e := &Entry{dir: dir, tmp: tmp}
	if e.stdout, err = newSink(filepath.Join(tmp, stdoutName)); err == nil {
		e.stderr, err = newSink(filepath.Join(tmp, stderrName))
	}
	if err != nil {
		e.Abort()
		return nil, fmt.Errorf("raw output not kept: %w", err)
	}
	return e, nil
}

// Stdout returns the writer for the command's stdout. Its Write never returns
// an error, so it can sit in an io.MultiWriter next to the capture buffer: a
// failure is kept for Commit to report and later writes are dropped.
func (e *Entry) Stdout() io.Writer { return e.stdout }

// Stderr returns the writer for the command's stderr; it behaves as Stdout.
func (e *Entry) Stderr() io.Writer { return e.stderr }

// Commit stores the output under its ID and returns the ID. It returns an
// error, and keeps nothing, when any write failed: a partial copy must never
// pass for the raw output.
func (e *Entry) Commit(m Meta) (string, error) {
	if e.tmp == "" {
		return "", errors.New("store: entry already committed or aborted")
	}
	defer e.Abort()
	if err := errors.Join(e.stdout.close(), e.stderr.close()); err != nil {
		return "", fmt.Errorf("raw output not kept: %w", err)
	}
	meta := m.encode(e.stdout, e.stderr)
	if err := os.WriteFile(filepath.Join(e.tmp, metaName), meta, 0o600); err != nil {
		return "", fmt.Errorf("raw output not kept: %w", err)
	}
	id := entryID(meta)
	final := filepath.Join(e.dir, id)
	err := os.Rename(e.tmp, final)
	if err == nil {
		e.tmp = ""
		return id, nil
	}
	// The rename fails when the ID exists: another run kept the same output.
	// Comparing meta (which holds both hashes) rules out a hash collision or
	// a stranger's directory before we name it as ours.
	if old, rerr := os.ReadFile(filepath.Join(final, metaName)); rerr != nil || !bytes.Equal(old, meta) {
		return "", fmt.Errorf("raw output not kept: %w", err)
	}
	// Refreshing the mtime restarts the entry's age for pruning. If that
	// fails the output is still kept, only pruned sooner: not worth an error.
	now := time.Now()
	_ = os.Chtimes(final, now, now)
	return id, nil
}

// Abort discards the entry. It is safe to call more than once.
func (e *Entry) Abort() {
	e.stdout.close()
	e.stderr.close()
	if e.tmp != "" {
		// Whatever cannot be removed now, Prune removes once it is stale.
		os.RemoveAll(e.tmp)
		e.tmp = ""
	}
}

// encode renders the meta file. The command is quoted because it may hold
// newlines, which would otherwise forge lines; the hashes let a reader check
// the files and let Commit tell equal outputs from colliding IDs.
func (m Meta) encode(stdout, stderr *sink) []byte {
	exit := "null"
	if m.Exited {
		exit = strconv.Itoa(m.ExitCode)
	}
	return fmt.Appendf(nil, "command: %s\nexit_code: %s\nstdout_bytes: %d\nstderr_bytes: %d\nstdout_sha256: %x\nstderr_sha256: %x\n",
		strconv.Quote(m.Command), exit, stdout.n, stderr.n, stdout.h.Sum(nil), stderr.h.Sum(nil))
}

// entryID names an entry after its meta file, which holds the command, the
// exit code and both stream hashes, each on its own line with the command
// quoted: equal meta means equal output, and the encoding is unambiguous.
// 16 hex characters (64 bits) keep the name short enough to type; Commit
// catches the improbable collision.
func entryID(meta []byte) string {
	sum := sha256.Sum256(meta)
	return fmt.Sprintf("%x", sum[:8])
}

// sink writes one stream to its file while hashing it. Its Write never
// reports an error: a full or read-only disk must not break the capture the
// summary depends on. The first error is kept, further writes are dropped,
// and Commit reports it. Like any writer given to os/exec, one sink is
// written by one goroutine at a time.
type sink struct {
	f   *os.File // nil once closed
	w   *bufio.Writer
	h   hash.Hash
	n   int64
	err error
}

func newSink(path string) (*sink, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	// The buffer turns small writes (line-buffered children, ptys) into few
	// syscalls; writes larger than it go straight to the file.
	return &sink{f: f, w: bufio.NewWriterSize(f, 64<<10), h: sha256.New()}, nil
}

func (s *sink) Write(p []byte) (int, error) {
	if s.err == nil {
		_, s.err = s.w.Write(p)
		s.h.Write(p)
		s.n += int64(len(p))
	}
	return len(p), nil
}

// close flushes and closes the file and returns the first error of the
// stream's life. It is nil-safe because Create may fail halfway.
func (s *sink) close() error {
	if s == nil || s.f == nil {
		return nil
	}
	if s.err == nil {
		s.err = s.w.Flush()
	}
	if err := s.f.Close(); s.err == nil {
		s.err = err
	}
	s.f = nil
	return s.err
}

// Stored locates the files of one kept run.
type Stored struct {
	ID     string
	Dir    string // the entry directory, DIR/ID
	Stdout string // path of the raw stdout
	Stderr string // path of the raw stderr
	Meta   string // path of the meta file
}

// Open finds the entry id in dir. It accepts only IDs as Commit makes them
// (16 lowercase hex characters), so an ID from an untrusted source can never
// name a path outside dir or a file of the store itself.
func Open(dir, id string) (*Stored, error) {
	if !validID(id) {
		return nil, fmt.Errorf("invalid output id %q: want the 16 lowercase hex characters the block prints", id)
	}
	p := filepath.Join(dir, id)
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return nil, notFound(dir, id)
	}
	return &Stored{
		ID:     id,
		Dir:    p,
		Stdout: filepath.Join(p, stdoutName),
		Stderr: filepath.Join(p, stderrName),
		Meta:   filepath.Join(p, metaName),
	}, nil
}

func validID(id string) bool {
	if len(id) != 16 {
		return false
	}
	for _, c := range []byte(id) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func notFound(dir, id string) error {
	return fmt.Errorf("no stored output with id %s in %s (it may have been pruned): run the command again", id, dir)
}

// Streams selects what Copy writes.
type Streams uint8

// The streams of an entry, for `shrinkrun show ID [--stdout|--stderr]`.
const (
	Stdout Streams = 1 << iota
	Stderr
	Both = Stdout | Stderr
)

// Copy writes the stored stdout, then the stored stderr, of entry id to w,
// byte for byte; which selects Stdout, Stderr or Both.
func Copy(w io.Writer, dir, id string, which Streams) error {
	s, err := Open(dir, id)
	if err != nil {
		return err
	}
	for _, part := range []struct {
		stream Streams
		path   string
	}{{Stdout, s.Stdout}, {Stderr, s.Stderr}} {
		if which&part.stream == 0 {
			continue
		}
		if err := copyFile(w, part.path); errors.Is(err, fs.ErrNotExist) {
			return notFound(dir, id) // pruned since Open
		} else if err != nil {
			return err
		}
	}
	return nil
}

func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
