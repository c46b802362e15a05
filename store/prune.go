package store

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/setting"
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
	// tmpGrace is how old an unlocked temporary directory must be before
	// Prune removes it: the moment between a run creating its directory
	// and locking it, or a pruner's own trash being removed.
	tmpGrace = time.Minute
)

// LimitsFromEnv reads SHRINKRUN_KEEP_DAYS and SHRINKRUN_KEEP_MB (MiB), both
// non-negative integers. An unset or malformed value gives the default rather
// than an error: a typo in a limit must not stop commands from running.
func LimitsFromEnv(getenv func(string) string) (maxAge time.Duration, maxBytes int64) {
	maxAge = time.Duration(envInt(getenv("SHRINKRUN_KEEP_DAYS"), int64(24*time.Hour), int64(DefaultMaxAge)))
	maxBytes = envInt(getenv("SHRINKRUN_KEEP_MB"), 1<<20, DefaultMaxBytes)
	return maxAge, maxBytes
}

// envInt returns s*unit, def when s is not a non-negative integer
// (setting.Count), and saturates instead of overflowing: a number too large
// for int64 means no limit as much as one whose product is.
func envInt(s string, unit, def int64) int64 {
	n, ok := setting.Count(s)
	switch {
	case !ok:
		return def
	case n > math.MaxInt64/unit:
		return math.MaxInt64
	}
	return n * unit
}

// MaybePrune calls Prune at most once per hour, so a run normally pays one
// stat of the stamp file DIR/.pruned. The stamp is touched before pruning so
// that runs starting meanwhile skip it. A stamp dated in the future (a clock
// set back) does not count, or pruning could stop for as long. A stamp that
// is a link is refused, not followed, and nothing is pruned.
func MaybePrune(state *privdir.Dir, maxAge time.Duration, maxBytes int64, now time.Time) error {
	fi, err := state.Lstat(stampName)
	switch {
	case err == nil:
		if age := now.Sub(fi.ModTime()); fi.Mode().IsRegular() && age >= 0 && age < pruneInterval {
			return nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if err := state.Touch(stampName, now); err != nil {
		return err
	}
	return Prune(state, maxAge, maxBytes, now)
}

// Prune removes the entries last saved more than maxAge before now, then the
// oldest ones until the entries total at most maxBytes, and the temporary
// directories of crashed runs. It never removes a locked entry or temporary
// directory: one a run is writing or is about to name (see Entry). Entries
// and directories that vanish meanwhile (a concurrent Prune) are skipped,
// and so are entries it refuses to open (another user's); it stops at the
// first other error.
func Prune(state *privdir.Dir, maxAge time.Duration, maxBytes int64, now time.Time) error {
	des, err := state.ReadDir()
	if err != nil {
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
		switch {
		case strings.HasPrefix(name, tmpPrefix) && de.IsDir():
			if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > tmpGrace {
				if err := removeUnlocked(state, name, false); err != nil {
					return err
				}
			}
		case validID(name) && de.IsDir():
			fi, err := de.Info()
			size, ok := entrySize(state, name)
			if err != nil || !ok {
				continue // vanished, or not the user's
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
		if err := removeUnlocked(state, e.name, true); errors.Is(err, privdir.ErrLocked) {
			continue // a run is naming it; it still counts towards the total
		} else if err != nil {
			return err
		}
		total -= e.size
	}
	return nil
}

// entrySize sums the sizes of an entry's files; ok is false when it has gone
// or is refused.
func entrySize(state *privdir.Dir, name string) (size int64, ok bool) {
	d, err := state.Sub(name, false)
	if err != nil {
		return 0, false
	}
	defer d.Close()
	des, err := d.ReadDir()
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

// removeUnlocked deletes the entry or temporary directory name unless a
// run holds its lock (then ErrLocked; for a temporary directory, nil). The
// exclusive lock is held while it goes, so no run can start naming it
// meanwhile. An entry is first moved into a fresh temporary directory, so
// no one ever sees half an entry, and a crash midway leaves only a .tmp-
// directory that a later Prune removes (the random name cannot be taken:
// a rename onto an empty directory would replace it). A name that has
// vanished, or that is refused (another user's), is skipped.
func removeUnlocked(state *privdir.Dir, name string, entry bool) error {
	d, err := state.Sub(name, false)
	if err != nil {
		return nil
	}
	defer d.Close()
	release, err := d.Lock(true, false)
	if errors.Is(err, privdir.ErrLocked) && !entry {
		return nil
	} else if err != nil {
		return err
	}
	defer release()
	if !entry {
		return ignoreGone(state.RemoveAll(name))
	}
	var b [8]byte
	rand.Read(b[:])
	trash := tmpPrefix + hex.EncodeToString(b[:])
	if err := state.Rename(name, trash); err != nil {
		return ignoreGone(err)
	}
	return ignoreGone(state.RemoveAll(trash))
}

func ignoreGone(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
