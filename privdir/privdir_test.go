//go:build unix

package privdir

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenChecks is the table of directories Open accepts and refuses:
// writable by group or others (sticky bit or not) is refused, a private or
// merely readable one is used, and a link naming the directory itself is
// followed to a directory that is checked in turn.
func TestOpenChecks(t *testing.T) {
	for _, c := range []struct {
		mode fs.FileMode
		want string // "" means accepted
	}{
		{0o700, ""},
		{0o755, ""},
		{0o711, ""},
		{0o770, "is writable by other users (mode 0770): make it private with chmod go-w "},
		{0o702, "is writable by other users (mode 0702)"},
		{0o777, "is writable by other users (mode 0777)"},
		{0o1777, "is writable by other users (mode 0777)"},
	} {
		dir := filepath.Join(t.TempDir(), "state")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, c.mode); err != nil {
			t.Fatal(err)
		}
		d, err := Open(dir, true)
		if c.want == "" {
			if err != nil {
				t.Errorf("mode %v: %v", c.mode, err)
				continue
			}
			d.Close()
			continue
		}
		var ue *UnsafeError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("mode %v: %v; want %q", c.mode, err, c.want)
		}
	}

	base := t.TempDir()
	real := filepath.Join(base, "real")
	os.Mkdir(real, 0o700)
	link := filepath.Join(base, "link")
	os.Symlink(real, link)
	d, err := Open(link, false)
	if err != nil {
		t.Fatalf("a link to a private directory: %v", err)
	}
	d.Close()
	os.Chmod(real, 0o777)
	if _, err := Open(link, false); err == nil {
		t.Error("a link to a shared directory was accepted")
	}

	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := Open(filepath.Join(file, "state"), true); err == nil || err.Error() != "cannot create "+file+": not a directory; set SHRINKRUN_STATE_DIR to a directory you can write" {
		t.Errorf("under a file: %v", err)
	}
	if _, err := Open(filepath.Join(base, "missing"), false); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing, not created: %v", err)
	}
	created := filepath.Join(base, "a", "b")
	d, err = Open(created, true)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if fi, _ := os.Stat(created); fi.Mode().Perm() != 0o700 {
		t.Errorf("created with mode %v", fi.Mode())
	}
}

// TestEntries: inside a checked directory, links are never followed
// (absolute, relative, out of the directory or within it), nor are files
// that others may write, or that are not regular, used; names are single
// components.
func TestEntries(t *testing.T) {
	base := t.TempDir()
	d, err := Open(filepath.Join(base, "state"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p := func(name string) string { return filepath.Join(d.Path(), name) }
	outside := filepath.Join(base, "outside")
	os.WriteFile(outside, []byte("someone else's\n"), 0o600)
	os.WriteFile(p("plain"), []byte("mine\n"), 0o600)
	os.WriteFile(p("readable"), []byte("mine\n"), 0o644)
	os.WriteFile(p("shared"), []byte("mine\n"), 0o600)
	os.Chmod(p("shared"), 0o666)
	os.Symlink(outside, p("abs-link"))
	os.Symlink("../outside", p("rel-link"))
	os.Symlink("plain", p("inner-link"))
	os.Symlink("missing", p("dangling"))
	syscall.Mkfifo(p("fifo"), 0o600)
	os.Mkdir(p("sub"), 0o700)
	os.Symlink("sub", p("sub-link"))
	os.Mkdir(p("shared-sub"), 0o700)
	os.Chmod(p("shared-sub"), 0o777)

	for _, c := range []struct {
		name string
		flag int
		want string // "" means opened
	}{
		{"plain", os.O_RDONLY, ""},
		{"plain", os.O_WRONLY | os.O_APPEND, ""},
		{"readable", os.O_RDONLY, ""},
		{"shared", os.O_WRONLY | os.O_APPEND, "is writable by other users (mode 0666)"},
		{"abs-link", os.O_WRONLY | os.O_APPEND | os.O_CREATE, "is a symbolic link"},
		{"rel-link", os.O_RDONLY, "is a symbolic link"},
		{"inner-link", os.O_RDONLY, "is a symbolic link"},
		{"dangling", os.O_WRONLY | os.O_CREATE, "is a symbolic link"},
		{"dangling", os.O_WRONLY | os.O_CREATE | os.O_EXCL, "file exists"},
		{"plain", os.O_WRONLY | os.O_CREATE | os.O_EXCL, "exists"},
		{"fifo", os.O_RDONLY | syscall.O_NONBLOCK, "is not a regular file"},
		{"sub", os.O_RDONLY, "is not a regular file"},
		{"..", os.O_RDONLY, "is not a name"},
		{"sub/x", os.O_RDONLY, "is not a name"},
		{"", os.O_RDONLY, "is not a name"},
	} {
		f, err := d.OpenFile(c.name, c.flag, 0o600)
		if c.want == "" {
			if err != nil {
				t.Errorf("OpenFile(%s): %v", c.name, err)
			} else {
				f.Close()
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("OpenFile(%s) = %v; want %q", c.name, err, c.want)
		}
		if f != nil {
			t.Errorf("OpenFile(%s) returned a file with its error", c.name)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "someone else's\n" {
		t.Errorf("the file outside was changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(base, "missing")); err == nil {
		t.Error("a dangling link's target was created")
	}

	for _, c := range []struct{ name, want string }{
		{"sub", ""},
		{"sub-link", "is a symbolic link"},
		{"shared-sub", "is writable by other users"},
		{"plain", "not a directory"},
	} {
		s, err := d.Sub(c.name, false)
		if c.want == "" {
			if err != nil {
				t.Errorf("Sub(%s): %v", c.name, err)
			} else {
				s.Close()
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Sub(%s) = %v; want %q", c.name, err, c.want)
		}
	}

	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(outside, old, old)
	if err := d.Touch("abs-link", time.Now()); err == nil {
		t.Error("Touch through a link succeeded")
	}
	d.Chtimes("abs-link", time.Now())
	if fi, _ := os.Stat(outside); !fi.ModTime().Equal(old) {
		t.Errorf("a link's target was touched: %v", fi.ModTime())
	}
	if err := d.RemoveAll("abs-link"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("RemoveAll of a link removed its target: %v", err)
	}
}

// otherUser returns the uid of a user other than the one running the
// tests, for a process that plays that user: "nobody", or a user created
// with useradd where there is none. Only root can act as another user or
// give it files; the test is skipped otherwise, saying so.
func otherUser(t *testing.T) int {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot act as another user or give it files; run the tests as root to cover this")
	}
	for _, name := range []string{"nobody", "shrinkrun-other"} {
		if u, err := user.Lookup(name); err == nil {
			if uid, err := strconv.Atoi(u.Uid); err == nil && uid != 0 {
				return uid
			}
		}
	}
	if path, err := exec.LookPath("useradd"); err == nil {
		if out, err := exec.Command(path, "--system", "--no-create-home", "shrinkrun-other").CombinedOutput(); err == nil {
			u, err := user.Lookup("shrinkrun-other")
			if err == nil {
				uid, _ := strconv.Atoi(u.Uid)
				return uid
			}
		} else {
			t.Logf("useradd: %v: %s", err, out)
		}
	}
	t.Log("no second user and no useradd: chown to uid 65534 stands in for one")
	return 65534
}

// asUser runs a shell command as uid.
func asUser(t *testing.T, uid int, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("as uid %d: %s: %v: %s", uid, script, err, out)
	}
}

// TestAnotherUser: another user, running as itself, plants a file in a
// shared directory and makes a directory of its own; neither is used.
func TestAnotherUser(t *testing.T) {
	uid := otherUser(t)
	base := t.TempDir()
	// The other user must reach into it.
	os.Chmod(filepath.Dir(base), 0o755)
	os.Chmod(base, 0o755)
	shared := filepath.Join(base, "shared")
	os.Mkdir(shared, 0o700)
	os.Chmod(shared, 0o777)
	asUser(t, uid, "echo planted > "+shared+"/runs.jsonl && mkdir "+base+"/shared/theirs && chmod 700 "+base+"/shared/theirs")
	if _, err := Open(shared, false); err == nil || !strings.Contains(err.Error(), "writable by other users") {
		t.Errorf("Open(shared) = %v", err)
	}
	// Made private again by its owner, what the other user left in it is
	// still refused.
	os.Chmod(shared, 0o700)
	d, err := Open(shared, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	want := "belongs to another user (uid " + strconv.Itoa(uid) + ")"
	if _, err := d.OpenFile("runs.jsonl", os.O_WRONLY|os.O_APPEND, 0); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("another user's file: %v", err)
	}
	if _, err := d.Sub("theirs", false); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("another user's directory: %v", err)
	}
	theirs := filepath.Join(base, "home-of-other")
	os.Mkdir(theirs, 0o700)
	os.Chown(theirs, uid, uid)
	if _, err := Open(theirs, true); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("another user's state directory: %v", err)
	}
}

// TestLock: a shared lock keeps an exclusive one out, in this process as
// in another, until it is released; no clock is involved.
func TestLock(t *testing.T) {
	d, err := Open(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	release, err := d.Lock(false, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Lock(true, false); err != ErrLocked {
		t.Errorf("exclusive over shared: %v, want ErrLocked", err)
	}
	if r2, err := d.Lock(false, false); err != nil {
		t.Errorf("shared over shared: %v", err)
	} else {
		r2()
	}
	if path, err := exec.LookPath("flock"); err == nil {
		if err := exec.Command(path, "--nonblock", "--exclusive", d.Path(), "true").Run(); err == nil {
			t.Error("another process took an exclusive lock over ours")
		}
	}
	release()
	r3, err := d.Lock(true, false)
	if err != nil {
		t.Errorf("exclusive after release: %v", err)
	} else {
		r3()
	}
}
