// Package layers finds the rule files that apply to a command and reads
// them with the care shrinkrun gives every file it must not be tricked
// into reading: the user's rules ($XDG_CONFIG_HOME/shrinkrun/rules, by
// default ~/.config/shrinkrun/rules), which always apply, and the
// project's (.shrinkrun/rules at the root of the repository the command
// runs in), which apply only while the user has trusted their exact
// content (Trust, kept in the state directory). A cloned repository can
// propose rules; only the user can make them change what an agent is
// shown.
//
// Both directories, and every file in them, are opened as package privdir
// opens the state directory: owned by the user, writable by no one else,
// no symbolic link followed. A file is stat'ed before it is read and
// refused above declare.MaxFileBytes; a directory holds at most MaxFiles
// rule files. Nothing here stops a command: a file that does not load, is
// not trusted or changed since it was is reported (File.Problem) and left
// out.
package layers

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode"

	"github.com/shrinkrun/shrinkrun/privdir"
	"github.com/shrinkrun/shrinkrun/rules/declare"
)

// Layer says where a rule file was found.
type Layer int

const (
	User    Layer = iota // the user's rules directory
	Project              // the repository's .shrinkrun/rules
)

func (l Layer) String() string {
	if l == Project {
		return "project"
	}
	return "user"
}

// MaxFiles bounds the rule files read from one directory.
const MaxFiles = 64

// maxDepth bounds the walk up from the working directory to the
// repository's root.
const maxDepth = 64

// State says whether a file's rule applies.
type State int

const (
	Applied   State = iota
	NotLoaded       // unreadable, refused, or not a rule (File.Err)
	Untrusted       // a project file the user never trusted
	Changed         // a project file whose content is not what the user trusted
)

// File is one rule file found.
type File struct {
	Layer Layer
	Path  string
	State State
	Rule  *declare.Rule // set when the file loads, applied or not
	Hash  string        // the SHA-256 of its bytes, hex
	Err   error         // why it did not load
}

// Problem is the one line that says why a file does not apply, "" when it
// does. A file's name is the repository's to choose: its control
// characters (a newline, an escape) are shown escaped, so that a name
// cannot forge lines on the stderr an agent reads.
func (f File) Problem() string {
	switch f.State {
	case NotLoaded:
		return Printable(fmt.Sprintf("rule file %v; it does not apply", f.Err))
	case Untrusted:
		return Printable(fmt.Sprintf("project rule file %s is not trusted, so it does not apply (shrinkrun trust applies it)", f.Path))
	case Changed:
		return Printable(fmt.Sprintf("project rule file %s changed since you trusted it, so it no longer applies (shrinkrun trust applies it again)", f.Path))
	}
	return ""
}

// Printable escapes the control characters of s as a Go string literal
// shows them (\n, \x1b), for a line that names files a repository holds.
func Printable(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// Set is every rule file found for a working directory.
type Set struct {
	UserDir string // the user's rules directory ("" when HOME is unknown)
	Root    string // the repository's root ("" outside a repository)
	Files   []File // the project's, then the user's, each by name
}

// Rules returns the rules that apply, in the order they are asked: the
// project's before the user's, as package rules' Declare takes them.
func (s Set) Rules() []*declare.Rule {
	var rs []*declare.Rule
	for _, f := range s.Files {
		if f.State == Applied {
			rs = append(rs, f.Rule)
		}
	}
	return rs
}

// UserDir is the user's rules directory: $XDG_CONFIG_HOME/shrinkrun/rules
// when XDG_CONFIG_HOME is absolute (the XDG spec ignores a relative one),
// else $HOME/.config/shrinkrun/rules; "" when neither is known.
func UserDir(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "shrinkrun", "rules")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "shrinkrun", "rules")
	}
	return ""
}

// ProjectDir is the directory of a repository's rules.
func ProjectDir(root string) string { return filepath.Join(root, ".shrinkrun", "rules") }

// RepoRoot returns the repository dir is in: the nearest of dir and its
// parents (at most maxDepth of them) that holds a .git entry (a directory,
// or the file of a worktree or submodule); "" when there is none.
func RepoRoot(dir string) string {
	for range maxDepth {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	return ""
}

// Find finds the rule files for a command run in the working directory wd
// (absolute): the project's, judged against the trust store (read by
// trust, only when the project has rule files), then the user's. Without
// rule files it costs a few stats: the walk to the repository's root, and
// one for each rules directory.
func Find(wd string, getenv func(string) string, trust func() Trust) Set {
	s := Set{UserDir: UserDir(getenv)}
	if wd != "" {
		s.Root = RepoRoot(wd)
	}
	if s.Root != "" {
		var t Trust
		pinned := func(path string) bool {
			if t == nil {
				t = trust()
			}
			_, ok := t[path]
			return ok
		}
		for _, f := range readProject(s.Root, pinned) {
			if f.State == Applied && t[f.Path] != f.Hash {
				f.State = Changed
			}
			s.Files = append(s.Files, f)
		}
	}
	if s.UserDir != "" {
		s.Files = append(s.Files, read(s.UserDir, User, nil)...)
	}
	return s
}

// read reads the rule files of dir, in name order. A missing directory
// has none (a file where a parent directory would be too: HOME pointing
// at a file); one that cannot be used is one file that does not load.
// What is not a directory is refused before it is opened: opening a FIFO
// would wait for a writer for ever.
//
// pinned, when not nil, says whether a file is to be read at all: one it
// refuses is listed Untrusted, unread.
func read(dir string, layer Layer, pinned func(path string) bool) []File {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil
	}
	if err == nil && !fi.IsDir() {
		err = &privdir.UnsafeError{Path: dir, Why: "is not a directory", Fix: "remove it"}
	}
	var d *privdir.Dir
	if err == nil {
		d, err = privdir.Open(dir, false)
	}
	if err != nil {
		return []File{{Layer: layer, Path: dir, State: NotLoaded, Err: err}}
	}
	defer d.Close()
	des, err := d.ReadDir()
	if err != nil {
		return []File{{Layer: layer, Path: dir, State: NotLoaded, Err: err}}
	}
	var files []File
	for _, de := range des {
		name := de.Name()
		if !strings.HasSuffix(name, ".toml") || strings.HasPrefix(name, ".") {
			continue
		}
		f := File{Layer: layer, Path: filepath.Join(dir, name)}
		if len(files) == MaxFiles {
			f.State, f.Err = NotLoaded, &declare.Error{Source: f.Path, Msg: fmt.Sprintf("more than %d rule files in %s: the rest are not read", MaxFiles, dir)}
			files = append(files, f)
			break
		}
		if pinned != nil && !pinned(f.Path) {
			f.State = Untrusted
			files = append(files, f)
			continue
		}
		f.Rule, f.Hash, f.Err = load(d, name, f.Path)
		if f.Err != nil {
			f.State = NotLoaded
		}
		files = append(files, f)
	}
	return files
}

// load reads the rule file name of d, refusing it before reading when it
// is too large, and parses it.
func load(d *privdir.Dir, name, path string) (*declare.Rule, string, error) {
	src, err := readFile(d, name, path, "a rule file", declare.MaxFileBytes)
	if err != nil {
		var de *declare.Error
		var ue *privdir.UnsafeError
		if !errors.As(err, &de) && !errors.As(err, &ue) {
			err = &declare.Error{Source: path, Msg: unwrapPath(err).Error()}
		}
		return nil, "", err
	}
	sum := sha256.Sum256(src)
	hash := hex.EncodeToString(sum[:])
	r, err := declare.Parse(name, path, src)
	return r, hash, err
}

// readFile reads the file name of d (kind says what it is, for messages),
// at most max bytes, as privdir checks
// a file (the user's, writable by no one else, no link followed), and
// refuses what is not a regular file or is larger before reading it. A
// FIFO or a device is never opened for reading: the open is non-blocking
// for the moment between the check and the open.
func readFile(d *privdir.Dir, name, path, kind string, max int64) ([]byte, error) {
	fi, err := d.Lstat(name)
	switch {
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, &privdir.UnsafeError{Path: path, Why: "is a symbolic link", Fix: "shrinkrun does not follow links to rule files; remove it"}
	case !fi.Mode().IsRegular():
		return nil, &privdir.UnsafeError{Path: path, Why: "is not a regular file", Fix: "remove it"}
	case fi.Size() > max:
		return nil, &declare.Error{Source: path, Msg: fmt.Sprintf("%d bytes: %s holds at most %d", fi.Size(), kind, max)}
	}
	f, err := d.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(src)) > max {
		err = &declare.Error{Source: path, Msg: fmt.Sprintf("more than %d bytes: %s holds at most %d", max, kind, max)}
	}
	return src, err
}

// unwrapPath drops a *PathError's path, which the caller names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// noticeName names a notice by the SHA-256 of its key.
func noticeName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

// ReadProject reads the rule files of the repository at root, whatever
// the trust store says: what shrinkrun trust shows and pins. Their paths,
// which the trust store is keyed by, start with the repository's path
// without a symbolic link, so a file is trusted however the working
// directory was reached; a link inside the repository is not resolved, so
// a repository cannot borrow another's trust by linking to its files.
//
// Neither .shrinkrun nor its rules directory may be a link: what a
// repository holds is read, never what it points at.
func ReadProject(root string) []File { return readProject(root, nil) }

// readProject is ReadProject; pinned, when not nil, names the files to
// read: the others are Untrusted, and not read (Find: a cloned
// repository's rule files cost a command only their names).
func readProject(root string, pinned func(path string) bool) []File {
	dir := ProjectDir(root)
	if missing, err := CheckProject(root, false); missing {
		return nil
	} else if err != nil {
		var ue *privdir.UnsafeError
		path := dir
		if errors.As(err, &ue) {
			path = ue.Path
		}
		return []File{{Layer: Project, Path: path, State: NotLoaded, Err: err}}
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		dir = ProjectDir(real)
	}
	return read(dir, Project, pinned)
}

// CheckProject checks the repository's .shrinkrun and its rules directory
// before anything in them is read or written: each must be a directory of
// the repository, not a link to one elsewhere (nor a FIFO, which opening
// would wait on). missing is true when one does not exist; create makes
// them (0700) instead.
func CheckProject(root string, create bool) (missing bool, err error) {
	for _, p := range []string{filepath.Join(root, ".shrinkrun"), ProjectDir(root)} {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) && create {
			if err = os.Mkdir(p, 0o700); err == nil || errors.Is(err, fs.ErrExist) {
				fi, err = os.Lstat(p)
			}
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return true, nil
		case err != nil:
			return false, err
		case fi.Mode()&fs.ModeSymlink != 0:
			return false, &privdir.UnsafeError{Path: p, Why: "is a symbolic link", Fix: "shrinkrun reads and writes a repository's rule files only in a directory of its own; make it one"}
		case !fi.IsDir():
			return false, &privdir.UnsafeError{Path: p, Why: "is not a directory", Fix: "remove it"}
		}
	}
	return false, nil
}

// HashFile returns the SHA-256 (hex) of the file at path, read as a rule
// file is: through its directory, checked, not following a link.
func HashFile(path string) (string, error) {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return "", &privdir.UnsafeError{Path: dir, Why: "is not a directory", Fix: "remove it"}
	}
	d, err := privdir.Open(dir, false)
	if err != nil {
		return "", err
	}
	defer d.Close()
	src, err := readFile(d, filepath.Base(path), path, "a rule file", declare.MaxFileBytes)
	if err != nil {
		return "", unwrapPath(err)
	}
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:]), nil
}
