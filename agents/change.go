package agents

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Change is a planned edit of one settings file. Plan it with Install or
// Uninstall, show it, then Apply it (or not, for --dry-run).
type Change struct {
	Path    string // the file, symlinks resolved, so a dotfiles link stays a link
	Existed bool
	Old     []byte // the file as it is
	New     []byte // the file as it will be; nil deletes it
	// Backup is written with Old before the file changes (install), or
	// removed once the file is restored from it (uninstall).
	Backup       string
	RemoveBackup bool
	// Note says what happens, in a sentence.
	Note string
	// KeepDir keeps the file's directory when the file is removed: a shell
	// startup file lives in the home directory, which is not the agent's.
	KeepDir bool
}

// Changed reports whether applying c would touch the file.
func (c *Change) Changed() bool {
	return c.New == nil && c.Existed || c.New != nil && (!c.Existed || !bytes.Equal(c.New, c.Old))
}

// read resolves symlinks and reads a settings file that may not exist.
func read(path string) (string, []byte, bool, error) {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil, false, nil
	}
	return path, data, err == nil, err
}

// Install plans adding the hook that runs bin to the settings file at path.
func (a *Agent) Install(path, bin string) (*Change, error) {
	if a.Refused != "" {
		return nil, errors.New(a.Refused)
	}
	path, old, existed, err := read(path)
	if err != nil {
		return nil, err
	}
	c := &Change{Path: path, Existed: existed, Old: old}
	c.New, err = a.added(old, bin)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if !c.Changed() {
		c.New = old
		c.Note = "already installed in " + path
		return c, nil
	}
	backup := path + BackupSuffix
	switch {
	case !existed:
		c.Note = fmt.Sprintf("created %s with the %s %s", path, a.Name, a.Route())
	case a.hasHook(old):
		// Re-pointing the hook at another binary. The file is not the one
		// from before shrinkrun, so it is no backup: the backup, when there
		// is one, already holds that file, and without one (a file init
		// created) uninstall removes the file.
		c.Note = fmt.Sprintf("pointed the %s %s in %s at %s", a.Name, a.Route(), path, bin)
	default:
		c.Backup = backup
		c.Note = fmt.Sprintf("added the %s %s to %s (the file as it was is kept in %s)", a.Name, a.Route(), path, backup)
	}
	return c, nil
}

// Uninstall plans removing every shrinkrun hook of this agent from path.
// When the file is still exactly what Install made of the backup (or of no
// file), the backup comes back byte for byte (or the file goes);
// otherwise only the hook entries are cut out, and the backup stays.
func (a *Agent) Uninstall(path string) (*Change, error) {
	path, old, existed, err := read(path)
	if err != nil {
		return nil, err
	}
	c := &Change{Path: path, Existed: existed, Old: old, New: old}
	if !existed {
		c.Note = "no " + path
		return c, nil
	}
	root, err := parseSettings(old)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	found := a.find(root)
	if len(found) == 0 {
		c.Note = "no shrinkrun " + a.Route() + " in " + path
		return c, nil
	}
	backup := path + BackupSuffix
	saved, err := os.ReadFile(backup)
	switch {
	case err == nil && a.madeFrom(saved, found[0].Bin, old):
		c.New, c.Backup, c.RemoveBackup = saved, backup, true
		c.Note = "restored " + path + " from " + backup
		return c, nil
	case errors.Is(err, fs.ErrNotExist) && a.madeFrom(nil, found[0].Bin, old):
		c.New = nil
		c.Note = "removed " + path + ", which shrinkrun had created"
		return c, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if c.New, err = a.removed(old); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	c.Note = "removed the shrinkrun " + a.Route() + " from " + path
	if saved != nil {
		c.Note += " (the file changed since the hook was added, so " + backup + " is kept)"
	}
	return c, nil
}

// hasHook reports whether a settings file's text holds a shrinkrun hook.
func (a *Agent) hasHook(src []byte) bool {
	root, err := parseSettings(src)
	return err == nil && len(a.find(root)) > 0
}

// madeFrom reports whether Install, given orig, would have written cur.
func (a *Agent) madeFrom(orig []byte, bin string, cur []byte) bool {
	if orig != nil && a.hasHook(orig) {
		return false
	}
	made, err := a.added(orig, bin)
	return err == nil && bytes.Equal(made, cur)
}

// Apply carries out a planned change: backup first, then the file, each
// written to a temporary file in the same directory and renamed over, so a
// reader sees the old file or the new one, never half of one.
func (c *Change) Apply() error {
	if !c.Changed() {
		return nil
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(c.Path); err == nil {
		mode = fi.Mode().Perm()
	}
	if c.Backup != "" && !c.RemoveBackup {
		if err := writeAtomic(c.Backup, c.Old, mode); err != nil {
			return fmt.Errorf("backup not written, %s left unchanged: %v", c.Path, err)
		}
	}
	if c.New == nil {
		if err := os.Remove(c.Path); err != nil {
			return err
		}
		// The agent's directory goes too if it is left empty (it was made
		// for this file); Remove refuses a directory that is not empty.
		if !c.KeepDir {
			_ = os.Remove(filepath.Dir(c.Path))
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
			return err
		}
		if err := writeAtomic(c.Path, c.New, mode); err != nil {
			return err
		}
	}
	if c.RemoveBackup {
		return os.Remove(c.Backup)
	}
	return nil
}

func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
