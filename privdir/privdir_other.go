//go:build !unix

package privdir

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
)

// noFollow is never used here: Open refuses every directory first.
const noFollow = 0

// Supported reports why this system cannot keep the package's guarantees:
// it has no open flag that refuses a symbolic link (O_NOFOLLOW), no owner
// of a file to check, and no flock(2). Open then refuses every directory,
// and shrinkrun passes every command through (doctor says why).
func Supported() error {
	return &UnsupportedError{GOOS: runtime.GOOS}
}

// UnsupportedError is a system where a directory cannot be opened safely.
type UnsupportedError struct{ GOOS string }

func (e *UnsupportedError) Error() string {
	return e.GOOS + " has no O_NOFOLLOW, no file owner to check and no flock: shrinkrun cannot keep raw output where only you can change it"
}

func owner(fs.FileInfo) (int, bool) { return 0, false }

func flock(*os.File, bool, bool) error { return errors.ErrUnsupported }
