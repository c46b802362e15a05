package layers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shrinkrun/shrinkrun/privdir"
)

// Trust maps the path of each project rule file the user trusted to the
// SHA-256 (hex) of the content trusted: the file applies while its bytes
// hash to it.
type Trust map[string]string

// TrustFile is the trust store's name in the state directory: one line per
// trusted file, its hash, two spaces and its path, as sha256sum prints
// them.
const TrustFile = "trusted-rules"

// maxTrustBytes bounds the trust store read.
const maxTrustBytes = 1 << 20

// ReadTrust reads the trust store of the state directory (package privdir
// checked it is the user's alone, and refuses a link or a file others can
// write in it). A missing store trusts nothing.
func ReadTrust(state *privdir.Dir) (Trust, error) {
	t := Trust{}
	data, err := readFile(state, TrustFile, filepath.Join(state.Path(), TrustFile), "a trust store", maxTrustBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return t, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		hash, path, ok := strings.Cut(sc.Text(), "  ")
		if ok && len(hash) == 64 && filepath.IsAbs(path) {
			t[path] = hash
		}
	}
	return t, nil
}

// Write replaces the trust store with t: written to a new file, then
// renamed over the old one, so a reader sees one or the other whole.
func (t Trust) Write(state *privdir.Dir) error {
	paths := make([]string, 0, len(t))
	for p := range t {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, "%s  %s\n", t[p], p)
	}
	f, name, err := state.CreateTemp(".trusted-rules-")
	if err != nil {
		return err
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = state.Rename(name, TrustFile)
	}
	if err != nil {
		state.Remove(name)
	}
	return err
}

// Noticed reports whether the notice key is new to the state directory,
// and remembers it: a problem with a rule file is said once on stderr,
// not on every command (shrinkrun rules list and doctor say it every
// time). It reports true when it cannot tell, so a notice is never lost.
func Noticed(state *privdir.Dir, key string) bool {
	if state == nil {
		return true
	}
	d, err := state.Sub("notices", true)
	if err != nil {
		return true
	}
	defer d.Close()
	f, err := d.OpenFile(noticeName(key), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return !errors.Is(err, fs.ErrExist)
	}
	f.Close()
	return true
}
