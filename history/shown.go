package history

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
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

// ShownPath returns where the block id is kept, or "" for an id that is not
// 16 lowercase hex characters (so a record can never name another file).
func ShownPath(dir, id string) string {
	if len(id) != 16 {
		return ""
	}
	for _, c := range []byte(id) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ""
		}
	}
	return filepath.Join(dir, shownDir, id)
}

// KeepShown keeps block in dir and returns its id. A block kept before is
// not written again; its mtime is refreshed, which restarts its age. Once
// an hour it also removes the blocks older than maxAge.
//
// Concurrent writers of one block race on O_EXCL: the loser keeps the
// winner's file. A reader may find a file still being written, or cut short
// by a full disk; readers check the content against the id.
func KeepShown(dir string, block []byte, maxAge time.Duration, now time.Time) (string, error) {
	id := ShownID(block)
	sd := filepath.Join(dir, shownDir)
	path := filepath.Join(sd, id)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(sd, 0o700); err == nil {
			f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		}
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		_ = os.Chtimes(path, now, now)
	case err != nil:
		return "", err
	default:
		_, werr := f.Write(block)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(path)
			return "", werr
		}
	}
	maybePruneShown(sd, maxAge, now)
	return id, nil
}

// maybePruneShown removes kept blocks older than maxAge, at most once per
// pruneInterval (one stat otherwise), as store.MaybePrune does for raw
// output.
func maybePruneShown(sd string, maxAge time.Duration, now time.Time) {
	stamp := filepath.Join(sd, stampName)
	if fi, err := os.Stat(stamp); err == nil {
		if age := now.Sub(fi.ModTime()); age >= 0 && age < pruneInterval {
			return
		}
	}
	f, err := os.OpenFile(stamp, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	f.Close()
	_ = os.Chtimes(stamp, now, now)
	pruneShown(sd, maxAge, now)
}

// pruneShown removes the blocks in sd last kept more than maxAge before now.
func pruneShown(sd string, maxAge time.Duration, now time.Time) {
	des, err := os.ReadDir(sd)
	if err != nil {
		return
	}
	for _, de := range des {
		if ShownPath("", de.Name()) == "" {
			continue
		}
		if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > maxAge {
			os.Remove(filepath.Join(sd, de.Name()))
		}
	}
}

// ReadShown returns the kept block id, or ok false when it is gone or its
// content does not match its name (a write still in progress or cut short).
func ReadShown(dir, id string) ([]byte, bool) {
	p := ShownPath(dir, id)
	if p == "" {
		return nil, false
	}
	b, err := os.ReadFile(p)
	if err != nil || ShownID(b) != id {
		return nil, false
	}
	return b, true
}
