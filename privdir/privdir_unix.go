//go:build unix

package privdir

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// noFollow makes an open fail on a symbolic link instead of following it.
const noFollow = syscall.O_NOFOLLOW

// Supported reports why this system cannot keep the package's guarantees:
// on a Unix system it can.
func Supported() error { return nil }

// owner is the uid that owns the file.
func owner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// flock takes an flock(2) lock on f, shared or exclusive, and without wait
// answers ErrLocked at once when it would block.
func flock(f *os.File, exclusive, wait bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if !wait {
		how |= syscall.LOCK_NB
	}
	rc, err := f.SyscallConn()
	if err == nil {
		cerr := rc.Control(func(fd uintptr) {
			for {
				if err = syscall.Flock(int(fd), how); err != syscall.EINTR {
					return
				}
			}
		})
		err = errors.Join(err, cerr)
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}
