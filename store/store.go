// Package store keeps the raw output of curated runs on disk so a summary never
// makes output unreachable.
//
// A run streams its stdout and stderr into an [Entry] while the command runs,
// so memory stays bounded whatever the command prints. [Entry.Commit] then
// moves the files, with a small meta file, to DIR/ID in one rename. The ID is
// derived from the content, so the same output is kept once and different
// outputs never overwrite each other. [Open] and [Copy] read an entry back
// for `shrinkrun show ID`; [Prune] and [MaybePrune] bound the disk it uses.
// Every file is reached through a directory checked by package privdir:
// the user's alone, and no symbolic link followed.
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
	"sync"
	"sync/atomic"
	"time"

	"github.com/shrinkrun/shrinkrun/privdir"
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
		return "", errors.New("HOME is not set: set HOME or SHRINKRUN_STATE_DIR to keep raw output and history")
	}
	return filepath.Join(home, ".local", "state", "shrinkrun"), nil
}

// OpenDir opens the state directory at path (Dir's answer), creating it
// (0700) when create is true, and refuses it unless the user alone can
// change it (package privdir).
func OpenDir(path string, create bool) (*privdir.Dir, error) {
	return privdir.Open(path, create)
}

// Meta describes a run; it is stored next to the output and is part of the ID.
type Meta struct {
	Command  string // the command text as the block prints it
	ExitCode int    // meaningful only when Exited
	Exited   bool   // false when there is no exit code (signal, never started)
}

// Entry is one run's output being written. Use the writers while the command
// runs, then call Commit once, and Close when the run has named the entry:
// `defer e.Close()` is the usual pattern.
//
// From Create to Close the entry is locked (a shared flock on its
// directory), first as a .tmp- directory, then under its ID: Prune never
// removes a locked entry, so neither a capture still being written, however
// slowly, nor the entry a run is about to name can be pruned.
type Entry struct {
	state          *privdir.Dir
	tmpName        string // "" once committed or closed
	tmp            *privdir.Dir
	release        func() // the entry's lock
	stdout, stderr *sink
	limit          int64
	total          atomic.Int64 // bytes of both streams, counted past the limit
}

// TooLargeError is an output larger than the store may hold in all
// (SHRINKRUN_KEEP_MB): keeping it would mean pruning everything else and
// then this entry too.
type TooLargeError struct{ Size, Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the output (%s) is larger than the %d MiB the store keeps (SHRINKRUN_KEEP_MB); raise SHRINKRUN_KEEP_MB to keep outputs this large",
		mib(e.Size), e.Limit>>20)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Create starts a new entry in a private temporary directory inside the
// state directory, so the final rename never crosses file systems. Writes
// beyond maxBytes in all are dropped, and Commit then reports a
// *TooLargeError.
func Create(state *privdir.Dir, maxBytes int64) (*Entry, error) {
	name, err := state.MkdirTemp(tmpPrefix)
	if err != nil {
		return nil, err
	}
	e := &Entry{state: state, tmpName: name, limit: maxBytes}
	if e.tmp, err = state.Sub(name, false); err == nil {
		e.release, err = e.tmp.Lock(false, false)
	}
	if err == nil {
		if e.stdout, err = e.newSink(stdoutName); err == nil {
			e.stderr, err = e.newSink(stderrName)
		}
	}
	if err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// Pending is an [Entry] created when it is first needed: by the first byte
// either stream writes, or by Commit. A run hands its writers to the
// capture before the child starts; the disk work of Create (the state
// directory, a directory, its lock, two files: about thirty system calls)
// then happens in the capture's reader while the child runs, not on the
// way to starting it. An output of no bytes creates its entry in Commit.
type Pending struct {
	once  sync.Once
	state func() (*privdir.Dir, error)
	limit int64
	e     *Entry
	err   error
}

// CreateLater returns a Pending entry that opens the state directory with
// state and calls Create when it is first written or committed.
func CreateLater(state func() (*privdir.Dir, error), maxBytes int64) *Pending {
	return &Pending{state: state, limit: maxBytes}
}

func (p *Pending) entry() (*Entry, error) {
	p.once.Do(func() {
		state, err := p.state()
		if err == nil {
			p.e, err = Create(state, p.limit)
		}
		p.err = err
	})
	return p.e, p.err
}

// Stdout returns the writer for the command's stdout, which creates the
// entry on its first write. Like an Entry's, its Write never fails: when
// the entry cannot be created, Commit reports why.
func (p *Pending) Stdout() io.Writer { return pendingWriter{p, (*Entry).Stdout} }

// Stderr returns the writer for the command's stderr; it behaves as Stdout.
func (p *Pending) Stderr() io.Writer { return pendingWriter{p, (*Entry).Stderr} }

type pendingWriter struct {
	p      *Pending
	stream func(*Entry) io.Writer
}

func (w pendingWriter) Write(b []byte) (int, error) {
	if e, err := w.p.entry(); err == nil {
		return w.stream(e).Write(b)
	}
	return len(b), nil
}

// Commit creates the entry if no write did, and commits it (Entry.Commit).
func (p *Pending) Commit(m Meta) (string, error) {
	e, err := p.entry()
	if err != nil {
		return "", err
	}
	return e.Commit(m)
}

// Close closes the entry, if it was created. Call it once the writers are
// no longer used.
func (p *Pending) Close() {
	p.once.Do(func() { p.err = errors.New("store: entry closed before use") })
	if p.e != nil {
		p.e.Close()
	}
}

// Stdout returns the writer for the command's stdout. Its Write never returns
// an error, so it can sit in an io.MultiWriter next to the capture buffer: a
// failure is kept for Commit to report and later writes are dropped.
func (e *Entry) Stdout() io.Writer { return e.stdout }

// Stderr returns the writer for the command's stderr; it behaves as Stdout.
func (e *Entry) Stderr() io.Writer { return e.stderr }

// Commit stores the output under its ID and returns the ID. It returns an
// error, and keeps nothing, when any write failed: a partial copy must never
// pass for the raw output. The entry stays locked until Close.
func (e *Entry) Commit(m Meta) (string, error) {
	if e.tmpName == "" {
		return "", errors.New("store: entry already committed or closed")
	}
	if err := errors.Join(e.stdout.close(), e.stderr.close()); err != nil {
		e.discard()
		return "", err
	}
	if total := e.total.Load(); total > e.limit {
		e.discard()
		return "", &TooLargeError{Size: total, Limit: e.limit}
	}
	meta := m.encode(e.stdout, e.stderr)
	if err := writeNew(e.tmp, metaName, meta); err != nil {
		e.discard()
		return "", err
	}
	id := entryID(meta)
	// A pruner that holds the existing entry's lock is removing it: its
	// name is free again in a moment.
	for try := 0; ; try++ {
		err := e.state.Rename(e.tmpName, id)
		if err == nil {
			e.tmpName = ""
			e.tmp.Close()
			return id, nil
		}
		if ok, rerr := e.reuse(id, meta); ok {
			return id, nil
		} else if try == 3 || !errors.Is(rerr, privdir.ErrLocked) {
			e.discard()
			return "", fmt.Errorf("cannot store it as %s: %w", id, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// reuse takes over the existing entry id when another run kept the same
// output: it locks the entry and compares its meta (which holds both
// hashes), so a hash collision or an entry that is not the user's is
// never named as ours. Refreshing the mtime restarts the entry's age; if
// that fails the output is still kept, only pruned sooner.
func (e *Entry) reuse(id string, meta []byte) (bool, error) {
	old, err := e.state.Sub(id, false)
	if err != nil {
		return false, err
	}
	defer old.Close()
	release, err := old.Lock(false, false)
	if err != nil {
		return false, err
	}
	if b, err := old.ReadFile(metaName); err != nil || !bytes.Equal(b, meta) {
		release()
		return false, errors.New("an entry of that name holds other output")
	}
	_ = e.state.Chtimes(id, time.Now())
	e.discard()
	e.release = release
	return true, nil
}

// discard removes the temporary directory and forgets it, keeping the
// lock until Close. Whatever cannot be removed now, Prune removes once it
// is stale.
func (e *Entry) discard() {
	e.stdout.close()
	e.stderr.close()
	if e.tmpName != "" {
		e.state.RemoveAll(e.tmpName)
		e.tmpName = ""
	}
	if e.tmp != nil {
		e.tmp.Close()
		e.tmp = nil
	}
}

// Close releases the entry: an entry not committed is discarded, and a
// committed one is unlocked, so it can be pruned from now on. It is safe
// to call more than once.
func (e *Entry) Close() {
	e.discard()
	if e.release != nil {
		e.release()
		e.release = nil
	}
}

func writeNew(d *privdir.Dir, name string, b []byte) error {
	f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	return errors.Join(werr, f.Close())
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
// catches the improbable collision. The name is predictable, which is why
// the directory must be the user's alone and why Open checks each entry.
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
	e   *Entry
	f   *os.File // nil once closed
	w   *bufio.Writer
	h   hash.Hash
	n   int64
	err error
}

// errFull stops a sink once the entry is past its limit; Commit reports
// the *TooLargeError.
var errFull = errors.New("store: entry past its limit")

func (e *Entry) newSink(name string) (*sink, error) {
	f, err := e.tmp.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	// The buffer turns small writes (line-buffered children, ptys) into few
	// syscalls; writes larger than it go straight to the file.
	return &sink{e: e, f: f, w: bufio.NewWriterSize(f, 64<<10), h: sha256.New()}, nil
}

func (s *sink) Write(p []byte) (int, error) {
	if s.e.total.Add(int64(len(p))) > s.e.limit && s.err == nil {
		s.err = errFull
	}
	if s.err == nil {
		_, s.err = s.w.Write(p)
		s.h.Write(p)
		s.n += int64(len(p))
	}
	return len(p), nil
}

// close flushes and closes the file and returns the first error of the
// stream's life, other than the limit (Commit checks that). It is nil-safe
// because Create may fail halfway.
func (s *sink) close() error {
	if s == nil {
		return nil
	}
	if s.f != nil {
		if s.err == nil {
			s.err = s.w.Flush()
		}
		if err := s.f.Close(); s.err == nil {
			s.err = err
		}
		s.f = nil
	}
	if s.err == errFull {
		return nil
	}
	return s.err
}

// Stored is one kept run, opened and checked.
type Stored struct {
	ID  string
	dir *privdir.Dir
}

// Open finds the entry id in the state directory. It accepts only IDs as
// Commit makes them (16 lowercase hex characters), so an ID from an
// untrusted source can never name a path outside the directory or a file
// of the store itself; and it refuses an entry that is a link, belongs to
// another user or that others may write.
func Open(state *privdir.Dir, id string) (*Stored, error) {
	if !validID(id) {
		return nil, fmt.Errorf("invalid output id %q: want the 16 lowercase hex characters the block prints", id)
	}
	d, err := state.Sub(id, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(state, id)
	} else if err != nil {
		return nil, err
	}
	return &Stored{ID: id, dir: d}, nil
}

// Path is the entry's directory, DIR/ID.
func (s *Stored) Path() string { return s.dir.Path() }

// Close releases the entry's descriptor.
func (s *Stored) Close() error { return s.dir.Close() }

// OpenStream opens the stored Stdout or Stderr, checked as Open checks the
// entry.
func (s *Stored) OpenStream(which Streams) (*os.File, error) {
	name := stdoutName
	if which == Stderr {
		name = stderrName
	}
	return s.dir.OpenFile(name, os.O_RDONLY, 0)
}

// Meta returns the entry's meta file.
func (s *Stored) Meta() ([]byte, error) { return s.dir.ReadFile(metaName) }

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

func notFound(state *privdir.Dir, id string) error {
	return fmt.Errorf("no stored output with id %s in %s (it may have been pruned): run the command again", id, state.Path())
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
func Copy(w io.Writer, state *privdir.Dir, id string, which Streams) error {
	s, err := Open(state, id)
	if err != nil {
		return err
	}
	defer s.Close()
	for _, part := range []Streams{Stdout, Stderr} {
		if which&part == 0 {
			continue
		}
		f, err := s.OpenStream(part)
		if errors.Is(err, fs.ErrNotExist) {
			return notFound(state, id) // pruned since Open
		} else if err != nil {
			return err
		}
		_, err = io.Copy(w, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
