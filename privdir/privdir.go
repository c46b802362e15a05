// Package privdir opens a directory that no one but the current user can
// change, and the files in it without following symbolic links.
//
// shrinkrun keeps raw output and its history in a state directory that it
// later reads back and appends to. Whoever else can write there could plant
// an entry that `shrinkrun show` prints, or a symbolic link that turns an
// append into a write to another file. A [Dir] is opened once, as a
// descriptor, and checked through that descriptor: owned by the user and
// writable by no one else. Every name inside it is then resolved relative
// to that descriptor, one component at a time, and what was opened is
// checked again: a symbolic link, a file of another user or a file others
// may write is refused. The threat model is in docs/reliability.md.
package privdir

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Dir is a directory checked to be the user's alone. Its methods take the
// name of one entry in it, never a path.
type Dir struct {
	root *os.Root
	path string
}

// UnsafeError is a directory or file that others could have changed, or
// that is not what its name says. Its message says what is wrong and what
// to do about it.
type UnsafeError struct {
	Path string
	Why  string // what is wrong, e.g. "is a symbolic link"
	Fix  string // what to do, e.g. "remove it"
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("%s %s: %s", e.Path, e.Why, e.Fix)
}

// Open opens the directory at path, creating it and its missing parents
// (mode 0700) when create is true, and checks it. A symbolic link naming
// the directory itself is followed: it is the user's own choice of where
// the state lives, and the directory it leads to is checked all the same.
func Open(path string, create bool) (*Dir, error) {
	if err := Supported(); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(path)
	if err != nil && create {
		if err := os.MkdirAll(path, 0o700); err != nil {
			return nil, createError(path, err)
		}
		root, err = os.OpenRoot(path)
	}
	if err != nil {
		return nil, err
	}
	fi, err := root.Stat(".")
	if err == nil {
		err = check(path, fi, true, "use a directory of your own (set SHRINKRUN_STATE_DIR)")
	}
	if err != nil {
		root.Close()
		return nil, err
	}
	return &Dir{root: root, path: path}, nil
}

// createError words a failed MkdirAll as the user would: which directory
// could not be made, and why.
func createError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		path, err = pe.Path, pe.Err
	}
	return &CreateError{Path: path, Err: err}
}

// CreateError is a state directory that could not be made.
type CreateError struct {
	Path string
	Err  error
}

func (e *CreateError) Error() string {
	return fmt.Sprintf("cannot create %s: %v; set SHRINKRUN_STATE_DIR to a directory you can write", e.Path, e.Err)
}

func (e *CreateError) Unwrap() error { return e.Err }

// Path is the directory's path, for messages and for the user.
func (d *Dir) Path() string { return d.path }

// Close releases the directory's descriptor.
func (d *Dir) Close() error { return d.root.Close() }

func (d *Dir) join(name string) string { return d.path + string(os.PathSeparator) + name }

// checkName refuses anything but one plain entry name: no separator, no
// "." or "..".
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') || strings.ContainsRune(name, os.PathSeparator) {
		return fmt.Errorf("privdir: %q is not a name in a directory", name)
	}
	return nil
}

// Sub opens the subdirectory name, creating it (0700) when create is true
// and it does not exist, and checks it as Open does. A symbolic link is
// refused.
func (d *Dir) Sub(name string, create bool) (*Dir, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	li, err := d.root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := d.root.Mkdir(name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("cannot create %s: %w", d.join(name), unwrap(err))
		}
		li, err = d.root.Lstat(name)
	}
	if err != nil {
		return nil, err
	}
	if li.Mode()&fs.ModeSymlink != 0 {
		return nil, errLink(d.join(name))
	}
	sub, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, d.linkError(name, err)
	}
	fi, err := sub.Stat(".")
	if err == nil && !os.SameFile(li, fi) {
		err = &UnsafeError{d.join(name), "changed while it was being opened", "try again"}
	}
	if err == nil {
		err = check(d.join(name), fi, true, "remove it")
	}
	if err != nil {
		sub.Close()
		return nil, err
	}
	return &Dir{root: sub, path: d.join(name)}, nil
}

// OpenFile opens the file name as os.OpenFile does, and refuses it unless
// it is a regular file, reached without a symbolic link, owned by the user
// and writable by no one else. With O_CREATE|O_EXCL it never follows a
// link and never opens an existing file.
//
// os.Root opens each component with O_NOFOLLOW but resolves a link that
// stays inside the directory itself; OpenFile compares what it opened with
// the entry the name holds before and after, and refuses a link. A name
// replaced meanwhile (the history rotated by another run) is opened again.
func (d *Dir) OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL {
		// A new file: os.Root never follows a link for it, so there is
		// no name to compare with.
		f, err := d.root.OpenFile(name, flag|noFollow, perm)
		if err != nil {
			return nil, d.linkError(name, err)
		}
		fi, err := f.Stat()
		if err == nil {
			err = check(d.join(name), fi, false, "remove it")
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	for range 3 {
		before, lerr := d.root.Lstat(name)
		if lerr == nil && before.Mode()&fs.ModeSymlink != 0 {
			return nil, errLink(d.join(name))
		}
		f, err := d.root.OpenFile(name, flag|noFollow, perm)
		if err != nil {
			return nil, d.linkError(name, err)
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if lerr != nil || !os.SameFile(before, fi) {
			after, err := d.root.Lstat(name)
			if err == nil && after.Mode()&fs.ModeSymlink != 0 {
				f.Close()
				return nil, errLink(d.join(name))
			}
			if err != nil || !os.SameFile(after, fi) {
				f.Close()
				continue
			}
		}
		if err := check(d.join(name), fi, false, "remove it"); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	return nil, &UnsafeError{d.join(name), "kept changing while it was being opened", "try again"}
}

// ReadFile reads the file name, checked as OpenFile checks it.
func (d *Dir) ReadFile(name string) ([]byte, error) {
	f, err := d.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// linkError names a symbolic link for what it is when opening name failed
// (os.Root refuses a link that leads out of the directory as a path that
// escapes): the user's terms, not the resolver's.
func (d *Dir) linkError(name string, err error) error {
	if errors.Is(err, fs.ErrExist) || errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if li, lerr := d.root.Lstat(name); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
		return errLink(d.join(name))
	}
	return err
}

func errLink(path string) error {
	return &UnsafeError{path, "is a symbolic link", "shrinkrun does not follow links in its state directory; remove it"}
}

// Lstat describes the entry name without following a link.
func (d *Dir) Lstat(name string) (fs.FileInfo, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return d.root.Lstat(name)
}

// ReadDir lists the directory, sorted by name.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	des, err := f.ReadDir(-1)
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return des, err
}

// Mkdir creates the directory name (0700); it fails if name exists.
func (d *Dir) Mkdir(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	return d.root.Mkdir(name, 0o700)
}

// MkdirTemp creates a new directory (0700) whose name is prefix followed by
// random characters, and returns the name.
func (d *Dir) MkdirTemp(prefix string) (string, error) {
	return tempName(d, prefix, func(name string) error { return d.Mkdir(name) })
}

// CreateTemp creates a new file (0600) whose name is prefix followed by
// random characters, opened for writing, and returns it with its name.
func (d *Dir) CreateTemp(prefix string) (*os.File, string, error) {
	var f *os.File
	name, err := tempName(d, prefix, func(name string) (err error) {
		f, err = d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		return err
	})
	return f, name, err
}

// tempName calls create with fresh random names until one is not taken.
func tempName(d *Dir, prefix string, create func(name string) error) (string, error) {
	for range 100 {
		var b [8]byte
		rand.Read(b[:])
		name := prefix + hex.EncodeToString(b[:])
		err := create(name)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("cannot create a file in %s: %w", d.path, unwrap(err))
		}
	}
	return "", fmt.Errorf("cannot create a file in %s: too many names taken", d.path)
}

// Rename renames the entry oldname to newname, both in d. Neither name is
// followed if it is a link: rename(2) acts on the entries themselves.
func (d *Dir) Rename(oldname, newname string) error {
	if err := errors.Join(checkName(oldname), checkName(newname)); err != nil {
		return err
	}
	return d.root.Rename(oldname, newname)
}

// RemoveAll removes the entry name and what it holds, never following a
// link out of it.
func (d *Dir) RemoveAll(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	return d.root.RemoveAll(name)
}

// Remove removes the file or empty directory name.
func (d *Dir) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	return d.root.Remove(name)
}

// Touch sets the modification time of the file name, creating it (0600)
// when missing. A link there is refused, not followed.
func (d *Dir) Touch(name string, t time.Time) error {
	f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return d.Chtimes(name, t)
}

// Chtimes sets the access and modification times of the entry name
// (utimensat with AT_SYMLINK_NOFOLLOW): a link is changed itself, never
// its target.
func (d *Dir) Chtimes(name string, t time.Time) error {
	if err := checkName(name); err != nil {
		return err
	}
	return d.root.Chtimes(name, t, t)
}

// unwrap drops the *PathError around an error from os.Root, whose path is
// relative to the root and would mislead in a message.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// euid is the user whose files these must be, asked of the kernel once.
var euid = sync.OnceValue(os.Geteuid)

// check refuses what others could have changed: not a directory (dir) or
// regular file, owned by another user, or writable by group or others. A
// directory others can write is refused even with the sticky bit: they
// could still add entries to it.
func check(path string, fi fs.FileInfo, dir bool, fix string) error {
	switch {
	case dir && !fi.IsDir():
		return &UnsafeError{path, "is not a directory", fix}
	case !dir && !fi.Mode().IsRegular():
		return &UnsafeError{path, "is not a regular file", fix}
	}
	if uid, ok := owner(fi); ok && uid != euid() {
		return &UnsafeError{path, fmt.Sprintf("belongs to another user (uid %d)", uid), fix}
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return &UnsafeError{path, fmt.Sprintf("is writable by other users (mode %04o)", perm),
			fmt.Sprintf("make it private with chmod go-w %s, or %s", path, fix)}
	}
	return nil
}

// ErrLocked is Lock's answer when another descriptor holds a conflicting
// lock and Lock was told not to wait.
var ErrLocked = errors.New("privdir: locked")

// Lock takes an flock(2) lock on the directory through a descriptor of its
// own: shared, or exclusive against every other holder (in this process or
// another). Without wait it returns ErrLocked at once if it would block.
// The lock lasts until release is called or the process exits, whatever
// happens to the directory's name meanwhile, and no clock is involved: a
// process that holds it is alive.
func (d *Dir) Lock(exclusive, wait bool) (release func(), err error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, err
	}
	if err := flock(f, exclusive, wait); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
