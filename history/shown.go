package history

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/shrinkrun/shrinkrun/privdir"
)

// Blocks that were shown are kept in DIR/shown, named by the first 16 hex
// characters of their SHA-256, so gain can count the tokens an agent was
// actually given. Like the raw output, they are pruned by age.
const (
	stampName     = ".pruned" // its mtime is the last prune of DIR/shown
	pruneInterval = time.Hour
)

// ShownID returns the name a block is kept under.
func ShownID(block []byte) string {
	sum := sha256.Sum256(block)
	return hex.EncodeToString(sum[:8])
}

// validShownID reports whether id is a name KeepShown makes: 16 lowercase
// hex characters, so a record can never name another file.
func validShownID(id string) bool {
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

// KeepShown keeps block in dir and returns its id. A block kept before is
// not written again; its mtime is refreshed, which restarts its age. Once
// an hour it also removes the blocks older than maxAge.
//
// Concurrent writers of one block race on O_EXCL: the loser keeps the
// winner's file. A reader may find a file still being written, or cut short
// by a full disk; readers check the content against the id.
func KeepShown(dir *privdir.Dir, block []byte, maxAge time.Duration, now time.Time) (string, error) {
	id := ShownID(block)
	sd, err := dir.Sub(shownDir, true)
	if err != nil {
		return "", err
	}
	defer sd.Close()
	f, err := sd.OpenFile(id, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, fs.ErrExist):
		_ = sd.Chtimes(id, now)
	case err != nil:
		return "", err
	default:
		_, werr := f.Write(block)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			sd.Remove(id)
			return "", werr
		}
	}
	maybePruneShown(sd, maxAge, now)
	return id, nil
}

// maybePruneShown removes kept blocks older than maxAge, at most once per
// pruneInterval (one stat otherwise), as store.MaybePrune does for raw
// output.
func maybePruneShown(sd *privdir.Dir, maxAge time.Duration, now time.Time) {
	if fi, err := sd.Lstat(stampName); err == nil && fi.Mode().IsRegular() {
		if age := now.Sub(fi.ModTime()); age >= 0 && age < pruneInterval {
			return
		}
	}
	if sd.Touch(stampName, now) != nil {
		return
	}
	pruneShown(sd, maxAge, now)
}

// pruneShown removes the blocks in sd last kept more than maxAge before now.
func pruneShown(sd *privdir.Dir, maxAge time.Duration, now time.Time) {
	des, err := sd.ReadDir()
	if err != nil {
		return
	}
	for _, de := range des {
		if !validShownID(de.Name()) {
			continue
		}
		if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > maxAge {
			sd.Remove(de.Name())
		}
	}
}

// ReadShown returns the kept block id, or ok false when it is gone, is
// refused (a link, another user's) or its content does not match its name
// (a write still in progress or cut short).
func ReadShown(dir *privdir.Dir, id string) ([]byte, bool) {
	if !validShownID(id) {
		return nil, false
	}
	sd, err := dir.Sub(shownDir, false)
	if err != nil {
		return nil, false
	}
	defer sd.Close()
	b, err := sd.ReadFile(id)
	if err != nil || ShownID(b) != id {
		return nil, false
	}
	return b, true
}
