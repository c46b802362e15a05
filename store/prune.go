package store

import (
	"cmp"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Default limits: a week covers a working session and its follow-ups, and
// 256 MiB is little disk yet holds thousands of typical runs.
const (
	DefaultMaxAge   = 7 * 24 * time.Hour
	DefaultMaxBytes = 256 << 20
)

const (
	// pruneInterval spaces out MaybePrune's directory scans.
	pruneInterval = time.Hour
	// staleTmp is how long a temporary directory may go unwritten before
	// Prune takes it for the leftover of a crashed run.
	staleTmp = time.Hour
)

// LimitsFromEnv reads SHRINKRUN_KEEP_DAYS and SHRINKRUN_KEEP_MB (MiB), both
// non-negative integers. An unset or malformed value gives the default rather
// than an error: a typo in a limit must not stop commands from running.
func LimitsFromEnv(getenv func(string) string) (maxAge time.Duration, maxBytes int64) {
	maxAge = time.Duration(envInt(getenv("SHRINKRUN_KEEP_DAYS"), int64(24*time.Hour), int64(DefaultMaxAge)))
	maxBytes = envInt(getenv("SHRINKRUN_KEEP_MB"), 1<<20, DefaultMaxBytes)
	return maxAge, maxBytes
}

// envInt returns s*unit, def when s is not a non-negative integer, and
// saturates instead of overflowing: a number too large for int64 means no
// limit as much as one whose product is.
func envInt(s string, unit, def int64) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-"):
		return math.MaxInt64
	case err != nil || n < 0:
		return def
	case n > math.MaxInt64/unit:
		return math.MaxInt64
	}
	return n * unit
}

// MaybePrune calls Prune at most once per hour, so a run normally pays one
// stat of the stamp file DIR/.pruned. The stamp is touched before pruning so
// that runs starting meanwhile skip it. A stamp dated in the future (a clock
// set back) does not count, or pruning could stop for as long.
func MaybePrune(dir string, maxAge time.Duration, maxBytes int64, now time.Time) error {
	stamp := filepath.Join(dir, stampName)
	fi, err := os.Stat(stamp)
	switch {
	case err == nil:
		if age := now.Sub(fi.ModTime()); age >= 0 && age < pruneInterval {
			return nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if err := touch(stamp, now); errors.Is(err, fs.ErrNotExist) {
		return nil // no store yet, nothing to prune
	} else if err != nil {
		return err
	}
	return Prune(dir, maxAge, maxBytes, now)
}

func touch(path string, t time.Time) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Chtimes(path, t, t)
}

// Prune removes the entries last saved more than maxAge before now, then the
// oldest ones until the entries total at most maxBytes, and the temporary
// directories of crashed runs. Entries and directories that vanish meanwhile
// (a concurrent Prune) are skipped; it stops at the first other error.
func Prune(dir string, maxAge time.Duration, maxBytes int64, now time.Time) error {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	type entry struct {
		name  string
		mtime time.Time
		size  int64
	}
	var entries []entry
	var total int64
	for _, de := range des {
		name := de.Name()
		path := filepath.Join(dir, name)
		switch {
		case strings.HasPrefix(name, tmpPrefix):
			if t, ok := lastWrite(path); ok && now.Sub(t) > staleTmp {
				if err := os.RemoveAll(path); err != nil {
					return err
				}
			}
		case validID(name) && de.IsDir():
			fi, err := de.Info()
			size, ok := entrySize(path)
			if err != nil || !ok {
				continue // vanished
			}
			entries = append(entries, entry{name, fi.ModTime(), size})
			total += size
		}
	}
	// Oldest first: every entry past maxAge comes before every younger one,
	// so one pass handles both limits.
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(a.mtime.Compare(b.mtime), strings.Compare(a.name, b.name))
	})
	for _, e := range entries {
		if now.Sub(e.mtime) <= maxAge && total <= maxBytes {
			break
		}
		if err := remove(dir, e.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		total -= e.size
	}
	return nil
}

// lastWrite returns the latest mtime of a temporary directory and its files:
// a capture that is still writing keeps its directory fresh however long the
// command runs. ok is false when the directory has gone (committed).
func lastWrite(path string) (t time.Time, ok bool) {
	des, err := os.ReadDir(path)
	if err != nil {
		return t, false
	}
	fi, err := os.Stat(path)
	if err != nil {
		return t, false
	}
	t = fi.ModTime()
	for _, de := range des {
		if fi, err := de.Info(); err == nil && fi.ModTime().After(t) {
			t = fi.ModTime()
		}
	}
	return t, true
}

// entrySize sums the sizes of an entry's files; ok is false when it has gone.
func entrySize(path string) (size int64, ok bool) {
	des, err := os.ReadDir(path)
	if err != nil {
		return 0, false
	}
	for _, de := range des {
		if fi, err := de.Info(); err == nil {
			size += fi.Size()
		}
	}
	return size, true
}

// remove deletes an entry atomically as far as readers and writers can tell:
// it first moves the entry into a fresh temporary directory, so no one ever
// sees half an entry, and a crash midway leaves only a .tmp- directory that
// a later Prune removes.
func remove(dir, name string) error {
	trash, err := os.MkdirTemp(dir, tmpPrefix+"*")
	if err != nil {
		return err
	}
	err = os.Rename(filepath.Join(dir, name), filepath.Join(trash, name))
	return errors.Join(err, os.RemoveAll(trash))
}
