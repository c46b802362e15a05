//go:build unix

package layers

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNoHang: a FIFO where a rule file or a rules directory would be (a
// repository unpacked from an archive can hold one) is refused without
// being opened for reading, which would wait for a writer for ever; a
// rules directory that is a link is not followed. Seen before the fix:
// shrinkrun -- echo hi never returned in such a repository.
func TestNoHang(t *testing.T) {
	w := newWorld(t)
	write(t, filepath.Join(w.project, "good.toml"), rule)
	if err := syscall.Mkfifo(filepath.Join(w.project, "fifo.toml"), 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if err := syscall.Mkfifo(filepath.Join(w.user, "fifo.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Pinned, so that Find reads it (an untrusted file is not read).
	if err := (Trust{filepath.Join(w.project, "fifo.toml"): strings.Repeat("0", 64)}).Write(w.state); err != nil {
		t.Fatal(err)
	}
	done := make(chan Set, 1)
	go func() { done <- w.find(t) }()
	var s Set
	select {
	case s = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Find hangs on a FIFO named like a rule file")
	}
	for _, f := range s.Files {
		if filepath.Base(f.Path) == "fifo.toml" && (f.State != NotLoaded || !strings.Contains(f.Problem(), "not a regular file")) {
			t.Errorf("%s: %v %q", f.Path, f.State, f.Problem())
		}
	}

	// The rules directory itself a FIFO, then a link to a directory.
	os.RemoveAll(w.project)
	if err := syscall.Mkfifo(w.project, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() { done <- w.find(t) }()
	select {
	case s = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Find hangs on a FIFO named like the rules directory")
	}
	if len(s.Files) == 0 || s.Files[0].State != NotLoaded || !strings.Contains(s.Files[0].Problem(), "is not a directory") {
		t.Errorf("a FIFO for the rules directory: %+v", s.Files)
	}
	os.Remove(w.project)
	elsewhere := filepath.Join(filepath.Dir(w.repo), "elsewhere")
	os.MkdirAll(elsewhere, 0o755)
	write(t, filepath.Join(elsewhere, "x.toml"), rule)
	if err := os.Symlink(elsewhere, w.project); err != nil {
		t.Fatal(err)
	}
	s = w.find(t)
	if len(s.Files) == 0 || s.Files[0].State != NotLoaded || !strings.Contains(s.Files[0].Problem(), "symbolic link") {
		t.Errorf("a link for the rules directory: %+v", s.Files)
	}
}
