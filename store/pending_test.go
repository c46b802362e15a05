package store

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/shrinkrun/shrinkrun/privdir"
)

// TestPending checks that a Pending entry touches the disk only when it is
// first written or committed, and then keeps the same bytes Create does.
func TestPending(t *testing.T) {
	dir := openState(t, filepath.Join(t.TempDir(), "state"))
	opened := 0
	state := func() (*privdir.Dir, error) { opened++; return dir, nil }
	m := Meta{Command: "git status", ExitCode: 0, Exited: true}

	p := CreateLater(state, DefaultMaxBytes)
	if opened != 0 || len(names(t, dir)) != 0 {
		t.Fatalf("CreateLater touched the store: %d opens, %v", opened, names(t, dir))
	}
	p.Stderr().Write([]byte("warning\n"))
	p.Stdout().Write([]byte("out\n"))
	id, err := p.Commit(m)
	p.Close()
	if err != nil {
		t.Fatal(err)
	}
	if opened != 1 {
		t.Errorf("state opened %d times, want once", opened)
	}
	if want := save(t, dir, m, "out\n", "warning\n"); id != want {
		t.Errorf("Pending kept %s, Create %s", id, want)
	}
	if got := read(t, dir, id, Stdout) + read(t, dir, id, Stderr); got != "out\nwarning\n" {
		t.Errorf("kept %q", got)
	}

	// No output at all: Commit creates the entry.
	p = CreateLater(state, DefaultMaxBytes)
	id, err = p.Commit(m)
	p.Close()
	if err != nil || read(t, dir, id, Stdout) != "" {
		t.Fatalf("empty output: id %q, err %v", id, err)
	}

	// A state directory that cannot be used: writes are dropped, Commit
	// says why, Close is safe.
	refused := errors.New("unsafe state directory")
	p = CreateLater(func() (*privdir.Dir, error) { return nil, refused }, DefaultMaxBytes)
	if n, err := p.Stdout().Write([]byte("x")); n != 1 || err != nil {
		t.Errorf("Write = %d, %v; want 1, nil", n, err)
	}
	if _, err := p.Commit(m); !errors.Is(err, refused) {
		t.Errorf("Commit = %v, want %v", err, refused)
	}
	p.Close()

	// Closed unused: nothing created.
	before := len(names(t, dir))
	p = CreateLater(state, DefaultMaxBytes)
	p.Close()
	if after := len(names(t, dir)); after != before {
		t.Errorf("an unused Pending left %d entries behind", after-before)
	}
}
