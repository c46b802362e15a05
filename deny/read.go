package deny

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// The bounds on what is read. A settings or rules file is a few kilobytes;
// the files come from places others may write (a cloned repository's
// .claude, .codex and .gemini), so nothing about them may make a read
// stall or grow: a file linked to /dev/zero, a FIFO no one writes, a
// directory of a million entries.
const (
	// MaxFile is the largest file read.
	MaxFile = 1 << 20
	// MaxEntries is the most entries a directory of rules files may hold.
	MaxEntries = 4096
)

// ReadFile reads a settings or rules file. A symbolic link is followed
// (dotfiles link settings files), but what it opens must be a regular file
// of at most MaxFile bytes: anything else is an error, read no further. It
// is opened without blocking, so a FIFO is refused rather than waited on.
// A missing file is an error that matches fs.ErrNotExist.
func ReadFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, kind(st.Mode()))
	}
	if st.Size() > MaxFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, MaxFile)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, MaxFile)
	}
	return data, nil
}

// kind names a file mode's type for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return m.Type().String()
}

// readDir reads dir's entries, of which a cloned repository may hold any
// number: more than MaxEntries is an error. A missing directory, or a
// path through a file, has none.
func readDir(dir string) ([]fs.DirEntry, error) {
	d, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(MaxEntries + 1)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(entries) > MaxEntries {
		return nil, fmt.Errorf("%s holds more than %d entries", dir, MaxEntries)
	}
	return entries, nil
}

// ListFiles lists the regular files in dir whose names end in suffix,
// sorted, as Codex and Gemini CLI load their rules and policies: an entry
// that is a symbolic link, a FIFO or anything else but a regular file is
// not one (Codex skips it too). A missing directory lists nothing; one of
// more than MaxEntries entries is an error.
func ListFiles(dir, suffix string) ([]string, error) {
	entries, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), suffix) {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(files)
	return files, nil
}
