//go:build unix

package deny

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "a.rules")
	os.WriteFile(regular, []byte("x"), 0o644)
	os.Symlink(regular, filepath.Join(dir, "link.rules"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.rules"))
	syscall.Mkfifo(filepath.Join(dir, "fifo.rules"), 0o644)
	big, _ := os.Create(filepath.Join(dir, "big.rules"))
	big.Truncate(MaxFile + 1)
	big.Close()
	for name, want := range map[string]string{
		"a.rules":    "",
		"link.rules": "", // a link to a regular file is followed
		"zero.rules": "not a regular file (a device)",
		"fifo.rules": "not a regular file (a FIFO)",
		"big.rules":  "larger than",
		"none.rules": "no such file",
	} {
		data, err := ReadFile(filepath.Join(dir, name))
		switch {
		case want == "" && (err != nil || string(data) != "x"):
			t.Errorf("%s: %q, %v", name, data, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want one saying %q", name, err, want)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
	files, err := ListFiles(dir, ".rules")
	if want := []string{filepath.Join(dir, "a.rules"), filepath.Join(dir, "big.rules")}; err != nil || !slices.Equal(files, want) {
		t.Errorf("ListFiles = %q, %v; want only the regular files %q", files, err, want)
	}
	if files, err := ListFiles(filepath.Join(dir, "missing"), ".rules"); files != nil || err != nil {
		t.Errorf("a missing directory: %q, %v", files, err)
	}
	many := t.TempDir()
	for i := range MaxEntries + 1 {
		os.WriteFile(filepath.Join(many, strconv.Itoa(i)), nil, 0o644)
	}
	if _, err := ListFiles(many, ".rules"); err == nil {
		t.Errorf("a directory of %d entries was listed", MaxEntries+1)
	}
}
